#!/usr/bin/env bash
# Installs the Debian packages ptxmc needs, only those missing; silent when all are there.
set -euo pipefail

# --build-only: what building ptxmc and its Debian package needs, no test or developer tools
# (the Dockerfile's build stage).
packages=(cmake ninja-build g++ pkg-config libz3-dev libboost-graph-dev libcli11-dev
          nlohmann-json3-dev libfmt-dev
          dpkg-dev) # dpkg-shlibdeps: the Debian package's Depends (cpack, tests/install.cmake)
if [ "${1:-}" != --build-only ]; then
    packages+=(catch2 graphviz
               python3 python3-jsonschema # tests: SARIF output against the SARIF 2.1.0 schema
               clang-14 libclang-rt-14-dev # the sanitizer build and fuzz targets: clang, libFuzzer
               clang-format-14 clang-tidy-14) # the style test, scripts/tidy.sh
fi

missing=()
for p in "${packages[@]}"; do
    # dpkg -s also succeeds for removed-but-configured packages; require "install ok installed".
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=()
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null; then
        sudo=(sudo)
    else
        echo "install-deps: missing ${missing[*]}; run as root or install sudo" >&2
        exit 1
    fi
fi
echo "install-deps: installing ${missing[*]}" >&2
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
