#!/usr/bin/env python3
"""Generates test/Integration/CPU/gradient-vs-seed.test and its programs.

  gradient_vs_seed.py SEED_ROOT OUT_DIR

Builds two losses with the seed's Tensor ops over uop.buffer slots (the
gradients of test_w05_tensor's test_gradients, stack/index, detach, f16 casts,
a two-input cross entropy), writes each as .uir (OUT_DIR/Inputs/grad-*.uir),
computes the loss and its gradients with respect to the float slots with the
seed's autodiff (uopc.autodiff.gradient) run by the seed itself
(rangeify -> C -> gcc, tests/helpers.run_shaped), and prints the lit RUN
lines that check uop-gradient + uop-run against those numbers. The inputs are
numpy expressions, evaluated the same way here and in the test (npy.py save).
"""
import os
import sys
import tempfile

import numpy as np

seed_root, out = sys.argv[1:3]
sys.path.insert(0, seed_root)
sys.path.insert(0, os.path.join(seed_root, "tests"))
os.environ.setdefault("UOPC_CACHE", tempfile.mkdtemp(prefix="uopc-cache-"))
from uopc.autodiff import gradient  # noqa: E402
from uopc.dtype import dtypes  # noqa: E402
from uopc.tensor import Tensor  # noqa: E402
from uopc.uir import to_uir  # noqa: E402
from helpers import buf, run_shaped  # noqa: E402

X = "np.linspace(-1.5, 1.3, 12).reshape(3, 4)"
W = "np.cos(np.arange(8) * 0.7).reshape(4, 2)"
Y = "[[0, 1], [1, 0], [0, 1]]"


def inp(slot, expr, dtype, shape):
    u = buf(slot, int(np.prod(shape)), dtype)
    return Tensor(u.reshape(shape)), np.array(eval(expr, {"np": np}), dtype=np.float32 if dtype == dtypes.f32 else np.int32).ravel()


def loss_ops():
    """The six losses of test_gradients, stack/index, detach, casts, on one x."""
    t, x = inp(0, X, dtypes.f32, (3, 4))
    terms = [
        t.tanh().sum(),
        t.log_softmax(-1)[:, 1].sum(),
        (t.max(-1) * t.sum(0).max()).sum(),
        t.pad(((1, 1), (0, 2)))[1:3, 1:].square().sum(),
        (t.square() + 1).sqrt().reciprocal().sum(),
        (t @ t.T).sin().sum(),
        Tensor(t.uop.index(1)).square().sum(),              # uop.index with a constant
        t[0].stack_with(t[2], t[1]).exp().sum(),            # uop.stack
        (t.detach() * t).sum(),                             # stage detach
        (t.cast(dtypes.f16) * 2).cast(dtypes.f32).sum(),    # casts through f16
        t.maximum(t.T.reshape(3, 4)).sum(),                 # max ties split
    ]
    loss = terms[0]
    for term in terms[1:]:
        loss = loss + term
    return loss, [x]


def loss_xent():
    """A classifier's cross entropy over x @ w: relu (where), i32 one-hot labels (a cast)."""
    t, x = inp(0, X, dtypes.f32, (3, 4))
    w, wv = inp(1, W, dtypes.f32, (4, 2))
    y, yv = inp(2, Y, dtypes.i32, (3, 2))  # one-hot labels (Tensor.one_hot's arange would be data)
    h = (t @ w).relu()
    xent = -((h * 2 - 1).log_softmax(-1) * y.float()).sum(-1).mean()
    loss = xent + (t.abs() + 1).log().mean()
    return loss, [x, wv, yv]


def uir(root):
    """to_uir, with `detach=true` on detached stages (the seed's printer drops a
    STAGE's arg; uop's .uir keeps it, docs/UIR.md)."""
    lines = to_uir(root).splitlines()
    named = [u for u in root.toposort() if not (u.op.name == "CONST" and u is not root)]
    for i, u in enumerate(named):
        if u.op.name == "STAGE" and u.arg == "detach":
            lines[i] += " : detach=true"
    return "\n".join(lines) + "\n"


cases = [("ops", loss_ops, [(0, X)]), ("xent", loss_xent, [(0, X), (1, W), (2, Y)])]
os.makedirs(os.path.join(out, "Inputs"), exist_ok=True)
for name, fn, slots in cases:
    loss, inputs = fn()
    path = os.path.join(out, "Inputs", f"grad-{name}.uir")
    with open(path, "w") as f:
        f.write(uir(loss.uop))
    bufs = {u.arg.slot: u for u in loss.uop.toposort() if u.op.name == "BUFFER"}
    targets = [bufs[s] for s in sorted(bufs) if bufs[s].dtype.is_float]
    grads = gradient(loss.uop, targets)
    vals = [run_shaped(loss.uop, inputs)] + [run_shaped(g, inputs) for g in grads]
    dtype = {0: "float32", 1: "float32", 2: "int32"}
    print(f"# --- {name}")
    for s, expr in slots:
        print(f'# RUN: %npy save %t/{name}_{s}.npy {dtype[s]} "{expr}"')
    ins = " ".join(f"--input {s}=%t/{name}_{s}.npy" for s, _ in slots)
    outs = " ".join(f"--output %t/{name}_out{i}.npy" for i in range(len(vals)))
    print(f"# RUN: uop-opt %S/Inputs/grad-{name}.uir --uop-gradient=grad-name=main -o %t/{name}.mlir")
    print(f"# RUN: uop-run %t/{name}.mlir {ins} {outs}")
    for i, v in enumerate(vals):
        lst = ", ".join(repr(float(e)) for e in np.asarray(v, np.float32).ravel())
        print(f'# RUN: %npy check %t/{name}_out{i}.npy "[{lst}]" 1e-5')
