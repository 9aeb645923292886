#!/usr/bin/env python3
"""Turn Google Benchmark JSON from the bsx benchmarks into Markdown ratio tables.

Usage:
    ./bench_floyd_warshall --benchmark_format=json > fw.json      (or --benchmark_out=fw.json)
    ./bench_outer_chain   --benchmark_format=json > outer.json
    ./bench_chain         --benchmark_format=json > chain.json
    python3 benchmark/ratios.py fw.json outer.json chain.json      ("-" or nothing: stdin)
    python3 benchmark/ratios.py --check fw.json outer.json chain.json

Benchmarks are named BM_<workload>_<variant>/<key>:<value>/.../threads:<t>[/real_time],
with <variant> one of bsx, bsx_numpy, hand_serial, hand_omp, hand_nan, hand_rowwise, eager. For every workload (and size)
and thread count it prints each variant's time and its ratio to hand_omp (the
hand-written OpenMP + simd loop at the same thread count), bsx against eager, and
then a summary with the 2-thread speedup of bsx over 1 thread.

With --check it also compares the summary with the acceptance targets of the issue
and exits with status 1 if one is missed. Standard library only.
"""

import argparse
import json
import statistics
import sys
from collections import defaultdict

VARIANTS = ["bsx", "bsx_numpy", "hand_serial", "hand_omp", "hand_nan", "hand_rowwise", "eager"]  # table order
REFERENCE = "hand_omp"
TO_MS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}

# Acceptance targets (issues 2, 3, 4, 8): (workload, key) -> (limit, "max" | "min")
#   ratio   = bsx / hand_omp at the same thread count   (must be <= limit)
#   vs_eager = eager / bsx at the same thread count     (must be >= limit)
#   speedup = bsx 1 thread / bsx 2 threads              (must be >= limit)
TARGETS = {
    ("fw n=1000", "ratio"): (1.15, "max"),
    ("fw n=1000", "vs_eager"): (1.5, "min"),
    ("chain", "ratio"): (1.10, "max"),
    ("outer_chain", "ratio"): (1.20, "max"),
    ("outer_chain", "speedup"): (1.7, "min"),
    ("rgb_scale", "ratio"): (1.10, "max"),
    ("dot", "ratio"): (1.20, "max"),
    ("centre", "ratio"): (1.30, "max"),
    ("sum_exp", "speedup"): (1.7, "min"),
    ("product", "speedup"): (1.6, "min"),
    ("colsum", "ratio"): (1.25, "max"),
    **{(f"{axis}{reduction}", "ratio"): (1.25, "max")
       for axis in ("col", "row", "") for reduction in ("min", "max", "all", "any")},
}


def parse_name(name):
    """'BM_fw_hand_omp/n:1000/threads:2/real_time' -> ('fw n=1000', 'hand_omp', 2)."""
    parts = name.split("/")
    func = parts[0][3:] if parts[0].startswith("BM_") else parts[0]
    variant = next((v for v in sorted(VARIANTS, key=len, reverse=True)
                    if func.endswith("_" + v)), None)
    if variant is None:  # unknown variant: take the last word
        func, _, variant = func.rpartition("_")
        workload = func
    else:
        workload = func[: -len(variant) - 1]
    threads = 1
    params = []
    for p in parts[1:]:
        key, sep, value = p.partition(":")
        if not sep or key in ("real_time", "process_time", "min_time",
                              "min_warmup_time", "repeats", "iterations"):
            continue
        if key == "threads":
            threads = int(value)
        else:
            params.append(f"{key}={value}")
    return " ".join([workload] + params), variant, threads


def load(paths, field="real_time"):
    """Returns {(workload, threads): {variant: time_ms}}."""
    iterations = defaultdict(list)  # key -> times of plain runs
    medians = {}                    # key -> median aggregate, if repetitions were used
    for path in paths or ["-"]:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
        for b in json.loads(text)["benchmarks"]:
            if b.get("error_occurred"):
                continue
            workload, variant, threads = parse_name(b.get("run_name", b["name"]))
            key = (workload, threads, variant)
            ms = b[field] * TO_MS[b.get("time_unit", "ns")]
            if b.get("run_type") == "aggregate":
                if b.get("aggregate_name") == "median":
                    medians[key] = ms
            else:
                iterations[key].append(ms)
    results = defaultdict(dict)
    for key in set(iterations) | set(medians):
        workload, threads, variant = key
        ms = medians.get(key)
        results[(workload, threads)][variant] = (
            ms if ms is not None else statistics.median(iterations[key]))
    return results


def order(workload):
    """Sort 'fw n=100' before 'fw n=1000' (numbers compared as numbers)."""
    return [int(w) if w.isdigit() else w
            for part in workload.split() for w in part.replace("=", " = ").split()]


def fmt(x, digits=2):
    return "n/a" if x is None else f"{x:.{digits}f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", help="Google Benchmark JSON files ('-': stdin)")
    ap.add_argument("--check", action="store_true",
                    help="compare with the issue's acceptance targets; exit 1 on a miss")
    ap.add_argument("--cpu", action="store_true",
                    help="use cpu_time instead of real_time (only meaningful at 1 thread: "
                         "it is the main thread's CPU time; useful on a loaded machine)")
    args = ap.parse_args()

    results = load(args.files, "cpu_time" if args.cpu else "real_time")
    if not results:
        sys.exit("ratios.py: no benchmark results found")
    workloads = sorted({w for w, _ in results}, key=order)
    summary = []  # (workload, threads, ratio, vs_eager, speedup)

    for workload in workloads:
        thread_counts = sorted(t for w, t in results if w == workload)
        for threads in thread_counts:
            times = results[(workload, threads)]
            ref = times.get(REFERENCE)
            print(f"### {workload}, {threads} thread{'s' if threads != 1 else ''}\n")
            print(f"| variant | time (ms) | / {REFERENCE} |")
            print("|---|---:|---:|")
            for v in VARIANTS + sorted(set(times) - set(VARIANTS)):
                if v in times:
                    ratio = times[v] / ref if ref else None
                    print(f"| {v} | {fmt(times[v], 3)} | {fmt(ratio)} |")
            bsx, eager = times.get("bsx"), times.get("eager")
            vs_eager = eager / bsx if bsx and eager else None
            if vs_eager is not None:
                print(f"\nbsx vs eager: eager / bsx = {vs_eager:.2f} "
                      f"({'bsx faster' if vs_eager > 1 else 'eager faster'})")
            print()
            one = results.get((workload, 1), {}).get("bsx")
            speedup = one / bsx if one and bsx and threads != 1 else None
            summary.append((workload, threads, bsx / ref if bsx and ref else None,
                            vs_eager, speedup))

    print("### Summary\n")
    print(f"| workload | threads | bsx / {REFERENCE} | eager / bsx | bsx speedup over 1 thread |")
    print("|---|---:|---:|---:|---:|")
    for workload, threads, ratio, vs_eager, speedup in summary:
        print(f"| {workload} | {threads} | {fmt(ratio)} | {fmt(vs_eager)} | "
              f"{fmt(speedup) if threads != 1 else '-'} |")

    if args.check:
        print("\n### Acceptance targets\n")
        failed = False
        for (workload, what), (limit, kind) in TARGETS.items():
            rows = [s for s in summary if s[0] == workload]
            if not rows:
                print(f"- {workload} {what}: no data")
                continue
            column = {"ratio": 2, "vs_eager": 3, "speedup": 4}[what]
            for s in rows:
                value = s[column]
                if value is None:
                    continue
                ok = value <= limit if kind == "max" else value >= limit
                failed |= not ok
                sign = "<=" if kind == "max" else ">="
                print(f"- {workload}, {s[1]} thread(s), {what} = {value:.2f} "
                      f"(target {sign} {limit}): {'pass' if ok else 'FAIL'}")
        sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
