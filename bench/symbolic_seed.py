"""The seed's side of uop-bench-symbolic: the same graph, simplified by the seed.

  PYTHONPATH=/work/shared/reference/uopc-python /usr/bin/python3 \
      bench/symbolic_seed.py [--shape index|dag] [max-ops]   (default index, 100000)

Builds, for 10^3, 10^4, ... up to max-ops ops, the graph that
bench/SymbolicBench.cpp builds for the shape (index: the same chunk of 14 ops,
chained through a max; dag: the same random DAG, from the same LCG), counted
the same way, times uopc.symbolic.simplify on it, and prints one line per
size:

  ops <n> after <m> seconds <t> eval <v1> <v2> ...

`after` counts the simplified graph as uop-bench-symbolic counts a function
(every node but the parameter, plus the return); `eval` is its value at the
points of `uop-bench-symbolic --eval` (POINTS below), so that bench/symbolic.sh
can check that both sides simplified to the same function. 10^6 ops take
about a minute in Python (55 s on the 2-core dev machine); pass 1000000 to
include them.

Note: the seed hash-conses, so its graph of "n ops" has fewer distinct nodes:
every chunk's `j < 16` and `j % 16` (and the constants) are one node, which
the C++ graph has once per chunk until rewriting merges them.
"""
import gc, sys, time
from uopc import symbolic
from uopc.uop import UOp, Ops, ParamArg, range_
from uopc.dtype import dtypes

# (x, j) points at which both sides evaluate the simplified graph.
POINTS = [(0, 0), (1, 5), (-7, 15), (100, 3), (2**31 - 1, 0), (-2**31, 15)]


def build_graph(n):
    """buildGraph of SymbolicBench.cpp; returns (root, x, j)."""
    x0 = UOp(Ops.PARAM, (), ParamArg(0, dtypes.i32))
    j = range_(UOp.const(16), 1)
    x, ops, k = x0, 3, 0
    while ops < n:
        four, ck, sixteen = UOp.const(4), UOp.const(k % 13 + 1), UOp.const(16)
        a = UOp(Ops.MUL, (x, four))
        s = UOp(Ops.ADD, (a, ck))             # x*4 + c
        q = UOp(Ops.FLOORDIV, (s, four))      # -> x + c//4
        r = UOp(Ops.FLOORMOD, (s, four))      # -> c%4
        qm = UOp(Ops.MUL, (q, four))
        t = UOp(Ops.ADD, (qm, r))             # -> x*4 + c
        u = UOp(Ops.FLOORDIV, (t, four))      # -> x + c//4
        lt = UOp(Ops.CMPLT, (j, sixteen))     # bounds: true
        w = UOp(Ops.WHERE, (lt, u, x))        # -> u
        m = UOp(Ops.FLOORMOD, (j, sixteen))   # bounds: j
        x = UOp(Ops.MAX, (w, m))
        ops += 14
        k += 1
    return x, x0, j, ops


class Lcg:
    """SymbolicBench.cpp's Lcg: a 64-bit LCG, the high bits taken."""
    def __init__(self):
        self.state = 12345

    def below(self, n):
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) % 2**64
        return (self.state >> 33) % n


DAG_POINTS = [(0, 0, 0), (1, -2, 5), (-7, 100, 15), (2**31 - 1, -2**31, 3)]
CONSTS = [1, 2, 3, 4, 5, 7, 8, 16, -1, -3]
DIVISORS = [2, 3, 4, 8, 16]


def build_dag(n):
    """buildDagGraph of SymbolicBench.cpp; returns (root, (x, y), j, ops)."""
    x = UOp(Ops.PARAM, (), ParamArg(0, dtypes.i32))
    y = UOp(Ops.PARAM, (), ParamArg(1, dtypes.i32))
    j = range_(UOp.const(16), 1)
    ops = 3
    vals = [x, y, j]
    rng = Lcg()

    def pick():
        return vals[len(vals) - 1 - rng.below(min(32, len(vals)))]

    def const(v):
        nonlocal ops
        ops += 1
        return UOp.const(v)

    while ops < n:
        k = rng.below(100)
        a = pick()
        if k < 25:
            r = UOp(Ops.ADD, (a, pick()))
        elif k < 35:
            r = UOp(Ops.ADD, (a, const(CONSTS[rng.below(10)])))
        elif k < 50:
            r = UOp(Ops.MUL, (a, const(CONSTS[rng.below(10)])))
        elif k < 55:
            r = UOp(Ops.MUL, (a, pick()))
        elif k < 65:
            r = UOp(Ops.FLOORDIV, (a, const(DIVISORS[rng.below(5)])))
        elif k < 75:
            r = UOp(Ops.FLOORMOD, (a, const(DIVISORS[rng.below(5)])))
        elif k < 85:
            r = UOp(Ops.MAX, (a, pick()))
        else:
            v = pick()
            t = pick()
            e = pick()
            r = UOp(Ops.CMPLT, (a, v)).where(t, e)
            ops += 1
        ops += 1
        vals.append(r)
    return vals[-1], (x, y), j, ops


def count(u):
    """Ops as uop-bench-symbolic counts them: all but the parameter, plus return."""
    return sum(1 for v in u.toposort() if v.op is not Ops.PARAM) + 1


def evaluate(u, params, j, points):
    out = []
    for *pv, jv in points:
        sub = {p: UOp.const(v) for p, v in zip(params, pv)}
        sub[j] = UOp.const(jv)
        v = symbolic.run(u.substitute(sub))
        out.append(v.arg if v.op is Ops.CONST else None)
    return out


def main():
    args = sys.argv[1:]
    shape = "index"
    if args[:1] == ["--shape"]:
        shape, args = args[1], args[2:]
    max_ops = int(args[0]) if args else 100000
    n = 1000
    while n <= max_ops:
        # A fresh start for each size: no node (nor its cached bounds) of the
        # previous graph survives, and the simplify memo is empty.
        symbolic._simplified.clear()
        gc.collect()
        if shape == "dag":
            root, params, j, ops = build_dag(n)
            points = DAG_POINTS
        else:
            root, x, j, ops = build_graph(n)
            params, points = (x,), POINTS
        start = time.perf_counter()
        out = symbolic.simplify(root)
        seconds = time.perf_counter() - start
        print(f"ops {ops} after {count(out)} seconds {seconds:.6f} eval",
              *evaluate(out, params, j, points), flush=True)
        del root, out
        n *= 10


if __name__ == "__main__":
    sys.setrecursionlimit(100000)
    main()
