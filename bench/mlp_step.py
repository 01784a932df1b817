#!/usr/bin/env python3
"""The MLP training step through Python beside the same step in C++.

The step of bench/mlp_step.sh (784-128-10, batch 128, AdamW, cross entropy,
backward) written with the uop Python package and replayed by uop.TinyJit,
beside uop-bench-mlp-step's TinyJit row (the same step in C++). Both make
each step's batch as a fresh copy of 128 rows of a pool, as the C++ bench
does; the difference of the medians is what Python adds to a replayed step.
Rounds alternate C++ and Python, so that both see the same machine load.

  PYTHONPATH=build/python /usr/bin/python3 bench/mlp_step.py [--build=build]
      [--steps=300] [--rounds=3] [--zero-copy]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
IN, HIDDEN, OUT, BATCH, POOL = 784, 128, 10, 128, 1024


def cpp_step_ms(build, steps, warmup):
    """uop-bench-mlp-step's TinyJit median ms/step."""
    exe = os.path.join(build, "bin", "uop-bench-mlp-step")
    r = subprocess.run([exe, "--no-numpy", "--no-eager", f"--steps={steps}", f"--warmup={warmup}"],
                       capture_output=True, text=True, check=True)
    m = re.search(r"\| uop, TinyJit \(replayed\) \| ([0-9.]+) \|", r.stdout)
    if not m:
        sys.exit("mlp_step.py: no TinyJit row in uop-bench-mlp-step's output:\n" + r.stdout)
    return float(m.group(1))


class PythonStep:
    """The step in Python: an MLP of uop.nn.Linear, AdamW, one TinyJit."""

    def __init__(self, zero_copy):
        import uop
        from uop import Tensor, nn
        self.Tensor, self.zero_copy = Tensor, zero_copy
        rng = np.random.default_rng(1)
        self.xs = rng.random((POOL, IN), dtype=np.float32)
        self.ys = rng.integers(0, OUT, POOL).astype(np.int32)
        Tensor.manual_seed(0)
        self.l1, self.l2 = nn.Linear(IN, HIDDEN), nn.Linear(HIDDEN, OUT)
        opt = nn.AdamW(nn.parameters([self.l1, self.l2]), lr=1e-3)

        @uop.TinyJit
        def step(x, y):
            loss = self.l2(self.l1(x).relu()).cross_entropy(y)
            opt.minimize(loss)
            return loss

        self.step, self.s = step, 0

    def __call__(self):
        rows = slice((self.s * BATCH) % POOL, (self.s * BATCH) % POOL + BATCH)
        x, y = self.xs[rows], self.ys[rows]
        if not self.zero_copy:
            x, y = x.copy(), y.copy()  # as the C++ bench: a fresh batch buffer
        self.s += 1
        return self.step(self.Tensor(x), self.Tensor(y))

    def time(self, steps):
        """Medians of the step's wall time and of its time outside the C++ TinyJit, in ms."""
        ms, outside = [], []
        for _ in range(steps):
            t0 = time.perf_counter()
            self()
            t = (time.perf_counter() - t0) * 1e3
            ms.append(t)
            outside.append(t - self.step.last_cpp_seconds * 1e3)
        return statistics.median(ms), statistics.median(outside)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(HERE, "..", "build"))
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--zero-copy", action="store_true",
                    help="pass the pool's rows to the step without copying (uop shares them)")
    a = ap.parse_args()
    py = PythonStep(a.zero_copy)
    t0 = time.perf_counter()
    for _ in range(a.warmup):
        loss = py()
    print(f"MLP training step {IN}-{HIDDEN}-{OUT}, batch {BATCH}, AdamW, through uop.TinyJit; "
          f"{a.steps} steps per round after {a.warmup} (warm-up {1e3 * (time.perf_counter() - t0):.0f} ms), "
          f"batches {'shared' if a.zero_copy else 'copied'}")
    print("\n| round | C++ ms/step | Python ms/step | Python - C++ ms | Python outside the C++ TinyJit, ms |"
          "\n|---|---|---|---|---|")
    diffs, outs = [], []
    for r in range(a.rounds):
        c = cpp_step_ms(a.build, a.steps, a.warmup)
        p, o = py.time(a.steps)
        diffs.append(p - c)
        outs.append(o)
        print(f"| {r + 1} | {c:.3f} | {p:.3f} | {p - c:+.3f} | {o:.4f} |", flush=True)
    print(f"\nPython overhead per replayed step: {statistics.median(outs):.4f} ms measured inside the step "
          f"(its time outside uop::TinyJit: the batch, the Tensors, the call); {statistics.median(diffs):+.3f} ms "
          f"as the difference of the two processes' medians (loss {loss.item():.4f})")


if __name__ == "__main__":
    main()
