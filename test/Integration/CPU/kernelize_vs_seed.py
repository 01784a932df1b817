#!/usr/bin/env python3
"""Kernelized programs: uop's kernels and values against the seed's plans.

  kernelize_vs_seed.py SEED_ROOT UOP_OPT UOP_RUN TMPDIR [--random N [SEED]]

Each program is built with the seed's Tensor API (softmax, layer norm, chained
matmuls, cross entropy, a detach, staged broadcasts, pad/flip, ...). The seed
kernelizes it (make_plan) and realizes it; its graph is written as .uir with
every input buffer saved by slot. Then:
  * `uop-opt --uop-kernelize` must launch the seed's kernels, in the seed's
    order, under the seed's names (uop adds `__N` to a second, different
    kernel of the same name: that suffix is ignored);
  * `uop-run` must compute the seed's value (same shape, dtype, numbers).
With --random N, N random programs (chains of elementwise ops, reductions
with and without keepdim, broadcasts, matmuls, movement ops, pad/flip,
contiguous and detach) are checked instead of the fixed list.
"""
import os
import re
import subprocess
import sys

import numpy as np

seed_root, uop_opt, uop_run, tmp = sys.argv[1:5]
random_count = int(sys.argv[6]) if len(sys.argv) > 6 and sys.argv[5] == "--random" else 0
random_seed = int(sys.argv[7]) if len(sys.argv) > 7 else 0
sys.path.insert(0, seed_root)
os.environ.setdefault("UOPC_CACHE", os.path.join(tmp, "uopc-cache"))
from uopc.kernelize import buffer_data, make_plan  # noqa: E402
from uopc.tensor import Tensor  # noqa: E402
from uopc.uir import to_uir  # noqa: E402
from uopc.uop import Ops  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from randprog import tensor_program  # noqa: E402  (the generator, shared with fuzz_diff.py)

rng = np.random.default_rng(0)
r = lambda *s: rng.standard_normal(s).astype(np.float32)  # noqa: E731


def layer_norm(x):
    mu = x.mean(-1, keepdim=True)
    xc = x - mu
    return xc * (xc.square().mean(-1, keepdim=True) + 1e-5).rsqrt()


PROGRAMS = [
    ("chain", lambda: ((Tensor(r(64, 64)) * 2 + 1).relu() * 3)),
    ("softmax", lambda: Tensor(r(64, 64)).softmax(-1)),
    ("log_softmax", lambda: Tensor(r(16, 10)).log_softmax(-1)),
    ("layer_norm", lambda: layer_norm(Tensor(r(8, 32)))),
    ("matmul", lambda: Tensor(r(16, 8)) @ Tensor(r(8, 12))),
    ("matmul_chain", lambda: (Tensor(r(16, 16)) @ Tensor(r(16, 16))) @ Tensor(r(16, 16))),
    ("mlp", lambda: ((Tensor(r(8, 16)) @ Tensor(r(16, 32))).relu() @ Tensor(r(32, 4))).sum()),
    ("ln_matmul_staged", lambda: layer_norm(Tensor(r(64, 64))).exp() @ Tensor(r(64, 64))),
    ("broadcast_small", lambda: Tensor(r(8, 1)).exp() * Tensor(r(8, 8))),
    ("mean_var", lambda: Tensor(r(32, 16)).var(0) + Tensor(r(32, 16)).mean(0)),
    ("sum_all", lambda: Tensor(r(7, 5)).sum()),
    ("max_then_sum", lambda: Tensor(r(6, 5, 4)).max(2).sum(1)),
    ("detach", lambda: (lambda w: (w.detach() * w).sum())(Tensor(r(5)))),
    ("contiguous", lambda: (Tensor(r(8, 8)) + 1).contiguous() * 2),
    ("pad_flip", lambda: Tensor(r(4, 6)).pad(((1, 1), (0, 2))).flip(1).square().sum(0)),
    ("cross_entropy", lambda: Tensor(r(8, 5)).cross_entropy(Tensor(np.arange(8) % 5))),
    ("int_mul_zero", lambda: Tensor(np.array([1, 2, 3], np.int32)) * 0),
    ("reshape_root", lambda: Tensor(r(4, 6)).reshape((6, 4))),
    ("permute_root", lambda: Tensor(r(4, 6)).permute((1, 0))),
]



random_program = tensor_program


if random_count:
    rs = np.random.default_rng(random_seed)
    PROGRAMS = [(f"random{i}", (lambda r=np.random.default_rng(rs.integers(1 << 30)): random_program(r)))
                for i in range(random_count)]

failures = 0
for n, (name, build) in enumerate(PROGRAMS):
    t = build()
    root = t.uop
    plan, _ = make_plan([root])
    want_names = [k.name for k in plan.kernels]
    bufs = {u.arg.slot: u for u in root.toposort() if u.op is Ops.BUFFER}
    datas = {s: buffer_data(u).copy() for s, u in bufs.items()}  # before realize
    want = t.numpy()
    path = os.path.join(tmp, f"{name}.uir")
    # The seed's printer drops STAGE's arg: mark detached stages as uop reads them.
    lines = to_uir(root).splitlines()
    names = {u: i for i, u in enumerate(u for u in root.toposort()
                                         if u.op is not Ops.CONST or u is root)}
    for u, i in names.items():
        if u.op is Ops.STAGE and u.arg == "detach":
            lines[i] += " : detach=true"
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    args = [uop_run, path]
    for s, a in datas.items():
        np.save(os.path.join(tmp, f"{name}_{s}.npy"), a)
        args.append(f"--input={s}={tmp}/{name}_{s}.npy")
    out = os.path.join(tmp, f"{name}_out.npy")

    p = subprocess.run([uop_opt, path, "--uop-kernelize"], capture_output=True, text=True)
    if p.returncode != 0:
        failures += 1
        print(f"FAIL {name}: uop-opt --uop-kernelize failed:\n{p.stderr}")
        continue
    host = p.stdout[p.stdout.index("func.func @main"):]
    got_names = [re.sub(r"__\d+$", "", k) for k in re.findall(r"uop\.launch @([\w]+)\(", host)]
    if got_names != want_names:
        failures += 1
        print(f"FAIL {name}: kernels {got_names}, the seed's {want_names}")
        continue

    p = subprocess.run(args + [f"--output={out}"], capture_output=True, text=True)
    if p.returncode != 0:
        failures += 1
        print(f"FAIL {name}: uop-run failed:\n{p.stderr}")
        continue
    got = np.load(out)
    want = np.asarray(want)
    # Where the seed's value overflowed, only ask for a non-finite value too:
    # reductions may be reassociated (the seed's -fassociative-math), and
    # sum(inf * w) is nan in one order and inf * sum(w) in another.
    finite = np.isfinite(want)
    if got.shape != want.shape or got.dtype != want.dtype or not np.allclose(
            got[finite], want[finite], rtol=1e-4, atol=1e-5) or np.isfinite(got[~finite]).any():
        failures += 1
        print(f"FAIL {name}: got {got.dtype}{got.shape} {got.ravel()[:6]}\n"
              f"      want {want.dtype}{want.shape} {want.ravel()[:6]}")
        continue
    print(f"ok {name}: {len(want_names)} kernel(s) {' '.join(want_names) or '(aliased)'}")
print(f"{len(PROGRAMS) - failures} of {len(PROGRAMS)} programs kernelize and run as the seed's")
sys.exit(1 if failures else 0)
