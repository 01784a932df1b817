#!/usr/bin/env python3
"""uop-rangeify with #uop.opts against the seed's rangeify with Opts.

  opts_vs_seed.py SEED_ROOT UOP_TRANSLATE UOP_RUN TMPDIR

For a few shaped programs (gemm from movement ops with B strided and
transposed, a reduce max, an elementwise chain) and each mapping (upcast,
unroll, thread, tile, gpu + local, combinations), the seed lowers with
Ctx(opts=Opts(...)) and runs through gcc; uop-run runs the same program with
the same `#uop.opts` on @main (GPU ranges emulated as loops). Values agree.
"""
import os
import re
import subprocess
import sys

import numpy as np

seed_root, translate, uop_run, tmp = sys.argv[1:5]
sys.path.insert(0, seed_root)
os.environ.setdefault("UOPC_CACHE", os.path.join(tmp, "uopc-cache"))
from uopc.dtype import dtypes  # noqa: E402
from uopc.rangeify import Ctx, Opts, lower  # noqa: E402
from uopc.runtime import run_c  # noqa: E402
from uopc.uir import to_uir  # noqa: E402
from uopc.uop import Ops, ParamArg, UOp  # noqa: E402


def buf(slot, n):
    return UOp(Ops.BUFFER, (), ParamArg(slot, dtypes.f32, (n,)))


def gemm(N, transposed):
    A, B = buf(0, N * N), buf(1, N * N)
    a = A.reshape((N, 1, N)).expand((N, N, N))
    bt = B.reshape((N, N)) if transposed else B.reshape((N, N)).permute((1, 0))
    return (a * bt.reshape((1, N, N)).expand((N, N, N))).reduce(Ops.ADD, 1)


programs = {
    "gemm_strided": gemm(16, False),
    "gemm_bt": gemm(16, True),
    "reduce_max": (buf(0, 96).reshape((8, 12)) * 2.0).reduce(Ops.MAX, 1),
    "elementwise": (buf(0, 32).reshape((4, 8)) + buf(1, 32).reshape((4, 8))).maximum(UOp.const(0.0).reshape((1, 1)).expand((4, 8))),
}


def attr(o):
    parts = []
    m = lambda d: "{" + ", ".join(f"{k}: {v}" for k, v in d.items()) + "}"
    if o.upcast: parts.append(f"upcast = {m(o.upcast)}")
    if o.thread is not None: parts.append(f"thread = {o.thread}")
    if o.unroll != 1: parts.append(f"unroll = {o.unroll}")
    if o.tile: parts.append(f"tile = {m(o.tile)}")
    if o.gpu: parts.append("gpu")
    if o.local: parts.append(f"local = {m(o.local)}")
    return "#uop.opts<" + ", ".join(parts) + ">"


optss = [Opts(), Opts(upcast={0: 4, 1: 4}), Opts(thread=0), Opts(unroll=4), Opts(upcast={1: 2}, unroll=2),
         Opts(tile={0: 4, 1: 4}), Opts(upcast={0: 2, 1: 2}, thread=0, tile={0: 4, 1: 4}),
         Opts(gpu=True), Opts(gpu=True, local={0: 2, 1: 4}), Opts(gpu=True, local={1: 2}, upcast={0: 2})]

failures = checked = 0
for name, g in programs.items():
    src = os.path.join(tmp, f"{name}.uir")
    open(src, "w").write(to_uir(g))
    mlir = subprocess.run([translate, "--import-uir", src], capture_output=True, text=True, check=True).stdout
    bufs = sorted({u.arg.slot: u for u in g.toposort() if u.op is Ops.BUFFER}.items())
    rng = np.random.default_rng(len(name))
    inputs = [rng.standard_normal(b.arg.shape[0]).astype(np.float32) for _, b in bufs]
    for i, a in enumerate(inputs):
        np.save(os.path.join(tmp, f"{name}_{i}.npy"), a)
    n = int(np.prod(g.shape)) if g.shape else 1
    for j, o in enumerate(optss):
        if o.gpu and any(s % (o.local.get(k, 1) * o.upcast.get(k, 1)) for k, s in enumerate(g.shape)):
            continue
        if any(k >= len(g.shape) for k in list(o.upcast) + list(o.tile) + list(o.local)):
            continue
        out = buf(len(inputs), n)
        want = np.zeros(n, np.float32)
        run_c(lower(g, out, Ctx(opts=o)), {**{i: a.copy() for i, a in enumerate(inputs)}, len(inputs): want})
        prog = os.path.join(tmp, f"{name}_{j}.mlir")
        open(prog, "w").write(re.sub(r"(func\.func @main\(\) -> [^{]*)\{", r"\1attributes {uop.opts = " + attr(o).replace("\\", "\\\\") + "} {", mlir, count=1))
        res = os.path.join(tmp, f"{name}_{j}_out.npy")
        args = [uop_run, prog, "--target=emulate", f"--output={res}"] + [f"--input={i}={tmp}/{name}_{i}.npy" for i in range(len(inputs))]
        p = subprocess.run(args, capture_output=True, text=True)
        checked += 1
        if p.returncode:
            failures += 1
            print(f"FAIL {name} {attr(o)}: {p.stderr}")
            continue
        got = np.load(res).ravel()
        if not np.allclose(got, want, rtol=1e-4, atol=1e-4):
            failures += 1
            print(f"FAIL {name} {attr(o)}: max err {np.abs(got - want).max()}")
        else:
            print(f"ok {name} {attr(o)}")
print(f"{checked - failures} of {checked} (program, opts) pairs agree with the seed")
sys.exit(1 if failures else 0)
