#!/usr/bin/env bash
# The long fuzz run: one target for a fixed time, restarted after each failure, runs counted.
# Usage: bash fuzz/long-run.sh TARGET SECONDS OUTDIR   (after `cmake --build --preset fuzz`)
# TARGET is litmus, cat or pipeline. OUTDIR keeps the grown corpus (reused by a later run), the
# failing inputs (artifacts/) and the logs; the last line printed is the summary to report.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
target=$1 seconds=$2 out=$3
fuzzer=build-fuzz/fuzz/fuzz_$target
case $target in
litmus) dict=fuzz/dict/ptx.dict seeds=build-fuzz/fuzz/seeds/litmus timeout=10 ;;
cat) dict=fuzz/dict/cat.dict seeds=build-fuzz/fuzz/seeds/cat timeout=10 ;;
pipeline) dict=fuzz/dict/ptx.dict seeds=build-fuzz/fuzz/seeds/litmus timeout=60 ;;
*) echo "long-run: unknown target '$target' (litmus, cat, pipeline)" >&2; exit 2 ;;
esac
[ -x "$fuzzer" ] || { echo "long-run: $fuzzer missing; cmake --build --preset fuzz" >&2; exit 2; }
mkdir -p "$out/corpus" "$out/artifacts"
regressions=()
if compgen -G "fuzz/regressions/$target/*" >/dev/null; then regressions=("fuzz/regressions/$target"); fi

export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
end=$(($(date +%s) + seconds))
# A second run into the same OUTDIR continues its corpus and its round numbers (and seeds).
runs=0 failures=0 round=$(find "$out" -maxdepth 1 -name 'round-*.log' | wc -l) first=$round
# libFuzzer stops at the first failure; restarting (with a new seed) keeps the clock running so
# one bug cannot end the whole run. Each failure leaves its input in artifacts/.
while left=$((end - $(date +%s))) && [ "$left" -gt 0 ]; do
    round=$((round + 1))
    log="$out/round-$round.log"
    status=0
    "$fuzzer" -max_total_time="$left" -seed="$round" -max_len=4096 -timeout="$timeout" \
        -rss_limit_mb=2048 -print_final_stats=1 -dict="$dict" -artifact_prefix="$out/artifacts/" \
        "$out/corpus" "$seeds" "${regressions[@]}" >"$log" 2>&1 || status=$?
    n=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
    if [ -z "$n" ]; then # no final stats (killed): the last status line's count
        n=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#' || true)
    fi
    runs=$((runs + ${n:-0}))
    if [ "$status" -ne 0 ]; then
        failures=$((failures + 1))
        echo "long-run: $target round $round failed (status $status), see $log" >&2
    fi
done
artifacts=$(find "$out/artifacts" -type f | wc -l)
echo "long-run: $target ${seconds}s: $runs executions in $((round - first)) rounds, $failures failures," \
     "$artifacts failing inputs in $out/artifacts"
