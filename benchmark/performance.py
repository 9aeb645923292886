#!/usr/bin/python3
"""Regenerates doc/performance.md and its plots (doc/img/*.png) from Google Benchmark JSON.

    /usr/bin/python3 benchmark/performance.py                 # page and plots from benchmark/results/
    /usr/bin/python3 benchmark/performance.py --run build/bench/benchmark
                                                               # first run the short benchmark set and
                                                               # the NumPy/numexpr timings, then the page

--run executes bench_floyd_warshall (n = 100 and 1000) and bench_chain, at one thread with
3 repetitions (medians are reported), and times NumPy (and numexpr, when installed) on the
same workloads (NumPy's Floyd-Warshall at n = 1000 once: it takes tens of seconds); results go to benchmark/results/*.json, which are
committed so that the page can be rebuilt without running anything. Plots need
matplotlib (Debian: python3-matplotlib), the timings NumPy (python3-numpy).
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(ROOT, "benchmark", "results")
DOC = os.path.join(ROOT, "doc")
IMG = os.path.join(DOC, "img")
REPETITIONS = 3

VARIANT_LABELS = {
    "bsx": "bsx",
    "hand_serial": "hand loop (serial)",
    "hand_omp": "hand loop (OpenMP + simd)",
    "eager": "eager, one array per operation",
    "numpy": "NumPy",
    "numexpr": "numexpr",
}

# The Octave manual's broadcasting chapter (Floyd-Warshall on n vertices, its own machine).
OCTAVE = {
    100: {"naive triple loop": 7300.0, "inner loop vectorized": 87.0, "fully broadcast": 1.3},
    1000: {"inner loop vectorized": 11700.0, "fully broadcast": 1150.0},
}


# ---------------------------------------------------------------- running
def run_benchmarks(bench_dir):
    runs = {
        "floyd_warshall": ["bench_floyd_warshall", "--benchmark_filter=n:(100|1000)/threads:1/"],
        "chain": ["bench_chain", "--benchmark_filter=threads:1/"],
    }
    for name, (exe, *args) in runs.items():
        out = os.path.join(RESULTS, name + ".json")
        cmd = [os.path.join(bench_dir, exe), *args, f"--benchmark_repetitions={REPETITIONS}",
               "--benchmark_report_aggregates_only=true", f"--benchmark_out={out}", "--benchmark_out_format=json"]
        print("running", " ".join(cmd), flush=True)
        subprocess.run(cmd, check=True)


def median_ms(f, repetitions=REPETITIONS):
    """Median CPU time of this process (one thread), as Google Benchmark's cpu_time."""
    times = []
    for _ in range(repetitions):
        t0 = time.process_time()
        f()
        times.append((time.process_time() - t0) * 1e3)
    return statistics.median(times)


def run_numpy():
    """NumPy and numexpr on the workloads of bench_floyd_warshall and bench_chain: the same
    sizes and the same kind of input (other random numbers)."""
    import numpy as np
    rng = np.random.default_rng(42)
    results = []

    def record(name, ms):
        results.append({"name": name, "cpu_time": ms, "time_unit": "ms", "run_type": "aggregate",
                        "aggregate_name": "median", "repetitions": REPETITIONS})
        print(f"{name}: {ms:.3f} ms", flush=True)

    for n in (100, 1000):
        d0 = np.where(rng.random((n, n)) < 0.1, rng.uniform(1.0, 100.0, (n, n)), np.inf)
        np.fill_diagonal(d0, 0.0)

        def fw():
            d = d0.copy()
            for k in range(n):
                d = np.minimum(d, d[:, k, None] + d[None, k, :])
            return d
        record(f"BM_fw_numpy/n:{n}/threads:1/real_time_median", median_ms(fw, REPETITIONS if n < 1000 else 1))

    shape = (2000, 5000)
    a, b, c, d, e = (rng.random(shape) for _ in range(5))
    f = rng.random(shape) + 0.5
    r = np.empty(shape)

    def chain_numpy():
        r[...] = a * b + c * d - e / (f + 1.0)
    record("BM_chain_numpy/threads:1/real_time_median", median_ms(chain_numpy))
    try:
        import numexpr as ne
        for threads in (1,):
            ne.set_num_threads(threads)
            record(f"BM_chain_numexpr/threads:{threads}/real_time_median",
                   median_ms(lambda: ne.evaluate("a * b + c * d - e / (f + 1.0)", out=r,
                                                 local_dict={"a": a, "b": b, "c": c, "d": d, "e": e, "f": f})))
        numexpr_version = ne.__version__
    except ImportError:
        numexpr_version = None
    context = {"numpy": np.__version__, "numexpr": numexpr_version, "python": platform.python_version(),
               "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "load_avg": list(os.getloadavg())}
    with open(os.path.join(RESULTS, "numpy.json"), "w") as out:
        json.dump({"context": context, "benchmarks": results}, out, indent=1)


def record_machine():
    info = {"cpu": "unknown", "cores": os.cpu_count()}
    try:
        for line in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
            if line.startswith("Model name:"):
                info["cpu"] = line.split(":", 1)[1].strip()
    except OSError:
        pass
    for compiler in ("g++",):
        try:
            info["compiler"] = subprocess.run([compiler, "--version"], capture_output=True,
                                              text=True).stdout.splitlines()[0]
        except (OSError, IndexError):
            pass
    info["os"] = platform.platform()
    with open(os.path.join(RESULTS, "machine.json"), "w") as out:
        json.dump(info, out, indent=1)


# ---------------------------------------------------------------- reading
def load(name):
    with open(os.path.join(RESULTS, name + ".json")) as f:
        return json.load(f)


def medians(data):
    """{(workload, variant, n, threads): CPU milliseconds} from the median aggregates.
    CPU time, not wall-clock time: every run here uses one thread, and on a loaded machine
    the CPU time of that thread measures the work far better than the time it waited."""
    to_ms = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
    out = {}
    for b in data["benchmarks"]:
        if b.get("aggregate_name") != "median":
            continue
        parts = b["name"].split("/")
        workload, variant = parts[0][3:].split("_", 1)  # BM_fw_hand_omp -> fw, hand_omp
        keys = dict(p.split(":") for p in parts[1:] if ":" in p)
        out[(workload, variant, int(keys.get("n", 0)), int(keys["threads"]))] = b["cpu_time"] * to_ms[b["time_unit"]]
    return out


# ---------------------------------------------------------------- plots
def bar_plot(path, title, labels, values, note):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7.5, 0.45 * len(labels) + 1.4))
    colors = ["#1f77b4" if lab.startswith("bsx") else "#999999" for lab in labels]
    bars = ax.barh(range(len(labels)), values, color=colors)
    ax.set_yticks(range(len(labels)), labels)
    ax.invert_yaxis()
    ax.set_xscale("log")  # the slowest variants are 10-50 times the fastest
    ax.set_xlabel("CPU milliseconds, one thread, log scale (median; shorter is better)")
    ax.set_title(title, fontsize=10)
    for bar, v in zip(bars, values):
        ax.text(bar.get_width(), bar.get_y() + bar.get_height() / 2, f" {v:,.0f}" if v >= 10 else f" {v:.2f}",
                va="center", fontsize=8)
    ax.set_xlim(min(values) / 2, max(values) * 3)
    fig.text(0.01, 0.01, note, fontsize=7, color="#555555")
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    fig.savefig(path, dpi=110)
    plt.close(fig)


# ---------------------------------------------------------------- the page
def table(rows, header):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out)


def fmt_ms(ms):
    return f"{ms:,.0f}" if ms >= 100 else f"{ms:.2f}" if ms < 10 else f"{ms:.1f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--run", metavar="BENCH_DIR", help="run the benchmarks in BENCH_DIR and NumPy first")
    args = parser.parse_args()
    os.makedirs(RESULTS, exist_ok=True)
    os.makedirs(IMG, exist_ok=True)
    if args.run:
        record_machine()
        run_benchmarks(args.run)
        run_numpy()

    fw_data, chain_data = load("floyd_warshall"), load("chain")
    numpy_data = load("numpy") if os.path.exists(os.path.join(RESULTS, "numpy.json")) else {"benchmarks": [], "context": {}}
    machine = load("machine") if os.path.exists(os.path.join(RESULTS, "machine.json")) else {}
    times = {**medians(fw_data), **medians(chain_data), **medians(numpy_data)}
    ctx = fw_data["context"]
    load_avg = ", ".join(f"{x:.1f}" for x in ctx.get("load_avg", []))
    machine_text = (f"{machine.get('cpu', 'unknown CPU')}, {ctx.get('num_cpus')} cores at {ctx.get('mhz_per_cpu')} MHz, "
                    f"{machine.get('compiler', 'g++')}, -O3 -march=native; load average {load_avg} while measured")

    # Floyd-Warshall, n = 1000, 1 thread: the headline plot.
    fw_variants = ["bsx", "hand_serial", "hand_omp", "eager", "numpy"]
    labels, values = [], []
    for v in fw_variants:
        if ("fw", v, 1000, 1) in times:
            labels.append(VARIANT_LABELS[v])
            values.append(times[("fw", v, 1000, 1)])
    labels.append("Octave manual: fully broadcast")
    values.append(OCTAVE[1000]["fully broadcast"])
    bar_plot(os.path.join(IMG, "floyd_warshall.png"), "Floyd-Warshall, n = 1000, one thread", labels, values,
             f"{machine.get('cpu', '')}, {ctx.get('date', '')[:10]}, under load; Octave: elapsed time on its manual's "
             "own machine (not this one)")

    chain_variants = ["bsx", "hand_serial", "hand_omp", "eager", "numpy", "numexpr"]
    labels = [VARIANT_LABELS[v] for v in chain_variants if ("chain", v, 0, 1) in times]
    values = [times[("chain", v, 0, 1)] for v in chain_variants if ("chain", v, 0, 1) in times]
    bar_plot(os.path.join(IMG, "chain.png"), "r = a*b + c*d - e/(f + 1), 2000 x 5000 doubles, one thread",
             labels, values, f"{machine.get('cpu', '')}, {ctx.get('date', '')[:10]}")

    # Tables.
    fw_rows = []
    for n in (100, 1000):
        for v in fw_variants:
            cells = [f"n = {n}", VARIANT_LABELS[v]]
            for t in (1,):
                ms = times.get(("fw", v, n, t))
                ref = times.get(("fw", "hand_omp", n, t))
                cells.append("" if ms is None else fmt_ms(ms) + (f" ({ms / ref:.2f}x)" if ref and v != "numpy" else ""))
            fw_rows.append(cells)
    octave_rows = []
    for n, entries in OCTAVE.items():
        bsx_ms = times.get(("fw", "bsx", n, 1))
        np_ms = times.get(("fw", "numpy", n, 1))
        for what, ms in entries.items():
            octave_rows.append([f"n = {n}", f"Octave, {what}", fmt_ms(ms)])
        octave_rows.append([f"n = {n}", "bsx, 1 thread (this machine)", fmt_ms(bsx_ms) if bsx_ms else ""])
        if np_ms:
            octave_rows.append([f"n = {n}", "NumPy, fully broadcast (this machine)", fmt_ms(np_ms)])
    chain_rows = []
    for v in chain_variants:
        cells = [VARIANT_LABELS[v]]
        for t in (1,):
            ms = times.get(("chain", v, 0, t))
            ref = times.get(("chain", "hand_omp", 0, t))
            cells.append("" if ms is None else fmt_ms(ms) + (f" ({ms / ref:.2f}x)" if ref else ""))
        chain_rows.append(cells)

    np_ctx = numpy_data.get("context", {})
    page = f"""# bsx performance

*This page and its plots are generated by `benchmark/performance.py` from the Google Benchmark
JSON in `benchmark/results/`; do not edit it by hand. To measure again:*

```
cmake --preset bench && cmake --build --preset bench --target bench_floyd_warshall bench_chain
/usr/bin/python3 benchmark/performance.py --run build/bench/benchmark
```

**Machine**: {machine_text}. NumPy {np_ctx.get('numpy', '?')}{', numexpr ' + np_ctx['numexpr'] if np_ctx.get('numexpr') else ''}
(Python {np_ctx.get('python', '?')}).

**Read with care.** This is a short, filtered set: Floyd-Warshall at n = 100 and 1000 and the
six-operand chain, one thread, 3 repetitions (medians; NumPy's Floyd-Warshall at n = 1000
once), measured on a 2-core virtual machine while other builds ran on it (see the load
average). Wall-clock times vary by a factor of two or more between runs under such load,
so the tables give the **CPU time** of the one thread (Google Benchmark's `cpu_time`,
`time.process_time()` for NumPy), which counts the work done rather than the time spent
waiting for a core; wall-clock times in the JSON were two to three times longer. Two-thread
runs are left out: with more runnable processes than cores, OpenMP threads mostly wait for
each other (an earlier run gave bsx 4.7 s at two threads against 0.63 s at one for
n = 1000). Ratios in parentheses are to the hand-written OpenMP + simd loop at one thread,
in the same binary. `benchmark/ratios.py` and the full benchmark programs give the
two-thread picture on a quiet machine.

![Floyd-Warshall, n = 1000](img/floyd_warshall.png)

## Floyd-Warshall

One iteration is the whole k loop over a random graph (edge probability 0.1, weights in
[1, 100), +inf without an edge). Variants: bsx's `dist = bsx::min(dist, dist.col(k) + dist.row(k));`,
the triple loop (serial, and OpenMP over rows with `omp simd` inside), an eager C++ version
that allocates a new n x n array per operation as NumPy and Octave do, and NumPy's
`d = np.minimum(d, d[:, k, None] + d[None, k, :])` (one thread; the same kind of graph,
other random numbers). CPU milliseconds, median of 3:

{table(fw_rows, ["size", "variant", "ms (ratio to the hand loop)"])}

### Beside the Octave manual

The Octave manual's broadcasting chapter times the same algorithm in Octave on a machine it
does not name; its numbers are quoted as printed (elapsed time). bsx's and NumPy's are CPU
times on this machine, one thread. The comparison shows orders of magnitude, not a race:
the machines differ. Milliseconds:

{table(octave_rows, ["size", "code", "ms"])}

## A six-operand chain

`r = a*b + c*d - e/(f + 1.0)` on 2000 x 5000 doubles into a preallocated `r`
(`benchmark/bench_chain.cpp`), and the same line in NumPy and in numexpr
(`ne.evaluate(..., out=r)`, one thread). CPU milliseconds, median of 3:

{table(chain_rows, ["variant", "ms (ratio to the hand loop)"])}

![chain](img/chain.png)

The other benchmarks (`bench_outer_chain`, `bench_rgb_scale`, `bench_reductions`) are not in
this short set; `benchmark/ratios.py` prints their tables from their JSON output.
"""
    with open(os.path.join(DOC, "performance.md"), "w") as f:
        f.write(page)
    print("wrote doc/performance.md, doc/img/floyd_warshall.png, doc/img/chain.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
