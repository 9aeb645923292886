#!/usr/bin/env bash
# bsx's speed-up over one thread at every thread count up to the machine's cores (1, 2,
# 4, ... and the core count), for the main workloads: Floyd-Warshall at n = 1000 and 4000,
# the 10^7 six-operand chain, the outer difference r = x[:, None] - y (4000 x 4000), column
# sums of 4000 x 4000 doubles, and a softmax along the rows of 2000 x 2000 doubles. Each
# time is the median of 3 repetitions; prints a table of times and speed-ups, and leaves
# the benchmark JSON in the output directory for doc/performance.md.
#
#   bash benchmark/scaling.sh [benchmark directory] [output directory]
#        (defaults: build/bench/benchmark, ./scaling)
#
# Floyd-Warshall at n = 4000 takes minutes at one thread; BSX_SCALING_FW_N=1000 leaves it out.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bench="${1:-$here/../build/bench/benchmark}"
out="${2:-scaling}"
mkdir -p "$out"
cores=$(nproc)
counts=1
for ((t = 2; t < cores; t *= 2)); do counts+=",$t"; done
((cores > 1)) && counts+=",$cores"
export BSX_BENCH_THREADS=$counts
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $cores cores; thread counts $counts"

run() {  # run <binary> <filter> [VAR=value ...]
    local binary=$1 filter=$2
    shift 2
    env "$@" "$bench/$binary" --benchmark_filter="$filter" --benchmark_repetitions=3 \
        --benchmark_report_aggregates_only=true --benchmark_out="$out/$binary.json" \
        --benchmark_out_format=json >/dev/null
}
run bench_floyd_warshall 'BM_fw_bsx/' BSX_BENCH_FW_N="${BSX_SCALING_FW_N:-1000,4000}"
run bench_chain 'BM_chain_bsx/'
run bench_elementwise 'BM_ew_outer_diff_bsx/'
run bench_axis_reductions 'BM_colsum_bsx/'
run bench_reductions 'BM_softmax_bsx/'

python3 "$here/threads_report.py" scaling "$out"
