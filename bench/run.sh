#!/usr/bin/env bash
# Benchmark: the whole corpus, then the Wn family (n writers against two reads) beside herd7.
# Usage: bash bench/run.sh   (after bash scripts/build.sh; BENCH_TIMEOUT=SEC caps each Wn run)
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

# (a) Whole corpus. A non-zero status (a mismatch) is reported, not fatal: the time still counts.
start=$(now)
status=0
"$ptxmc" check --no-time litmus/ >/dev/null 2>&1 || status=$?
corpus_s=$(elapsed "$start" "$(now)")
echo "Corpus: ptxmc check --no-time litmus/  ${corpus_s} s  (exit status ${status})  target < 10 s"
echo

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

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

herd_s=(0 0 0 0 0.04 0.27 2.66 32.1 446.7)
herd_states=(0 0 0 0 21 31 43 57 73)

echo "Wn family (herd7 7.57 column: measured earlier on a 2-core machine, C/rc11 equivalent)"
printf '%-3s %8s %6s %10s %12s %12s   %s\n' n states ok ptxmc_s herd7_s herd7_states note
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
    note=""
    [ "$status" -ge 2 ] && note="error (exit ${status}): $(head -n 1 "$tmp/W${n}.err")"
    [ "$n" -eq 8 ] && note="${note:+$note; }target < 5 s"
    printf '%-3s %8s %6s %10s %12s %12s   %s\n' "$n" "$states" "$ok" "$secs" \
        "${herd_s[$n]}" "${herd_states[$n]}" "$note"
done
