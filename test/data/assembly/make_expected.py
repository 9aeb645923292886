#!/usr/bin/python3
"""Writes the .npy fixtures of test/test_assembly.cpp: NumPy's concatenate, stack, hstack,
vstack, tile, repeat, roll, flip, pad, squeeze, expand_dims and ravel for the cases the test
builds with bsx (run once; the output is committed).

    /usr/bin/python3 test/data/assembly/make_expected.py

The operands: x = arange(24).reshape(2, 3, 4) and, for joining along axis k, y of x's shape
with extent 2 on axis k, filled with 100 + arange.
"""
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

x = np.arange(24, dtype=np.float64).reshape(2, 3, 4)


def other(k, extent=2):
    shape = list(x.shape)
    shape[k] = extent
    return 100 + np.arange(np.prod(shape), dtype=np.float64).reshape(shape)


CASES = {}
for k in range(3):
    CASES[f"concatenate_axis{k}"] = np.concatenate([x, other(k), x * 2], axis=k)
    CASES[f"concatenate_empty_axis{k}"] = np.concatenate([other(k, 0), x, other(k, 0)], axis=k)
    CASES[f"repeat3_axis{k}"] = np.repeat(x, 3, axis=k)
    CASES[f"roll2_axis{k}"] = np.roll(x, 2, axis=k)
    CASES[f"roll-7_axis{k}"] = np.roll(x, -7, axis=k)
    CASES[f"flip_axis{k}"] = np.flip(x, axis=k)
for k in range(4):
    CASES[f"stack_axis{k}"] = np.stack([x, x + 1], axis=k)
CASES["concatenate_axis0_self"] = np.concatenate([x, x], axis=0)
CASES["roll5_flat"] = np.roll(x, 5)
CASES["flip_all"] = np.flip(x)
CASES["hstack"] = np.hstack([x, x + 1])
CASES["vstack"] = np.vstack([x, x + 1])
CASES["hstack_1d"] = np.hstack([x[0, 0], x[1, 2]])
CASES["vstack_1d"] = np.vstack([x[0, 0], x[1, 2]])
CASES["tile_2_1_3"] = np.tile(x, (2, 1, 3))
CASES["tile_2"] = np.tile(x, (2,))
CASES["tile_2_1_1_2"] = np.tile(x, (2, 1, 1, 2))
CASES["pad_constant"] = np.pad(x, ((1, 2), (0, 3), (2, 0)), constant_values=7)
CASES["pad_edge"] = np.pad(x, ((1, 2), (0, 3), (2, 0)), mode="edge")
CASES["pad_reflect"] = np.pad(x, ((3, 5), (1, 4), (6, 2)), mode="reflect")
CASES["pad_reflect_all"] = np.pad(x, 2, mode="reflect")
CASES["ravel_transposed"] = np.ravel(np.transpose(x))
CASES["expand_dims_axis-1"] = np.expand_dims(x, -1)
CASES["squeeze_axis1"] = np.squeeze(x[:, :1, :], axis=1)

for name, value in CASES.items():
    np.save(os.path.join(HERE, name + ".npy"), np.ascontiguousarray(value))
