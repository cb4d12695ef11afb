#!/usr/bin/env bash
# clang-tidy with the checked-in .clang-tidy over the given files, or over every source file.
# Usage: bash scripts/tidy.sh [FILE...]   (configures build-tidy/ for its compile commands).
# Not part of CI: a whole-tree run takes tens of minutes.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
tidy=$(command -v clang-tidy-14 || command -v clang-tidy || true)
[ -n "$tidy" ] || { echo "tidy: clang-tidy not found; bash scripts/install-deps.sh installs it" >&2; exit 2; }
cmake -S . -B build-tidy -G Ninja -DCMAKE_BUILD_TYPE=Release -DPTXMC_UNITY_BUILD=OFF >/dev/null
if [ $# -eq 0 ]; then
    mapfile -t files < <(git ls-files 'src/*.cpp' 'encoder/*.cpp' 'app/*.cpp' 'validate/*.cpp' 'tests/*.cpp' 'fuzz/*.cpp')
else
    files=("$@")
fi
"$tidy" -p build-tidy --quiet "${files[@]}"
