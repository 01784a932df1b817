#!/usr/bin/env python3
"""Row-wise softmax and layernorm of an R x C f32 matrix, beside a plain copy of the same data.

  /usr/bin/python3 bench/norms.py [--rows 4096] [--cols 4096] [--uop-run build/bin/uop-run]
                                  [--threads 2] [--reps 10] [--opt hand]
                                  [--modes default,fuse-reduce] [--repeat R]

The bound is one read plus one write of the data: a plain copy, measured in
the same run (numpy's np.copyto, and uop's own elementwise kernel `x + 1`,
which moves the same bytes). softmax is the seed's Tensor.softmax graph
(max, exp2 of the shifted row, sum, times the reciprocal), layernorm the
seed's nn.LayerNorm without the affine part (mean, centred square mean,
rsqrt of it + 1e-5, times the centred row). Each uop result is checked
against numpy first. Both are run as the seed kernelizes them (`default`:
every reduction a kernel of its own, so the data is read three times) and
with `--fuse-reduce` (one kernel: one read and one write), each a row of
the table (--modes picks; --fuse-reduce alone is --modes fuse-reduce).
"""
import argparse
import os
import re
import subprocess
import tempfile
import time

import numpy as np

from hostinfo import host_cpu, uop_target
from openblas import best_core, describe

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def softmax_uir(r, c):
    return f"""%0 = buffer {r * c} : dtype=f32 slot=0
%1 = reshape %0, ({r}, {c})
%2 = reduce %1 : op=max pop=1
%3 = reshape %2, ({r}, 1)
%4 = reshape -1.0, (1, 1)
%5 = expand %4, ({r}, 1)
%6 = mul %3, %5
%7 = expand %6, ({r}, {c})
%8 = add %1, %7
%9 = reshape 1.4426950408889634, (1, 1)
%10 = expand %9, ({r}, {c})
%11 = mul %8, %10
%12 = exp2 %11
%13 = reduce %12 : op=add pop=1
%14 = reshape %13, ({r}, 1)
%15 = recip %14
%16 = expand %15, ({r}, {c})
%17 = mul %12, %16
"""


def layernorm_uir(r, c):
    return f"""%0 = buffer {r * c} : dtype=f32 slot=0
%1 = reshape %0, ({r}, {c})
%2 = reduce %1 : op=add pop=1
%3 = reshape %2, ({r}, 1)
%4 = reshape {1.0 / c!r}, (1, 1)
%5 = expand %4, ({r}, 1)
%6 = mul %3, %5
%7 = reshape -1.0, (1, 1)
%8 = expand %7, ({r}, 1)
%9 = mul %6, %8
%10 = expand %9, ({r}, {c})
%11 = add %1, %10
%12 = mul %11, %11
%13 = reduce %12 : op=add pop=1
%14 = reshape %13, ({r}, 1)
%15 = mul %14, %5
%16 = reshape 1e-05, (1, 1)
%17 = expand %16, ({r}, 1)
%18 = add %15, %17
%19 = sqrt %18
%20 = recip %19
%21 = expand %20, ({r}, {c})
%22 = mul %11, %21
"""


def copy_uir(r, c):
    return f"""%0 = buffer {r * c} : dtype=f32 slot=0
%1 = reshape %0, ({r}, {c})
%2 = reshape 1.0, (1, 1)
%3 = expand %2, ({r}, {c})
%4 = add %1, %3
"""


def ref_softmax(x):
    e = np.exp2((x - x.max(-1, keepdims=True)) * np.float32(1.4426950408889634))
    return e / e.sum(-1, keepdims=True)


def ref_layernorm(x):
    xc = x - x.mean(-1, keepdims=True)
    return xc / np.sqrt((xc * xc).mean(-1, keepdims=True) + np.float32(1e-5))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=4096)
    ap.add_argument("--cols", type=int, default=4096)
    ap.add_argument("--uop-run", default=os.path.join(ROOT, "build", "bin", "uop-run"))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--opt", default="hand")
    ap.add_argument("--modes", default="default,fuse-reduce",
                    help="comma-separated: default (the seed's kernels), fuse-reduce (one kernel)")
    ap.add_argument("--fuse-reduce", action="store_true", help="the same as --modes fuse-reduce")
    ap.add_argument("--repeat", type=int, default=1,
                    help="rounds of every measurement, interleaved: the median of the rounds "
                         "and their range are printed (one run says little on a noisy machine)")
    args = ap.parse_args()
    r, c = args.rows, args.cols
    env = dict(os.environ, OMP_NUM_THREADS=str(args.threads))
    x = np.random.default_rng(0).standard_normal((r, c), dtype=np.float32)
    modes = ["fuse-reduce"] if args.fuse_reduce else [m for m in args.modes.split(",") if m]
    if not modes or any(m not in ("default", "fuse-reduce") for m in modes):
        ap.error(f"--modes: expected default and/or fuse-reduce, got {args.modes!r}")
    flags = [f"--opt={args.opt}"]
    mb = 2 * x.nbytes / 1e6
    with tempfile.TemporaryDirectory(prefix="uop-bench-norms-") as tmp:
        np.save(f"{tmp}/x.npy", x.ravel())

        def uop(name, text, ref, extra=()):
            prog = f"{tmp}/{name}.uir"
            with open(prog, "w") as f:
                f.write(text)
            flags_ = [*flags, *extra]
            subprocess.run([args.uop_run, prog, *flags_, "--input", f"0={tmp}/x.npy", "--output",
                            f"{tmp}/y.npy"], env=env, check=True, capture_output=True)
            err = float(np.abs(np.load(f"{tmp}/y.npy").reshape(r, c) - ref).max())
            out = subprocess.run([args.uop_run, prog, *flags_, "--random-inputs",
                                  f"--bench={args.reps}", "--print-plan"], env=env, check=True,
                                 capture_output=True, text=True).stdout
            ms = float(re.search(r"median ([0-9.]+) ms", out).group(1))
            kernels = len(re.findall(r"^  kernel ", out, re.M))
            return ms, err, kernels

        dst = np.empty_like(x)
        np.copyto(dst, x)
        programs = [(f"{name}" + ("" if m == "default" else " --fuse-reduce"), text, ref,
                     [] if m == "default" else ["--fuse-reduce"])
                    for m in modes
                    for name, text, ref in [("softmax", softmax_uir(r, c), ref_softmax(x)),
                                            ("layernorm", layernorm_uir(r, c), ref_layernorm(x))]]
        # Rounds interleave every measurement, so that a slow minute of a
        # shared machine hits all of them.
        times = {"numpy": [], "copy": [], **{name: [] for name, _, _, _ in programs}}
        info = {}
        for _ in range(max(1, args.repeat)):
            ts = []
            for _ in range(args.reps):
                t0 = time.perf_counter()
                np.copyto(dst, x)
                ts.append(time.perf_counter() - t0)
            times["numpy"].append(float(np.median(ts)) * 1e3)
            times["copy"].append(uop("copy", copy_uir(r, c), x + np.float32(1))[0])
            for name, text, ref, extra in programs:
                ms, err, k = uop(name.split()[0], text, ref, extra)
                times[name].append(ms)
                info[name] = (k, max(err, info.get(name, (0, 0.0))[1]))
        med = {k: float(np.median(v)) for k, v in times.items()}
        bound = min(med["numpy"], med["copy"])

        def cell(name):
            v = times[name]
            return f"{med[name]:.2f}" if len(v) == 1 else f"{med[name]:.2f} ({min(v):.2f}-{max(v):.2f})"
        print(f"host: {host_cpu()}; {args.threads} threads; {r} x {c} f32 "
              f"({x.nbytes / 1e6:.0f} MB); uop-run {' '.join(flags)}; medians of {args.reps}"
              + (f", then of {args.repeat} rounds (range in brackets)" if args.repeat > 1 else ""))
        print(f"uop target: {uop_target(args.uop_run)}")
        print(f"numpy's OpenBLAS core (not used by the copy): {describe(best_core(args.threads))}")
        print("| program | kernels | ms | GB/s (read + write) | x copy | max abs error |")
        print("|---|---|---|---|---|---|")
        print(f"| copy (numpy copyto) | | {cell('numpy')} | {mb / med['numpy']:.1f} | "
              f"{med['numpy'] / bound:.2f}x | |")
        print(f"| copy (uop, x + 1) | 1 | {cell('copy')} | {mb / med['copy']:.1f} | "
              f"{med['copy'] / bound:.2f}x | |")
        for name, _, _, _ in programs:
            k, err = info[name]
            print(f"| {name} | {k} | {cell(name)} | {mb / med[name]:.1f} | {med[name] / bound:.2f}x "
                  f"| {err:.1e} |", flush=True)

if __name__ == "__main__":
    main()
