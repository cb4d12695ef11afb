#!/usr/bin/env bash
# The main job: dependencies, a Release build, then the whole litmus corpus against expected.txt.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
build/ptxmc check litmus/
