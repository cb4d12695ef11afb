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
# A wait on a parity register after a probe of the same barrier and register (CUTLASS's
# consumer_try_wait, then consumer_wait(token)): the probe reads the flipped parity too, so the
# pair still reads as probe-then-wait (exit 0 or 1; flipping the wait alone made the front end
# refuse the pair, exit 2), and the register itself is left as it was.
sed -e 's/\], 0;/], %r5;/' -e 's/^\(\s*\)mov.u32\s*%r2, bar;/\1mov.u32 %r5, 0;\n&/' \
    "$src/tests/kernel/branches/probe-then-wait.ptx" >"$work/token-register.ptx"
grep -q 'mov.u32 %r5, 0;' "$work/token-register.ptx" || { echo "token-register: no parity"; exit 1; }
mutant flip-parity 2 token "$work/token-register.ptx" "$work/token-flipped.ptx"
[ "$(grep -c 'try_wait.*%mutant_parity;' "$work/token-flipped.ptx")" = 2 ] &&
    grep -q 'xor.b32 %mutant_parity, %r5, 1;' "$work/token-flipped.ptx" ||
    { echo "flip-parity: the probe and the wait do not both read the flip:"; cat "$work/token-flipped.ptx"; exit 1; }
status=0
"$ptxmc" kernel "$work/token-flipped.ptx" >"$work/token-flipped.out" 2>&1 || status=$?
[ "$status" != 2 ] || { echo "flipped pair refused:"; cat "$work/token-flipped.out"; exit 1; }
status=0
mutant drop-wait 9 rescale "$kernel" "$work/none.ptx" 2>/dev/null || status=$?
[ "$status" = 2 ] || { echo "a ninth wait: expected exit 2, got $status"; exit 1; }
echo "ptx-mutant: three mutants caught"
