#!/usr/bin/env bash
# Compile cost of bsx beside Eigen and xtensor: compiles the include alone and the same 20
# everyday assignments in each library (bsx_20.cpp, eigen_20.cpp, xtensor_20.cpp; a library
# that is not installed is skipped) and prints, per compiler, the user time and peak
# memory of the compiler and the text size of the object file. Each figure is the median
# of REPEATS runs (default 3); the load average before the first run is printed, since a
# busy machine inflates the times.
#
#   bash benchmark/compile_cost/measure.sh [compiler ...]     (default: g++ and clang++-14)
#
# Flags: -std=c++20 -O3 -march=native -fopenmp (CXXFLAGS adds more). bsx is taken from
# this checkout's include/ (BSX_INCLUDE overrides it, to compare two trees).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bsx_include="${BSX_INCLUDE:-$here/../../include}"
repeats="${REPEATS:-3}"
flags=(-std=c++20 -O3 -march=native -fopenmp ${CXXFLAGS:-})
compilers=("$@")
((${#compilers[@]})) || compilers=(g++ clang++-14)

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The median of the numbers on standard input.
median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

# measure <compiler> <source> <include flags...>: "user_s peak_MB text_KB", or "-" if it
# does not compile.
measure() {
    local cxx=$1 src=$2
    shift 2
    local times=() mems=() text=
    for ((i = 0; i < repeats; ++i)); do
        if ! /usr/bin/time -f '%U %M' -o "$work/time" "$cxx" "${flags[@]}" "$@" -c "$src" -o "$work/out.o" \
            2>"$work/err"; then
            echo "-"
            return
        fi
        read -r t m <"$work/time"
        times+=("$t")
        mems+=("$m")
    done
    text=$(size "$work/out.o" | awk 'NR == 2 {print $1}')
    printf '%s %s %s\n' \
        "$(printf '%s\n' "${times[@]}" | median)" \
        "$(printf '%s\n' "${mems[@]}" | median | awk '{printf "%.0f", $1 / 1024}')" \
        "$(awk -v b="$text" 'BEGIN {printf "%.1f", b / 1024}')"
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; flags: ${flags[*]}; median of $repeats"
printf '%-12s %-22s %10s %10s %10s\n' compiler case "user s" "peak MB" "text KB"
for cxx in "${compilers[@]}"; do
    command -v "$cxx" >/dev/null || { echo "$cxx: not installed, skipped"; continue; }
    report() { printf '%-12s %-22s %10s %10s %10s\n' "$cxx" "$1" $2; }
    report "bsx include" "$(measure "$cxx" "$here/include_only.cpp" -I"$bsx_include")"
    report "bsx 20" "$(measure "$cxx" "$here/bsx_20.cpp" -I"$bsx_include")"
    if [[ -d /usr/include/eigen3 ]]; then
        report "eigen 20" "$(measure "$cxx" "$here/eigen_20.cpp" -I/usr/include/eigen3)"
    fi
    if [[ -d /usr/include/xtensor ]]; then
        report "xtensor 20" "$(measure "$cxx" "$here/xtensor_20.cpp")"
    fi
done
