#!/usr/bin/env bash
# The sanitizer half of CI: the fast tier (tests/README.md: every unit test, the whole corpus
# once, the rejected inputs, every CLI case, the fuzz regressions) and the libFuzzer smoke runs,
# built once by clang with ASan + UBSan (preset asan, build-asan/). The kernel, slow and external
# tiers run the same code paths on larger inputs (minutes each under ASan) or run other tools.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/install-deps.sh
cmake --preset asan >/dev/null
cmake --build --preset asan
bash scripts/ctest-durations.sh build-asan
ctest --preset asan -L '^fast$'
