"""Compares a replay of an exported training step with the example's own run.

  compare_step.py DIR CSV [STATE_DIR] [--tol=T]

DIR is the example's --export-step directory (reference.csv: the example's
losses of the replayed steps; reference-state/: its final state), CSV is
uop-runner's --csv, STATE_DIR its --save-state. Without --tol, every loss and
state value must be equal bit for bit (a CPU replay runs the TinyJit's own
code); with it, within a relative tolerance (another device's reductions).
"""
import argparse, csv, os, sys

import numpy as np

ap = argparse.ArgumentParser()
ap.add_argument("dir")
ap.add_argument("csv")
ap.add_argument("state", nargs="?")
ap.add_argument("--tol", type=float, default=0.0)
a = ap.parse_args()


def losses(path):
    return [np.float32(float(r["loss"])) for r in csv.DictReader(open(path))]


want, got = losses(os.path.join(a.dir, "reference.csv")), losses(a.csv)
if len(want) != len(got):
    sys.exit(f"{len(got)} losses, expected {len(want)}")
err = max(abs(float(g) - float(w)) / max(1.0, abs(float(w))) for g, w in zip(got, want))
print(f"{len(got)} losses, max relative difference {err:.3g}")
if (a.tol == 0 and got != want) or err > a.tol:
    sys.exit("the losses differ")
if a.state:
    ref = os.path.join(a.dir, "reference-state")
    names = sorted(os.listdir(ref))
    if sorted(os.listdir(a.state)) != names:
        sys.exit(f"state files {sorted(os.listdir(a.state))}, expected {names}")
    for f in names:
        x, y = np.load(os.path.join(ref, f)), np.load(os.path.join(a.state, f))
        if x.shape != y.shape or x.dtype != y.dtype:
            sys.exit(f"{f}: {y.dtype}{y.shape}, expected {x.dtype}{x.shape}")
        if a.tol == 0 and not np.array_equal(x, y):
            sys.exit(f"{f}: differs (max abs {np.abs(x - y).max()})")
        if a.tol and not np.allclose(y, x, rtol=a.tol, atol=a.tol):
            sys.exit(f"{f}: differs beyond the tolerance (max abs {np.abs(x - y).max()})")
    print(f"{len(names)} state tensors {'bit for bit' if a.tol == 0 else 'within the tolerance'}")
print("OK")
