#!/usr/bin/env bash
# malloc on 4 KiB pages against ptxmc's restart on transparent huge pages (app/cli/HugePages.cpp),
# side by side: wall seconds, page faults and peak memory of the same command under each.
# Usage: bench/hugepages.sh [BUILD_DIR] [-- PTXMC_ARGS...]
#   Runs a small-test folder, the TMA-UMMA ring 2x24, two acceptance kernels (their PTX from
#   BUILD_DIR/tests/kernel) and, after --, one command line of your own (a library kernel's).
#   REPEAT=N runs each command N times under each setting (default 2), alternating.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
if [ $# -gt 0 ] && [ "$1" != -- ]; then build=$1; shift; fi
[ "${1:-}" != -- ] || shift
ptxmc=$build/ptxmc
kernels=$build/tests/kernel
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$root"
echo "THP: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo none);" \
    "glibc $(ldd --version | head -1 | awk '{print $NF}'); $(nproc) cores;" \
    "commit $(git rev-parse --short HEAD)$(git diff --quiet || echo ' (modified)')"

# once TUNABLES ARGS...: "seconds faults MiB" of one run of ptxmc ARGS (its exit status ignored:
# a flag is a non-zero status)
once() {
    local tunables=$1
    shift
    GLIBC_TUNABLES=$tunables /usr/bin/time -o "$work/time" -f "%e %R %M" "$ptxmc" "$@" \
        >/dev/null 2>&1 || true
    tail -1 "$work/time" | awk '{printf "%s %s %d", $1, $2, $3 / 1024}'
}

# row NAME ARGS...: each setting REPEAT times, alternating; the figures of every run
row() {
    local name=$1 small="" huge=""
    shift
    for _ in $(seq "${REPEAT:-2}"); do
        small="$small$(once glibc.malloc.hugetlb=0 "$@") | "
        huge="$huge$(once "" "$@") | "
    done
    printf '%-42s 4 KiB: %s\n%-42s huge:  %s\n' "$name" "${small% | }" "" "${huge% | }"
}

echo "each run: seconds, page faults, peak MiB"
python3 bench/protocols/umma.py 2 24 >"$work/umma-2x24.litmus"
row "check litmus/async (small tests)" check litmus/async
row "check ring 2x24" check "$work/umma-2x24.litmus"
row "kernel hopper-tma-wgmma--drop-full-wait" kernel --param 3=256 \
    "$kernels/hopper-tma-wgmma--drop-full-wait.ptx"
row "kernel blackwell-fa4-like--online-softmax" kernel --param 4=2 --param 5=1065353216 \
    "$kernels/blackwell-fa4-like--online-softmax.ptx"
[ $# -eq 0 ] || row "your command" "$@"
