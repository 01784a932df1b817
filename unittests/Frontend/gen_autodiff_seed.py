#!/usr/bin/env python3
"""Prints the kSeed table of unittests/Frontend/AutodiffTest.cpp: the seed's
gradient of each loss at x = linspace(-1.5, 1.3, 12) as (3, 4) f32, and the
node count of the seed's gradient graph.

  PYTHONPATH=../shared/reference/uopc-python python3 unittests/Frontend/gen_autodiff_seed.py
"""
import sys, os, tempfile
os.environ["UOPC_CACHE"] = tempfile.mkdtemp()
sys.path.insert(0, os.environ.get("UOP_SEED_ROOT", os.path.join(os.path.dirname(__file__), "../../../shared/reference/uopc-python")))
import numpy as np
from uopc.tensor import Tensor
from uopc.dtype import dtypes
from uopc.uop import UOp, Ops
x = np.linspace(-1.5, 1.3, 12).reshape(3, 4).astype(np.float32)
cases = [
 ("tanh_sum", lambda t: t.tanh().sum()),
 ("softmax_xent", lambda t: t.log_softmax(-1)[:, 1].sum()),
 ("max", lambda t: (t.max(-1) * t.sum(0).max()).sum()),
 ("pad_shrink", lambda t: t.pad(((1, 1), (0, 2)))[1:3, 1:].square().sum()),
 ("sqrt_recip", lambda t: (t.square() + 1).sqrt().reciprocal().sum()),
 ("matmul", lambda t: (t @ t.T).sin().sum()),
 ("where_relu", lambda t: t.relu().sum() + (t > 0.2).where(t * 2, t * t).sum()),
 ("abs_minimum", lambda t: t.abs().sum() + t.minimum(0.5).sum() + t.maximum(t.flip(1)).sum()),
 ("exp_log_mean_var", lambda t: (t.exp() + 1).log().mean() + t.var(-1).sum()),
 ("stack_cat_permute", lambda t: (t[0].stack_with(t[2], t[0]) * 3).exp().sum() + Tensor.cat([t[:, 1:], t[:, :2]], 1).permute(1, 0).sin().sum()),
 ("sigmoid_gelu_silu", lambda t: t.sigmoid().sum() + t.gelu().sum() + t.silu().sum()),
 ("cast_f16", lambda t: (t.cast(dtypes.f16) * 3).cast(dtypes.f32).sum() + t.cast(dtypes.i32).cast(dtypes.f32).sum()),
 ("detach", lambda t: (t.detach() * t).sum() + t.contiguous().square().sum()),
 ("logsumexp_max_axes", lambda t: t.logsumexp(-1).sum() + t.max(0).sum() * t.min().reshape(1)[0]),
]
print("// x =", ", ".join(repr(float(v)) for v in x.ravel()))
for name, fn in cases:
    t = Tensor(x, requires_grad=True)
    loss = fn(t)
    loss.backward([t])
    nodes = len(t.grad.uop.toposort())
    g = t.grad.numpy().ravel()
    print(f'{{"{name}", {nodes}, {{' + ", ".join(f"{float(v)!r}f" for v in g) + "}},")
