#!/usr/bin/python3
"""Writes the .npy fixtures of test/test_products.cpp: operands and NumPy's results of
matmul, dot, inner, outer, vdot and einsum (run once; the output is committed). Each case
`name` has name_a.npy, name_b.npy (when there is a second operand) and name_want.npy; a
scalar result is saved as a 1-element 1-D array.

    /usr/bin/python3 test/data/products/make_expected.py
"""
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(32)


def floats(*shape):
    return rng.uniform(-2.0, 2.0, size=shape)


def ints(*shape, dtype=np.int32):
    return rng.integers(-9, 10, size=shape).astype(dtype)


CASES = {
    # name: (function, a, b)
    "matmul_2d": (np.matmul, floats(5, 7), floats(7, 3)),
    "matmul_vec_mat": (np.matmul, floats(7), floats(7, 4)),
    "matmul_mat_vec": (np.matmul, floats(4, 7), floats(7)),
    "matmul_vec_vec": (np.matmul, floats(9), floats(9)),
    "matmul_batch": (np.matmul, floats(2, 1, 3, 4), floats(5, 4, 2)),
    "matmul_batch_vec": (np.matmul, floats(3, 6), floats(2, 6, 4)),
    "matmul_stack_vec": (np.matmul, floats(2, 3, 6), floats(6)),
    "matmul_int": (np.matmul, ints(6, 5), ints(5, 8)),
    "matmul_empty_rows": (np.matmul, floats(0, 3), floats(3, 4)),
    "matmul_empty_inner": (np.matmul, floats(2, 0), floats(0, 3)),
    "dot_2d": (np.dot, floats(4, 5), floats(5, 3)),
    "dot_nd": (np.dot, floats(2, 3, 4), floats(5, 4, 6)),
    "dot_vec_nd": (np.dot, floats(4), floats(3, 4, 2)),
    "inner_2d": (np.inner, floats(2, 3), floats(4, 3)),
    "inner_nd": (np.inner, floats(2, 2, 3), floats(3)),
    "outer": (np.outer, floats(2, 2), floats(3)),
    "vdot": (np.vdot, floats(2, 3), floats(3, 2)),
}

EINSUM = {
    "einsum_contract": ("ij,jk->ik", floats(4, 5), floats(5, 3)),
    "einsum_contract_t": ("ij,jk->ki", floats(4, 5), floats(5, 3)),
    "einsum_batch": ("bij,bjk->bik", floats(3, 2, 4), floats(3, 4, 5)),
    "einsum_mixed": ("ijk,jl->lik", floats(2, 3, 4), floats(3, 5)),
    "einsum_transpose": ("ij->ji", floats(3, 4), None),
    "einsum_trace": ("ii->", floats(5, 5), None),
    "einsum_diagonal": ("ii->i", floats(4, 4), None),
    "einsum_outer": ("i,j->ij", floats(3), floats(4)),
    "einsum_rowdot": ("ij,ij->i", floats(3, 4), floats(3, 4)),
    "einsum_total": ("ij->", floats(3, 4), None),
    "einsum_int": ("ij,jk->ik", ints(3, 4, dtype=np.int64), ints(4, 2, dtype=np.int64)),
}


def save(name, a, b, want):
    np.save(os.path.join(HERE, name + "_a.npy"), a)
    if b is not None:
        np.save(os.path.join(HERE, name + "_b.npy"), b)
    np.save(os.path.join(HERE, name + "_want.npy"), np.atleast_1d(np.asarray(want)))


for name, (f, a, b) in CASES.items():
    save(name, a, b, f(a, b))
for name, (subscripts, a, b) in EINSUM.items():
    save(name, a, b, np.einsum(subscripts, a) if b is None else np.einsum(subscripts, a, b))
