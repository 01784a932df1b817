#!/usr/bin/env python3
"""The GPU search's middle step, on the GPU machine (no compiler there).

    uop-gpu-search.py RUNNER DIR [--reps N] [--seed S]

DIR is what `uop-compile P --target=cuda --opt=search --search-export=DIR` wrote
on the compiler's machine: DIR/manifest.txt and, for each kernel, its candidate
opts as one-kernel bundles (the hand's first). Each candidate runs on the same
random inputs (uop-runner --random-inputs=S); one whose result differs from the
hand's (beyond 1e-3 relative to the largest value) is rejected; the others are
timed (uop-runner --bench=N, the median of N runs, CUDA events) and the fastest
wins (the hand's unless another is more than 1% faster). Writes DIR/results.txt,
which `uop-compile P --target=cuda --opt=search --search-results=DIR/results.txt`
caches by kernel and target (docs/GPU.md, "The GPU search").
Needs Python 3 and numpy.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

MANIFEST = "uop-gpu-search 1"
RESULTS = "uop-gpu-search-results 1"


def read_manifest(directory):
    path = os.path.join(directory, "manifest.txt")
    kernels = {}  # key -> {"name", "cands": [(file, opts)]}
    order = []
    with open(path) as f:
        lines = f.read().splitlines()
    if not lines or lines[0].strip() != MANIFEST:
        sys.exit(f"{path}:1: error: not a GPU search manifest (first line is not '{MANIFEST}')")
    for n, line in enumerate(lines[1:], start=2):
        parts = line.split(" ", 3)
        if not line.strip() or parts[0] == "target":
            continue
        if parts[0] == "kernel" and len(parts) == 3:
            if parts[1] not in kernels:
                kernels[parts[1]] = {"name": parts[2], "cands": []}
                order.append(parts[1])
        elif parts[0] == "cand" and len(parts) == 4 and parts[1] in kernels:
            kernels[parts[1]]["cands"].append((parts[2], parts[3]))
        else:
            sys.exit(f"{path}:{n}: error: unexpected line '{line}'")
    return [(k, kernels[k]) for k in order]


def run(runner, bundle, args, timeout):
    try:
        return subprocess.run([runner, bundle] + args, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runner")
    ap.add_argument("dir")
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=120, help="seconds a run may take")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="uop-gpu-search-")
    out_lines = [RESULTS]
    for key, k in read_manifest(a.dir):
        name, cands = k["name"], k["cands"]
        ref = None
        timed, rejected = [], 0
        for i, (file, opts) in enumerate(cands):
            bundle = os.path.join(a.dir, file)
            out = os.path.join(tmp, "out.npy")
            r = run(a.runner, bundle, [f"--random-inputs={a.seed}", f"--output={out}"], a.timeout)
            if r is None or r.returncode != 0:
                why = "timed out" if r is None else r.stderr.strip()[:200]
                print(f"{name}: {opts}: rejected (does not run: {why})", flush=True)
                rejected += 1
                if i == 0:
                    break
                continue
            value = np.load(out)
            if i == 0:
                ref = value
            else:
                scale = max(1.0, float(np.max(np.abs(ref.astype(np.float64))))) if ref.size else 1.0
                same = value.shape == ref.shape and np.allclose(
                    value.astype(np.float64), ref.astype(np.float64), rtol=1e-3, atol=1e-3 * scale,
                    equal_nan=True)
                if not same:
                    print(f"{name}: {opts}: rejected (its result differs from the hand's)", flush=True)
                    rejected += 1
                    continue
            r = run(a.runner, bundle, [f"--random-inputs={a.seed}", f"--bench={a.reps}"], a.timeout)
            m = re.search(r"median ([0-9.]+) ms", r.stdout) if r is not None and r.returncode == 0 else None
            if not m:
                print(f"{name}: {opts}: rejected (no time)", flush=True)
                rejected += 1
                continue
            ms = float(m.group(1))
            timed.append((ms, i, opts))
            print(f"{name}: {opts}: {ms:.4f} ms", flush=True)
        if not timed or timed[0][1] != 0:
            print(f"{name}: the hand's opts do not run; no winner", flush=True)
            continue
        hand_ms = timed[0][0]
        best = min(timed)
        if best[0] >= 0.99 * hand_ms:
            best = timed[0]
        print(f"{name}: winner {best[2]} {best[0]:.4f} ms (hand {hand_ms:.4f} ms; "
              f"{len(cands)} candidates, {rejected} rejected)", flush=True)
        out_lines.append(f"# {name}: {best[0]:.4f} ms, hand {hand_ms:.4f} ms, {len(cands)} candidates, "
                         f"{rejected} rejected")
        out_lines.append(f"{key} {best[2]}")
    path = os.path.join(a.dir, "results.txt")
    with open(path, "w") as f:
        f.write("\n".join(out_lines) + "\n")
    print(f"wrote {path}: {(len(out_lines) - 1) // 2} winner(s)")


if __name__ == "__main__":
    main()
