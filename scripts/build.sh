#!/usr/bin/env bash
# Configures and builds every target (preset ci: Release, Ninja, warnings as errors) into build/.
# PTXMC_CMAKE_ARGS adds configure arguments, e.g. -DCMAKE_CXX_COMPILER_LAUNCHER=ccache.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cmake --preset ci ${PTXMC_CMAKE_ARGS:-}
cmake --build --preset ci
