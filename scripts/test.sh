#!/usr/bin/env bash
# Builds the Release configuration and runs every test (unit, compile-fail, examples,
# consumers), as many compile jobs at once as cores and memory allow (scripts/jobs.sh).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/ensure_deps.sh test
jobs=$(bash scripts/jobs.sh)
cmake --preset release
cmake --build --preset release -j"$jobs"
ctest --preset release --output-on-failure -j"$jobs"
