#!/usr/bin/python3
"""Writes numpy_print.txt: how NumPy prints the arrays of test/test_print.cpp (run once;
the output is committed).

    /usr/bin/python3 test/data/print/make_expected.py

Each block is "@@ <case name>" and then np.array2string(x, separator=', ') under the
options given; test_print.cpp builds the same arrays with bsx and compares.
"""
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

CASES = [
    ("int_columns", lambda: np.array([[1, 2, 3], [10, 20, 30]]), {}),
    ("int_negative", lambda: np.array([-5, 100, 7]), {}),
    ("int_rank0", lambda: np.array(7), {}),
    ("int_rank3", lambda: np.arange(24).reshape(2, 3, 4), {}),
    ("int64_extremes", lambda: np.array([-2**63, 2**63 - 1], dtype=np.int64), {}),
    ("uint64_max", lambda: np.array([0, 2**64 - 1], dtype=np.uint64), {}),
    ("int8_bytes", lambda: np.array([-128, 127, 0], dtype=np.int8), {}),
    ("uint8_bytes", lambda: np.array([200, 7], dtype=np.uint8), {}),
    ("float_whole", lambda: np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), {}),
    ("float_mixed", lambda: np.array([1.0, 2.5, -0.125, 100.0]), {}),
    ("float_rounded", lambda: np.array([1 / 3, 2 / 3, 0.1 + 0.2]), {}),
    ("float_rank0", lambda: np.array(2.5), {}),
    ("float_negative_zero", lambda: np.array([-0.0, 1.0]), {}),
    ("float_nan_inf", lambda: np.array([np.nan, np.inf, -np.inf, 1.5, -np.nan]), {}),
    ("float_nan_only", lambda: np.array([np.nan, -np.nan]), {}),
    ("float_inf_wide", lambda: np.array([[np.inf, 123.25], [-np.inf, 0.5]]), {}),
    ("float_exp_small", lambda: np.array([1e-5, 1.0, 3.0]), {}),
    ("float_exp_large", lambda: np.array([1e8, 1.0, -2.5]), {}),
    ("float_exp_ratio", lambda: np.array([1.0, 2000.0]), {}),
    ("float_exp_nan", lambda: np.array([1e-7, np.nan, -np.inf]), {}),
    ("float_exp_3digit", lambda: np.array([1e-300, 1e300]), {}),
    ("float_suppress", lambda: np.array([1e-5, 1.0, 3.0]), {"suppress_small": True}),
    ("float_suppress_tiny", lambda: np.array([1e-10, 1.0, -1e-10]), {"suppress_small": True}),
    ("float_precision3", lambda: np.array([np.pi, np.e, np.sqrt(2)]), {"precision": 3}),
    ("float_precision0", lambda: np.array([10.4, 100.3, 0.4]), {"precision": 0}),
    ("float_precision0_halves", lambda: np.array([0.5, 1.5, 2.5, -0.4, np.nan]), {"precision": 0}),
    ("float_precision0_exp", lambda: np.array([1.5e10, 2.5e-3]), {"precision": 0}),
    ("float32_values", lambda: np.array([0.1, 1 / 3, 100.5], dtype=np.float32), {}),
    ("float32_exact_digits", lambda: np.array([-4.737826e9, 7.5900657e9, 2.5e10], dtype=np.float32), {}),
    ("bool_matrix", lambda: np.array([[True, False], [False, True]]), {}),
    ("bool_all_true", lambda: np.array([True, True]), {}),
    ("bool_rank0", lambda: np.array(False), {}),
    ("wrap_ints", lambda: np.arange(30), {}),
    ("wrap_floats", lambda: np.arange(20.0) / 7, {}),
    ("wrap_rows", lambda: np.arange(30).reshape(2, 15) * 1.5, {}),
    ("summary_1d", lambda: np.arange(2000), {}),
    ("summary_2d", lambda: np.arange(1600).reshape(40, 40) * 0.5, {}),
    ("summary_3d", lambda: np.arange(1331).reshape(11, 11, 11), {}),
    ("summary_narrow_axis", lambda: np.arange(1002).reshape(2, 501), {}),
    ("summary_options", lambda: np.arange(20), {"threshold": 10, "edgeitems": 2}),
    ("summary_edge_items_huge", lambda: np.arange(20), {"threshold": 5, "edgeitems": 2**63 - 1}),
    ("summary_edge_items_0", lambda: np.array([1000.5, 1, 2, 3, 4, 5, 19.5]), {"threshold": 5, "edgeitems": 0}),
    ("summary_edge_items_0_2d", lambda: np.arange(12).reshape(3, 4), {"threshold": 5, "edgeitems": 0}),
    ("summary_edge_items_negative", lambda: np.arange(20), {"threshold": 5, "edgeitems": -1}),
    ("summary_nan", lambda: np.where(np.arange(1500) % 2 == 0, np.arange(1500) * 0.25, np.nan), {}),
    ("line_width_30", lambda: np.arange(12), {"max_line_width": 30}),
]


def main():
    out = []
    for name, make, options in CASES:
        out.append("@@ " + name)
        out.append(np.array2string(make(), separator=", ", **options))
    with open(os.path.join(HERE, "numpy_print.txt"), "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"{len(CASES)} cases written by NumPy {np.__version__}")


if __name__ == "__main__":
    main()
