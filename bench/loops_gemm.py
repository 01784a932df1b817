#!/usr/bin/env python3
"""The week-3 loop-IR gemm, in uop and in the seed, side by side.

  python3 bench/loops_gemm.py [N] [--uop-run build/bin/uop-run] [--reps 10]

Builds the seed's hand-written gemm (tests/test_w03_loops.py) at N^3, writes
it as .uir, and times
  * uop:  uop-run --bench (LLVM -O3 for the host CPU, compiled code cached),
  * seed: render_c + gcc -O3 -march=native -fopenmp ... (its runtime.Program),
  * numpy a @ b (OpenBLAS), for scale,
checking uop's result against numpy. One table, one run, same machine.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ap = argparse.ArgumentParser()
ap.add_argument("n", type=int, nargs="?", default=512)
ap.add_argument("--uop-run", default=os.path.join(ROOT, "build", "bin", "uop-run"))
ap.add_argument("--seed", default=os.path.join(os.path.dirname(ROOT), "shared", "reference", "uopc-python"))
ap.add_argument("--reps", type=int, default=10)
args = ap.parse_args()
sys.path.insert(0, args.seed)
sys.path.insert(0, os.path.join(args.seed, "tests"))
from test_w03_loops import gemm  # noqa: E402
from uopc.render_c import render_c  # noqa: E402
from uopc.runtime import Program  # noqa: E402
from uopc.uir import to_uir  # noqa: E402

N = args.n
flop = 2 * N ** 3
prog = gemm(N, N, N)
rng = np.random.default_rng(0)
a = rng.standard_normal((N, N)).astype(np.float32)
b = rng.standard_normal((N, N)).astype(np.float32)


def median_time(fn, reps):
    fn()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return float(np.median(ts))


rows = []
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "gemm.uir")
    with open(path, "w") as f:
        f.write(to_uir(prog))
    np.save(os.path.join(tmp, "a.npy"), a.ravel())
    np.save(os.path.join(tmp, "b.npy"), b.ravel())
    cmd = [args.uop_run, path, f"--input=0={tmp}/a.npy", f"--input=1={tmp}/b.npy"]
    t0 = time.perf_counter()
    subprocess.run(cmd + [f"--output=2={tmp}/c.npy"], check=True)
    first = time.perf_counter() - t0
    out = subprocess.run(cmd + [f"--bench={args.reps}"], check=True, capture_output=True, text=True).stdout
    t = float(re.search(r"median ([0-9.]+) ms", out).group(1)) / 1e3
    err = np.abs(np.load(os.path.join(tmp, "c.npy")).reshape(N, N) - a @ b).max()
    rows.append(("uop (LLVM -O3, host CPU)", t, f"max err {err:.1e}; first run incl. compile {first:.2f} s"))

    c = np.zeros(N * N, np.float32)
    t0 = time.perf_counter()
    p = Program(render_c(prog, "gemm"), "gemm")
    compile_s = time.perf_counter() - t0
    t = median_time(lambda: p(a, b, c), args.reps)
    err = np.abs(c.reshape(N, N) - a @ b).max()
    rows.append(("seed (C through gcc)", t, f"max err {err:.1e}; compile {compile_s:.2f} s"))

    t = median_time(lambda: a @ b, args.reps)
    rows.append(("numpy a @ b (OpenBLAS)", t, "for scale: a tuned library"))

print(f"loop-IR gemm {N}x{N}x{N} ({flop / 1e9:.2f} GFLOP), median of {args.reps} runs, {os.cpu_count()} cores")
print(f"{'implementation':28s} {'time (ms)':>10s} {'GFLOP/s':>9s}  notes")
for name, t, note in rows:
    print(f"{name:28s} {t * 1e3:10.2f} {flop / t / 1e9:9.2f}  {note}")
