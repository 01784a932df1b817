#!/usr/bin/env python3
"""uop-vectorize-max is exact: row maxima with NaNs, zeros and infinities, bit for bit.

  vectorize_max.py UOP_RUN TMPDIR

A max reduction over rows of 64 (8 or 16 lanes, several vectors) through
uop-run on the CPU (--opt=none: one row per loop; --opt=hand: upcast rows
sharing a loop), against the seed's sequential `acc = (acc > x) ? acc : x`
from -inf, compared bit for bit: random rows, rows with a NaN first, in
the middle or last, rows whose maximum is +0 or -0 among zeros of both
signs, rows of -inf, rows with +inf, and the maximum in the last lane.
"""
import struct
import subprocess
import sys

import numpy as np
from tally import check, finish

uop_run, tmp = sys.argv[1:3]
R, C = 32, 64


def program():
    return f"""func.func @main() -> tensor<{R}xf32> {{
  %a = uop.buffer 0 : tensor<{R * C}xf32>
  %x = uop.reshape %a, [{R}, {C}] : tensor<{R * C}xf32>
  %m = uop.reduce %x <max> pop 1 : tensor<{R}x{C}xf32>
  return %m : tensor<{R}xf32>
}}
"""


def seed_max(row):
    acc = np.float32(-np.inf)
    for x in row:
        acc = acc if acc > x else x
    return acc


def bits(v):
    return struct.unpack("<I", struct.pack("<f", float(v)))[0]


rng = np.random.default_rng(3)
rows = []
for r in range(R):
    row = rng.standard_normal(C).astype(np.float32)
    kind = r % 16
    if kind == 1:
        row[0] = np.nan
    elif kind == 2:
        row[C // 2] = np.nan
    elif kind == 3:
        row[C - 1] = np.nan
    elif kind == 4:
        row[:] = -np.abs(row) - 1
        row[5], row[40] = 0.0, -0.0          # max is a zero, -0 last
    elif kind == 5:
        row[:] = -np.abs(row) - 1
        row[5], row[40] = -0.0, 0.0          # +0 last
    elif kind == 6:
        row[:] = -0.0
    elif kind == 7:
        row[:] = -np.inf
    elif kind == 8:
        row[17] = np.inf
    elif kind == 9:
        row[C - 1] = 100.0                   # the maximum in the last lane
    elif kind == 10:
        row[3] = np.nan
        row[50] = np.nan
    elif kind == 11:
        row[:] = np.nan
    rows.append(row)
x = np.stack(rows)
want = [seed_max(r) for r in x]

prog = f"{tmp}/max.mlir"
with open(prog, "w") as f:
    f.write(program())
np.save(f"{tmp}/x.npy", x.ravel())
for opt in ["none", "hand"]:
    r = subprocess.run([uop_run, prog, f"--opt={opt}", "--input", f"0={tmp}/x.npy", "--output",
                        f"{tmp}/m.npy"], capture_output=True, text=True)
    if not check(f"--opt={opt}", r.returncode == 0, r.stderr.strip()[-300:]):
        continue
    got = np.load(f"{tmp}/m.npy")
    for i in range(R):
        g, w = got[i], want[i]
        same = (np.isnan(g) and np.isnan(w)) or bits(g) == bits(w)
        check(f"--opt={opt} row {i} (kind {i % 16}):", same,
              f"got {g!r} ({bits(g):#x}), seed {w!r} ({bits(w):#x})")
finish()
