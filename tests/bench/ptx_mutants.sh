#!/usr/bin/env bash
# bench/ptx-mutant.py's three mutants of a clean kernel are each caught by ptxmc kernel, and a
# wait or fence that is not there is refused (exit 2).
# Usage: tests/bench/ptx_mutants.sh PTXMC PYTHON3 SOURCE_DIR WORK_DIR
set -euo pipefail
ptxmc=$1 python=$2 src=$3 work=$4
mkdir -p "$work"
kernel=$src/tests/kernel/branches/data-rescale.ptx # clean with --param 2=1 (data-rescale-clean.cli)
mutant() { "$python" "$src/bench/ptx-mutant.py" "$@"; }
expect() { # NAME FLAG: the mutant NAME is caught with FLAG
    local status=0 out
    out=$("$ptxmc" kernel --param 2=1 "$work/$1.ptx" 2>&1) || status=$?
    if [ "$status" != 1 ] || ! grep -qE "^  $2 +VIOLATED" <<<"$out"; then
        echo "$1: expected exit 1 with $2 violated, got exit $status:"
        echo "$out"
        exit 1
    fi
}
"$ptxmc" kernel --param 2=1 "$kernel" >/dev/null # the original is clean (exit 0)
mutant drop-wait 1 rescale "$kernel" "$work/drop-wait.ptx"
expect drop-wait data-race
mutant flip-parity 1 rescale "$kernel" "$work/flip-parity.ptx"
expect flip-parity data-race
mutant drop:fence.proxy.async 1 rescale "$kernel" "$work/drop-fence.ptx"
expect drop-fence data-race
status=0
mutant drop-wait 9 rescale "$kernel" "$work/none.ptx" 2>/dev/null || status=$?
[ "$status" = 2 ] || { echo "a ninth wait: expected exit 2, got $status"; exit 1; }
echo "ptx-mutant: three mutants caught"
