#!/usr/bin/env bash
# Gives ctest's scheduler the measured duration of every test, so that the longest start first
# (tests/durations/KIND.txt: ctest's own cost file, from a whole run on the 2-core machine).
# Usage: scripts/ctest-durations.sh [--save] BUILD_DIR
#   build/ uses release.txt, build-asan/ asan.txt; a build tree that has its own measurements
#   keeps them. --save records the build tree's measurements as the committed file.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
save=0
if [ "${1:-}" = --save ]; then
    save=1
    shift
fi
build=${1:?usage: scripts/ctest-durations.sh [--save] BUILD_DIR}
case "$(basename "$build")" in
    build-asan) kind=asan ;;
    *) kind=release ;;
esac
committed=tests/durations/$kind.txt
measured=$build/Testing/Temporary/CTestCostData.txt
if [ "$save" = 1 ]; then
    # Only the durations: the failed-test list after '---' is one run's.
    sed '/^---$/,$d' "$measured" | LC_ALL=C sort > "$committed"
    echo "ctest-durations: $(wc -l < "$committed") tests recorded in $committed"
elif [ ! -e "$measured" ] && [ -e "$committed" ]; then
    mkdir -p "$(dirname "$measured")"
    { cat "$committed"; echo ---; } > "$measured"
fi
