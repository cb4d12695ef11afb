#!/usr/bin/env bash
# Benchmark: the whole corpus, the Wn family beside herd7, the SBn and IRIWn families, then the
# TMA-UMMA ring at growing sizes, then the loop family under limits (bench/limits.sh);
# everything printed is also written to bench/results.md with
# the machine and the commit.
# Usage: bash bench/run.sh   (after bash scripts/build.sh; BENCH_TIMEOUT=SEC caps each run,
# BENCH_SECTIONS="rings" runs some sections only)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

ptxmc=build/ptxmc
if [ ! -x "$ptxmc" ]; then
    echo "bench: $ptxmc not found; run bash scripts/build.sh first" >&2
    exit 2
fi
timeout_s=${BENCH_TIMEOUT:-600}

now() { date +%s.%N; }
elapsed() { # start end -> seconds, two decimals
    python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.2f}')" "$1" "$2"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Everything below goes to the terminal and, in a code block, to bench/results.md.
results=${BENCH_RESULTS:-bench/results.md}
{
    echo "# Bench results"
    echo
    echo "Written by \`bash bench/run.sh\` on $(date -u +%F); do not edit."
    echo "Machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)," \
        "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1);" \
        "commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (modified)')."
    echo
    echo '```'
} >"$results"
exec > >(tee -a "$results")

enum_cap=${BENCH_ENUM_TIMEOUT:-60}
# BENCH_SECTIONS picks what runs (default all): corpus, wn, families, rings, limits.
sections=" ${BENCH_SECTIONS:-corpus wn families rings limits} "
section() { [[ $sections == *" $1 "* ]]; }

if section corpus; then
# (a) The one-rule corpus (litmus/ without the kernel protocols of litmus/kernels, which the
# explicit engine cannot enumerate) with each engine, then the kernel protocols with Z3. A
# non-zero status (a mismatch) is reported, not fatal.
unit_corpus=$(find litmus -mindepth 1 -maxdepth 1 -type d ! -name kernels | LC_ALL=C sort)
for engine in z3 enumerate; do
    start=$(now)
    status=0
    # shellcheck disable=SC2086 # one argument per folder
    "$ptxmc" check --json --engine "$engine" $unit_corpus >"$tmp/corpus-$engine.json" \
        2>/dev/null || status=$?
    corpus_s=$(elapsed "$start" "$(now)")
    echo "Corpus without kernels/, engine $engine: ${corpus_s} s  (exit status ${status})  target < 10 s"
done
# Every reading of the open questions (check --readings, one encoding for all 14) beside the
# default reading alone (the Z3 line above): issue target, at most twice the default's time.
start=$(now)
status=0
# shellcheck disable=SC2086 # one argument per folder
"$ptxmc" check --readings $unit_corpus >/dev/null 2>&1 || status=$?
readings_s=$(elapsed "$start" "$(now)")
echo "Corpus without kernels/, engine z3, every reading: ${readings_s} s  (exit status ${status})  target < 2x the z3 line"
start=$(now)
status=0
"$ptxmc" check --jobs 2 litmus/kernels >/dev/null 2>&1 || status=$?
echo "Kernel protocols (litmus/kernels, Z3, --jobs 2): $(elapsed "$start" "$(now)") s  (exit status ${status})"
echo
echo "Slowest corpus tests (seconds per test, both engines):"
python3 - "$tmp/corpus-z3.json" "$tmp/corpus-enumerate.json" <<'PY'
import json, sys
z3 = {r["file"]: r.get("time", 0) for r in json.load(open(sys.argv[1]))}
en = {r["file"]: r.get("time", 0) for r in json.load(open(sys.argv[2]))}
print(f"  {'test':60} {'z3_s':>8} {'enum_s':>8}")
for f in sorted(z3, key=lambda f: -max(z3[f], en.get(f, 0)))[:10]:
    print(f"  {f[-60:]:60} {z3[f]:8.3f} {en.get(f, 0):8.3f}")
print(f"  {'median':60} {sorted(z3.values())[len(z3)//2]:8.3f} {sorted(en.values())[len(en)//2]:8.3f}")
PY
echo

fi
if section wn; then
# (b) Wn: P0 reads x twice; P1..Pn each store their own id. Every thread in CTA 0 of GPU 0.
write_wn() { # n file
    local n=$1 file=$2 i header row1 row2
    header=" P0@cta 0,gpu 0"
    row1=" ld.relaxed.cta r0, x"
    row2=" ld.relaxed.cta r1, x"
    for ((i = 1; i <= n; i++)); do
        header+=" | P${i}@cta 0,gpu 0"
        row1+=" | st.relaxed.cta x, ${i}"
        row2+=" |"
    done
    {
        echo "PTX W${n}"
        echo "\"P0 reads x twice, ${n} threads write it: coherence forbids only (v, 0), v != 0\""
        echo "{"
        echo "  x = 0;"
        echo "}"
        echo "${header} ;"
        echo "${row1} ;"
        echo "${row2} ;"
        echo "exists (P0:r0 == 2 /\\ P0:r1 == 1)"
    } >"$file"
}

herd_s=(0 0 0 0 0.04 0.27 2.66 32.1 446.7)
herd_states=(0 0 0 0 21 31 43 57 73)

echo "Wn family (herd7 7.57 column: measured earlier on a 2-core machine, C/rc11 equivalent)"
printf '%-3s %8s %6s %10s %10s %12s %12s   %s\n' n states ok ptxmc_s enum_s herd7_s herd7_states note
for n in 4 5 6 7 8; do
    file="$tmp/W${n}.litmus"
    write_wn "$n" "$file"
    start=$(now)
    status=0
    "$ptxmc" check --json --timeout "$timeout_s" "$file" >"$tmp/W${n}.json" 2>"$tmp/W${n}.err" ||
        status=$?
    secs=$(elapsed "$start" "$(now)")
    read -r states ok < <(python3 - "$tmp/W${n}.json" <<'PY' || echo "? ?"
import json, sys
try:
    result = json.load(open(sys.argv[1]))[0]
    states = len(result["states"]) if result["observation"] != "Unknown" else "unknown"
    print(states, "Ok" if result["ok"] else "No")
except (ValueError, IndexError, KeyError, OSError):
    print("? ?")
PY
    )
    # The explicit engine lists every execution like herd7 does: capped, it shows where it explodes.
    start=$(now)
    enum_status=0
    "$ptxmc" check --engine enumerate --timeout "$enum_cap" "$file" >"$tmp/W${n}.enum" 2>&1 ||
        enum_status=$?
    enum_secs=$(elapsed "$start" "$(now)")
    grep -q "^Unknown" "$tmp/W${n}.enum" && enum_secs=">${enum_cap}"
    note=""
    [ "$status" -ge 2 ] && note="error (exit ${status}): $(head -n 1 "$tmp/W${n}.err")"
    [ "$n" -eq 8 ] && note="${note:+$note; }target < 5 s"
    printf '%-3s %8s %6s %10s %10s %12s %12s   %s\n' "$n" "$states" "$ok" "$secs" "$enum_secs" \
        "${herd_s[$n]}" "${herd_states[$n]}" "$note"
done

fi
if section families; then
# (c) SBn and IRIWn: the classic shapes grown, each thread in its own CTA (bench/families.py).
# Time and peak memory of the Z3 engine, the explicit engine capped like Wn.
echo
echo "SBn and IRIWn families (fence.sc.gpu; the weak outcome is forbidden)"
printf '%-7s %8s %6s %10s %10s %10s\n' test states ok z3_s peak_MB enum_s
for test in sb:4 sb:8 sb:12 sb:16 iriw:2 iriw:3 iriw:4; do
    kind=${test%:*} n=${test#*:}
    file="$tmp/$kind$n.litmus"
    python3 bench/families.py "$kind" "$n" >"$file"
    /usr/bin/time -f "%e %M" -o "$tmp/time" timeout "$timeout_s" "$ptxmc" check --json \
        --timeout "$timeout_s" "$file" >"$tmp/fam.json" 2>/dev/null || true
    read -r secs kb < <(tail -n 1 "$tmp/time") || { secs="?"; kb=0; }
    read -r states ok < <(python3 - "$tmp/fam.json" <<'PY' || echo "? ?"
import json, sys
try:
    r = json.load(open(sys.argv[1]))[0]
    print(len(r["states"]) if r["observation"] != "Unknown" else "unknown", r["observation"])
except (ValueError, IndexError, KeyError, OSError):
    print("? ?")
PY
    )
    start=$(now)
    "$ptxmc" check --engine enumerate --timeout "$enum_cap" "$file" >"$tmp/fam.enum" 2>&1 || true
    enum_secs=$(elapsed "$start" "$(now)")
    grep -q "^Unknown" "$tmp/fam.enum" && enum_secs=">${enum_cap}"
    printf '%-7s %8s %6s %10s %10s %10s\n' "${kind^^}$n" "$states" "$ok" "$secs" \
        "$((kb / 1024))" "$enum_secs"
done

fi
if section rings; then
# (d) The CUTLASS TMA-UMMA ring (bench/protocols/umma.py) at growing sizes, encodings side by
# side: the default (closures' lower bounds propagated lazily, acyclicity axioms as graphs in
# the propagator, mbarrier facts), the same with acyclicity as integer clocks (--acyclicity
# clocks, the default before), the eager encoding (bounds as clauses and clocks), and on request
# the bounds alone as clauses (fixpoint), without the mbarrier facts, and closures by squaring: time, peak memory, encoding size and the lazy lemmas' propagations
# (--stats). BENCH_PROTOCOLS lists STAGESxITERATIONS; BENCH_RING_ENCODINGS picks encodings; each
# run is capped by BENCH_RING_TIMEOUT (default 300 s). The growth exponent from 2x16 to 2x32
# is fitted per encoding at the end.
echo
echo "TMA-UMMA ring (stages x k-iterations): default (lazy closures, graphs) vs clocks vs eager (clauses, clocks)"
printf '%-6s %-9s %10s %10s %12s %10s %12s   %s\n' size encoding seconds peak_MB assertions \
    bool_vars propagations observation
echo "(targets: 2x24 under 10 s, 2x32 and 6x32 under 30 s, each under 1.5 GB; growth 2x16 -> 2x32 at most k^3)"
ring_timeout=${BENCH_RING_TIMEOUT:-300}
declare -A ring_secs
for size in ${BENCH_PROTOCOLS:-1x2 2x4 4x8 2x8 2x16 4x16 2x24 2x32 4x32 6x32}; do
    python3 bench/protocols/umma.py "${size%x*}" "${size#*x}" >"$tmp/umma-$size.litmus"
    for encoding in ${BENCH_RING_ENCODINGS:-default clocks eager}; do
        case "$encoding" in
        default) flags=() ;;
        clocks) flags=(--acyclicity clocks) ;;
        eager) flags=(--closures fixpoint --acyclicity clocks) ;;
        fixpoint) flags=(--closures fixpoint) ;;
        no-facts) flags=(--mbarrier-facts off) ;;
        squaring) flags=(--closures squaring) ;;
        *) echo "BENCH_RING_ENCODINGS: unknown encoding $encoding" >&2; exit 2 ;;
        esac
        /usr/bin/time -f "%e %M" -o "$tmp/time" timeout "$ring_timeout" "$ptxmc" check --stats \
            --no-time "${flags[@]}" "$tmp/umma-$size.litmus" >"$tmp/out" 2>&1 || true
        read -r secs kb < <(tail -n 1 "$tmp/time") || { secs="?"; kb=0; }
        grep -q "Command terminated" "$tmp/time" && secs=">${ring_timeout}"
        asserts=$(sed -n 's/.*encoding: \([0-9]*\) assertions.*/\1/p' "$tmp/out")
        bools=$(sed -n 's/.*variables: \([0-9]*\) Boolean.*/\1/p' "$tmp/out")
        props=$(sed -n 's/.*lazily (\([0-9]*\) propagations).*/\1/p' "$tmp/out")
        obs=$(sed -n 's/^Observation [^ ]* \([A-Za-z]*\).*/\1/p' "$tmp/out")
        ring_secs[$size-$encoding]=$secs
        printf '%-6s %-9s %10s %10s %12s %10s %12s   %s\n' "$size" "$encoding" "$secs" \
            "$((kb / 1024))" "${asserts:-?}" "${bools:-?}" "${props:-?}" "${obs:-timeout}"
    done
done
for encoding in ${BENCH_RING_ENCODINGS:-default clocks eager}; do
    python3 -c '
import math, sys
a, b = sys.argv[2], sys.argv[3]
try:
    print(f"growth 2x16 -> 2x32, {sys.argv[1]}: k^{math.log(float(b) / float(a)) / math.log(2):.1f}")
except ValueError:
    print(f"growth 2x16 -> 2x32, {sys.argv[1]}: not measured ({a} s, {b} s)")
' "$encoding" "${ring_secs[2x16-$encoding]:-?}" "${ring_secs[2x32-$encoding]:-?}"
done

fi
if section limits; then
# (e) Limits: the loop family and wide SBn without limits, with --fixed-orders off, and with
# --timeout/--memory-limit, each limited run checked against its limits (bench/limits.sh).
echo
BENCH_TIMEOUT="$timeout_s" bash bench/limits.sh
fi
echo '```' # closes the code block of bench/results.md
