#!/usr/bin/env bash
# ptxmc kernel on every acceptance kernel and mutant (tests/kernel/answers.txt), and the slow
# launches kept out of ctest: time, peak memory and the violated properties, side by side.
# Usage: bench/kernels.sh [BUILD_DIR]   (the PTX comes from BUILD_DIR/tests/kernel)
#   READINGS=1 also checks the scale issue's 2-SM and FA4-like launches with --readings, each
#   next to its default-reading line (issue 49: --readings at most 2x).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
ptxmc=$build/ptxmc
dir=$build/tests/kernel
json=$(mktemp)
trap 'rm -f "$json"' EXIT
run() { # NAME OPTIONS...
    local name=$1
    shift
    local out
    # A violated property exits non-zero: the table, not the status, reports it.
    out=$( { /usr/bin/time -f "%e %M" "$ptxmc" kernel --format json "$@" "$dir/$name.ptx" \
        > "$json" || true; } 2>&1 | tail -1)
    local props
    # No violated property is no error: grep's status would stop the script under pipefail.
    props=$({ grep -o '"[a-z0-9-]*": "violated"' "$json" || true; } |
        cut -d'"' -f2 | paste -sd, -)
    printf '%-44s %-44s %8s %8s  %s\n' "$name" "$*" "$(echo "$out" | cut -d' ' -f1)" \
        "$(( $(echo "$out" | cut -d' ' -f2) / 1024 ))" "${props:-clean}"
}
printf '%-44s %-44s %8s %8s  %s\n' kernel options s MiB violated
grep -v '^#' "$root/tests/kernel/answers.txt" | while IFS='|' read -r name options _; do
    name=$(echo "$name" | xargs)
    # shellcheck disable=SC2086
    [ -f "$dir/$name.ptx" ] && run "$name" $options
done
echo "slow launches (not in ctest):"
b="--param 5=1 --param 3=128"
# shellcheck disable=SC2086
run blackwell-umma-1sm--no-acc-empty-wait --param 4=64 --param 6=3 $b
# shellcheck disable=SC2086
run blackwell-umma-1sm--no-empty-wait --param 4=128 --param 6=2 $b
# shellcheck disable=SC2086
run blackwell-umma-1sm--wrong-parity --param 4=64 --param 6=3 $b
# shellcheck disable=SC2086
run blackwell-umma-1sm --param 4=128 --param 6=3 $b
# the scale issue's 2-SM target (also tests/cli/kernel/scale/2sm-k128-two-tiles.cli)
# shellcheck disable=SC2086
run blackwell-umma-2sm --cluster 2 --param 4=128 --param 6=2 $b
if [ "${READINGS:-0}" = 1 ]; then
    echo "--readings next to the default reading:"
    for readings in "" --readings; do
        # shellcheck disable=SC2086 # $b and an empty $readings: words, or none
        run blackwell-umma-2sm --cluster 2 --param 4=128 --param 6=2 $b $readings
    done
    for readings in "" --readings; do
        # shellcheck disable=SC2086
        run blackwell-fa4-tiles --param 4=2 --param 7=2 $readings
    done
fi
# The scale issue's bounded instance of a warp-specialized GEMM: the 1-SM kernel with 6 stages
# (compiled here with -DPTXMC_STAGES=6), 2 tiles x 8 k-blocks, every role.
echo "scale instance (6 stages, 2 tiles x 8 k-blocks):"
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
scale=$(mktemp -d)
trap 'rm -rf "$json" "$scale"' EXIT
if "$nvcc" -arch=sm_100a -ptx -lineinfo -O3 -DPTXMC_STAGES=6 \
    "$root/tests/kernel/blackwell_umma_1sm.cu" -o "$scale/blackwell-umma-1sm-6-stages.ptx"; then
    dir=$scale
    # shellcheck disable=SC2086
    run blackwell-umma-1sm-6-stages --param 4=256 --param 6=2 $b
else
    echo "  (nvcc could not compile it for sm_100a)"
fi
