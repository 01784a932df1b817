#!/usr/bin/env python3
"""Shaped (L1) .uir programs run by uop-run and by the Python seed.

  shaped_vs_seed.py SEED_ROOT UOP_RUN TMPDIR PROGRAM.uir...

For each program: the seed parses it, fills every BUFFER slot with random
data (seeded), and computes the value with its own rangeify + C through gcc
(tests/helpers.run_shaped); uop-run runs the same text with the same inputs
(--output FILE.npy); value, shape and dtype must agree. Programs the seed
itself cannot run (kernel graphs, calls) are reported and skipped.
"""
import os
import subprocess
import sys

import numpy as np

seed_root, uop_run, tmp = sys.argv[1:4]
sys.path.insert(0, seed_root)
sys.path.insert(0, os.path.join(seed_root, "tests"))
os.environ.setdefault("UOPC_CACHE", os.path.join(tmp, "uopc-cache"))
from uopc.dtype import dtypes  # noqa: E402
from uopc.runtime import np_dtype  # noqa: E402
from uopc.uir import parse  # noqa: E402
from uopc.uop import Ops  # noqa: E402
from helpers import run_shaped  # noqa: E402

failures = checked = 0
for n, path in enumerate(sys.argv[4:]):
    name = os.path.basename(path)
    g = parse(open(path).read())
    if g.dtype == dtypes.void or any(u.op in (Ops.PARAM, Ops.CALL) for u in g.toposort()):
        print(f"skip {name}: not a closed shaped program")
        continue
    bufs = {u.arg.slot: u for u in g.toposort() if u.op is Ops.BUFFER}
    if sorted(bufs) != list(range(len(bufs))):
        print(f"skip {name}: slots {sorted(bufs)} are not 0..n-1")
        continue
    rng = np.random.default_rng(n)
    inputs, args = [], [uop_run, path]
    for slot in sorted(bufs):
        b = bufs[slot]
        d = np_dtype(b.dtype)
        a = (rng.integers(-5, 5, b.arg.shape[0]) if b.dtype == dtypes.i32
             else rng.standard_normal(b.arg.shape[0])).astype(d)
        inputs.append(a)
        np.save(os.path.join(tmp, f"{n}_{slot}.npy"), a)
        args.append(f"--input={slot}={tmp}/{n}_{slot}.npy")
    try:
        want = run_shaped(g, [a.copy() for a in inputs])
    except Exception as e:  # the seed can't run it either (e.g. a RANGE in a shaped program)
        print(f"skip {name}: the seed cannot run it ({type(e).__name__}: {e})")
        continue
    out = os.path.join(tmp, f"{n}_out.npy")
    p = subprocess.run(args + [f"--output={out}"], capture_output=True, text=True)
    checked += 1
    if p.returncode != 0:
        failures += 1
        print(f"FAIL {name}: uop-run failed:\n{p.stderr}")
        continue
    got = np.load(out)
    want = np.asarray(want).reshape(g.shape)
    if got.shape != want.shape or got.dtype != want.dtype or not np.allclose(
            got, want, rtol=1e-4, atol=1e-4, equal_nan=True):
        failures += 1
        print(f"FAIL {name}: got {got.dtype}{got.shape} {got.ravel()[:8]}\n"
              f"      want {want.dtype}{want.shape} {want.ravel()[:8]}")
    else:
        print(f"ok {name} {got.dtype}{got.shape}")
print(f"{checked - failures} of {checked} shaped programs agree with the seed")
sys.exit(1 if failures else 0)
