#!/usr/bin/env bash
# bsx on a busy machine (issue 33): Floyd-Warshall at n = 100, 400 and 1000 and the 10^7
# six-operand chain, at the default thread count (every core) and at one thread, while 0,
# 1, ... competing busy processes (up to as many as there are cores) spin. Each time is the
# median of 5 repetitions. Prints one table and exits 1 unless the default-thread time is
# at most 1.5 times the one-thread time under the same load, in every row.
#
#   bash benchmark/contention.sh [benchmark directory]     (default: build/bench/benchmark)
#
# Build the benchmarks first: cmake --preset bench && cmake --build --preset bench.
# OMP_DYNAMIC=false turns bsx's adaptation off (eval/parallel.hpp), to see OpenMP's
# default behaviour beside it.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bench="${1:-$here/../build/bench/benchmark}"
cores=$(nproc)
work="$(mktemp -d)"
pids=()
cleanup() {
    ((${#pids[@]})) && kill "${pids[@]}" 2>/dev/null
    rm -rf "$work"
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

python3 - "$work" "$cores" <<'EOF'
import glob, json, re, sys
work, cores = sys.argv[1], int(sys.argv[2])
times = {}  # (workload, busy, threads) -> median ms
for path in glob.glob(f"{work}/*.json"):
    busy = int(path.rsplit(".", 2)[1])
    for b in json.load(open(path))["benchmarks"]:
        if b.get("aggregate_name") != "median":
            continue
        m = re.match(r"BM_(fw|chain)_bsx/(?:n:(\d+)/)?threads:(\d+)", b["name"])
        workload = f"fw n={m.group(2)}" if m.group(1) == "fw" else "chain 10^7"
        scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b["time_unit"]]
        times[(workload, busy, int(m.group(3)))] = b["real_time"] * scale
ok = True
print(f"| workload | busy processes | 1 thread (ms) | {cores} threads (ms) | {cores} / 1 | within 1.5 |")
print("|---|---|---|---|---|---|")
for workload in ("fw n=100", "fw n=400", "fw n=1000", "chain 10^7"):
    for busy in range(cores + 1):
        one, many = times[(workload, busy, 1)], times[(workload, busy, cores)]
        good = many <= 1.5 * one
        ok &= good
        print(f"| {workload} | {busy} | {one:.3f} | {many:.3f} | {many / one:.2f} | {'yes' if good else 'NO'} |")
print("quiet speed-ups (1 thread / %d threads): " % cores +
      ", ".join(f"{w} {times[(w, 0, 1)] / times[(w, 0, cores)]:.2f}"
                for w in ("fw n=100", "fw n=400", "fw n=1000", "chain 10^7")))
sys.exit(0 if ok else 1)
EOF
