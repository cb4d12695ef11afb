#!/usr/bin/env bash
# Compiles every acceptance kernel and mutant of kernels.txt to OUTDIR/NAME.ptx (nvcc -ptx -lineinfo -O3) and checks each with ptxas.
# Usage: tests/kernel/compile.sh OUTDIR   (CUDA_NVCC / CUDA_PTXAS override the tools)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: compile.sh OUTDIR}
nvcc=${CUDA_NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ptxas=${CUDA_PTXAS:-$(dirname "$nvcc")/ptxas}
mkdir -p "$out"
status=0
while read -r name source arch mutant; do
  case "$name" in '' | '#'*) continue ;; esac
  if ! "$nvcc" -arch="$arch" -ptx -lineinfo -O3 -DPTXMC_MUTANT="$mutant" \
      "$here/$source" -o "$out/$name.ptx"; then
    echo "FAIL nvcc  $name"; status=1; continue
  fi
  if ! "$ptxas" -arch="$arch" "$out/$name.ptx" -o /dev/null; then
    echo "FAIL ptxas $name"; status=1; continue
  fi
  echo "ok   $name ($(wc -l <"$out/$name.ptx") lines)"
done <"$here/kernels.txt"
exit $status
