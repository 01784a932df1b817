#!/usr/bin/env python3
"""uop-prefetch-next (`#uop.opts<prefetch_next = S>`) against numpy and the same opts without it.

  prefetch_next.py UOP_RUN TMPDIR

A fused softmax and a fused layernorm (--fuse-reduce: one kernel each) walk
every row in two or more loops; with `prefetch_next` the second loop is
strip-mined and each strip prefetches the next row. The strips keep every
iteration, so the result must match numpy and the kernel without it (to
float reassociation: LLVM sums each strip in vector lanes), for strips that
divide the row, strips halved until they do, rows too short for a strip, one
row (the last row prefetches itself), odd row counts, with and without
threads and stash. --opt=hand must choose it for long fused rows (and only
for them).
"""
import re
import subprocess
import sys

import numpy as np
import fused
from fused import layernorm
from tally import check, finish

uop_run, tmp = sys.argv[1:3]


def ref_softmax(x):
    x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def ref_layernorm(x):
    x = x.astype(np.float64)
    xc = x - x.mean(axis=1, keepdims=True)
    return xc / np.sqrt((xc * xc).mean(axis=1, keepdims=True) + 1e-5)


def run(text, x, *flags):
    out, info = fused.run(uop_run, tmp, text, x, *flags)
    return (None if out is None else out.astype(np.float64)), info


rng = np.random.default_rng(5)
def softmax(r, c, opts):
    return fused.softmax(r, c, "f32", opts)


programs = [("softmax", softmax, ref_softmax, "stash"), ("layernorm", layernorm, ref_layernorm, "")]
# (rows, columns, strip): a strip that divides the row; 1000 columns (256
# halves to 8: below a line, so the loop is left); 96 columns (64 halves to
# 32); one row; odd rows; a strip as long as the row (nothing to strip).
for (r, c, s) in [(64, 1024, 256), (7, 1000, 256), (33, 96, 64), (1, 4096, 256), (5, 512, 64),
                  (9, 256, 256)]:
    x = (rng.standard_normal((r, c)) * 3).astype(np.float32)
    for name, make, ref_of, extra in programs:
        ref = ref_of(x)
        for base in ["thread = 0", ""]:
            opts = ", ".join(o for o in [base, extra] if o)
            sep = ", " if opts else ""
            label = f"{name} {r}x{c} <{opts}{sep}prefetch_next = {s}>"
            got, err = run(make(r, c, f"{opts}{sep}prefetch_next = {s}"), x)
            want, err2 = run(make(r, c, opts), x)
            if got is None or want is None:
                check(label, False, err if got is None else err2)
                continue
            got = got.reshape(r, c)
            check(label + " vs numpy", np.abs(got - ref).max() <= 1e-5 * max(1.0, np.abs(ref).max()),
                  f"max error {np.abs(got - ref).max()}")
            check(label + " vs without", np.allclose(got, want.reshape(r, c), rtol=1e-5, atol=1e-6),
                  f"max difference {np.abs(got - want.reshape(r, c)).max()}")

# The hand rules: a fused softmax and layernorm with rows of 1024 or more
# prefetch the next row; shorter rows and a single reduction do not.
for name, make, ref_of, _ in programs:
    for (r, c, want) in [(64, 1024, True), (64, 512, False)]:
        x = rng.standard_normal((r, c)).astype(np.float32)
        got, out = run(make(r, c, None), x, "--print-plan")
        opts = re.search(r"opts (#uop\.opts<[^>]*>)", out or "")
        check(f"--opt=hand {name} {r}x{c} prefetch_next: {want}",
              got is not None and opts is not None and ("prefetch_next = 256" in opts.group(1)) == want,
              out)
        check(f"--opt=hand {name} {r}x{c} vs numpy",
              got is not None and np.abs(got.reshape(r, c) - ref_of(x)).max() <= 1e-5)
finish()
