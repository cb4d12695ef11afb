#!/usr/bin/env bash
# Compiles generated litmus kernels to cubins (nvcc + ptxas, device code only) in parallel batches.
# usage: validate/check-compile.sh ARCH DIR [BATCHES]   ARCH = sm_90a | sm_100a
# Exit 0 when ptxas accepts every kernel, 1 when one is rejected, 77 when nvcc is absent.
set -uo pipefail
arch=${1:?ARCH (sm_90a or sm_100a)}
dir=${2:?folder of generated .cu files}
batches=${3:-2}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

nvcc=${NVCC:-}
if [ -z "$nvcc" ]; then nvcc=$(command -v nvcc || true); fi
if [ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ]; then nvcc=/usr/local/cuda/bin/nvcc; fi
if [ -z "$nvcc" ]; then
    echo "SKIPPED: nvcc not found (\$NVCC, PATH, /usr/local/cuda/bin): no ptxas check"
    exit 77
fi

shopt -s nullglob
files=("$dir"/*.cu)
if [ ${#files[@]} -eq 0 ]; then
    echo "no .cu files in $dir"
    exit 1
fi
num=${arch#sm_}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# LITMUS_NO_BACKLOG: wgmma kernels without harness 4's dummy mmas, which are the same code in
# every test and make ptxas several times slower; validate/runner-builds compiles them.
flags=(-std=c++17 -cubin "-gencode=arch=compute_${num},code=sm_${num}" -I"$here/harness"
    -I"$dir" -diag-suppress=550,177 -DLITMUS_NO_BACKLOG)

# One translation unit per batch: each test lives in its own namespace, so a batch is simply
# the files #included one after the other (nvcc starts once per batch, not once per test).
for ((b = 0; b < batches; b++)); do : >"$work/batch$b.cu"; done
for i in "${!files[@]}"; do
    echo "#include \"$(realpath "${files[$i]}")\"" >>"$work/batch$((i % batches)).cu"
done
start=$(date +%s)
pids=()
for ((b = 0; b < batches; b++)); do
    "$nvcc" "${flags[@]}" -o "$work/batch$b.cubin" "$work/batch$b.cu" >"$work/batch$b.log" 2>&1 &
    pids+=($!)
done
failed=0
for b in "${!pids[@]}"; do
    if ! wait "${pids[$b]}"; then
        failed=1
        echo "batch $b failed; finding the kernels ptxas rejects:"
        grep -h '#include' "$work/batch$b.cu" | sed 's/#include "\(.*\)"/\1/' | while read -r f; do
            if ! "$nvcc" "${flags[@]}" -o "$work/one.cubin" "$f" >"$work/one.log" 2>&1; then
                echo "  $f"
                sed 's/^/    /' "$work/one.log" | head -20
            fi
        done
    fi
done
end=$(date +%s)
if [ $failed -ne 0 ]; then
    echo "ptxas rejected some $arch kernels (see above)"
    exit 1
fi
echo "ptxas accepted all ${#files[@]} $arch kernels ($nvcc, $batches batches, $((end - start)) s)"
