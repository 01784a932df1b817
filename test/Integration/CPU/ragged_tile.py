#!/usr/bin/env python3
"""Ragged register tiles against numpy and the run without upcast.

  ragged_tile.py UOP_RUN TMPDIR

An upcast that does not divide its axis (or the axis's tile) unrolls it
anyway, the last tile's extra copies clamped to the last index: they
recompute that element and store the same value (uop-rangeify). Products
(gemm, max-plus) and an elementwise kernel with such tiles, with vector
lanes, threads and row blocks around them, must match numpy and the same
program without the upcast: the max-plus bit for bit (each element's terms
keep their order). `stash` and reduce tiles, which read back the output,
keep the seed's rule (no upcast of the axis); they must match too.
--opt=hand on this CPU (6 rows on AVX2, not dividing most row counts) and a
prime row count complete the set.
"""
import sys

import numpy as np
from products import attrs, product, run as run_in
from tally import check, finish

uop_run, tmp = sys.argv[1:3]


def run(text, a, b, *flags):
    return run_in(uop_run, tmp, text, a, b, *flags)


def elementwise(m, n, opts):
    """exp2(A) * 3 + A^T's row broadcast: a kernel with no reduction."""
    return f"""func.func @main() -> tensor<{m}x{n}xf32>{attrs(opts)} {{
  %a = uop.buffer 0 : tensor<{m * n}xf32>
  %b = uop.buffer 1 : tensor<{n}xf32>
  %a2 = uop.reshape %a, [{m}, {n}] : tensor<{m * n}xf32>
  %b2 = uop.reshape %b, [1, {n}] : tensor<{n}xf32>
  %be = uop.expand %b2, [{m}, {n}] : tensor<1x{n}xf32>
  %e = uop.exp2 %a2 : tensor<{m}x{n}xf32>
  %three = uop.const 3.0 : f32
  %t1 = uop.reshape %three, [1, 1] : f32
  %t = uop.expand %t1, [{m}, {n}] : tensor<1x1xf32>
  %p = uop.mul %e, %t : tensor<{m}x{n}xf32>
  %s = uop.add %p, %be : tensor<{m}x{n}xf32>
  return %s : tensor<{m}x{n}xf32>
}}
"""


rng = np.random.default_rng(11)
tiles = ["upcast = {0: 3}", "upcast = {0: 6}", "upcast = {0: 5, 1: 3}",
         "upcast = {0: 6}, vector = 16", "upcast = {0: 6}, thread = 0, vector = 16",
         "upcast = {0: 6}, thread = 0, tile = {0: 8, 1: 16}, vector = 16",
         "upcast = {0: 3}, thread = 0, tile = {0: 4}", "upcast = {0: 6}, unroll = 4",
         # read back their output: the upcast is dropped, the result the same
         "upcast = {0: 6}, tile = {2: 8}", "upcast = {0: 6}, stash"]
for (m, n, k) in [(13, 32, 24), (16, 48, 32), (7, 16, 8)]:
    a = rng.standard_normal((m, k), dtype=np.float32)
    b = rng.standard_normal((k, n), dtype=np.float32)
    for kind in ["add", "max"]:
        ref = a @ b if kind == "add" else (a[:, None, :] + b.T[None, :, :]).max(-1)
        want, err = run(product(m, n, k, kind, ""), a, b)
        if not check(f"{kind} {m}x{n}x{k} no opts", want is not None, err):
            continue
        want = want.reshape(m, n)
        for opts in tiles:
            name = f"{kind} {m}x{n}x{k} <{opts}>"
            got, err = run(product(m, n, k, kind, opts), a, b)
            if not check(name, got is not None, err):
                continue
            got = got.reshape(m, n)
            check(name + " vs numpy", np.abs(got - ref).max() <= 1e-4 * max(1.0, np.abs(ref).max()),
                  f"max error {np.abs(got - ref).max()}")
            if kind == "max":
                check(name + " vs no upcast", np.array_equal(got, want))
            else:
                check(name + " vs no upcast", np.abs(got - want).max() <= 1e-5 * np.abs(want).max())

for (m, n) in [(13, 20), (10, 32)]:
    a = rng.standard_normal((m, n), dtype=np.float32)
    b = rng.standard_normal(n, dtype=np.float32)
    ref = np.exp2(a) * 3 + b[None, :]
    for opts in ["upcast = {0: 4, 1: 3}", "upcast = {0: 3}, thread = 0", "upcast = {1: 6}, thread = 0"]:
        got, err = run(elementwise(m, n, opts), a, b)
        check(f"elementwise {m}x{n} <{opts}>", got is not None and
              np.abs(got.reshape(m, n) - ref).max() <= 1e-5 * np.abs(ref).max(), err)

# --opt=hand: this CPU's register tile (ragged where its rows do not divide).
for (m, n, k) in [(100, 64, 64), (97, 48, 40), (300, 32, 16), (2, 32, 8)]:
    a = rng.standard_normal((m, k), dtype=np.float32)
    b = rng.standard_normal((k, n), dtype=np.float32)
    got, err = run(product(m, n, k, "add"), a, b, "--opt=hand")
    check(f"--opt=hand {m}x{n}x{k}", got is not None and
          np.abs(got.reshape(m, n) - a @ b).max() <= 1e-4 * np.abs(a @ b).max(), err)

finish()
