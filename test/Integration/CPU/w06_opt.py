#!/usr/bin/env python3
"""The seed's tests/test_w06_opt.py, ported: the same graphs through uop.

  w06_opt.py SEED_ROOT UOP_TRANSLATE UOP_OPT UOP_RUN TMPDIR

Each check is the seed's, with its expectation taken from the seed where it
has one (loop counts of the seed's C, STAGE nodes, hand_opt_choice) and from
numpy for values:

* gemm_opts_correct: C = A @ B (32 x 48 x 64, B strided) with each of the
  seed's seven Opts as the program's #uop.opts runs on the CPU and matches
  numpy; a thread axis is a parallel loop (the seed's omp parallel for);
* upcast_shares_reduce_loop: an upcast 2x2 8^3 gemm has the seed's 3 loops
  (2 output loops and ONE shared reduce loop) and 4 accumulators;
* reduce_unroll_has_no_inner_loop: a 16-element sum unrolled 16x has no loop;
* layout_pass: uop-layout stages what the seed's layout_pass stages (the
  transposed B), and nothing for B stored transposed;
* hand_opt_choice: uop-hand-opt chooses the seed's opts for the gemm (an
  upcast and a thread axis) and a few other kernels;
* cache_blocking_correct: tiles {0: 8, 1: 16}, {1: 32}, {0: 16} with a 4x4
  upcast and threads match numpy, with one block loop per tiled axis (the
  seed's loop count);
* fused_attention: softmax(Q K^T / sqrt(D)) V kernelized with fuse-reduce
  and the seed's FlashOpt opts nests its loops no deeper than 3 (the seed's
  bound, and the seed's own depth), and matches numpy.

Prints one line per check and "N of N w06 checks pass".
"""
import math
import os
import re
import subprocess
import sys

import numpy as np

seed_root, translate, uop_opt, uop_run, tmp = sys.argv[1:6]
sys.path.insert(0, seed_root)
sys.path.insert(0, os.path.join(seed_root, "examples"))
os.environ.setdefault("UOPC_CACHE", os.path.join(tmp, "uopc-cache"))
from uopc.dtype import dtypes  # noqa: E402
from uopc.opt import hand_opt_choice, layout_pass  # noqa: E402
from uopc.rangeify import Ctx, Opts, lower  # noqa: E402
from uopc.render_c import render_c  # noqa: E402
from uopc.uir import to_uir  # noqa: E402
from uopc.uop import Ops, ParamArg, UOp  # noqa: E402

results = []


def check(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'FAIL'} {name}{': ' + detail if detail else ''}")


def buf(slot, n):
    return UOp(Ops.BUFFER, (), ParamArg(slot, dtypes.f32, (n,)))


def gemm_graph(M, N, K, bt=False):
    A, B = buf(0, M * K), buf(1, K * N)
    b = B.reshape((N, K)) if bt else B.reshape((K, N)).permute((1, 0))
    return (A.reshape((M, 1, K)).expand((M, N, K)) * b.reshape((1, N, K)).expand((M, N, K))).reduce(Ops.ADD, 1)


def attr(o):
    m = lambda d: "{" + ", ".join(f"{k}: {v}" for k, v in sorted(d.items())) + "}"
    parts = []
    if o.upcast: parts.append(f"upcast = {m(o.upcast)}")
    if o.thread is not None: parts.append(f"thread = {o.thread}")
    if o.unroll != 1: parts.append(f"unroll = {o.unroll}")
    if o.tile: parts.append(f"tile = {m(o.tile)}")
    return "#uop.opts<" + ", ".join(parts) + ">"


def mlir_of(g, name, opts=None):
    """The graph as an MLIR program (@main), with `opts` as its #uop.opts."""
    src = os.path.join(tmp, f"{name}.uir")
    open(src, "w").write(to_uir(g))
    text = subprocess.run([translate, "--import-uir", src], capture_output=True, text=True, check=True).stdout
    if opts is not None:
        text = re.sub(r"(func\.func @main\(\) -> [^{]*)\{", r"\1attributes {uop.opts = " + attr(opts) + "} {", text, count=1)
    path = os.path.join(tmp, f"{name}.mlir")
    open(path, "w").write(text)
    return path


def opt(path, *passes):
    p = subprocess.run([uop_opt, path, *passes], capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError(p.stderr)
    return p.stdout


def linearized(path, fuse=False):
    k = "uop-kernelize{fuse-reduce=true}" if fuse else "uop-kernelize"
    return opt(path, f"--pass-pipeline=builtin.module({k},func.func(uop-rangeify,uop-linearize))")


def kernels(ir):
    """{kernel name: its text} of the linearized module."""
    out, cur = {}, None
    for line in ir.splitlines():
        m = re.match(r"\s*func\.func private @(\w+)", line)
        if m:
            cur = m.group(1)
            out[cur] = []
        elif re.match(r"\s*func\.func @", line):
            cur = None
        if cur:
            out[cur].append(line)
    return {k: "\n".join(v) for k, v in out.items()}


def loops(text):
    return len(re.findall(r"\bscf\.(for|parallel)\b", text))


def loop_depth(text):
    """The deepest nesting of scf.for / scf.parallel (by the printer's braces)."""
    stack, depth = [], 0
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("}"):
            if stack: stack.pop()
            s = s[1:].strip()
        if s.endswith("{"):
            stack.append(bool(re.search(r"\bscf\.(for|parallel)\b", s)))
            depth = max(depth, sum(stack))
    return depth


def seed_loops(src):
    return src.count("for (")


def run(path, inputs, *extra):
    out = os.path.join(tmp, os.path.basename(path) + ".out.npy")
    args = [uop_run, path, "--opt=none", f"--output={out}", *extra]
    for i, a in (inputs.items() if isinstance(inputs, dict) else enumerate(inputs)):
        np.save(os.path.join(tmp, f"in{i}.npy"), a)
        args.append(f"--input={i}={tmp}/in{i}.npy")
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError(p.stderr)
    return np.load(out)


rng = np.random.default_rng(6)

# test_gemm_opts_correct
M, N, K = 32, 48, 64
a, b = rng.standard_normal((M, K)).astype(np.float32), rng.standard_normal((K, N)).astype(np.float32)
for j, o in enumerate([Opts(), Opts(thread=0), Opts(upcast={1: 4}), Opts(upcast={0: 4, 1: 4}, thread=0),
                       Opts(unroll=4), Opts(upcast={0: 2, 1: 8}, unroll=4, thread=1), Opts(upcast={0: 32})]):
    p = mlir_of(gemm_graph(M, N, K), f"gemm_{j}", o)
    c = run(p, [a.ravel(), b.ravel()])
    ok = np.allclose(c, a @ b, rtol=1e-4, atol=1e-4)
    par = "scf.parallel" in linearized(p)
    check(f"gemm_opts_correct {attr(o)}", ok and par == (o.thread is not None),
          f"max err {np.abs(c - a @ b).max():.1e}, parallel loop {par}")

# test_upcast_shares_reduce_loop
o = Opts(upcast={0: 2, 1: 2})
seed_src = render_c(lower(gemm_graph(8, 8, 8), buf(2, 64), Ctx(opts=o)), "k")
k = kernels(linearized(mlir_of(gemm_graph(8, 8, 8), "upcast", o)))["r_8_8"]
accs = len(re.findall(r"memref\.alloca\(\) : memref<1xf32>", k))
check("upcast_shares_reduce_loop", loops(k) == seed_loops(seed_src) == 3 and accs >= 4,
      f"{loops(k)} loops (seed {seed_loops(seed_src)}), {accs} accumulators")

# test_reduce_unroll_has_no_inner_loop
o = Opts(unroll=16)
g = buf(0, 16).reduce(Ops.ADD, 1)
seed_src = render_c(lower(g, buf(1, 1), Ctx(opts=o)), "k")
k = "\n".join(kernels(linearized(mlir_of(g, "unroll", o))).values())
check("reduce_unroll_has_no_inner_loop", loops(k) == seed_loops(seed_src) == 0, f"{loops(k)} loops")

# test_layout_pass_stages_transposed_operand
for bt in (False, True):
    g = gemm_graph(64, 64, 64, bt)
    (g2,) = layout_pass([g])
    want = sum(u.op is Ops.STAGE for u in g2.toposort())
    got = opt(mlir_of(g, f"layout_{bt}"), "--uop-layout").count("uop.stage")
    check(f"layout_pass {'B^T' if bt else 'B strided'}", got == want and (want > 0) != bt,
          f"{got} stage(s), the seed {want}")

# test_hand_opt_choice (and a few more kernels beside the seed's)
for name, g in [("gemm64", gemm_graph(64, 64, 64)), ("gemm_6_10_8", gemm_graph(6, 10, 8)),
                ("rowsum", buf(0, 2048).reshape((512, 4)).reduce(Ops.ADD, 1)),
                ("sum16", buf(0, 16).reduce(Ops.ADD, 1)),
                ("exp", UOp(Ops.EXP2, (buf(0, 65536).reshape((256, 256)),)))]:
    want = attr(hand_opt_choice(g))
    ir = opt(mlir_of(g, f"hand_{name}"), "--uop-kernelize", "--uop-hand-opt")
    got = re.search(r"uop\.opts = (#uop\.opts<[^>]*>)", ir).group(1)
    fields = name != "gemm64" or (hand_opt_choice(g).upcast and hand_opt_choice(g).thread is not None)
    check(f"hand_opt_choice {name}", got == want and fields, f"{got} (the seed {want})")

# test_cache_blocking_correct
M, N, K = 32, 64, 48
a, b = rng.standard_normal((M, K)).astype(np.float32), rng.standard_normal((K, N)).astype(np.float32)
for j, tile in enumerate([{0: 8, 1: 16}, {1: 32}, {0: 16}]):
    o = Opts(upcast={0: 4, 1: 4}, thread=0, tile=tile)
    seed_src = render_c(lower(gemm_graph(M, N, K), buf(2, M * N), Ctx(opts=o)), "k")
    p = mlir_of(gemm_graph(M, N, K), f"tile_{j}", o)
    c = run(p, [a.ravel(), b.ravel()])
    k = kernels(linearized(p))[f"r_{M}_{N}"]
    ok = np.allclose(c, a @ b, rtol=1e-4, atol=1e-4)
    check(f"cache_blocking_correct {attr(o)}", ok and loops(k) == seed_loops(seed_src) == 3 + len(tile),
          f"max err {np.abs(c - a @ b).max():.1e}, {loops(k)} loops (seed {seed_loops(seed_src)})")

# test_fused_attention_reduces_are_not_nested
from flash_attention import FlashOpt, attention  # noqa: E402
from uopc.kernelize import make_plan  # noqa: E402
from uopc.tensor import Tensor  # noqa: E402

Nq, D = 64, 16
q, kk, v = (rng.standard_normal((Nq, D)).astype(np.float32) for _ in range(3))
root = attention(Tensor(q), Tensor(kk), Tensor(v)).uop
plan, _ = make_plan([root], fuse_reduce=True, opt=FlashOpt)
seed_depth = max(len(l) - len(l.lstrip()) for k in plan.kernels for l in k.src.splitlines()
                 if l.lstrip().startswith("for (")) // 2
# FlashOpt: upcast the last output axis (up to 16), threads on axis 0; the
# fused program is one kernel, so the program's opts are its opts.
slots = sorted({u.arg.slot: u for u in root.toposort() if u.op is Ops.BUFFER})
o = Opts(upcast={len(root.shape) - 1: min(root.shape[-1], 16)}, thread=0)
p = mlir_of(root, "attention", o)
ir = linearized(p, fuse=True)
depth = max(loop_depth(t) for t in kernels(ir).values())
data = dict(zip(slots, (q, kk, v)))
got = run(p, {s: data[s].ravel() for s in slots}, "--fuse-reduce")
s = q @ kk.T / math.sqrt(D)
e = np.exp(s - s.max(-1, keepdims=True))
want = (e / e.sum(-1, keepdims=True)) @ v
ok = np.allclose(got.reshape(want.shape), want, rtol=1e-4, atol=1e-4)
check("fused_attention_reduces_are_not_nested", depth <= 3 and depth == seed_depth and ok,
      f"loop depth {depth} (the seed {seed_depth}), max err {np.abs(got.reshape(want.shape) - want).max():.1e}")

print(f"{sum(results)} of {len(results)} w06 checks pass")
sys.exit(0 if all(results) else 1)
