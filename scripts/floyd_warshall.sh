#!/usr/bin/env bash
# Builds and runs the Floyd-Warshall example (Release), configuring the examples only: it
# needs neither the tests' nor the benchmarks' packages (scripts/ensure_deps.sh example).
#   bash scripts/floyd_warshall.sh [n ...]     (default: 1000)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/ensure_deps.sh example
cmake --preset examples >/dev/null
cmake --build --preset examples --target floyd_warshall
if (($# == 0)); then
  set -- 1000
fi
build/examples/examples/floyd_warshall "$@"
