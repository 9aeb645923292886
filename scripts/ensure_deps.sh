#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages that bsx needs, only those that are missing.
#   bash scripts/ensure_deps.sh example   what building the examples needs
#   bash scripts/ensure_deps.sh test      that and the rest: tests, CI and benchmarks
# apt needs root: run as root, or as a user with sudo. BSX_SKIP_DEPS=1 skips this script
# (a machine without apt, or one set up by hand). README.md lists both sets.
set -euo pipefail

# g++ (its OpenMP runtime comes with it), CMake and make, Boost's headers (Boost.Hana),
# libsleef-dev for vector math (optional: without it, math functions call libm element by element),
# zlib1g-dev for .npz files (optional: without it, save_npz and load_npz are absent) and
# libopenblas-dev for matrix products (optional: without it, bsx's own kernel runs them).
example=(g++ cmake make libboost-dev libsleef-dev zlib1g-dev libopenblas-dev)
# Boost.Test: the unit tests. pkg-config: the consumer tests. python3-numpy: the .npy round trip.
# clang-14, libclang-rt-14-dev and libomp-dev: the second compiler of the compile-fail tests, and
# the asan, tsan and fuzz presets. clang-format-16: the formatting check. libopenmpi-dev and
# openmpi-bin: the optional module bsx::dist and its mpirun tests. libbenchmark-dev, the peers
# libeigen3-dev, xtensor-dev with libxsimd-dev (bench_fixed_size, bench_floyd_warshall, bench_chain)
# and python3-numexpr (benchmark/vs_numpy.py), and python3-matplotlib (benchmark/performance.py's
# plots): the benchmarks.
rest=(libboost-test-dev pkg-config python3-numpy clang-14 libclang-rt-14-dev libomp-dev clang-format-16
      libopenmpi-dev openmpi-bin libbenchmark-dev libeigen3-dev xtensor-dev libxsimd-dev python3-numexpr
      python3-matplotlib)

case "${1:-}" in
  example) packages=("${example[@]}") ;;
  test) packages=("${example[@]}" "${rest[@]}") ;;
  *)
    echo "usage: ensure_deps.sh example|test" >&2
    exit 2
    ;;
esac

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
    echo "ensure_deps: not root and no sudo; install as root: ${missing[*]} (or set BSX_SKIP_DEPS=1)" >&2
    exit 1
  fi
  sudo=(sudo)
fi
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
