#!/usr/bin/env bash
# Builds the litmus runner from generated kernels on a GPU machine and runs them.
# usage: bash validate/run-h100.sh [RUN_SECONDS] [SEED] [KERNELS]
#   RUN_SECONDS (default 300) is shared by all tests; the build adds about a minute.
#   KERNELS (default validate/generated/sm_90a): a folder of kernels `ptxmc gen-cuda` wrote for
#   sm_90a, e.g. your own tests: ptxmc gen-cuda --arch sm_90a -o mine my-tests/, then mine/sm_90a.
#   Results go to $OUT (default ./out): results.json, results.txt, run.log, gpu.txt, sass.txt.gz.
# Needs CUDA (nvcc), CMake and a GPU; no Z3, Boost or CLI11 (ptxmc is not built here).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=${OUT:-$PWD/out}
total=${1:-300}
seed=${2:-20261121}
kernels=$(cd "${3:-validate/generated/sm_90a}" && pwd)
ls "$kernels"/*.cu >/dev/null 2>&1 || { echo "no .cu kernels in $kernels" >&2; exit 2; }
build=${LITMUS_BUILD:-/tmp/litmus-runner-build}
mkdir -p "$out"
exec > >(tee -a "$out/run.log") 2>&1
start=$(date +%s)
echo "== $(date -u +%FT%TZ): litmus runner, $total s of runs, seed $seed"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem \
    --format=csv | tee "$out/gpu.txt" || true
driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -1 || true)
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
"$nvcc" --version | tail -2
generator=()
if command -v ninja >/dev/null; then generator=(-G Ninja); fi
cmake -S validate/harness -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CUDA_COMPILER="$nvcc" -DLITMUS_TESTS="$kernels" \
    -DLITMUS_ARCH=sm_90a >/dev/null
cmake --build "$build" -j "$(nproc)" >"$build/build.log" 2>&1 || {
    tail -50 "$build/build.log"
    exit 1
}
echo "== built $("$build/litmus-runner" --list | wc -l) tests in $(($(date +%s) - start)) s"
# ptxas serializes a kernel's wgmmas (C7520: it had to insert a wgmma.fence on a divergent path,
# as where the test leaves one out; C7511: too few registers for the wgmma pipeline): such a
# kernel cannot show a missing wgmma.wait_group. run.log names them, with the backlog placement
# of the instance (run<N>, validate/README.md).
grep -oE "\((C7511|C7520)\).*function '[^']*'" "$build/build.log" |
    sed -E "s/^\((C75[0-9]+)\).*_ZN[0-9]+(lt_[A-Za-z0-9_]+)3run(ILj([0-9])E)?.*/\2 run<\4> \1/" |
    sort -u | sed 's/^/== ptxas serialized the wgmmas of /' || true
# The histograms go to results.txt; the console gets one progress line per test.
LITMUS_DRIVER_VERSION="driver ${driver:-unknown}" "$build/litmus-runner" \
    --total-seconds "$total" --seed "$seed" --hang-seconds 30 --out "$out" \
    --work /tmp/litmus-parts >/dev/null
# Compiler reordering check (as the ASPLOS'15 study did): the SASS of every test kernel.
if command -v cuobjdump >/dev/null; then
    cuobjdump -sass "$build/litmus-runner" | gzip -9 >"$out/sass.txt.gz" || true
fi
echo "== done in $(($(date +%s) - start)) s; results in $out"
