#!/usr/bin/env bash
# The test suite (tests/README.md): dependencies, the Release build and the kernel tier through
# ctest; then the sanitizer half (scripts/sanitize.sh: the fast tier built with ASan + UBSan, and
# the fuzz smoke runs), so the fast tier runs once, sanitized. CI runs this, within 35 minutes on
# 2 cores.
#   --full   every tier in Release (fast, slow and external too), then the sanitizer half: run it
#            before resolving an issue that changes the model, the encoder or the kernel front end,
#            and record its time.
# PTXMC_SANITIZERS=0 skips the sanitizer half and runs the fast tier in Release instead.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
tiers='^kernel$'
[ "${PTXMC_SANITIZERS:-1}" != 0 ] || tiers='^(fast|kernel)$'
case "${1:-}" in
    --full) tiers='' ;;
    '') ;;
    *) echo "usage: scripts/test.sh [--full]" >&2; exit 2 ;;
esac
bash scripts/install-deps.sh
bash scripts/build.sh
bash scripts/ctest-durations.sh build
ctest --test-dir build --output-on-failure -j2 ${tiers:+-L "$tiers"}
if [ "${PTXMC_SANITIZERS:-1}" != 0 ]; then
    bash scripts/sanitize.sh
fi
