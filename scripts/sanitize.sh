#!/usr/bin/env bash
# The sanitizer half of CI: the test suite built with ASan + UBSan (preset asan, build-asan/),
# then each libFuzzer target for a fixed number of runs (preset fuzz, clang, build-fuzz/).
# Under ASan the suite runs without the determinism test, which checks the corpus five times
# over and has its Release run; everything else, the whole corpus included, runs sanitized.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/install-deps.sh

cmake --preset asan >/dev/null
cmake --build --preset asan
ctest --preset asan -E '^determinism/'

cmake --preset fuzz >/dev/null
cmake --build --preset fuzz
ctest --preset fuzz
