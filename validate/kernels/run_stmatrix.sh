#!/usr/bin/env bash
# On an H100/H200: the stmatrix epilogue and its mutants, many launches each, then compute-sanitizer racecheck and synccheck once each.
# Usage: validate/kernels/run_stmatrix.sh OUTDIR [ITERATIONS] [SEED] [CTAS]
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: run_stmatrix.sh OUTDIR [ITERATIONS] [SEED] [CTAS]}
iters=${2:-20000}
seed=${3:-2026}
ctas=${4:-264}
mkdir -p "$out"
nvcc=${CUDA_NVCC:-/usr/local/cuda/bin/nvcc}
san=${COMPUTE_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
bin=$(mktemp -d)
mutants="0 1 2"
{
  echo "date: $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  "$nvcc" --version | tail -2
} >"$out/stmatrix-info.txt" 2>&1
for m in $mutants; do
  "$nvcc" -gencode=arch=compute_90a,code=sm_90a -O3 -lineinfo -DPTXMC_MUTANT=$m \
    "$here/stmatrix_host.cu" -lcuda -o "$bin/stmatrix_$m" >"$bin/build_$m.log" 2>&1 &
done
wait
for m in $mutants; do
  [ -x "$bin/stmatrix_$m" ] || { echo "BUILD FAILED mutant=$m"; cat "$bin/build_$m.log"; }
done >>"$out/stmatrix-info.txt"
for m in $mutants; do
  timeout 60 "$bin/stmatrix_$m" "$iters" "$seed" "$ctas" 40 || echo "RESULT mutant=$m status=exit-$?"
done >"$out/stmatrix-runs.txt" 2>&1
for tool in racecheck synccheck; do
  for m in $mutants; do
    echo "===== $tool mutant=$m"
    timeout 120 "$san" --tool $tool --print-limit 10 "$bin/stmatrix_$m" 2 "$seed" 8 60 2>&1 | tail -15
  done
done >"$out/stmatrix-sanitizer.txt" 2>&1
cat "$out/stmatrix-info.txt" "$out/stmatrix-runs.txt"
grep -E "=====|ERROR SUMMARY|RACECHECK SUMMARY|hazard|RESULT" "$out/stmatrix-sanitizer.txt"
