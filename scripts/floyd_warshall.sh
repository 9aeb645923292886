#!/usr/bin/env bash
# Builds and runs the Floyd-Warshall example (Release).
#   bash scripts/floyd_warshall.sh [n ...]     (default: 1000)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/ensure_deps.sh
cmake --preset release >/dev/null
cmake --build --preset release --target floyd_warshall -j"$(nproc)"
if (($# == 0)); then
  set -- 1000
fi
build/release/examples/floyd_warshall "$@"
