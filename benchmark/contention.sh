#!/usr/bin/env bash
# bsx on a busy machine (issue 33): Floyd-Warshall at n = 100, 400 and 1000 and the 10^7
# six-operand chain, at the default thread count (every core) and at one thread, while 0,
# 1, ... competing busy processes (up to as many as there are cores) spin. Each time is the
# median of 5 repetitions. Prints one table (benchmark/threads_report.py) and exits 1
# unless the default-thread time is at most 1.5 times the one-thread time under the same
# load, in every row.
#
#   bash benchmark/contention.sh [benchmark directory [output directory]]
#        (defaults: build/bench/benchmark; the JSON is kept only where an output directory is given)
#
# Build the benchmarks first: cmake --preset bench && cmake --build --preset bench.
# OMP_DYNAMIC=false turns bsx's adaptation off (eval/parallel.hpp), to see OpenMP's
# default behaviour beside it.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bench="${1:-$here/../build/bench/benchmark}"
cores=$(nproc)
keep="${2:-}"
work="${keep:-$(mktemp -d)}"
mkdir -p "$work"
pids=()
cleanup() {
    ((${#pids[@]})) && kill "${pids[@]}" 2>/dev/null
    [[ -n $keep ]] || rm -rf "$work"
}
trap cleanup EXIT

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $cores cores; OMP_DYNAMIC=${OMP_DYNAMIC:-unset}"
for ((busy = 0; busy <= cores; ++busy)); do
    pids=()
    for ((i = 0; i < busy; ++i)); do
        bash -c 'while :; do :; done' &
        pids+=($!)
    done
    sleep 0.5  # let the busy processes take their cores
    for b in floyd_warshall chain; do
        filter='BM_fw_bsx/n:(100|400|1000)/'
        [[ $b == chain ]] && filter='BM_chain_bsx/'
        BSX_BENCH_THREADS="1,$cores" "$bench/bench_$b" --benchmark_filter="$filter" \
            --benchmark_repetitions=5 --benchmark_min_time=0.2 --benchmark_report_aggregates_only=true \
            --benchmark_out="$work/$b.$busy.json" --benchmark_out_format=json >/dev/null
    done
    ((${#pids[@]})) && kill "${pids[@]}" 2>/dev/null
    wait 2>/dev/null || true
done
pids=()

python3 "$here/threads_report.py" contention "$work"
