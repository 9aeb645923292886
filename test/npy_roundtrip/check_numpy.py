#!/usr/bin/python3
"""bsx against NumPy (CTest numpy_roundtrip): .npy files both ways, and printing.

    check_numpy.py <npy_tool> <scratch dir>

NumPy writes random arrays of every dtype, ranks 0 to 4, C and Fortran order, little-
and big-endian, header versions 1.0, 2.0 and 3.0; bsx loads each and saves it again;
NumPy checks that the values came back equal, little-endian and C-ordered, byte for
byte what np.save writes. Then bsx writes a few expressions and NumPy checks them.
Then .npz and text files: NumPy's np.savez and np.savez_compressed archives of random arrays
of every dtype, ranks 0 to 4, are read by bsx (load_npz) member by member; bsx's save_npz and
save_npz_compressed archives are read by NumPy (np.load, and zipfile's CRC check); np.savetxt
files of random doubles are read by bsx's load_txt and written again by save_txt, which must
give NumPy's bytes, and bsx's text files must read in np.loadtxt as the values they hold.
Last, bsx prints 300 random arrays (every kind of element, magnitudes from 1e-12 to 1e12,
NaN and inf, arrays large enough to be summarized) and each text must be what
np.array2string(a, separator=', ') gives. Exits 77 (CTest: skipped) when NumPy is not
installed.
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


PRINT_CASES = 300


def print_case(rng):
    """A random array for the printing comparison."""
    name = str(rng.choice(["float64", "float64", "float32", "int64", "int8", "uint16", "bool"]))
    rank = int(rng.integers(0, 4))
    shape = tuple(int(x) for x in rng.integers(1, 7 if rank < 3 else 5, size=rank))
    if rank >= 1 and rng.random() < 0.1:
        shape = (int(rng.integers(900, 1300)),) + shape[1:]  # summarized
    n = int(np.prod(shape, dtype=np.int64))
    if name.startswith("float"):
        a = rng.standard_normal(n) * 10.0 ** rng.integers(-12, 12)
        if rng.random() < 0.3:
            a = np.round(a, int(rng.integers(0, 4)))
        if rng.random() < 0.2:
            a[rng.integers(0, n, size=max(1, n // 4))] = rng.choice([np.nan, np.inf, -np.inf, 0.0, -0.0])
        a = a.astype(name)
    elif name == "bool":
        a = rng.random(n) < 0.5
    else:
        info = np.iinfo(name)
        a = rng.integers(info.min, info.max, size=n, dtype=name, endpoint=True)
        if rng.random() < 0.5:
            a = (a % 50).astype(name)
    return name, a.reshape(shape)


def check_printing(tool, work, rng):
    cases = [print_case(rng) for _ in range(PRINT_CASES)]
    list_file = os.path.join(work, "print.txt")
    with open(list_file, "w") as f:
        for i, (name, a) in enumerate(cases):
            path = os.path.join(work, f"print{i:03d}.npy")
            np.save(path, a)
            f.write(f"{name} {a.ndim} {path}\n")
    printed = subprocess.run([tool, "print", list_file], check=True, capture_output=True, text=True).stdout
    failures = 0
    for (name, a), got in zip(cases, printed.split("\n@@\n")):
        want = np.array2string(a, separator=", ")
        if got != want:
            failures += 1
            print(f"PRINT MISMATCH {name} {a.shape}\nNumPy:\n{want}\nbsx:\n{got}")
    return failures


def check_npz_and_text(tool, work, rng):
    """NumPy's .npz and text files through bsx, and bsx's through NumPy: the mismatches."""
    import zipfile
    failures = 0
    members = {}
    for name in DTYPES:
        for shape in SHAPES:
            members[f"{name}_r{len(shape)}"] = (name, random_array(rng, name, shape))
    lines = []
    for kind, save in (("stored", np.savez), ("deflated", np.savez_compressed)):
        archive = os.path.join(work, f"numpy_{kind}.npz")
        save(archive, **{k: a for k, (_, a) in members.items()})
        for k, (name, a) in members.items():
            lines.append((name, a, archive, k, os.path.join(work, f"{kind}_{k}.bsx.npy")))
    with open(os.path.join(work, "npz_list.txt"), "w") as f:
        for name, a, archive, k, out in lines:
            f.write(f"{name} {a.ndim} {archive} {k} {out}\n")
    if subprocess.run([tool, "npz", os.path.join(work, "npz_list.txt")]).returncode == 77:
        print("npz round trip skipped: npy_tool was built without zlib")
    else:
        for name, a, archive, k, out in lines:
            back = np.load(out)
            if not (back.dtype == a.dtype and back.shape == a.shape
                    and np.array_equal(back, a, equal_nan=back.dtype.kind == "f")):
                failures += 1
                print("NPZ MISMATCH", archive, k)
        cube = np.arange(24.0).reshape(2, 3, 4)
        expected = {
            "transpose_f8": cube.T * 0.5,
            "multiple_of_3_bool": np.arange(10) % 3 == 0,
            "all_i8": (np.arange(256) - 128).astype(np.int8),
            "scalar_f4": np.array(3.25, dtype=np.float32),
            "empty_u32": np.zeros((0, 3), dtype=np.uint32),
            "long_i64": np.arange(300000, dtype=np.int64) * 7 - 5,
            "temp\u00e9rature_f8": np.arange(3.0),  # read by the UTF-8 name bsx wrote
        }
        for archive in ("stored.npz", "deflated.npz"):
            path = os.path.join(work, archive)
            with zipfile.ZipFile(path) as z:
                bad = z.testzip()
                kinds = {i.compress_type for i in z.infolist()}
            if bad is not None or kinds != {zipfile.ZIP_STORED if archive == "stored.npz" else zipfile.ZIP_DEFLATED}:
                failures += 1
                print("NPZ ARCHIVE", archive, "bad member:", bad, "methods:", kinds)
            with np.load(path) as z:
                if z.files != list(expected):
                    failures += 1
                    print("NPZ NAMES", archive, z.files)
                for k, want in expected.items():
                    got = z[k]
                    if not (got.dtype == want.dtype and got.shape == want.shape and np.array_equal(got, want)):
                        failures += 1
                        print("NPZ MISMATCH", archive, k)

    # text: np.savetxt -> load_txt -> save_txt must give NumPy's bytes back
    pairs = []
    for i, shape in enumerate([(1, 1), (7, 3), (100, 10), (5, 1)]):
        a = rng.standard_normal(size=shape) * 10.0 ** rng.integers(-300, 300, size=shape)
        a.reshape(-1)[0] = [np.nan, np.inf, -np.inf, -0.0][i]
        src, dst = os.path.join(work, f"numpy_{i}.txt"), os.path.join(work, f"numpy_{i}.bsx.txt")
        np.savetxt(src, a)
        pairs.append((src, dst))
    with open(os.path.join(work, "txt_list.txt"), "w") as f:
        for src, dst in pairs:
            f.write(f"{src} {dst}\n")
    subprocess.run([tool, "txt", os.path.join(work, "txt_list.txt")], check=True)
    for src, dst in pairs:
        if open(src, "rb").read() != open(dst, "rb").read():
            failures += 1
            print("TXT MISMATCH", os.path.basename(src))
    thirds = np.arange(24.0).reshape(4, 6) / 3.0
    for fname, delimiter in (("thirds.txt", None), ("thirds.csv", ",")):
        got = np.loadtxt(os.path.join(work, fname), delimiter=delimiter)
        if not (got.shape == thirds.shape and np.array_equal(got, thirds)):
            failures += 1
            print("TXT MISMATCH", fname)
    return failures


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

    failures += check_npz_and_text(tool, work, rng)
    failures += check_printing(tool, work, rng)

    print(f"NumPy {np.__version__}: {len(cases)} files (11 dtypes, ranks 0-4, C and Fortran order, "
          f"little- and big-endian, versions 1.0/2.0/3.0) loaded and saved again by bsx, and "
          f"{len(expected)} expressions saved by bsx, read by NumPy, .npz and text files both ways, and "
          f"{PRINT_CASES} arrays printed by both: "
          f"{failures} mismatches")
    shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
