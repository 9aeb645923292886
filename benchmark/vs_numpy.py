#!/usr/bin/env python3
"""bsx beside NumPy and numexpr on the same workloads: one Markdown table of ratios.

Usage (with the Debian python, which has numpy and numexpr):
    cmake --preset bench && cmake --build --preset bench
    /usr/bin/python3 benchmark/vs_numpy.py                      # binaries under build/bench/benchmark/
    /usr/bin/python3 benchmark/vs_numpy.py --bench-dir DIR --repetitions 9 --filter add_f64
    # another build's binaries, e.g. the nosleef preset's (every math function from libmvec):
    cmake --preset nosleef && cmake --build --preset nosleef --target bench_math
    /usr/bin/python3 benchmark/vs_numpy.py --bench-dir build/nosleef/benchmark --filter '^BM_math_.*_m_bsx'

For each case the bsx side is the median over --repetitions runs of a Google Benchmark
program (read as JSON), run right before the NumPy and numexpr sides, which are timed
with timeit on inputs of the same shapes and types (median of as many repeats). NumPy
runs on 1 thread; numexpr on 1 and 2 (numexpr.set_num_threads); bsx on 1 and 2 (its
/threads:<t> argument).

Every ratio is other time / bsx time: above 1 bsx is faster; below 0.9 bsx is slower beyond
noise and the row is marked. Without numpy the script says so and exits 0. Standard library
besides numpy and numexpr.

Cases are rows (bsx benchmark name without /threads:<t>, NumPy statement, numexpr
expression or None, setup code). The setup runs with `np` and the helper `rand(shape,
dtype)` in scope and must define what the statements use; the numexpr expression is
evaluated into `r` (out=r). Each issue keeps its own list; SUITES says which binary runs it.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import timeit
from pathlib import Path

# Pin the libraries NumPy may thread through to one thread, before numpy is imported.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ[_var] = "1"

# ---- issue 9: element-wise (benchmark/bench_elementwise.cpp) ----------------------------

_N = "n = 100000\n"
_STRIDES = {"c": 1, "s2": 2, "s4": 4}
_TYPES = {"f64": "np.float64", "f32": "np.float32", "i32": "np.int32", "i64": "np.int64"}
_UFUNC = {"add": ("np.add", "+"), "mul": ("np.multiply", "*"), "div": ("np.divide", "/")}


def _binary(op, type_, lay, out_dtype=None):
    """r = a <op> b on 10^5 elements of the layout `lay`, as in bench_elementwise.cpp."""
    dtype = _TYPES[type_]
    if lay == "v2d":  # a 400x250 window of a 400x252 array
        setup = (f"a0 = rand((400, 252), {dtype}); b0 = rand((400, 252), {dtype})\n"
                 f"a = a0[:, 1:251]; b = b0[:, 1:251]\n")
        setup += f"r = np.empty((400, 250), {out_dtype or dtype})\n"
    elif lay == "so2":  # contiguous inputs, the destination written with stride 2
        setup = _N + (f"a = rand(n, {dtype}); b = rand(n, {dtype})\n"
                      f"r0 = np.empty(2 * n, {out_dtype or dtype}); r = r0[::2]\n")
    else:
        s = _STRIDES[lay]
        setup = _N + (f"a0 = rand(n * {s}, {dtype}); b0 = rand(n * {s}, {dtype})\n"
                      f"a = a0[::{s}]; b = b0[::{s}]\n"
                      f"r = np.empty(n, {out_dtype or dtype})\n")
    ufunc, symbol = _UFUNC.get(op, ("np.less", "<"))
    return (f"BM_ew_{op}_{type_}_{lay}_bsx", f"{ufunc}(a, b, out=r)", f"a {symbol} b", setup)


def _bool_case(name, numpy_stmt, ne_expr):
    setup = _N + "p = rand(n, np.bool_); q = rand(n, np.bool_); r = np.empty(n, np.bool_)\n"
    return (f"BM_ew_{name}_bsx", numpy_stmt, ne_expr, setup)


ELEMENTWISE_CASES = [
    ("BM_ew_outer_diff_bsx", "np.subtract(x[:, None], y[None, :], out=r)", "xc - yr",
     "x = rand(4000, np.float64); y = rand(4000, np.float64)\n"
     "xc = x[:, None]; yr = y[None, :]; r = np.empty((4000, 4000))\n"),
    *[_binary("add", t, lay) for t in _TYPES for lay in ("c", "s2", "s4", "v2d", "so2")],
    *[_binary("mul", t, "c") for t in _TYPES],
    *[_binary("div", t, "c") for t in ("f64", "f32")],
    _bool_case("not_bool_c", "np.invert(p, out=r)", "~p"),
    _bool_case("and_bool_c", "np.bitwise_and(p, q, out=r)", "p & q"),
    _bool_case("or_bool_c", "np.bitwise_or(p, q, out=r)", "p | q"),
    *[_binary("less", t, "c", "np.bool_") for t in _TYPES],
    ("BM_ew_small_fma_bsx", "np.multiply(a, b, out=r); np.add(r, c, out=r)", "a * b + c",
     "a = rand(1000, np.float64); b = rand(1000, np.float64); c = rand(1000, np.float64)\n"
     "r = np.empty(1000)\n"),
    ("BM_ew_small_add_bsx", "np.add(a, b, out=r)", "a + b",
     "a = rand(100, np.float64); b = rand(100, np.float64); r = np.empty(100)\n"),
]

# ---- issue 8: reductions (benchmark/bench_axis_reductions.cpp) ---------------------------

_DTYPES = {"float32": "np.float32", "float64": "np.float64", "int32": "np.int32", "int64": "np.int64",
           "bool": "np.bool_"}


def _reduction_data(red, dtype, shape, name):
    """The line that makes the matrix `name` of `shape` for np.<red> (see _reduction)."""
    t = _DTYPES[dtype]
    if red in ("all", "any"):
        return f"{name} = np.{'ones' if red == 'all' else 'zeros'}({shape}, {t})\n"
    if dtype.startswith("float"):
        return f"{name} = np.random.default_rng(7).uniform(0.5, 1.5, {shape}).astype({t})\n"
    return f"{name} = np.random.default_rng(7).integers(1, 4, {shape}).astype({t})\n"


def _reduction(red, dtype, axis, size):
    """np.<red> of a size x size matrix, whole or along axis 0 or 1 into a preallocated r,
    on the data bench_axis_reductions.cpp uses: ones for all and zeros for any (full
    scans), else floats in [0.5, 1.5) or integers 1 to 3."""
    data = _reduction_data(red, dtype, f"({size}, {size})", "x")
    if axis == "whole":
        setup, stmt = data, f"np.{red}(x)"
    else:
        k = axis[-1]
        setup, stmt = data + f"r = np.{red}(x, axis={k})\n", f"np.{red}(x, axis={k}, out=r)"
    return (f"BM_np_{red}_{dtype}_{axis}_{size}x{size}_bsx", stmt, None, setup)


def _reduction_of_view(red, dtype, view):
    """np.<red>(x, axis=1) into a preallocated r, x a view: every 2nd column of a 2000 x 4000
    matrix (stride2) or the 100 x 100 corner of a 1000 x 1000 one (view100)."""
    whole, cut = ("(2000, 4000)", "x0[:, ::2]") if view == "stride2" else ("(1000, 1000)", "x0[:100, :100]")
    setup = _reduction_data(red, dtype, whole, "x0") + f"x = {cut}; r = np.{red}(x, axis=1)\n"
    return (f"BM_np_{red}_{dtype}_axis1_{view}_bsx", f"np.{red}(x, axis=1, out=r)", None, setup)


REDUCTION_CASES = [
    _reduction(red, dtype, axis, size)
    for dtype in _DTYPES
    for red in (("all", "any") if dtype == "bool" else ("sum", "prod", "min", "max", "all", "any"))
    for axis in ("whole", "axis0", "axis1")
    for size in (100, 2000)
] + [
    _reduction_of_view(red, dtype, view)
    for red, dtype in (("sum", "float32"), ("sum", "float64"), ("all", "bool"), ("any", "bool"))
    for view in ("stride2", "view100")
]

# ---- issue 9: vector math (benchmark/bench_math.cpp) --------------------------------------

# bsx name: (NumPy ufunc, numexpr function or None, arity, input scale)
_MATH = {
    "sqrt": ("np.sqrt", "sqrt", 1, 1), "cbrt": ("np.cbrt", None, 1, 1), "exp": ("np.exp", "exp", 1, 1),
    "expm1": ("np.expm1", "expm1", 1, 1), "log": ("np.log", "log", 1, 1), "log2": ("np.log2", None, 1, 1),
    "log10": ("np.log10", "log10", 1, 1), "log1p": ("np.log1p", "log1p", 1, 1), "sin": ("np.sin", "sin", 1, 1),
    "cos": ("np.cos", "cos", 1, 1), "tan": ("np.tan", "tan", 1, 1), "asin": ("np.arcsin", "arcsin", 1, 0.5),
    "acos": ("np.arccos", "arccos", 1, 0.5), "atan": ("np.arctan", "arctan", 1, 1),
    "sinh": ("np.sinh", "sinh", 1, 1), "cosh": ("np.cosh", "cosh", 1, 1), "tanh": ("np.tanh", "tanh", 1, 1),
    "pow": ("np.power", "x ** y", 2, 1), "atan2": ("np.arctan2", "arctan2", 2, 1), "hypot": ("np.hypot", None, 2, 1),
}


# 10^6 elements read with stride 1, 2 or 4 (lay m, ms2, ms4)
_LONG_STRIDES = {"m": 1, "ms2": 2, "ms4": 4}
# the functions that also run on ms2, ms4 and v100 (issue 36)
_MORE_LAYOUTS = ("exp", "log", "sin", "cos", "atan2", "sqrt", "pow")


def _math(fn, type_, lay):
    """r = fn(x[, y]) on 10^5 float or double elements read with stride 1, 2 or 4 (lay c, s2,
    s4), on 10^6 ones read with stride 1, 2 or 4 (lay m, ms2, ms4), or on the 100 x 100
    corner of a 1000 x 1000 array into a 100 x 100 one (lay v100)."""
    ufunc, ne_fn, arity, scale = _MATH[fn]
    dtype = _TYPES[type_]
    if lay == "v100":
        setup = (f"x0 = rand((1000, 1000), {dtype}) * {dtype}({scale}); y0 = rand((1000, 1000), {dtype})\n"
                 f"x = x0[:100, :100]; y = y0[:100, :100]; r = np.empty((100, 100), {dtype})\n")
    else:
        s = _LONG_STRIDES.get(lay) or _STRIDES[lay]
        setup = ("n = 1000000\n" if lay in _LONG_STRIDES else _N) + (
            f"x0 = rand(n * {s}, {dtype}) * {dtype}({scale}); y0 = rand(n * {s}, {dtype})\n"
            f"x = x0[::{s}]; y = y0[::{s}]; r = np.empty(n, {dtype})\n")
    args = "x" if arity == 1 else "x, y"
    ne = None if ne_fn is None else (ne_fn if "**" in ne_fn else f"{ne_fn}({args})")
    return (f"BM_math_{fn}_{type_}_{lay}_bsx", f"{ufunc}({args}, out=r)", ne, setup)


MATH_CASES = [
    ("BM_sum_exp_bsx", "np.sum(np.exp(x))", None, "x = rand(10**7, np.float64) - 1.25\n"),
    ("BM_hypot_outer_bsx", "np.sqrt(xc * xc + yr * yr, out=r)", "sqrt(xc * xc + yr * yr)",
     "x = rand(4000, np.float64); y = rand(4000, np.float64)\n"
     "xc = x[:, None]; yr = y[None, :]; r = np.empty((4000, 4000))\n"),
    *[_math(fn, t, lay) for fn in _MATH for t in ("f64", "f32") for lay in (*_STRIDES, "m")],
    *[_math(fn, t, lay) for fn in _MORE_LAYOUTS for t in ("f64", "f32") for lay in ("ms2", "ms4", "v100")],
]

# ---- issue 32: sorting (benchmark/bench_sort.cpp) ------------------------------------------

_SORT_INPUT = "a = np.random.default_rng(42).uniform(-1.0, 1.0, 10**7)\n"  # 10^7 doubles, as the C++ side

SORT_CASES = [
    ("BM_sort_bsx", "np.sort(a)", None, _SORT_INPUT),
    ("BM_argsort_bsx", "np.argsort(a, kind='stable')", None, _SORT_INPUT),
]

# ---- issue 31: index reductions, statistics, scans, clip, creation, random numbers ----------
# (benchmark/bench_index_stats.cpp, bench_scans_clip.cpp, bench_creation_random.cpp)

_MATRIX = "x = np.random.default_rng(1).uniform(0.0, 1.0, (2000, 2000))\n"

INDEX_STATS_CASES = [
    *[(f"BM_argmax_bsx<{k}>", f"np.argmax(x, axis={k}, out=r)", None, _MATRIX + "r = np.empty(2000, np.int64)\n")
      for k in (0, 1)],
    *[(f"BM_std_bsx<{k}>", f"np.std(x, axis={k}, out=r)", None, _MATRIX + "r = np.empty(2000)\n") for k in (0, 1)],
]

SCAN_CLIP_CASES = [
    *[(f"BM_cumsum_axis{k}_bsx", f"np.cumsum(x, axis={k}, out=r)", None, _MATRIX + "r = np.empty_like(x)\n")
      for k in (0, 1)],
    ("BM_cumsum_flat_bsx", "np.cumsum(v, out=r)", None,
     "v = np.random.default_rng(2).uniform(0.0, 1.0, 4000000); r = np.empty_like(v)\n"),
    ("BM_clip_bsx", "np.clip(x, 0.75, 1.25, out=r)", "where(x < 0.75, 0.75, where(x > 1.25, 1.25, x))",
     _MATRIX + "r = np.empty_like(x)\n"),
]

CREATION_RANDOM_CASES = [
    ("BM_linspace_bsx", "np.linspace(0.0, 1.0, 10**7)", None, ""),
    ("BM_normal_bsx", "g.standard_normal(out=r)", None, "g = np.random.default_rng(1); r = np.empty(10**7)\n"),
    ("BM_uniform_bsx", "g.random(out=r)", None, "g = np.random.default_rng(1); r = np.empty(10**7)\n"),
    # issue 36: the fixed cost of a small new array, in NumPy's quickest spellings
    *[(f"BM_zeros_{t}_{k}_bsx", f"np.zeros({k}{'' if t == 'f64' else ', np.float32'})", None, "")
      for t in ("f64", "f32") for k in (100, 1000)],
    *[(f"BM_arange_{t}_{k}_bsx", f"np.arange({k}.0)" if t == "f64" else f"np.arange({k}, dtype=np.float32)", None, "")
      for t in ("f64", "f32") for k in (100, 1000)],
]

# ---- issue 32: indexing by arrays (benchmark/bench_gather.cpp) ------------------------------
# take: 10^6 random int64 indices into 10^6 doubles, into a preallocated r; masked: a fair
# random mask on 4000x4000, NumPy's fastest spelling of `x(m) = y + 1.0` (np.putmask, ahead
# of np.copyto(..., where=m) and x[m] = y[m] + 1.0).

GATHER_CASES = [
    ("BM_take_bsx", "np.take(x, idx, out=r)", None,
     "_g = np.random.default_rng(42); x = _g.uniform(-1.0, 1.0, 10**6)\n"
     "idx = _g.integers(0, 10**6, 10**6); r = np.empty(10**6)\n"),
    ("BM_masked_bsx", "np.putmask(x, m, y + 1.0)", "where(m, y + 1.0, x)",
     "_g = np.random.default_rng(43); x = _g.uniform(0.5, 2.0, (4000, 4000))\n"
     "y = _g.uniform(0.5, 2.0, (4000, 4000)); m = _g.random((4000, 4000)) < 0.5; r = x\n"),
]

# ---- issue 32: assembly and rearrangement (benchmark/bench_assembly.cpp) -----------------

_HALVES = ("a = np.random.default_rng(1).uniform(0.5, 1.5, (2000, 4000)); "
           "b = np.random.default_rng(2).uniform(0.5, 1.5, (2000, 4000))\n")
_IMAGE = "img = np.random.default_rng(3).uniform(0.5, 1.5, (1080, 1920)); r = np.empty_like(img)\n"

ASSEMBLY_CASES = [
    ("BM_concat_plus_bsx", "np.add(np.concatenate([a, b], axis=0), 1.0, out=r)", None,
     _HALVES + "r = np.empty((4000, 4000))\n"),
    ("BM_concat_lazy_bsx", "np.concatenate([a * 2.0, b + 1.0], axis=0, out=r)", None,
     _HALVES + "r = np.empty((4000, 4000))\n"),
    ("BM_concat_axis1_bsx", "np.add(np.concatenate([a, b], axis=1), 1.0, out=r)", None,
     _HALVES + "r = np.empty((2000, 8000))\n"),
    ("BM_pad_reflect_bsx", "np.pad(img, 8, mode='reflect')", None, _IMAGE),
    ("BM_flip_bsx", "np.copyto(r, np.flip(img))", None, _IMAGE),
    ("BM_roll_bsx", "np.roll(img, 5, axis=1)", None, _IMAGE),
]

# ---- issue 32: text files (benchmark/bench_files.cpp) ---------------------------------------

# 10^5 lines of 10 doubles in np.savetxt's format, as the C++ side's file
_TXT_INPUT = ("import tempfile, os\n"
              "a = np.random.default_rng(42).uniform(-1.0, 1.0, (10**5, 10))\n"
              "path = os.path.join(tempfile.mkdtemp(), 'bench.txt'); np.savetxt(path, a)\n")

FILES_CASES = [
    ("BM_load_txt_bsx", "np.loadtxt(path)", None, _TXT_INPUT),
    ("BM_save_txt_bsx", "np.savetxt(path + '.out', a)", None, _TXT_INPUT),
]

# ---- issue 32: products (benchmark/bench_matmul.cpp) ---------------------------------------
# NumPy's @ runs on its BLAS, pinned to one thread above (OPENBLAS_NUM_THREADS=1).

MATMUL_CASES = [
    (f"BM_matmul_{variant}<{n}>", "a @ b", None,
     f"g = np.random.default_rng(1); a = g.uniform(-1.0, 1.0, ({n}, {n})); b = g.uniform(-1.0, 1.0, ({n}, {n}))\n")
    for variant in ("bsx", "own") for n in (200, 1000, 2000)
]

# ---- issue 36: math on short rows (benchmark/bench_math.cpp, BM_rows_*) ----------------------
# r = f(v), v the first 10^4 / len rows of len elements of a wider array: a[:100, :100] of a
# 1000 x 1000 a for rows of 100, as the C++ side (1000 columns, 2000 for rows of 1000).


def _short_rows(fn, type_, length):
    rows, cols = 10000 // length, max(1000, 2 * length)
    setup = (f"a = rand(({rows}, {cols}), {_TYPES[type_]}); v = a[:, :{length}]\n"
             f"r = np.empty(({rows}, {length}), {_TYPES[type_]})\n")
    return (f"BM_rows_{fn}_{type_}_{length}_bsx", f"np.{fn}(v, out=r)", f"{fn}(v)", setup)


SHORT_ROWS_CASES = [_short_rows(fn, t, n) for fn in ("exp", "sin", "cos", "log") for t in ("f32", "f64")
                    for n in (16, 100, 1000)]

# (title, benchmark binary, cases)
SUITES = [
    ("element-wise", "bench_elementwise", ELEMENTWISE_CASES),
    ("vector math", "bench_math", MATH_CASES),
    ("math on short rows", "bench_math", SHORT_ROWS_CASES),
    ("reductions", "bench_axis_reductions", REDUCTION_CASES),
    ("sorting", "bench_sort", SORT_CASES),
    ("index reductions and statistics", "bench_index_stats", INDEX_STATS_CASES),
    ("scans and clip", "bench_scans_clip", SCAN_CLIP_CASES),
    ("creation and random numbers", "bench_creation_random", CREATION_RANDOM_CASES),
    ("indexing by arrays", "bench_gather", GATHER_CASES),
    ("assembly", "bench_assembly", ASSEMBLY_CASES),
    ("text files", "bench_files", FILES_CASES),
    ("products", "bench_matmul", MATMUL_CASES),
]

# ---- machinery ---------------------------------------------------------------------------

TO_SECONDS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
THREADS = (1, 2)
NOT_SLOWER = 0.9  # other time / bsx time at or above this: not slower beyond noise


def rand(shape, dtype):
    """Inputs like the C++ side's: floats in [0.5, 2), integers in [-1000, 1000], fair bools."""
    import numpy as np
    rng = np.random.default_rng(1)
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if np.issubdtype(dtype, np.integer):
        return rng.integers(-1000, 1001, shape).astype(dtype)
    return rng.uniform(0.5, 2.0, shape).astype(dtype)


def bsx_medians(binary, names, repetitions, min_time):
    """{(benchmark name, threads): median seconds} from one run of `binary`."""
    pattern = "^(" + "|".join(re.escape(n) for n in names) + ")/"
    cmd = [str(binary), "--benchmark_format=json", f"--benchmark_filter={pattern}",
           f"--benchmark_repetitions={repetitions}", "--benchmark_report_aggregates_only=true",
           f"--benchmark_min_time={min_time}"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    medians = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("aggregate_name", "median") != "median" or b.get("error_occurred"):
            continue
        parts = b.get("run_name", b["name"]).split("/")
        threads = next((int(p.split(":")[1]) for p in parts if p.startswith("threads:")), 1)
        medians[(parts[0], threads)] = b["real_time"] * TO_SECONDS[b["time_unit"]]
    return medians


def time_statement(stmt, namespace, repetitions):
    """Median seconds per execution of `stmt` (each repeat runs long enough to time)."""
    timer = timeit.Timer(stmt, globals=namespace)
    number, _ = timer.autorange()
    number = max(1, number // 4)  # autorange aims at 0.2 s; 0.05 s per repeat is enough
    return statistics.median(t / number for t in timer.repeat(repeat=repetitions, number=number))


def other_times(case, repetitions, numexpr):
    """NumPy at 1 thread and numexpr at 1 and 2 threads, in seconds (None: not run)."""
    import numpy as np
    _, numpy_stmt, ne_expr, setup = case
    ns = {"np": np, "rand": rand}
    exec(setup, ns)  # the case's own inputs, made here, by this script's table
    times = {"numpy": time_statement(numpy_stmt, ns, repetitions)}
    for t in THREADS:
        times[f"numexpr{t}"] = None
        if numexpr is not None and ne_expr is not None:
            numexpr.set_num_threads(t)
            ns["_ne"], ns["_ex"] = numexpr, ne_expr
            times[f"numexpr{t}"] = time_statement("_ne.evaluate(_ex, out=r)", ns, repetitions)
    return times


def fmt_time(t):
    if t is None:
        return "-"
    return f"{t * 1e3:.3f} ms" if t >= 1e-3 else f"{t * 1e6:.2f} us"


def fmt_ratio(other, mine, misses):
    if other is None or mine is None:
        return "-"
    r = other / mine
    if r < NOT_SLOWER:
        misses.append(r)
        return f"**{r:.2f}**"
    return f"{r:.2f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bench-dir", default=Path(__file__).resolve().parent.parent / "build/bench/benchmark",
                    type=Path, help="where the bsx benchmark binaries are (default: build/bench/benchmark)")
    ap.add_argument("--repetitions", type=int, default=5, help="bsx repetitions and timeit repeats (medians)")
    ap.add_argument("--min-time", type=float, default=0.05, help="--benchmark_min_time per bsx repetition")
    ap.add_argument("--filter", default="", help="regular expression: only cases whose bsx name matches")
    args = ap.parse_args()

    try:
        import numpy as np
    except ImportError:
        print("vs_numpy: numpy is not installed for this python; nothing to compare (use /usr/bin/python3)")
        return 0
    try:
        import numexpr
    except ImportError:
        numexpr = None
    print(f"NumPy {np.__version__} (1 thread), numexpr {numexpr.__version__ if numexpr else 'not installed'}; "
          f"ratio = other time / bsx time (below {NOT_SLOWER}: bsx slower, in bold); "
          f"medians of {args.repetitions}\n")
    print("| case | bsx 1t | NumPy 1t | NumPy/bsx | numexpr 1t | ne/bsx 1t | bsx 2t | numexpr 2t | ne/bsx 2t |")
    print("|---|---|---|---|---|---|---|---|---|")
    total_misses = 0
    for title, binary_name, cases in SUITES:
        cases = [c for c in cases if re.search(args.filter, c[0])]
        binary = args.bench_dir / binary_name
        if not cases:
            continue
        if not binary.exists():
            print(f"| *{title}: {binary} not built, skipped* |||||||||")
            continue
        for case in cases:
            name = case[0]
            # Each case's bsx run right before its NumPy run: a machine whose speed drifts
            # (a shared host) then moves both sides of a ratio alike.
            mine = bsx_medians(binary, [name], args.repetitions, args.min_time)
            other = other_times(case, args.repetitions, numexpr)
            misses = []
            b1, b2 = mine.get((name, 1)), mine.get((name, 2))
            row = [fmt_time(b1), fmt_time(other["numpy"]), fmt_ratio(other["numpy"], b1, misses),
                   fmt_time(other["numexpr1"]), fmt_ratio(other["numexpr1"], b1, misses),
                   fmt_time(b2), fmt_time(other["numexpr2"]), fmt_ratio(other["numexpr2"], b2, misses)]
            label = re.sub(r"^BM_|_bsx$", "", name) + (" (slower)" if misses else "")
            total_misses += bool(misses)
            print(f"| {label} | " + " | ".join(row) + " |")
            sys.stdout.flush()
    print(f"\n{total_misses} case(s) where bsx is slower beyond noise.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
