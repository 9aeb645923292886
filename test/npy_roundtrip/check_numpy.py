#!/usr/bin/python3
"""Round trip of .npy files between NumPy and bsx (CTest npy_numpy_roundtrip).

    check_numpy.py <npy_tool> <scratch dir>

NumPy writes random arrays of every dtype, ranks 0 to 4, C and Fortran order, little-
and big-endian, header versions 1.0, 2.0 and 3.0; bsx loads each and saves it again;
NumPy checks that the values came back equal, little-endian and C-ordered, byte for
byte what np.save writes. Then bsx writes a few expressions and NumPy checks them.
Exits 77 (CTest: skipped) when NumPy is not installed.
"""
import io
import os
import shutil
import subprocess
import sys

try:
    import numpy as np
    from numpy.lib import format as npformat
except ImportError:
    print("npy round trip skipped: NumPy is not installed (Debian: apt-get install python3-numpy)")
    sys.exit(77)

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64"]
SHAPES = [(), (7,), (3, 5), (2, 3, 4), (2, 1, 3, 2)]
VERSIONS = [(1, 0), (2, 0), (3, 0)]


def random_array(rng, name, shape):
    dt = np.dtype(name)
    if dt.kind == "b":
        return rng.integers(0, 2, size=shape).astype(bool)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return rng.integers(info.min, info.max, size=shape, dtype=dt, endpoint=True)
    a = (rng.standard_normal(size=shape) * 10.0 ** rng.integers(-5, 6, size=shape)).astype(dt)
    flat = a.reshape(-1)
    if flat.size >= 4:
        flat[:4] = [np.nan, np.inf, -np.inf, -0.0]
    return a


def npy_bytes(a):
    b = io.BytesIO()
    np.save(b, a)
    return b.getvalue()


def main():
    tool, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    rng = np.random.default_rng(13)
    cases = []
    for name in DTYPES:
        for shape in SHAPES:
            for order in "CF":
                for endian in "<>":
                    if endian == ">" and np.dtype(name).itemsize == 1:
                        continue
                    a = random_array(rng, name, shape)
                    stored = a.astype(np.dtype(name).newbyteorder(endian))
                    stored = np.array(stored, order=order)  # (asfortranarray would make rank 0 rank 1)
                    version = VERSIONS[len(cases) % 3]
                    stem = f"{len(cases):03d}_{name}_r{len(shape)}_{order}_{'big' if endian == '>' else 'little'}"
                    src, dst = os.path.join(work, stem + ".npy"), os.path.join(work, stem + ".bsx.npy")
                    with open(src, "wb") as f:
                        npformat.write_array(f, stored, version=version)
                    cases.append((name, a, src, dst))
    with open(os.path.join(work, "list.txt"), "w") as f:
        for name, a, src, dst in cases:
            f.write(f"{name} {a.ndim} {src} {dst}\n")
    subprocess.run([tool, "copy", os.path.join(work, "list.txt")], check=True)

    failures = 0
    for name, a, src, dst in cases:
        back = np.load(dst)
        native = np.dtype(name).newbyteorder("<")
        ok = (back.dtype == native and back.shape == a.shape and back.flags.c_contiguous
              and np.array_equal(back.view(f"u{native.itemsize}") if native.kind == "f" else back,
                                 a.view(f"u{native.itemsize}") if native.kind == "f" else a)
              and open(dst, "rb").read() == npy_bytes(np.array(a, dtype=native, order="C")))
        if not ok:
            failures += 1
            print("MISMATCH", os.path.basename(src))

    subprocess.run([tool, "make", work], check=True)
    expected = {
        "transpose_f8.npy": np.arange(24.0).reshape(2, 3, 4).T * 0.5,
        "multiple_of_3_bool.npy": np.arange(10) % 3 == 0,
        "thousands_u16.npy": (np.arange(7) * 1000).astype(np.uint16),
        "all_i8.npy": (np.arange(256) - 128).astype(np.int8),
        "scalar_f4.npy": np.array(3.25, dtype=np.float32),
    }
    for fname, want in expected.items():
        got = np.load(os.path.join(work, fname))
        if not (got.dtype == want.dtype and got.shape == want.shape and np.array_equal(got, want)):
            failures += 1
            print("MISMATCH", fname, got, want)

    print(f"NumPy {np.__version__}: {len(cases)} files (11 dtypes, ranks 0-4, C and Fortran order, "
          f"little- and big-endian, versions 1.0/2.0/3.0) loaded and saved again by bsx, and "
          f"{len(expected)} expressions saved by bsx, read by NumPy: {failures} mismatches")
    shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
