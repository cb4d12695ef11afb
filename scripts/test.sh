#!/usr/bin/env bash
# Dependencies, a Release build, every unit and corpus test through ctest; then the sanitizers
# (ASan + UBSan test build, fuzz smoke runs). PTXMC_SANITIZERS=0 skips that second half.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
ctest --test-dir build --output-on-failure -j2
if [ "${PTXMC_SANITIZERS:-1}" != 0 ]; then
    bash scripts/sanitize.sh
fi
