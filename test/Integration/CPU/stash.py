#!/usr/bin/env python3
"""uop-stash (`#uop.opts<stash>`) against the same opts without it, and numpy.

  stash.py UOP_RUN TMPDIR

A fused softmax (--fuse-reduce: one kernel) computes exp2 of the shifted
row in the sum's loop and again in the output's; with `stash` the sum's loop
stores it into the output and the output's loop reads it back. That is the
same value, so the output must be the same bit for bit as without `stash`
(NaN rows, infinities, f16 and odd sizes included), and match numpy; and
--opt=hand must choose `stash` for this kernel.
"""
import os
import re
import shutil
import subprocess
import sys

import numpy as np
import fused
from fused import softmax
from tally import check, finish

uop_run, tmp = sys.argv[1:3]


def run(text, x, *flags):
    return fused.run(uop_run, tmp, text, x, *flags)


def bits(a):
    return a.view(np.uint16 if a.dtype == np.float16 else np.uint32)


rng = np.random.default_rng(11)
for (r, c) in [(8, 64), (12, 100), (1, 7), (64, 33), (16, 256)]:
    for dt in ["f32", "f16"]:
        npdt = np.float32 if dt == "f32" else np.float16
        x = (rng.standard_normal((r, c)) * 4).astype(npdt)
        if r >= 8:  # rows with an infinity, a NaN, -inf only, a huge value
            x[1, c // 2] = np.inf
            x[2, 0] = np.nan
            x[3, :] = -np.inf
            x[4, c - 1] = 60000 if dt == "f16" else 1e30
        with np.errstate(all="ignore"):
            x64 = x.astype(np.float64)
            e = np.exp(x64 - x64.max(axis=1, keepdims=True))
            ref = e / e.sum(axis=1, keepdims=True)
        for base in ["upcast = {0: 4}, thread = 0", "", "upcast = {0: 2}, vector = 16", "thread = 0"]:
            if "upcast = {0: 4}" in base and r % 4:
                continue
            if "upcast = {0: 2}" in base and r % 2:
                continue
            sep = ", " if base else ""
            name = f"softmax {r}x{c} {dt} <{base}>"
            got, err = run(softmax(r, c, dt, f"{base}{sep}stash"), x)
            want, err2 = run(softmax(r, c, dt, base), x)
            if got is None or want is None:
                check(name, False, err if got is None else err2)
                continue
            check(name + " stash vs not, bit for bit", np.array_equal(bits(got), bits(want)))
            got = got.reshape(r, c).astype(np.float64)
            fin = np.isfinite(ref)
            tol = 2e-3 if dt == "f16" else 1e-5
            check(name + " vs numpy", np.array_equal(np.isnan(got), np.isnan(ref)) and
                  np.abs(got[fin] - ref[fin]).max() <= tol, f"max error {np.abs(got[fin] - ref[fin]).max()}")

# The hand rules choose it (and the answer is the same).
x = rng.standard_normal((32, 128)).astype(np.float32)
got, out = run(softmax(32, 128, "f32", None), x, "--opt=hand", "--print-plan")
check("--opt=hand chooses stash", got is not None and "stash>" in out, out)
# (the same opts as the hand's without `stash`, read from its plan)
m = re.search(r"opts #uop\.opts<([^>]*)>", out or "")
hand = ", ".join(f for f in (m.group(1).split(", ") if m else []) if f != "stash")
want, _ = run(softmax(32, 128, "f32", hand), x)
check("--opt=hand = no stash, bit for bit", got is not None and want is not None and m and
      np.array_equal(bits(got), bits(want)))

# Other kernels: the opts --opt=hand chose, with and without `stash`, bit
# for bit (a function-level #uop.opts overrides), and numpy. A reduction
# over another axis than the last sees its own exp2/sin of a permuted view
# (uop-layout pushes the permute to the leaves): nothing is shared, no stash.
uop_translate = os.path.join(os.path.dirname(shutil.which(uop_run) or uop_run), "uop-translate")
programs = {
    # sqrt(x) * sum(sqrt(x)) over rows
    "sqrt-rowsum": ("""%0 = buffer 1536 : dtype=f32 slot=0
%1 = reshape %0, (24, 64)
%2 = sqrt %1
%3 = reduce %2 : op=add pop=1
%4 = reshape %3, (24, 1)
%5 = expand %4, (24, 64)
%6 = mul %2, %5
""", (24, 64), lambda x: np.sqrt(x) * np.sqrt(x).sum(1, keepdims=True), True),
    # exp2(x) over the columns of each row: the reduce on the first axis
    "exp2-colmax": ("""%0 = buffer 2048 : dtype=f32 slot=0
%1 = reshape %0, (32, 64)
%2 = exp2 %1
%3 = permute %2, (1, 0)
%4 = reduce %3 : op=max pop=1
%5 = reshape %4, (1, 64)
%6 = expand %5, (32, 64)
%7 = add %2, %6
""", (32, 64), lambda x: np.exp2(x) + np.exp2(x).max(0, keepdims=True), False),
    # a middle-axis reduction of sin, broadcast back
    "sin-middle": ("""%0 = buffer 3840 : dtype=f32 slot=0
%1 = reshape %0, (8, 20, 24)
%2 = sin %1
%3 = permute %2, (0, 2, 1)
%4 = reduce %3 : op=add pop=1
%5 = reshape %4, (8, 1, 24)
%6 = expand %5, (8, 20, 24)
%7 = mul %2, %6
""", (8, 20, 24), lambda x: np.sin(x) * np.sin(x).sum(1, keepdims=True), False),
    # two reductions of the same exp2 (sum and max), one output
    "exp2-sum-max": ("""%0 = buffer 1024 : dtype=f32 slot=0
%1 = reshape %0, (16, 64)
%2 = exp2 %1
%3 = reduce %2 : op=add pop=1
%4 = reshape %3, (16, 1)
%5 = expand %4, (16, 64)
%6 = reduce %2 : op=max pop=1
%7 = reshape %6, (16, 1)
%8 = expand %7, (16, 64)
%9 = mul %2, %5
%10 = add %9, %8
""", (16, 64),
     lambda x: np.exp2(x) * np.exp2(x).sum(1, keepdims=True) + np.exp2(x).max(1, keepdims=True), True),
}
for name, (uir, shape, ref_fn, stashes) in programs.items():
    x = rng.uniform(0.1, 3.0, shape).astype(np.float32)
    with open(f"{tmp}/q.uir", "w") as f:
        f.write(uir)
    r = subprocess.run([uop_translate, "--import-uir", f"{tmp}/q.uir"], capture_output=True, text=True)
    if r.returncode != 0:
        check(name + " import", False, r.stderr[-300:])
        continue
    mlir = r.stdout
    got, out = run(mlir, x, "--opt=hand", "--print-plan")
    m = re.search(r"opts (#uop\.opts<[^>]*>)", out or "")
    check(name + (" --opt=hand chooses stash" if stashes else " --opt=hand: no stash"),
          got is not None and m is not None and ("stash" in m.group(1)) == stashes, out)
    if got is None or m is None:
        continue
    ref = ref_fn(x.astype(np.float64)).ravel()
    got = got.ravel()
    check(name + " vs numpy", np.abs(got - ref).max() <= 1e-5 * max(1.0, np.abs(ref).max()),
          f"max error {np.abs(got - ref).max()}")
    plain = m.group(1).replace(", stash", "").replace("stash", "")
    want, err = run(re.sub(r"(func\.func @main\(\)[^{]*)\{",
                           lambda mm: f"{mm.group(1)}attributes {{uop.opts = {plain}}} {{", mlir, 1), x)
    check(name + " stash vs not, bit for bit",
          want is not None and np.array_equal(bits(got), bits(want.ravel())), err)

finish()
