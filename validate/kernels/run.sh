#!/usr/bin/env bash
# On an H100/H200: build the Hopper GEMM and every mutant, run each many times against a CPU reference, then compute-sanitizer racecheck and synccheck once each.
# Usage: validate/kernels/run.sh OUTDIR [ITERATIONS] [SEED] [K]
#   env: BIN=DIR keeps the binaries there; SANITIZER=0 skips compute-sanitizer.
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: run.sh OUTDIR [ITERATIONS] [SEED]}
iters=${2:-5000}
seed=${3:-12345}
k=${4:-512}
mkdir -p "$out"
nvcc=${CUDA_NVCC:-/usr/local/cuda/bin/nvcc}
san=${COMPUTE_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
bin=${BIN:-$(mktemp -d)}
mkdir -p "$bin"
mutants="0 1 2 3 4 5 6 7 8"

{
  echo "date: $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  "$nvcc" --version | tail -2
  "$san" --version | head -2
} >"$out/info.txt" 2>&1

# Build all variants in parallel (one nvcc per mutant).
for m in $mutants; do
  "$nvcc" -gencode=arch=compute_90a,code=sm_90a -O3 -lineinfo -DPTXMC_WATCHDOG -DPTXMC_MUTANT=$m \
    "$here/hopper_gemm_host.cu" -lcuda -o "$bin/hopper_gemm_$m" >"$bin/build_$m.log" 2>&1 &
done
wait
for m in $mutants; do
  if [ ! -x "$bin/hopper_gemm_$m" ]; then echo "BUILD FAILED mutant=$m"; cat "$bin/build_$m.log"; fi
done >>"$out/info.txt"
command -v cuobjdump >/dev/null &&
  echo "SASS of the correct kernel: $(cuobjdump -sass "$bin/hopper_gemm_0" | grep -c HGMMA) HGMMA, $(cuobjdump -sass "$bin/hopper_gemm_0" | grep -c UTMALDG) UTMALDG, $(cuobjdump -sass "$bin/hopper_gemm_0" | grep -c UTMASTG) UTMASTG" >>"$out/info.txt"

# 1. Many launches per variant, one at a time (timing matters), 30 s budget each.
for m in $mutants; do
  timeout 90 "$bin/hopper_gemm_$m" "$iters" "$seed" 512 512 "$k" 20 || echo "RESULT mutant=$m status=exit-$?"
done >"$out/runs.txt" 2>&1

if [ "${SANITIZER:-1}" = 0 ]; then cat "$out/info.txt" "$out/runs.txt"; exit 0; fi

# 2. compute-sanitizer: one short run (2 launches, 128x128x512) per variant and tool, in parallel.
for tool in racecheck synccheck; do
  for m in $mutants; do
    (timeout 120 "$san" --tool $tool --print-limit 20 "$bin/hopper_gemm_$m" 2 "$seed" 128 128 512 60 \
      >"$bin/$tool.$m.log" 2>&1; echo "EXIT $?" >>"$bin/$tool.$m.log") &
  done
  wait
done
for tool in racecheck synccheck; do
  for m in $mutants; do
    echo "===== $tool mutant=$m"
    cat "$bin/$tool.$m.log"
  done
done >"$out/sanitizer.txt"
# One line per variant and tool: the summary lines and the exit status.
for tool in racecheck synccheck; do
  for m in $mutants; do
    echo "$tool mutant=$m: $(grep -E 'SUMMARY|RESULT|EXIT' "$bin/$tool.$m.log" | tr '\n' ' ')"
  done
done >"$out/sanitizer-summary.txt"
cat "$out/info.txt" "$out/runs.txt" "$out/sanitizer-summary.txt"
