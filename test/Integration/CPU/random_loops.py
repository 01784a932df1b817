#!/usr/bin/env python3
"""Randomized loop programs, checked against the Python seed as an oracle.

  random_loops.py SEED_ROOT UOP_RUN TMPDIR COUNT

Each program is a kernel graph built with the seed's own API: a nest of one
to three loops over flat buffers, storing a random float expression and a
random int expression (add, mul, max, cmplt, cmpne, where, floordiv and
floormod by constants of either sign, casts, recip, exp2, log2, sqrt, sin).
The seed renders it to C and runs it through gcc (its run_c); uop-run runs
the same program from its .uir text; the buffers must agree.
"""
import os
import random
import subprocess
import sys

import numpy as np

seed_root, uop_run, tmp, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
sys.path.insert(0, seed_root)
from uopc.runtime import run_c  # noqa: E402
from uopc.uir import to_uir  # noqa: E402
from uopc.uop import Ops  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from randprog import loop_program  # noqa: E402  (the generator, shared with fuzz_diff.py)

os.environ.setdefault("UOPC_CACHE", os.path.join(tmp, "uopc-cache"))


gen = loop_program


failures = 0
for t in range(count):
    rng = random.Random(1000 + t)
    prog, n = gen(rng)
    src = to_uir(prog)
    path = os.path.join(tmp, f"p{t}.uir")
    with open(path, "w") as f:
        f.write(src)
    nrng = np.random.default_rng(t)
    a = nrng.standard_normal(n).astype(np.float32)
    b = nrng.integers(-20, 20, n).astype(np.int32)
    want_f, want_i = np.zeros(n, np.float32), np.zeros(n, np.int32)
    run_c(prog, {0: a.copy(), 1: b.copy(), 2: want_f, 3: want_i})
    np.save(os.path.join(tmp, f"a{t}.npy"), a)
    np.save(os.path.join(tmp, f"b{t}.npy"), b)
    out_f, out_i = os.path.join(tmp, f"of{t}.npy"), os.path.join(tmp, f"oi{t}.npy")
    slots = {u.arg.slot for u in prog.toposort() if u.op is Ops.BUFFER}
    args = [uop_run, path, f"--output=2={out_f}", f"--output=3={out_i}"]
    args += [f"--input=0={tmp}/a{t}.npy"] if 0 in slots else []
    args += [f"--input=1={tmp}/b{t}.npy"] if 1 in slots else []
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode != 0:
        print(f"program {t}: uop-run failed:\n{p.stderr}\n{src}")
        failures += 1
        continue
    got_f, got_i = np.load(out_f), np.load(out_i)
    ok_i = np.array_equal(got_i, want_i)
    ok_f = np.allclose(got_f, want_f, rtol=1e-4, atol=1e-5, equal_nan=True)
    if not (ok_i and ok_f):
        failures += 1
        print(f"program {t}: MISMATCH\n{src}\nfloat got {got_f}\n     want {want_f}\nint got {got_i}\n    want {want_i}")
print(f"{count - failures} of {count} random loop programs agree with the seed")
sys.exit(1 if failures else 0)
