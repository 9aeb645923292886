#!/usr/bin/python3
"""Writes the .npz and text fixtures of test/test_npz.cpp with NumPy (run once; the files are committed).

    /usr/bin/python3 test/data/files/make_fixtures.py

  savez.npz              np.savez of MEMBERS (stored members, zip64 extra fields in the local headers)
  savez_compressed.npz   np.savez_compressed of MEMBERS (deflated)
  positional.npz         np.savez(f, x, y): the members arr_0 and arr_1
  zip64_directory.npz    MEMBERS["grid"] stored in a zip whose central directory entry, and end
                         records, are all zip64 (as archives past 4 GiB have them), built by hand
  savetxt_2d.txt         np.savetxt of GRID_TXT (default "%.18e", space-separated)
  savetxt_comma.csv      np.savetxt of GRID_TXT with delimiter ",", a header and a footer (# comments)
  savetxt_1d.txt         np.savetxt of a rank 1 array (one value per line)
  savetxt_int.txt        np.savetxt of integers with fmt "%d", tab-separated
  loadtxt_mixed.txt      hand-written: comments, blank lines, tabs, CRLF, nan, inf, '+' signs

test_npz.cpp restates the values: member k of MEMBERS has the formula noted beside it.
"""
import os
import struct
import zlib

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

# name -> array; test_npz.cpp restates each formula
MEMBERS = {
    "grid": np.arange(12, dtype=np.float64).reshape(3, 4) * 0.5 - 1.0,  # i * 0.5 - 1
    "counts": (np.arange(5, dtype=np.int32) - 2) * 1000,                # (i - 2) * 1000
    "mask": (np.arange(6).reshape(2, 3) % 2 == 0),                      # i % 2 == 0
    "scale": np.array(2.5, dtype=np.float32),                           # rank 0: 2.5
    "nothing": np.zeros((0, 3), dtype=np.float64),                      # shape (0, 3)
    "fortran": np.asfortranarray(np.arange(6, dtype=np.int16).reshape(2, 3)),  # i (C order)
    "wide": np.arange(2000, dtype=np.uint64) * 3,                       # i * 3: deflates well
}

GRID_TXT = np.array([[1.0, -2.5, 1e-300], [np.pi, 6.02214076e23, -0.0], [np.inf, -np.inf, np.nan]])


def zip64_directory(path, name, payload):
    """A stored member with zip64 extra fields in its local header and central directory
    entry (sizes and offset saturated), a zip64 end record, its locator and the end record."""
    crc = zlib.crc32(payload) & 0xFFFFFFFF
    fname = name.encode()
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 45, 0, 0, 0, 0x21, crc, 0xFFFFFFFF, 0xFFFFFFFF,
                        len(fname), 20)
    local += fname + struct.pack("<HHQQ", 1, 16, len(payload), len(payload))
    offset = 0
    central = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 45, 45, 0, 0, 0, 0x21, crc, 0xFFFFFFFF,
                          0xFFFFFFFF, len(fname), 28, 0, 0, 0, 0, 0xFFFFFFFF)
    central += fname + struct.pack("<HHQQQ", 1, 24, len(payload), len(payload), offset)
    cd_offset = len(local) + len(payload)
    end64_offset = cd_offset + len(central)
    end64 = struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, 1, 1, len(central), cd_offset)
    locator = struct.pack("<IIQI", 0x07064B50, 0, end64_offset, 1)
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0)
    with open(path, "wb") as f:
        f.write(local + payload + central + end64 + locator + end)


def npy_bytes(a):
    import io
    b = io.BytesIO()
    np.save(b, a)
    return b.getvalue()


def main():
    np.savez(os.path.join(HERE, "savez.npz"), **MEMBERS)
    np.savez_compressed(os.path.join(HERE, "savez_compressed.npz"), **MEMBERS)
    np.savez(os.path.join(HERE, "positional.npz"), np.arange(3, dtype=np.int64), np.array([True, False]))
    zip64_directory(os.path.join(HERE, "zip64_directory.npz"), "grid.npy", npy_bytes(MEMBERS["grid"]))

    np.savetxt(os.path.join(HERE, "savetxt_2d.txt"), GRID_TXT)
    np.savetxt(os.path.join(HERE, "savetxt_comma.csv"), GRID_TXT, delimiter=",", header="a,b,c",
               footer="the end")
    np.savetxt(os.path.join(HERE, "savetxt_1d.txt"), np.linspace(-1.0, 1.0, 7))
    np.savetxt(os.path.join(HERE, "savetxt_int.txt"), np.arange(-6, 6).reshape(3, 4), fmt="%d", delimiter="\t")
    with open(os.path.join(HERE, "loadtxt_mixed.txt"), "wb") as f:
        f.write(b"# a comment line\r\n"
                b"\r\n"
                b"  1.5\t-2 +3e2   # trailing comment\r\n"
                b"nan inf -inf\r\n"
                b"   \t \r\n"
                b"+0.25 1e400 -1e-400")  # no newline at the end
    # Checks that NumPy reads the hand-written file as test_npz.cpp expects.
    mixed = np.loadtxt(os.path.join(HERE, "loadtxt_mixed.txt"))
    assert mixed.shape == (3, 3) and mixed[2, 1] == np.inf and mixed[2, 2] == 0.0, mixed


if __name__ == "__main__":
    main()
