#!/usr/bin/env python3
"""Compares the bsx benchmarks of two builds, run by turns on the same machine.

    python3 benchmark/before_after.py BEFORE_DIR AFTER_DIR [--rounds 3] [--min-time 0.1]
                                      [--filter REGEX] [--binaries bench_chain,bench_math]

BEFORE_DIR and AFTER_DIR hold the benchmark binaries (build/bench/benchmark of two
checkouts). For every binary present in both, each round runs the before binary and then
the after one over the benchmarks named *_bsx/... (and their hand-written baselines), so
that a drift of the machine hits both alike; each time is the median over the rounds.
Prints, per binary, every bsx case with its time before and after, after / before, and its
ratio to the hand-written loop of the same run (hand_omp, else hand_serial, hand, mvec)
before and after, then the geometric mean of after / before per binary. Standard library
only.
"""

import argparse
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile

BASELINES = ("hand_omp", "hand_serial", "hand", "mvec")
NAME = re.compile(r"^BM_(?P<workload>.+?)_(?P<variant>bsx|hand_omp|hand_serial|hand|mvec|eager|hand_nan|"
                  r"hand_rowwise|eigen|bsx_numpy)(?P<args>/.*)?$")


def run(binary, filter_, min_time):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as out:
        path = out.name
    subprocess.run([binary, f"--benchmark_filter={filter_}", f"--benchmark_min_time={min_time}",
                    f"--benchmark_out={path}", "--benchmark_out_format=json"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    with open(path) as f:
        data = json.load(f)
    os.unlink(path)
    scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
    return {b["name"]: b["real_time"] * scale[b["time_unit"]] for b in data["benchmarks"]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--min-time", default="0.1")
    parser.add_argument("--filter", default=".", help="regex the benchmark names must match as well")
    parser.add_argument("--binaries", default="", help="comma-separated binaries (default: all in both)")
    args = parser.parse_args()
    binaries = sorted(b for b in os.listdir(args.after)
                      if b.startswith("bench_") and os.path.exists(os.path.join(args.before, b)))
    if args.binaries:
        binaries = [b for b in binaries if b in args.binaries.split(",")]
    variants = "|".join(("bsx",) + BASELINES)
    filter_ = f"_({variants})/"
    summary = []
    for binary in binaries:
        times = {"before": {}, "after": {}}
        for _ in range(args.rounds):
            for side in ("before", "after"):
                for name, t in run(os.path.join(getattr(args, side), binary), filter_, args.min_time).items():
                    if re.search(args.filter, name):
                        times[side].setdefault(name, []).append(t)
        med = {side: {n: statistics.median(v) for n, v in times[side].items()} for side in times}
        print(f"\n## {binary}\n")
        print("| case | before (ms) | after (ms) | after / before | bsx / hand before | bsx / hand after |")
        print("|---|---|---|---|---|---|")
        logs = []
        for name in sorted(med["after"]):
            m = NAME.match(name)
            if not m or m["variant"] != "bsx" or name not in med["before"]:
                continue
            before, after = med["before"][name], med["after"][name]
            logs.append(math.log(after / before))
            hand = {}
            for side in ("before", "after"):
                for base in BASELINES:
                    key = f"BM_{m['workload']}_{base}{m['args'] or ''}"
                    if key in med[side]:
                        hand[side] = med[side][name] / med[side][key]
                        break
            fmt = lambda side: f"{hand[side]:.2f}" if side in hand else "-"
            print(f"| {name} | {before:.4g} | {after:.4g} | {after / before:.2f} | {fmt('before')} | {fmt('after')} |")
        if logs:
            summary.append((binary, len(logs), math.exp(statistics.mean(logs)), math.exp(max(logs))))
    print("\n| binary | bsx cases | geomean after / before | worst after / before |")
    print("|---|---|---|---|")
    for binary, n, geo, worst in summary:
        print(f"| {binary} | {n} | {geo:.3f} | {worst:.2f} |")


if __name__ == "__main__":
    sys.exit(main())
