#!/usr/bin/env python3
"""Reduce tiles and panels of B against numpy and the untiled run.

  reduce_tile.py UOP_RUN TMPDIR

* `tile = {rank: kc}` (the axis after the output's: the root reduction's)
  runs the reduction in blocks of kc terms, the block loop outermost, each
  block continuing every element's reduction from what the block before
  stored. gemm (add) and a max-plus product (max), with upcast rows, unroll,
  vector lanes (the register tile), threads and output tiles around it, must
  match numpy and the same opts without the reduce tile; the max bit for bit
  (sums may be reassociated by LLVM's vectorizer, blocks or not).
* --opt=hand (uop-layout packs B in panels as wide as this CPU's register
  tile, uop-hand-opt tiles the columns by them): A @ B with B strided, B^T
  stored, a batched matmul and sizes that are no multiple of the panel
  match numpy.
"""
import sys

import numpy as np
from products import product, run as run_in
from tally import check, finish

uop_run, tmp = sys.argv[1:3]


def run(text, a, b, *flags):
    return run_in(uop_run, tmp, text, a, b, *flags)


def bmm(batch, m, n, k):
    return f"""func.func @main() -> tensor<{batch}x{m}x{n}xf32> {{
  %a = uop.buffer 0 : tensor<{batch * m * k}xf32>
  %b = uop.buffer 1 : tensor<{batch * k * n}xf32>
  %a4 = uop.reshape %a, [{batch}, {m}, 1, {k}] : tensor<{batch * m * k}xf32>
  %b3 = uop.reshape %b, [{batch}, {k}, {n}] : tensor<{batch * k * n}xf32>
  %bt = uop.permute %b3, [0, 2, 1] : tensor<{batch}x{k}x{n}xf32>
  %b4 = uop.reshape %bt, [{batch}, 1, {n}, {k}] : tensor<{batch}x{n}x{k}xf32>
  %ae = uop.expand %a4, [{batch}, {m}, {n}, {k}] : tensor<{batch}x{m}x1x{k}xf32>
  %be = uop.expand %b4, [{batch}, {m}, {n}, {k}] : tensor<{batch}x1x{n}x{k}xf32>
  %x = uop.mul %ae, %be : tensor<{batch}x{m}x{n}x{k}xf32>
  %c = uop.reduce %x <add> pop 1 : tensor<{batch}x{m}x{n}x{k}xf32>
  return %c : tensor<{batch}x{m}x{n}xf32>
}}
"""


rng = np.random.default_rng(7)
for (m, n, k) in [(8, 32, 64), (16, 16, 48), (4, 48, 96)]:
    a = rng.standard_normal((m, k), dtype=np.float32)
    b = rng.standard_normal((k, n), dtype=np.float32)
    for kind in ["add", "max"]:
        ref = a @ b if kind == "add" else (a[:, None, :] + b.T[None, :, :]).max(-1)
        for base, kc in [("", 16), ("upcast = {0: 4}", 16), ("upcast = {0: 2}, vector = 16", 16),
                         ("upcast = {0: 4}, unroll = 4", 8), ("thread = 0", 32),
                         ("upcast = {0: 2, 1: 4}, tile = {1: 8}", 16), ("unroll = 4", 4)]:
            sep = ", " if base else ""
            if "tile = {1: 8}" in base:
                tiled = base.replace("tile = {1: 8}", f"tile = {{1: 8, 2: {kc}}}")
            else:
                tiled = f"{base}{sep}tile = {{2: {kc}}}"
            name = f"{kind} {m}x{n}x{k} <{tiled}>"
            got, err = run(product(m, n, k, kind, tiled), a, b)
            want, err2 = run(product(m, n, k, kind, base), a, b)
            if got is None or want is None:
                check(name, False, err or err2)
                continue
            got = got.reshape(m, n)
            check(name + " vs numpy", np.abs(got - ref).max() <= 1e-4 * max(1.0, np.abs(ref).max()),
                  f"max error {np.abs(got - ref).max()}")
            want = want.reshape(m, n)
            if kind == "max":
                check(name + " vs untiled", np.array_equal(got, want))
            else:
                check(name + " vs untiled", np.abs(got - want).max() <= 1e-5 * np.abs(want).max())

# --opt=hand: B in panels of this CPU's register tile.
for (m, n, k, bt) in [(64, 64, 64, False), (32, 48, 40, False), (64, 32, 128, True), (8, 24, 16, False),
                      (256, 256, 256, False)]:
    a = rng.standard_normal((m, k), dtype=np.float32)
    b = rng.standard_normal((n, k) if bt else (k, n), dtype=np.float32)
    ref = a @ (b.T if bt else b)
    got, err = run(product(m, n, k, "add", None, bt), a, b, "--opt=hand")
    check(f"--opt=hand {m}x{n}x{k}{' B^T' if bt else ''}", got is not None and
          np.abs(got.reshape(m, n) - ref).max() <= 1e-4 * np.abs(ref).max(), err)
a = rng.standard_normal((3, 16, 32), dtype=np.float32)
b = rng.standard_normal((3, 32, 48), dtype=np.float32)
got, err = run(bmm(3, 16, 48, 32), a, b, "--opt=hand")
check("--opt=hand batched 3x16x48x32", got is not None and
      np.abs(got.reshape(3, 16, 48) - a @ b).max() <= 1e-4 * np.abs(a @ b).max(), err)

finish()
