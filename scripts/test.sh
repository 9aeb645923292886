#!/usr/bin/env bash
# Builds the Release configuration and runs every test (unit, compile-fail,
# examples, install/find_package).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/ensure_deps.sh
cmake --preset release
cmake --build --preset release -j"$(nproc)"
ctest --preset release --output-on-failure -j"$(nproc)"
