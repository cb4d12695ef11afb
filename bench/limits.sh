#!/usr/bin/env bash
# Bench: the loop family (one thread stores 0..n-1 to x in a counted loop, one reads x) and wide
# SBn tests, each run without limits (capped at BENCH_TIMEOUT) and with --timeout and
# --memory-limit: time, peak memory and answer side by side, and whether each limited run ended
# within its time limit + 1 s and under its memory limit. Fixed coherence orders on and off.
# Usage: bash bench/limits.sh   (after bash scripts/build.sh; BENCH_LIMIT_SIZES, BENCH_TIMEOUT,
#        BENCH_LIMIT_TIMEOUT (default 10 s) and BENCH_LIMIT_MEMORY (default 1000 MiB) adjust it)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

ptxmc=build/ptxmc
if [ ! -x "$ptxmc" ]; then
    echo "bench: $ptxmc not found; run bash scripts/build.sh first" >&2
    exit 2
fi
cap=${BENCH_TIMEOUT:-120}
limit_s=${BENCH_LIMIT_TIMEOUT:-10}
limit_mib=${BENCH_LIMIT_MEMORY:-1000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run NAME FILE ARGS...: prints seconds, peak MiB and the observation (or why it stopped).
run() {
    local file=$1
    shift
    /usr/bin/time -f "%e %M" -o "$tmp/time" timeout "$((cap + 5))" "$ptxmc" check --no-time \
        "$@" "$file" >"$tmp/out" 2>&1 || true
    local secs kb obs why
    read -r secs kb < <(grep -E '^[0-9.]+ [0-9]+$' "$tmp/time" | tail -n 1) || { secs="?"; kb=0; }
    grep -q "Command terminated by signal\|Command exited with non-zero status 124" "$tmp/time" &&
        secs=">${cap}"
    obs=$(sed -n 's/^Observation [^ ]* \([A-Za-z]*\).*/\1/p' "$tmp/out")
    why=$(sed -n 's/^Unknown: \([a-z ]*\):.*/\1/p' "$tmp/out" | head -n 1)
    echo "$secs $((kb / 1024)) ${obs:-none}${why:+($why)}"
}

echo "Loop family and wide tests: no limits (capped at ${cap} s) vs --timeout ${limit_s}" \
    "--memory-limit ${limit_mib}"
printf '%-9s | %9s %7s %-14s | %9s %7s %-14s | %9s %7s %-22s %s\n' test "s" MiB answer \
    "s(off)" MiB "answer(off)" "s(limit)" MiB "answer(limited)" "within"
tests=()
for n in ${BENCH_LIMIT_SIZES:-20 50 100 200 500 1000 2000 4000}; do tests+=("loop:$n"); done
tests+=(sb:32 sb:64 sb:128)
for t in "${tests[@]}"; do
    kind=${t%:*} n=${t#*:}
    file="$tmp/$kind$n.litmus"
    python3 bench/families.py "$kind" "$n" >"$file"
    read -r s1 m1 a1 < <(run "$file" --timeout "$cap")
    read -r s2 m2 a2 < <(run "$file" --timeout "$cap" --fixed-orders off)
    read -r s3 m3 a3 < <(run "$file" --timeout "$limit_s" --memory-limit "$limit_mib")
    within=$(python3 -c "import sys; s, m = sys.argv[1:3]; print('yes' if s != '?' and float(s) <= $limit_s + 1 and int(m) <= $limit_mib else 'NO')" "$s3" "$m3")
    printf '%-9s | %9s %7s %-14s | %9s %7s %-14s | %9s %7s %-22s %s\n' "${kind^^}$n" "$s1" "$m1" \
        "$a1" "$s2" "$m2" "$a2" "$s3" "$m3" "$a3" "$within"
done
