#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages bsx needs, only those that are missing.
# Set BSX_SKIP_DEPS=1 to skip (e.g. on a machine without apt).
set -euo pipefail

# pkg-config: the install test; python3-numpy: the .npy round-trip test;
# python3-matplotlib: benchmark/performance.py (plots); libsleef-dev: vector math (optional);
# clang-14 and libclang-rt-14-dev: the asan, tsan and fuzz presets; clang-format-16: the formatting check.
# libeigen3-dev: the Eigen comparison in benchmark/bench_fixed_size (optional).
# libopenmpi-dev and openmpi-bin: the optional distributed module bsx::dist and its mpirun tests.
packages=(g++ cmake make libboost-dev libboost-test-dev libbenchmark-dev libomp-dev libsleef-dev pkg-config python3-numpy
          python3-matplotlib clang-14 libclang-rt-14-dev libeigen3-dev clang-format-16
          libopenmpi-dev openmpi-bin)

if [[ "${BSX_SKIP_DEPS:-0}" == 1 ]]; then
  exit 0
fi
if ! command -v dpkg >/dev/null 2>&1; then
  echo "ensure_deps: no dpkg here; install by hand: ${packages[*]}" >&2
  exit 0
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg -s "$p" 2>/dev/null | grep -q '^Status: install ok installed'; then
    missing+=("$p")
  fi
done
if ((${#missing[@]} == 0)); then
  exit 0
fi

echo "ensure_deps: installing ${missing[*]}"
sudo=()
if [[ "$(id -u)" -ne 0 ]]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "ensure_deps: not root and no sudo; please install: ${missing[*]}" >&2
    exit 1
  fi
  sudo=(sudo)
fi
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
