#!/usr/bin/python3
"""Writes the .npy fixtures of test/test_npy.cpp with NumPy (run once; the files are committed).

    /usr/bin/python3 test/data/npy/make_fixtures.py

Values follow formulas that test_npy.cpp restates independently:
  dtype_<name>.npy   shape (2, 3), the extremes of the type (see EXTREMES)
  every other file   element with C-order flat index i holds layout_value(dtype, i)
"""
import io
import os
import struct

import numpy as np
from numpy.lib import format as npformat

HERE = os.path.dirname(os.path.abspath(__file__))

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64"]


def extremes(name):
    dt = np.dtype(name)
    if dt.kind == "b":
        return [True, False, True, True, False, False]
    if dt.kind == "i":
        info = np.iinfo(dt)
        return [info.min, -1, 0, 1, info.max, 42]
    if dt.kind == "u":
        info = np.iinfo(dt)
        return [0, 1, 2, info.max - 1, info.max, 42]
    return [-0.0, 1.5, -2.25, np.inf, -np.inf, np.nan]


def layout_value(name, i):
    kind = np.dtype(name).kind
    if kind == "b":
        return i % 3 == 0
    if kind == "u":
        return i % 100
    if kind == "i":
        return i % 100 - 50
    return i * 0.25 - 2.0


def layout_array(name, shape):
    n = int(np.prod(shape, dtype=np.int64))
    return np.array([layout_value(name, i) for i in range(n)], dtype=name).reshape(shape)


def save(filename, arr, version=None):
    path = os.path.join(HERE, filename)
    with open(path, "wb") as f:
        if version is None:
            np.save(f, arr)
        else:
            npformat.write_array(f, arr, version=version)


def raw(filename, data):
    with open(os.path.join(HERE, filename), "wb") as f:
        f.write(data)


def npy_bytes(arr):
    b = io.BytesIO()
    np.save(b, arr)
    return b.getvalue()


def v1_file(header_dict_text, payload=b""):
    """A format 1.0 file with the given header text, padded as NumPy pads it."""
    h = header_dict_text.encode("latin1")
    pad = 64 - ((10 + len(h) + 1) % 64)
    h = h + b" " * pad + b"\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h + payload


def main():
    for name in DTYPES:
        save(f"dtype_{name}.npy", np.array(extremes(name), dtype=name).reshape(2, 3))

    rank_shapes = [(), (5,), (2, 3), (2, 3, 4), (2, 1, 3, 2)]
    for r, shape in enumerate(rank_shapes):
        save(f"rank{r}_float64.npy", layout_array("float64", shape))
        save(f"rank{r}_int32.npy", layout_array("int32", shape))
    save("empty_float64.npy", np.zeros((0, 3)))

    # Fortran order: the same logical contents, column-major bytes.
    for name, shape in [("int16", (3, 4)), ("float32", (2, 3, 4)), ("uint8", (2, 3, 1, 2)), ("bool", (3, 2)),
                        ("float64", (4, 3))]:
        a = np.asfortranarray(layout_array(name, shape))
        assert a.flags.f_contiguous and not a.flags.c_contiguous
        save(f"fortran_{name}_r{len(shape)}.npy", a)

    # Big-endian ('>' dtypes).
    for name, shape in [("int32", (2, 3)), ("float64", (2, 3, 4)), ("uint64", (5,)), ("int16", (4,)),
                        ("uint16", (2, 2)), ("int64", (3, 1)), ("float32", (3,)), ("uint32", (2, 2))]:
        save(f"big_{name}_r{len(shape)}.npy", layout_array(name, shape).astype(np.dtype(name).newbyteorder(">")))
    save("big_fortran_float32_r3.npy",
         np.asfortranarray(layout_array("float32", (2, 3, 4)).astype(">f4")))

    # Header versions 2.0 and 3.0 (NumPy picks them only for huge or non-Latin-1 headers).
    save("version2_float64_r2.npy", layout_array("float64", (2, 3)), version=(2, 0))
    save("version3_int64_r3.npy", layout_array("int64", (2, 2, 3)), version=(3, 0))
    save("version2_big_fortran_int32_r2.npy",
         np.asfortranarray(layout_array("int32", (3, 4)).astype(">i4")), version=(2, 0))

    # Malformed files.
    good = npy_bytes(layout_array("float64", (2, 3)))
    raw("bad_empty.npy", b"")
    raw("bad_magic.npy", b"\x93NUMPX" + good[6:])
    raw("bad_version.npy", good[:6] + b"\x04\x00" + good[8:])
    raw("bad_header_length.npy", good[:8] + struct.pack("<H", 60000) + good[10:])
    raw("bad_truncated_header.npy", good[:40])
    raw("bad_syntax.npy", v1_file("{'descr': '<f8' 'fortran_order': False, 'shape': (2, 3), }", good[128:]))
    raw("bad_missing_key.npy", v1_file("{'descr': '<f8', 'shape': (2, 3), }", good[128:]))
    raw("bad_unknown_key.npy",
        v1_file("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), 'extra': 1, }", good[128:]))
    raw("bad_fortran_value.npy", v1_file("{'descr': '<f8', 'fortran_order': 1, 'shape': (2, 3), }", good[128:]))
    raw("bad_negative_extent.npy", v1_file("{'descr': '<f8', 'fortran_order': False, 'shape': (-2, 3), }",
                                           good[128:]))
    raw("bad_overflow_extent.npy",
        v1_file("{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999999, 3), }"))
    raw("bad_huge_shape.npy", v1_file("{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000000000,), }",
                                      b"\0" * 72))
    raw("bad_product_overflow.npy",
        v1_file("{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296, 16), }"))
    raw("bad_duplicate_key.npy",
        v1_file("{'descr': '<f8', 'fortran_order': False, 'shape': (6,), 'shape': (2, 3), }", good[128:]))
    raw("bad_byte_count_overflow.npy",
        v1_file("{'descr': '<f8', 'fortran_order': False, 'shape': (2305843009213693952,), }", b"\0" * 8))
    raw("bad_truncated_data.npy", good[:-8])
    raw("bad_trailing_data.npy", good + b"\0" * 8)
    raw("bad_bool_byte.npy", v1_file("{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }", b"\x01\x00\x02"))
    raw("bad_descr_order.npy", v1_file("{'descr': '|f8', 'fortran_order': False, 'shape': (2, 3), }", good[128:]))
    save("bad_complex.npy", np.zeros((2, 3), dtype=np.complex128))
    save("bad_structured.npy", np.zeros(3, dtype=[("x", "<f8"), ("y", "<i4")]))
    print("fixtures written to", HERE)


if __name__ == "__main__":
    main()
