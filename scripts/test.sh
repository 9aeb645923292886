#!/usr/bin/env bash
# Builds the Release configuration and runs every test (unit, compile-fail, examples,
# consumers), as many compile jobs at once as cores and memory allow (scripts/jobs.sh).
# BSX_WERROR=ON makes warnings errors (CI sets it; a user's newer compiler may warn anew).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/ensure_deps.sh test
jobs=$(bash scripts/jobs.sh)
cmake --preset release ${BSX_WERROR:+-DBSX_WERROR="$BSX_WERROR"}
cmake --build --preset release -j"$jobs"
ctest --preset release --output-on-failure -j"$jobs"
