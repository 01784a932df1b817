#!/usr/bin/env python3
"""Vector lanes and register tiles (#uop.opts<vector = W>) against numpy and the unoptimized path.

  vector_lanes.py UOP_RUN TMPDIR

gemm from movement ops (B strided, and B^T), a strided row reduction and a
max, each run by uop-run on the CPU with no opts and with opts that give
vector lanes alone, a register tile (upcast rows x vector lanes), with
threads, with cache tiles, with --opt=hand; every result must match numpy
(1e-4) and the unoptimized run. The reduce order of every element is kept by
the lanes, so the tiled gemm is compared bit for bit with a run whose only
opt is the lanes of the same width.
"""
import os
import re
import subprocess
import sys

import numpy as np

uop_run, tmp = sys.argv[1:3]
N = 64


def gemm(transposed):
    b = f"%b2 = uop.reshape %b, [{N}, {N}] : tensor<{N * N}xf32>\n"
    if transposed:
        b += f"  %bt = uop.reshape %b2, [{N}, {N}] : tensor<{N}x{N}xf32>\n"
    else:
        b += f"  %bt = uop.permute %b2, [1, 0] : tensor<{N}x{N}xf32>\n"
    return f"""func.func @main() -> tensor<{N}x{N}xf32> {{
  %a = uop.buffer 0 : tensor<{N * N}xf32>
  %b = uop.buffer 1 : tensor<{N * N}xf32>
  %a3 = uop.reshape %a, [{N}, 1, {N}] : tensor<{N * N}xf32>
  {b}  %b3 = uop.reshape %bt, [1, {N}, {N}] : tensor<{N}x{N}xf32>
  %ae = uop.expand %a3, [{N}, {N}, {N}] : tensor<{N}x1x{N}xf32>
  %be = uop.expand %b3, [{N}, {N}, {N}] : tensor<1x{N}x{N}xf32>
  %m = uop.mul %ae, %be : tensor<{N}x{N}x{N}xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<{N}x{N}x{N}xf32>
  return %c : tensor<{N}x{N}xf32>
}}
"""


def column_reduce(op):
    # out[j] = op over i of x[i, j]: the j loop walks x contiguously, the
    # reduce loop strides it.
    return f"""func.func @main() -> tensor<{N}xf32> {{
  %x = uop.buffer 0 : tensor<{N * N}xf32>
  %x2 = uop.reshape %x, [{N}, {N}] : tensor<{N * N}xf32>
  %t = uop.permute %x2, [1, 0] : tensor<{N}x{N}xf32>
  %e = uop.exp2 %t : tensor<{N}x{N}xf32>
  %r = uop.reduce %e <{op}> pop 1 : tensor<{N}x{N}xf32>
  return %r : tensor<{N}xf32>
}}
"""


rng = np.random.default_rng(7)
a = rng.standard_normal((N, N)).astype(np.float32)
b = rng.standard_normal((N, N)).astype(np.float32)
np.save(f"{tmp}/a.npy", a.ravel())
np.save(f"{tmp}/b.npy", b.ravel())
x = (rng.standard_normal((N, N)) * 0.5).astype(np.float32)
np.save(f"{tmp}/x.npy", x.ravel())
programs = {
    "gemm_strided": (gemm(False), a @ b, ["a", "b"]),
    "gemm_bt": (gemm(True), a @ b.T, ["a", "b"]),
    "col_sum": (column_reduce("add"), np.exp2(x).sum(0), ["x"]),
    "col_max": (column_reduce("max"), np.exp2(x).max(0), ["x"]),
}
optss = ["", "vector = 16", "vector = 8", "upcast = {0: 4}, vector = 16",
         "upcast = {0: 4}, thread = 0, vector = 16", "upcast = {0: 2}, thread = 0, vector = 8, tile = {0: 16, 1: 32}",
         "upcast = {0: 8}, vector = 32", "hand"]

checked = failures = 0


def run(name, text, opts, inputs):
    hand = opts == "hand"
    if opts and not hand:
        text = text.replace("{\n", f" attributes {{uop.opts = #uop.opts<{opts}>}} {{\n", 1)
    prog = f"{tmp}/{name}_{len(opts)}_{abs(hash(opts))}.mlir"
    with open(prog, "w") as f:
        f.write(text)
    out = f"{prog}.npy"
    args = [uop_run, prog, f"--output={out}", "--opt=hand" if hand else "--opt=none"]
    args += [f"--input={i}={tmp}/{n}.npy" for i, n in enumerate(inputs)]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode:
        return None, p.stderr
    return np.load(out), ""


for name, (text, want, inputs) in programs.items():
    base, err = run(name, text, "", inputs)
    assert base is not None, err
    results = {}
    for opts in optss:
        got, err = run(name, text, opts, inputs)
        checked += 1
        if got is None:
            failures += 1
            print(f"FAIL {name} <{opts}>: {err}")
            continue
        results[opts] = got
        ok = np.allclose(got.reshape(want.shape), want, rtol=1e-4, atol=1e-4) and \
            np.allclose(got, base, rtol=1e-4, atol=1e-4)
        print(f"{'ok' if ok else 'FAIL'} {name} <{opts}>")
        failures += not ok
    # Rows, threads and cache tiles around lanes of one width change no sum.
    lanes = results.get("vector = 16") if name.startswith("gemm_strided") else None
    for opts in ["upcast = {0: 4}, vector = 16", "upcast = {0: 4}, thread = 0, vector = 16"]:
        if lanes is not None and opts in results:
            checked += 1
            same = np.array_equal(results[opts], lanes)
            print(f"{'ok' if same else 'FAIL'} {name} <{opts}> bit for bit as <vector = 16>")
            failures += not same
print(f"{checked - failures} of {checked} checks pass")
sys.exit(1 if failures else 0)
