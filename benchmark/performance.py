#!/usr/bin/python3
"""Measures bsx beside hand-written loops and its peers, and writes doc/performance.md and its plots.

    cmake --preset bench
    cmake --build --preset bench --target bench_floyd_warshall bench_chain
    /usr/bin/python3 benchmark/performance.py --run build/bench/benchmark    # measure, then write the page
    /usr/bin/python3 benchmark/performance.py                                # the page again from the JSON
    # a short check of the script itself, kept out of the tree (the page says it was forced):
    /usr/bin/python3 benchmark/performance.py --run build/bench/benchmark --force --repetitions 2 \
        --compile-repeats 1 --compilers g++ --results /tmp/perf/results --page /tmp/perf/performance.md

--run measures, in one run on this machine:
  - bench_floyd_warshall (n = 100 and 1000) and bench_chain at 1 and 2 OpenMP threads: bsx, the
    hand-written loops (serial and OpenMP), and Eigen and xtensor where the binaries were built
    with them (where CMake found them);
  - NumPy and numexpr, where /usr/bin/python3 (--python) has them, on the same workloads;
  - the compile cost of bsx, Eigen and xtensor (benchmark/compile_cost/measure.sh);
and writes every figure to JSON in benchmark/results/ (--results), with the machine (CPU, cores,
compiler and flags) and the load average before and after each step. The page is written from
that JSON alone: every number on it comes from those files, and it names the file of each table.

The machine must be quiet: with a 1-minute load average above 0.5 (other work would be measured
with bsx's) the script neither measures nor writes the page unless --force, and a page of a forced
run says so in bold at its top. Times are wall-clock medians over --repetitions (default 5);
each ratio is a time over the fastest hand-written loop at the same thread count, serial or
OpenMP, whichever was faster in that run, and names it. Plots need matplotlib. The sections of
the page after its KEEP marker are written by hand or by benchmark/threads_report.py and are kept.
"""
import argparse
import glob
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
QUIET_LOAD = 0.5
THREADS = (1, 2)
FW_SIZES = (100, 1000)
KEEP = "<!-- Below: sections not written by benchmark/performance.py; it keeps them as they are. -->"
TO_MS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}

# Variants in table order, with how they use threads.
VARIANTS = {
    "bsx": "bsx",
    "hand_serial": "hand loop, serial",
    "hand_omp": "hand loop, OpenMP + simd",
    "hand_nan": "hand loop, OpenMP + simd, NaN-propagating as bsx::min",
    "eigen": "Eigen",
    "xtensor": "xtensor (xsimd, OpenMP)",
    "numpy": "NumPy",
    "numpy_out": "NumPy, in place (out=)",
    "numexpr": "numexpr",
}
HAND_LOOPS = {"hand_serial": "serial loop", "hand_omp": "OpenMP loop"}  # the baselines, short names
BENCHMARKS = {  # results file: (binary, filter, environment)
    "floyd_warshall": ("bench_floyd_warshall", "BM_fw_(bsx|hand_serial|hand_omp|hand_nan|eigen|xtensor)/",
                       {"BSX_BENCH_FW_N": ",".join(map(str, FW_SIZES))}),
    "chain": ("bench_chain", "BM_chain_(bsx|hand_serial|hand_omp|eigen|xtensor)/", {}),
}

# The Octave manual's broadcasting chapter: Floyd-Warshall on n vertices, elapsed milliseconds
# on the manual's own machine, as printed there.
OCTAVE_MANUAL = {
    "source": "GNU Octave manual, Vectorization and Faster Code Execution, Broadcasting: the Floyd-Warshall example",
    "unit": "ms, elapsed, on the manual's machine (not this one)",
    "times": [
        {"n": 100, "code": "naive triple loop", "ms": 7300.0},
        {"n": 100, "code": "inner loop vectorized", "ms": 87.0},
        {"n": 100, "code": "fully broadcast", "ms": 1.3},
        {"n": 1000, "code": "inner loop vectorized", "ms": 11700.0},
        {"n": 1000, "code": "fully broadcast", "ms": 1150.0},
    ],
}


# ---------------------------------------------------------------- the machine
def load_average():
    return list(os.getloadavg())


def first_line(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True).stdout.splitlines()[0].strip()
    except (OSError, IndexError):
        return None


def cmake_cache(bench_dir):
    """{variable: value} of the CMakeCache.txt of the build that holds bench_dir."""
    here = os.path.abspath(bench_dir)
    while here != os.path.dirname(here):
        path = os.path.join(here, "CMakeCache.txt")
        if os.path.exists(path):
            cache = {}
            for line in open(path):
                m = re.match(r"([A-Za-z_0-9]+):\w+=(.*)", line)
                if m:
                    cache[m.group(1)] = m.group(2)
            return cache
        here = os.path.dirname(here)
    return {}


def target_flags(bench_dir, target):
    """{CXX_FLAGS, CXX_DEFINES, CXX_INCLUDES} of a target, from CMake's flags.make (Makefile builds)."""
    path = os.path.join(bench_dir, "CMakeFiles", target + ".dir", "flags.make")
    flags = {}
    if os.path.exists(path):
        for line in open(path):
            m = re.match(r"(CXX_\w+) = (.*)", line)
            if m:
                flags[m.group(1)] = m.group(2).strip()
    return flags


def header_version(include_dirs, header, names):
    """'3.4.0' from the #defines `names` of the first `header` found under include_dirs."""
    for d in include_dirs:
        path = os.path.join(d, header)
        if os.path.exists(path):
            text = open(path).read()
            parts = [re.search(rf"#define {n} (\d+)", text) for n in names]
            if all(parts):
                return ".".join(p.group(1) for p in parts)
    return None


def vector_isa():
    """The widest x86 vector extensions /proc/cpuinfo lists: the same source may run at a
    different speed on a host of the same name with other vector units."""
    flags = next((line.split(":", 1)[1].split() for line in open("/proc/cpuinfo") if line.startswith("flags")), [])
    return ", ".join(f for f in ("avx2", "fma", "avx512f", "avx512vl") if f in flags) or "none of avx2, avx512f"


def native_arch(compiler):
    """What -march=native means to the compiler here: the CPU its driver passes on to the
    compiler proper (GCC as -march=, clang as -target-cpu)."""
    driver = subprocess.run([compiler, "-march=native", "-###", "-x", "c++", "-c", os.devnull, "-o", os.devnull],
                            capture_output=True, text=True).stderr
    found = re.search(r'-march=(?!native)([\w-]+)|"-target-cpu" "([\w-]+)"', driver)
    return (found.group(1) or found.group(2)) if found else None


def machine_info(bench_dir):
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")),
               platform.processor() or "unknown")
    memory = next((int(line.split()[1]) // 1024 for line in open("/proc/meminfo") if line.startswith("MemTotal")), None)
    cache = cmake_cache(bench_dir)
    compiler = cache.get("CMAKE_CXX_COMPILER", "c++")
    flags = {t: target_flags(bench_dir, b) for t, (b, _, _) in BENCHMARKS.items()}
    includes = [p for f in flags.values() for p in re.findall(r"(?:-I|-isystem )\s*(\S+)", f.get("CXX_INCLUDES", ""))]
    includes += ["/usr/include", "/usr/local/include"]
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "vector_isa": vector_isa(),
        "memory_mb": memory,
        "os": platform.platform(),
        "compiler": compiler,
        "compiler_version": first_line([compiler, "--version"]),
        "native_arch": native_arch(compiler),
        "build_type": cache.get("CMAKE_BUILD_TYPE"),
        "flags": flags,
        "eigen": header_version(includes, "eigen3/Eigen/src/Core/util/Macros.h",
                                ("EIGEN_WORLD_VERSION", "EIGEN_MAJOR_VERSION", "EIGEN_MINOR_VERSION"))
        or header_version(includes, "Eigen/src/Core/util/Macros.h",
                          ("EIGEN_WORLD_VERSION", "EIGEN_MAJOR_VERSION", "EIGEN_MINOR_VERSION")),
        "xtensor": header_version(includes, "xtensor/xtensor_config.hpp",
                                  ("XTENSOR_VERSION_MAJOR", "XTENSOR_VERSION_MINOR", "XTENSOR_VERSION_PATCH")),
        "bsx_commit": first_line(["git", "-C", ROOT, "describe", "--always", "--dirty"]),
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


# ---------------------------------------------------------------- measuring
def step(steps, name, action):
    """Runs action(), recording the load average before and after it under steps[name]."""
    before = load_average()
    print(f"{name}: load average {before[0]:.2f}", flush=True)
    action()
    steps[name] = {"load_avg_before": before, "load_avg_after": load_average()}


def run_benchmark(bench_dir, results, name, repetitions):
    binary, pattern, env = BENCHMARKS[name]
    cmd = [os.path.join(bench_dir, binary), f"--benchmark_filter={pattern}",
           f"--benchmark_repetitions={repetitions}", "--benchmark_enable_random_interleaving=true",
           f"--benchmark_out={os.path.join(results, name + '.json')}", "--benchmark_out_format=json"]
    thread_env = {"BSX_BENCH_THREADS": ",".join(map(str, THREADS))}
    subprocess.run(cmd, check=True, env={**os.environ, **thread_env, **env})


def time_python_peers(out, repetitions):
    """In the child process (--time-python-peers): NumPy, and numexpr where installed, on the
    workloads of bench_floyd_warshall and bench_chain: the same shapes and distributions as
    their C++ inputs, other random numbers (the work does not depend on the values). Written
    as Google Benchmark JSON, one entry per repetition, wall-clock milliseconds."""
    import numpy as np
    try:
        import numexpr as ne
    except ImportError:
        ne = None
    rng = np.random.default_rng(42)
    entries = []

    def record(name, f, reps=repetitions):
        for _ in range(reps):
            t0 = time.perf_counter()
            f()
            ms = (time.perf_counter() - t0) * 1e3
            entries.append({"run_name": name, "run_type": "iteration", "real_time": ms, "time_unit": "ms"})
        print(f"{name}: {statistics.median(e['real_time'] for e in entries if e['run_name'] == name):.3f} ms",
              flush=True)

    for n in FW_SIZES:
        d0 = np.where(rng.random((n, n)) < 0.1, rng.uniform(1.0, 100.0, (n, n)), np.inf)
        np.fill_diagonal(d0, 0.0)

        def fw():  # as the Octave manual and most tutorials write it: a new array per step
            d = d0.copy()
            for k in range(n):
                d = np.minimum(d, d[:, k, None] + d[None, k, :])

        def fw_out():  # one temporary per step: row k and column k do not change in step k
            d = d0.copy()
            for k in range(n):
                np.minimum(d, d[:, k, None] + d[None, k, :], out=d)
        record(f"BM_fw_numpy/n:{n}/threads:1", fw)
        record(f"BM_fw_numpy_out/n:{n}/threads:1", fw_out)

    shape = (2000, 5000)
    a, b, c, d, e, f = (rng.uniform(0.5, 2.0, shape) for _ in range(6))
    r = np.empty(shape)

    def chain():
        r[...] = a * b + c * d - e / (f + 1.0)
    record("BM_chain_numpy/threads:1", chain)
    if ne is not None:
        for threads in THREADS:
            ne.set_num_threads(threads)
            record(f"BM_chain_numexpr/threads:{threads}",
                   lambda: ne.evaluate("a * b + c * d - e / (f + 1.0)", out=r,
                                       local_dict={"a": a, "b": b, "c": c, "d": d, "e": e, "f": f}))
    context = {"python": platform.python_version(), "executable": sys.executable, "numpy": np.__version__,
               "numexpr": ne.__version__ if ne else None}
    with open(out, "w") as f_out:
        json.dump({"context": context, "benchmarks": entries}, f_out, indent=1)


def run_python_peers(python, results, repetitions):
    """Times NumPy and numexpr in a child process of `python`, its numerical libraries pinned
    to one thread (numexpr sets its own count). Without NumPy, records why."""
    out = os.path.join(results, "python_peers.json")
    env = {**os.environ, **{v: "1" for v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")}}
    cmd = [python, os.path.abspath(__file__), "--time-python-peers", out, "--repetitions", str(repetitions)]
    if subprocess.run([python, "-c", "import numpy"], capture_output=True).returncode != 0:
        with open(out, "w") as f:
            json.dump({"context": {"executable": python, "numpy": None, "numexpr": None}, "benchmarks": []}, f)
        print(f"{python} has no NumPy: NumPy and numexpr are not measured", flush=True)
        return
    subprocess.run(cmd, check=True, env=env)


def parse_compile_cost(text):
    """measure.sh's output as {"header": first line, "rows": [{compiler, case, user_s, peak_mb, text_kb}],
    "skipped": [lines]}."""
    lines = text.splitlines()
    rows, skipped = [], []
    for line in lines[2:]:
        words = line.split()
        if "not installed" in line:
            skipped.append(line)
        elif len(words) >= 5 and all(re.fullmatch(r"[\d.]+", w) for w in words[-3:]):
            rows.append({"compiler": words[0], "case": " ".join(words[1:-3]), "user_s": float(words[-3]),
                         "peak_mb": float(words[-2]), "text_kb": float(words[-1])})
        elif len(words) >= 3:
            rows.append({"compiler": words[0], "case": " ".join(words[1:-1]), "user_s": None, "peak_mb": None,
                         "text_kb": None})
    return {"header": lines[0] if lines else "", "rows": rows, "skipped": skipped}


def run_compile_cost(results, compilers, repeats):
    cmd = ["bash", os.path.join(ROOT, "benchmark", "compile_cost", "measure.sh"), *compilers]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env={**os.environ, "REPEATS": str(repeats)})
    print(out.stdout, flush=True)
    with open(os.path.join(results, "compile_cost.json"), "w") as f:
        json.dump({"command": " ".join(["REPEATS=" + str(repeats)] + cmd[:1] + [os.path.relpath(cmd[1], ROOT)] + cmd[2:]),
                   "output": out.stdout, **parse_compile_cost(out.stdout)}, f, indent=1)


def run_all(args):
    """Measures everything into args.results; run.json holds the machine and the loads."""
    start = load_average()
    os.makedirs(args.results, exist_ok=True)
    for old in glob.glob(os.path.join(args.results, "*.json")):
        os.remove(old)
    run = {"machine": machine_info(args.run), "repetitions": args.repetitions, "threads": list(THREADS),
           "load_avg_at_start": start, "forced": start[0] > QUIET_LOAD, "quiet_load": QUIET_LOAD, "steps": {}}
    steps = run["steps"]
    for name in BENCHMARKS:
        step(steps, BENCHMARKS[name][0], lambda: run_benchmark(args.run, args.results, name, args.repetitions))
    step(steps, "NumPy and numexpr", lambda: run_python_peers(args.python, args.results, args.repetitions))
    step(steps, "compile cost", lambda: run_compile_cost(args.results, args.compilers, args.compile_repeats))
    with open(os.path.join(args.results, "octave_manual.json"), "w") as f:
        json.dump(OCTAVE_MANUAL, f, indent=1)
    run["load_avg_at_end"] = load_average()
    with open(os.path.join(args.results, "run.json"), "w") as f:
        json.dump(run, f, indent=1)


# ---------------------------------------------------------------- reading
def read_json(results, name):
    path = os.path.join(results, name + ".json")
    return json.load(open(path)) if os.path.exists(path) else None


def times_of(data):
    """{(workload, variant, n, threads): [ms per repetition]} from Google Benchmark JSON."""
    out = {}
    for b in (data or {}).get("benchmarks", []):
        if b.get("run_type") != "iteration":
            continue
        parts = (b.get("run_name") or b["name"]).split("/")
        workload, variant = parts[0][3:].split("_", 1)  # BM_fw_hand_omp -> fw, hand_omp
        keys = dict(p.split(":") for p in parts[1:] if ":" in p)
        key = (workload, variant, int(keys.get("n", 0)), int(keys["threads"]))
        out.setdefault(key, []).append(b["real_time"] * TO_MS[b["time_unit"]])
    return out


def fastest_hand(times, workload, n, threads):
    """(variant, median ms) of the faster hand loop at this thread count, or None."""
    found = [(statistics.median(times[(workload, v, n, threads)]), v) for v in HAND_LOOPS
             if (workload, v, n, threads) in times]
    return min(found)[::-1] if found else None


# ---------------------------------------------------------------- formatting
def fmt_ms(ms):
    return f"{ms:,.0f}" if ms >= 100 else f"{ms:.1f}" if ms >= 10 else f"{ms:.2f}" if ms >= 1 else f"{ms:.3f}"


def table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(out + ["| " + " | ".join(r) + " |" for r in rows])


def where(path):
    """A results path as the page shows it: relative to the repository when inside it."""
    path = os.path.abspath(path)
    return os.path.relpath(path, ROOT) if path.startswith(ROOT + os.sep) else path


def workload_table(times, workload, n):
    """Rows: every variant measured; per thread count the median, min-max and the ratio to that
    thread count's fastest hand loop."""
    baselines = {t: fastest_hand(times, workload, n, t) for t in THREADS}
    header = ["variant"]
    for t in THREADS:
        header += [f"{t} thread{'s' if t > 1 else ''}: ms", "min-max", "÷ fastest hand loop"]
    rows = []
    for v in VARIANTS:
        if not any((workload, v, n, t) in times for t in THREADS):
            continue
        cells = [VARIANTS[v]]
        for t in THREADS:
            ms = times.get((workload, v, n, t))
            if ms is None:
                cells += ["one thread only" if t > 1 else "not run", "", ""]
                continue
            med = statistics.median(ms)
            base = baselines[t]
            ratio = f"{med / base[1]:.2f} (÷ {HAND_LOOPS[base[0]]})" if base else "no hand loop"
            cells += [f"**{fmt_ms(med)}**" if v == "bsx" else fmt_ms(med), f"{fmt_ms(min(ms))}-{fmt_ms(max(ms))}", ratio]
        rows.append(cells)
    note = "; ".join(f"{t} thread{'s' if t > 1 else ''}: the {HAND_LOOPS[b[0]]}, {fmt_ms(b[1])} ms"
                     for t, b in baselines.items() if b)
    return table(header, rows), f"Fastest hand loop in this run: {note}."


def ratio_plot(path, title, times, workload, n, note):
    """Horizontal bars of time / fastest hand loop at the same thread count: a linear axis from
    zero, 1.0 marked. A bar longer than the axis is cut (hatched) and its value printed."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    baselines = {t: fastest_hand(times, workload, n, t) for t in THREADS}
    variants = [v for v in VARIANTS if any((workload, v, n, t) in times for t in THREADS)]
    ratios = {(v, t): statistics.median(times[(workload, v, n, t)]) / baselines[t][1]
              for v in variants for t in THREADS if (workload, v, n, t) in times and baselines[t]}
    limit = max([2.0] + [r for r in ratios.values() if r <= 6.0]) * 1.15
    fig, ax = plt.subplots(figsize=(9, 0.55 * len(variants) + 2.0))
    height = 0.8 / len(THREADS)
    colors = {1: "#1f77b4", 2: "#ff7f0e"}
    for i, t in enumerate(THREADS):
        name = f"{t} thread{'s' if t > 1 else ''}"
        label = name  # the legend's, on the first bar only
        for row, v in enumerate(variants):
            y = row + (i - (len(THREADS) - 1) / 2) * height
            r = ratios.get((v, t))
            if r is None:
                ax.text(0.02, y, f"{name}: not run" + (" (one thread only)" if t > 1 else ""), va="center",
                        fontsize=7, color="#777777")
                continue
            ax.barh(y, min(r, limit), height=height * 0.9, color=colors.get(t, "#777777"),
                    hatch="//" if r > limit else None, label=label)
            label = None
            if r > limit:
                ax.text(limit * 0.99, y, f"{r:.2f}, cut", va="center", ha="right", fontsize=7,
                        bbox={"facecolor": "white", "edgecolor": "none", "pad": 1})
            else:
                ax.text(r, y, f" {r:.2f}", va="center", fontsize=7)
    ax.axvline(1.0, color="black", linewidth=1.0, label="1.0: fastest hand loop")
    ax.set_xlim(0, limit)
    ax.set_yticks(range(len(variants)), [VARIANTS[v] for v in variants], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("time / fastest hand loop, same thread count (median; lower is better)", fontsize=9)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=3, frameon=False)
    fig.text(0.01, 0.01, note, fontsize=7, color="#555555")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    fig.savefig(path, dpi=110)
    plt.close(fig)


def load_table(run):
    rows = [["start of the run", ", ".join(f"{x:.2f}" for x in run["load_avg_at_start"]), ""]]
    for name, s in run["steps"].items():
        rows.append([name, ", ".join(f"{x:.2f}" for x in s["load_avg_before"]),
                     ", ".join(f"{x:.2f}" for x in s["load_avg_after"])])
    return table(["step", "load average before (1, 5, 15 min)", "after"], rows)


def compile_section(cost, source):
    if cost is None:
        return "Not measured in this run."
    rows = [[r["compiler"], r["case"]] + (["did not compile", "", ""] if r["user_s"] is None else
                                          [f"{r['user_s']:.2f}", f"{r['peak_mb']:.0f}", f"{r['text_kb']:.1f}"])
            for r in cost["rows"]]
    skipped = "".join(f"{line}\n" for line in cost["skipped"])
    return (f"`{cost['command']}`, in the same run ({cost['header']}). `bsx include` compiles the include "
            "alone; `bsx 20`, `eigen 20` and `xtensor 20` the same 20 everyday assignments in each library "
            "(`benchmark/compile_cost/`). User seconds and peak memory of the compiler, text size of the "
            f"object file:\n\n{table(['compiler', 'case', 'user s', 'peak MB', 'text KB'], rows)}\n\n"
            f"{skipped + chr(10) if skipped else ''}*Source: {source}.*")


def octave_table(octave):
    return table(["n", "Octave code", "ms"], [[str(t["n"]), t["code"], fmt_ms(t["ms"])] for t in octave["times"]])


def not_measured(times, run, py):
    """Sentences for the peers that this run did not measure, and why."""
    out = []
    for v, why in (("eigen", "the benchmark binaries were built without it (CMake did not find Eigen3)"),
                   ("xtensor", "the benchmark binaries were built without it (CMake did not find xtensor and xsimd)")):
        if not any(k[1] == v for k in times):
            out.append(f"{VARIANTS[v].split(' ')[0]}: not measured; {why}.")
    if py.get("numpy") is None:
        out.append(f"NumPy and numexpr: not measured; {py.get('executable')} has no NumPy.")
    elif py.get("numexpr") is None:
        out.append(f"numexpr: not measured; {py.get('executable')} has no numexpr module.")
    return out


# ---------------------------------------------------------------- the page
def page_text(results, run, times, py, cost, octave, images):
    m = run["machine"]
    load = run["load_avg_at_start"]
    forced = (f"**Forced run: the load average was {load[0]:.2f} when it started (above {run['quiet_load']}); other "
              "work ran beside these measurements, and these are not a quiet machine's numbers.**\n\n"
              if run["forced"] else "")
    src = {name: f"`{where(os.path.join(results, name + '.json'))}`"
           for name in ("run", "floyd_warshall", "chain", "python_peers", "compile_cost", "octave_manual")}
    flags = m["flags"].get("floyd_warshall", {})
    missing = not_measured(times, run, py)
    reps = run["repetitions"]
    fw_sections = []
    for n in FW_SIZES:
        fw_table, fw_note = workload_table(times, "fw", n)
        fw_sections.append(f"### n = {n}\n\n{fw_note}\n\n{fw_table}\n\n![Floyd-Warshall, n = {n}]({images[n]})\n")
    chain_table, chain_note = workload_table(times, "chain", 0)
    return f"""# bsx performance

{forced}*Generated by `benchmark/performance.py` from the JSON in `{where(results)}/` that its
last run wrote; every number above the sections it keeps comes from those files. To measure
again, on a quiet machine (it refuses to run with a load average above {run['quiet_load']}):*

```
cmake --preset bench && cmake --build --preset bench --target bench_floyd_warshall bench_chain
/usr/bin/python3 benchmark/performance.py --run build/bench/benchmark
```

## The machine and the run

| | |
|---|---|
| CPU | {m['cpu']}, {m['cores']} cores{f", {m['memory_mb']:,} MB of memory" if m.get('memory_mb') else ''} |
| vector units | {m.get('vector_isa', 'not recorded')}; `-march=native` is {m.get('native_arch') or 'not recorded'} |
| OS | {m['os']} |
| compiler | {m.get('compiler_version') or m['compiler']} ({m['compiler']}), CMake build type {m.get('build_type')} |
| flags | `{flags.get('CXX_FLAGS', '?')}` |
| definitions | `{flags.get('CXX_DEFINES', '?')}` |
| peers | NumPy {py.get('numpy') or 'not installed'}, numexpr {py.get('numexpr') or 'not installed'} (Python {py.get('python', '?')}, `{py.get('executable')}`); Eigen {m.get('eigen') or 'not found'}; xtensor {m.get('xtensor') or 'not found'} |
| bsx | `{m.get('bsx_commit')}`, {m['date']} |
| repetitions | {reps}, interleaved at random (Google Benchmark); NumPy and numexpr {reps} in a row |

Load average before and after each step (a step's own threads raise the load after it):

{load_table(run)}

*Source: {src['run']}.*

**How to read the tables.** Times are wall-clock milliseconds, the median of {reps}
repetitions, with the fastest and slowest repetition beside it. Each ratio is a time divided
by the fastest hand-written loop at the same thread count in this run, serial or OpenMP
(whichever was faster), and the cell names that loop. The 2-thread columns are empty for code
that runs on one thread whatever the thread count: NumPy's element-wise operations, Eigen's
coefficient-wise expressions, and xtensor's broadcasting assignment. The plots show the same
ratios on a linear axis from zero, with 1.0 (the fastest hand loop) marked. The benchmark
programs' eager C++ variants (one fresh array per operation) are left out: NumPy itself is
measured, and the eager variants are not a model of its speed.
{"".join(chr(10) + s for s in missing)}

## Floyd-Warshall

One iteration is the whole k loop over a random graph (edge probability 0.1, weights in
[1, 100), +inf without an edge), on a fresh copy of the input. bsx's step is
`dist = bsx::min(dist, dist.col(k) + dist.row(k));`; the hand loops relax the matrix in place
(serial, and OpenMP over rows with `omp simd` inside; the NaN-propagating one computes
`bsx::min`'s semantics, the others `std::min`'s); Eigen's step is `dist = dist.min(colk.rowwise().replicate(n) +
rowk.colwise().replicate(n))` and xtensor's `xt::noalias(dist) = xt::minimum(dist,
view(colk, all(), newaxis()) + rowk)`, both after copying column and row k as bsx does
(`benchmark/bench_floyd_warshall.cpp`). NumPy's step is
`d = np.minimum(d, d[:, k, None] + d[None, k, :])` (a new array per step, as the Octave manual
writes it) or the same with `out=d` (one temporary per step), on a graph of the same kind
(other random numbers).

*Source: {src['floyd_warshall']} and {src['python_peers']}.*

{chr(10).join(fw_sections)}

## A six-operand chain

`r = a*b + c*d - e/(f + 1.0)` on 2000 x 5000 doubles into a preallocated `r`
(`benchmark/bench_chain.cpp`): bsx, the hand loops, the same line on Eigen arrays and on xtensor arrays (`xt::noalias`), in NumPy
(`r[...] = ...`, one thread) and in numexpr (`ne.evaluate(..., out=r)`).

*Source: {src['chain']} and {src['python_peers']}.*

{chain_note}

{chain_table}

![chain]({images['chain']})

## Compile cost

{compile_section(cost, src['compile_cost'])}

## Other machines: the Octave manual

Not measured here, and not comparable with the tables above: the Octave manual's broadcasting
chapter times the same Floyd-Warshall in Octave on its own machine, which it does not name.
Its figures as printed ({octave['unit']}):

{octave_table(octave)}

*Source: {src['octave_manual']} ({octave['source']}).*

"""


def write_page(results, page_path, force):
    run = read_json(results, "run")
    if run is None:
        print(f"no {where(os.path.join(results, 'run.json'))}: measure first (--run BENCH_DIR)", file=sys.stderr)
        return 1
    if run["forced"] and not force:
        print(f"the run started at load average {run['load_avg_at_start'][0]:.2f} > {QUIET_LOAD}: "
              "--force to write its page anyway", file=sys.stderr)
        return 1
    times = {**times_of(read_json(results, "floyd_warshall")), **times_of(read_json(results, "chain"))}
    python_peers = read_json(results, "python_peers") or {"context": {}, "benchmarks": []}
    times.update(times_of(python_peers))
    py = python_peers["context"]
    cost, octave = read_json(results, "compile_cost"), read_json(results, "octave_manual") or OCTAVE_MANUAL
    img_dir = os.path.join(os.path.dirname(os.path.abspath(page_path)), "img")
    os.makedirs(img_dir, exist_ok=True)
    images = {100: "img/floyd_warshall_100.png", 1000: "img/floyd_warshall.png", "chain": "img/chain.png"}
    m = run["machine"]
    note = f"{m['cpu']}, {m['cores']} cores, {m['date'][:10]}; load average {run['load_avg_at_start'][0]:.2f} at the start"
    if run["forced"]:
        note += " (forced: not a quiet machine)"
    for n in FW_SIZES:
        ratio_plot(os.path.join(img_dir, os.path.basename(images[n])), f"Floyd-Warshall, n = {n}", times, "fw", n, note)
    ratio_plot(os.path.join(img_dir, "chain.png"), "r = a*b + c*d - e/(f + 1), 2000 x 5000 doubles", times, "chain", 0, note)
    text = page_text(results, run, times, py, cost, octave, images)
    kept = ""
    if os.path.exists(page_path):
        old = open(page_path).read()
        kept = old[old.index(KEEP):] if KEEP in old else ""
    if not kept:
        print(f"{page_path} has no KEEP marker: written without kept sections", file=sys.stderr)
        kept = KEEP + "\n"
    with open(page_path, "w") as f:
        f.write(text + kept)
    print(f"wrote {page_path} and its plots in {img_dir}")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--run", metavar="BENCH_DIR", help="measure with the benchmark binaries in BENCH_DIR first")
    parser.add_argument("--force", action="store_true", help=f"measure and write even above load average {QUIET_LOAD}")
    parser.add_argument("--repetitions", type=int, default=5, help="repetitions of every time (default 5)")
    parser.add_argument("--compilers", nargs="*", default=[], help="for measure.sh (default: its own, g++ and clang++-14)")
    parser.add_argument("--compile-repeats", type=int, default=3, help="REPEATS for measure.sh (default 3)")
    parser.add_argument("--python", default="/usr/bin/python3", help="the Python that times NumPy and numexpr")
    parser.add_argument("--results", default=os.path.join(ROOT, "benchmark", "results"), help="the JSON directory")
    parser.add_argument("--page", default=os.path.join(ROOT, "doc", "performance.md"), help="the page (plots in img/ beside it)")
    parser.add_argument("--time-python-peers", metavar="OUT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.time_python_peers:
        time_python_peers(args.time_python_peers, args.repetitions)
        return 0
    if args.run:
        load = load_average()[0]
        if load > QUIET_LOAD and not args.force:
            print(f"load average {load:.2f} > {QUIET_LOAD}: the machine is busy, and other work would be measured "
                  "with bsx's; --force to run anyway (the page will say so)", file=sys.stderr)
            return 1
        run_all(args)
    return write_page(args.results, args.page, args.force)


if __name__ == "__main__":
    sys.exit(main())
