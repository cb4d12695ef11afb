#!/usr/bin/env bash
# Builds the litmus runner (host and device code) from a few generated tests and lists them.
# usage: validate/check-runner.sh ARCH TEST.cu...   (no GPU needed: --list touches no device)
# Exit 0 when it builds and lists every test, 1 otherwise, 77 when nvcc is absent.
set -uo pipefail
arch=${1:?ARCH}
shift
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
nvcc=${NVCC:-}
if [ -z "$nvcc" ]; then nvcc=$(command -v nvcc || true); fi
if [ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ]; then nvcc=/usr/local/cuda/bin/nvcc; fi
if [ -z "$nvcc" ]; then
    echo "SKIPPED: nvcc not found (\$NVCC, PATH, /usr/local/cuda/bin): runner not built"
    exit 77
fi
num=${arch#sm_}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if ! "$nvcc" -std=c++17 "-gencode=arch=compute_${num},code=sm_${num}" -I"$here/harness" \
    -diag-suppress=550,177 -o "$work/litmus-runner" "$here/harness/runner.cu" "$@" \
    >"$work/build.log" 2>&1; then
    cat "$work/build.log"
    echo "the runner does not build"
    exit 1
fi
"$work/litmus-runner" --list >"$work/list.txt" || {
    echo "litmus-runner --list failed"
    exit 1
}
cat "$work/list.txt"
# ptxas must not serialize the wgmmas of these kernels (C7520, C7511: validate/README.md)
if grep -E "C75(11|20)" "$work/build.log"; then
    echo "ptxas serialized the wgmmas of a kernel above: a missing wait could not show"
    exit 1
fi
listed=$(wc -l <"$work/list.txt")
if [ "$listed" -ne $# ]; then
    echo "expected $# tests, listed $listed"
    exit 1
fi
# With no GPU the runner must fail cleanly (status 1), not crash or hang.
if ! nvidia-smi >/dev/null 2>&1; then
    timeout 60 "$work/litmus-runner" --out "$work/out" --seconds 0.1 >/dev/null 2>"$work/err.txt"
    status=$?
    if [ $status -ne 1 ]; then
        cat "$work/err.txt"
        echo "without a GPU the runner should exit 1, got $status"
        exit 1
    fi
fi
echo "runner built for $arch with $listed tests"
