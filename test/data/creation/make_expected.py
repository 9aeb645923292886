#!/usr/bin/python3
"""Writes the .npy fixtures of test/test_creation_threads.cpp: NumPy's arange, linspace,
logspace and eye for the cases the test builds with bsx (run once; the output is committed).

    /usr/bin/python3 test/data/creation/make_expected.py
"""
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

CASES = {
    "arange_f64_tenths": np.arange(0.0, 1.0, 0.1),
    "arange_f64_neg_step": np.arange(2.5, -1.0, -0.3),
    "arange_f64_odd": np.arange(0.1, 3.3, 0.37),
    "arange_i32_step3": np.arange(-7, 20, 3, dtype=np.int32),
    "arange_i64_down": np.arange(10, -11, -4, dtype=np.int64),
    "arange_i8_wide": np.arange(-100, 120, 7, dtype=np.int8),
    "linspace_f64": np.linspace(-1.0, 2.0, 7),
    "linspace_f64_no_end": np.linspace(-1.0, 2.0, 7, endpoint=False),
    "linspace_f64_thirds": np.linspace(0.0, 1.0, 31),
    "linspace_f64_one": np.linspace(3.0, 5.0, 1),
    "linspace_f64_flat": np.linspace(4.0, 4.0, 5),
    "linspace_f64_denormal": np.linspace(0.0, 1e-320, 9),
    "linspace_i32": np.linspace(-3.0, 4.0, 11, dtype=np.int32),
    "linspace_f32": np.linspace(0.0, 1.0, 13, dtype=np.float32),
    "logspace_f64": np.logspace(-2.0, 3.0, 11),
    "logspace_f64_base2": np.logspace(0.0, 10.0, 6, base=2.0),
    "logspace_i64": np.logspace(0.0, 4.0, 9, dtype=np.int64),
    "eye_4": np.eye(4),
    "eye_3x5_k2": np.eye(3, 5, k=2),
    "eye_5x3_km1": np.eye(5, 3, k=-1),
    "eye_3x4_k9": np.eye(3, 4, k=9, dtype=np.int32),
}

for name, value in CASES.items():
    np.save(os.path.join(HERE, name + ".npy"), value)
