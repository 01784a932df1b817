#!/usr/bin/env python3
"""Writes the seed corpus of tools/uop-npy-fuzz to fuzz/npy-corpus/.

Small .npy files numpy writes (every dtype uop reads, every format version,
scalars, empty and multi-dimensional shapes) and ones uop must refuse cleanly
(fortran order, big-endian, other dtypes, structured dtypes, a truncated data
section, a header claiming a huge shape). Run with /usr/bin/python3 (numpy).
"""
import io
import os
import struct

import numpy as np

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "npy-corpus")
os.makedirs(out, exist_ok=True)


def save(name, arr, version=None):
    f = io.BytesIO()
    np.lib.format.write_array(f, arr, version=version)
    with open(os.path.join(out, name + ".npy"), "wb") as g:
        g.write(f.getvalue())


def raw(name, header, data=b"", major=1):
    h = header.encode("latin1")
    pre = 10 if major == 1 else 12
    pad = (64 - (pre + len(h) + 1) % 64) % 64
    h = h + b" " * pad + b"\n"
    length = struct.pack("<H" if major == 1 else "<I", len(h))
    with open(os.path.join(out, name + ".npy"), "wb") as g:
        g.write(b"\x93NUMPY" + bytes([major, 0]) + length + h + data)


rng = np.random.default_rng(0)
save("f32-2x3", np.arange(6, dtype="<f4").reshape(2, 3))
save("f16-vec", np.linspace(-2, 2, 7).astype("<f2"))
save("i32-3d", np.arange(24, dtype="<i4").reshape(2, 3, 4))
save("bool-vec", rng.integers(0, 2, 9).astype("|b1"))
save("f32-scalar", np.array(1.5, dtype="<f4"))
save("f32-empty", np.zeros((0,), dtype="<f4"))
save("i32-empty-2d", np.zeros((3, 0), dtype="<i4"))
save("f32-v2", np.ones((2, 2), dtype="<f4"), version=(2, 0))
save("f32-v3", np.ones((1, 2), dtype="<f4"), version=(3, 0))
save("f32-fortran", np.asfortranarray(np.arange(6, dtype="<f4").reshape(2, 3)))
save("f32-bigendian", np.arange(3, dtype=">f4"))
save("f64", np.arange(3, dtype="<f8"))
save("u8", np.arange(3, dtype="u1"))
save("structured", np.zeros(2, dtype=[("a", "<f4"), ("b", "<i4")]))
raw("truncated-data", "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", b"\0" * 8)
raw("huge-shape", "{'descr': '<f4', 'fortran_order': False, 'shape': (100000000000000,), }", b"\0" * 16)
raw("overflow-shape", "{'descr': '<i4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }")
raw("py2-long", "{'descr': '<i4', 'fortran_order': False, 'shape': (2L,), }", b"\1\0\0\0\2\0\0\0")
raw("bool-bytes", "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }", b"\0\7\xff")
