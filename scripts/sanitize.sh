#!/usr/bin/env bash
# The sanitizer half of CI: the test suite built with ASan + UBSan (preset asan, build-asan/),
# then each libFuzzer target for a fixed number of runs (preset fuzz, clang, build-fuzz/).
# Under ASan CI runs a documented subset, to keep the whole CI run well under 20 minutes on
# two cores: unit tests, bad inputs, explanations, axiom deletion and the whole corpus through
# both engines run sanitized; the determinism, 300-seed differential, ptxas/validate, docs
# regeneration and per-variant corpus suites (the same code paths, many times over) run in the
# Release half only. `ctest --preset asan` runs everything.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/install-deps.sh

cmake --preset asan >/dev/null
cmake --build --preset asan
ctest --preset asan -E '^(determinism|differential|validate|docs|variant)/'

cmake --preset fuzz >/dev/null
cmake --build --preset fuzz
ctest --preset fuzz
