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

python3 - "$out" <<'EOF'
import glob, json, re, sys
times = {}  # workload -> {threads: ms}
for path in sorted(glob.glob(f"{sys.argv[1]}/bench_*.json")):
    for b in json.load(open(path))["benchmarks"]:
        if b.get("aggregate_name") != "median":
            continue
        m = re.match(r"BM_(\w+?)_bsx/(?:n:(\d+)/)?threads:(\d+)", b["name"])
        workload = m.group(1) + (f" n={m.group(2)}" if m.group(2) else "")
        scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b["time_unit"]]
        times.setdefault(workload, {})[int(m.group(3))] = b["real_time"] * scale
counts = sorted({t for w in times.values() for t in w})
print("| workload | " + " | ".join(f"{t} thr (ms)" for t in counts) + " | " +
      " | ".join(f"speed-up {t}" for t in counts[1:]) + " |")
print("|---" * (1 + 2 * len(counts) - 1) + "|")
for workload, by in times.items():
    print(f"| {workload} | " + " | ".join(f"{by[t]:.2f}" for t in counts) + " | " +
          " | ".join(f"{by[1] / by[t]:.2f}" for t in counts[1:]) + " |")
EOF
