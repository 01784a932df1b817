"""Random uop programs built with the seed's own API: the one generator that
the differential tests share (CPU/random_loops.py, CPU/kernelize_vs_seed.py
and scripts/fuzz-diff.sh through fuzz_diff.py).

Import it after putting the seed (uopc-python) on sys.path.

  loop_program(rng)        an L2 kernel graph (random.Random): a nest of one to
                           three loops over flat buffers storing a random float
                           and a random int expression; returns (sink, n)
  tensor_program(rs)       an L1 shaped program (numpy Generator): a random
                           chain of f32 Tensor ops; returns the Tensor
  int_tensor_program(rs)   the same for i32 Tensors (exact arithmetic)
"""
import numpy as np

from uopc.dtype import dtypes
from uopc.tensor import Tensor
from uopc.uop import Ops, ParamArg, UOp, range_, sink


def buf(slot, n, dtype):
    return UOp(Ops.BUFFER, (), ParamArg(slot, dtype, (n,)))


def loop_program(rng):
    """Slots: 0 f32 input, 1 i32 input, 2 f32 output, 3 i32 output (n each)."""
    dims = [rng.randint(1, 5) for _ in range(rng.randint(1, 3))]
    rs = [range_(n, k, ) for k, n in enumerate(dims)]
    n = int(np.prod(dims))
    flat = rs[0]
    for r, d in zip(rs[1:], dims[1:]):
        flat = flat * d + r
    A, B = buf(0, n, dtypes.f32), buf(1, n, dtypes.i32)
    OF, OI = buf(2, n, dtypes.f32), buf(3, n, dtypes.i32)
    a, b = A.index(flat).load(), B.index(flat).load()

    def iexpr(d):
        leaves = [lambda: b, lambda: rng.choice(rs), lambda: UOp.const(rng.randint(-9, 9))]
        if d <= 0 or rng.random() < 0.25:
            return rng.choice(leaves)()
        k = rng.randrange(9)
        x = iexpr(d - 1)
        if k == 0: return x + iexpr(d - 1)
        if k == 1: return x * UOp.const(rng.randint(-4, 4))
        if k == 2: return x.maximum(iexpr(d - 1))
        if k == 3: return x // UOp.const(rng.choice([-5, -3, -2, -1, 1, 2, 3, 4, 7]))
        if k == 4: return x % UOp.const(rng.choice([-5, -3, -2, -1, 1, 2, 3, 4, 7]))
        if k == 5: return (x < iexpr(d - 1)).where(x, iexpr(d - 1))
        if k == 6: return x.ne(iexpr(d - 1)).cast(dtypes.i32)
        if k == 7: return (a * float(rng.randint(1, 8))).cast(dtypes.i32)
        return x - iexpr(d - 1)

    def fexpr(d):
        leaves = [lambda: a, lambda: UOp.const(rng.choice([0.5, -1.25, 2.0, 3.0, 0.0])),
                  lambda: iexpr(1).cast(dtypes.f32)]
        if d <= 0 or rng.random() < 0.25:
            return rng.choice(leaves)()
        k = rng.randrange(10)
        x = fexpr(d - 1)
        if k == 0: return x + fexpr(d - 1)
        if k == 1: return x * fexpr(d - 1)
        if k == 2: return x.maximum(fexpr(d - 1))
        if k == 3: return (x < fexpr(d - 1)).where(x, fexpr(d - 1))
        if k == 4: return x.recip()
        if k == 5: return UOp(Ops.EXP2, (x,))
        if k == 6: return UOp(Ops.LOG2, (x,))
        if k == 7: return UOp(Ops.SQRT, (x,))
        if k == 8: return UOp(Ops.SIN, (x,))
        return x.ne(fexpr(d - 1)).where(x, UOp.const(1.0))

    stores = sink(OF.index(flat).store(fexpr(3)), OI.index(flat).store(iexpr(3)))
    return sink(stores.end(*rs)), n


DIMS = [1, 2, 3, 4, 5, 8]


def tensor_program(rs):
    """A random chain of f32 Tensor ops (shapes kept small); returns the root."""
    dims = DIMS

    def fresh(shape):
        return Tensor(rs.standard_normal(shape).astype(np.float32))
    t = fresh(tuple(int(rs.choice(dims)) for _ in range(int(rs.integers(1, 4)))))
    for _ in range(int(rs.integers(1, 7))):
        k = int(rs.integers(0, 14))
        nd = t.ndim
        ax = int(rs.integers(0, nd)) if nd else 0
        if k == 0:
            t = [lambda x: x.exp(), lambda x: (x.abs() + 1).log(), lambda x: x.abs().sqrt(),
                 lambda x: x.sin(), lambda x: x.relu(), lambda x: x.sigmoid(), lambda x: x.tanh(),
                 lambda x: x.square(), lambda x: (x.abs() + 1).reciprocal(),
                 lambda x: -x][int(rs.integers(0, 10))](t)
        elif k == 1 and nd:
            t = [t.sum, t.max, t.mean][int(rs.integers(0, 3))](ax, keepdim=bool(rs.integers(0, 2)))
        elif k == 2:
            t = t + fresh(t.shape) * float(rs.integers(1, 4))
        elif k == 3 and nd:  # broadcast a reduction back: the softmax shape
            t = t - t.max(ax, keepdim=True)
        elif k == 4 and nd:
            t = t.softmax(-1) if rs.integers(0, 2) else t.log_softmax(-1)
        elif k == 5 and nd == 2:
            t = t @ fresh((t.shape[1], int(rs.choice(dims))))
        elif k in (6, 7, 8, 9, 12):
            # (the index draw above is the one the movement op uses)
            t = _movement_with_axis(t, k, rs, ax)
        elif k == 10:
            t = t.contiguous()
        elif k == 11:
            t = t.detach() * t
        elif k == 13 and nd:  # a broadcast of a computed tensor (maybe staged)
            big = int(rs.choice([4, 64]))
            t = (t.exp().reshape(t.shape + (1,)) * fresh((1,) * nd + (big,))).sum(-1)
    return t


def _movement_with_axis(t, k, rs, ax):
    nd = t.ndim
    if k == 6 and nd >= 2:
        return t.permute(tuple(int(p) for p in rs.permutation(nd)))
    if k == 7 and nd:
        return t.reshape((-1,)) if rs.integers(0, 2) else t.reshape((1,) + t.shape)
    if k == 8 and nd:
        return t.pad(tuple((int(rs.integers(0, 2)), int(rs.integers(0, 3))) for _ in range(nd)))
    if k == 9 and nd:
        return t.flip(ax)
    if k == 12 and nd and t.shape[ax] > 1:
        return t[tuple(slice(None) if i != ax else slice(1, None) for i in range(nd))]
    return t


def int_tensor_program(rs):
    """A random chain of i32 Tensor ops: add, sub, mul by small constants,
    maximum, where over a comparison, sum/max reductions (with and without
    keepdim), broadcasts of a reduction, matmul, movement ops, contiguous and
    a cast through f32. Inputs and constants stay small, so nothing wraps."""
    def fresh(shape):
        return Tensor(rs.integers(-4, 5, shape).astype(np.int32))
    t = fresh(tuple(int(rs.choice(DIMS)) for _ in range(int(rs.integers(1, 4)))))
    for _ in range(int(rs.integers(1, 7))):
        k = int(rs.integers(0, 14))
        nd = t.ndim
        ax = int(rs.integers(0, nd)) if nd else 0
        if k == 0:
            t = [lambda x: x + 3, lambda x: x * -2, lambda x: -x,
                 lambda x: x.maximum(fresh(x.shape)), lambda x: x - fresh(x.shape),
                 lambda x: (x < 1).where(x, x * 2),
                 lambda x: x.cast(dtypes.f32).cast(dtypes.i32)][int(rs.integers(0, 7))](t)
        elif k == 1 and nd:
            t = [t.sum, t.max][int(rs.integers(0, 2))](ax, keepdim=bool(rs.integers(0, 2)))
        elif k == 2:
            t = t + fresh(t.shape) * int(rs.integers(1, 4))
        elif k == 3 and nd:
            t = t - t.max(ax, keepdim=True)
        elif k == 5 and nd == 2:
            t = t @ fresh((t.shape[1], int(rs.choice(DIMS))))
        elif k in (6, 7, 8, 9, 12):
            t = _movement_with_axis(t, k, rs, ax)
        elif k == 10:
            t = t.contiguous()
        elif k == 13 and nd:
            t = (t.reshape(t.shape + (1,)) * fresh((1,) * nd + (int(rs.choice([4, 8])),))).sum(-1)
    return t
