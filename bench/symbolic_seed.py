"""The seed's side of uop-bench-symbolic: the same graph, simplified by the seed.

  PYTHONPATH=/work/shared/reference/uopc-python /usr/bin/python3 \
      bench/symbolic_seed.py [max-ops]        (default 100000)

Builds, for 10^3, 10^4, ... up to max-ops ops, the graph that buildGraph in
bench/SymbolicBench.cpp builds (the same chunk of 14 ops, chained through a
max, counted the same way), times uopc.symbolic.simplify on it, and prints
one line per size:

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


def count(u):
    """Ops as uop-bench-symbolic counts them: all but the parameter, plus return."""
    return sum(1 for v in u.toposort() if v.op is not Ops.PARAM) + 1


def evaluate(u, x, j):
    out = []
    for xv, jv in POINTS:
        v = symbolic.run(u.substitute({x: UOp.const(xv), j: UOp.const(jv)}))
        out.append(v.arg if v.op is Ops.CONST else None)
    return out


def main():
    max_ops = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
    n = 1000
    while n <= max_ops:
        # A fresh start for each size: no node (nor its cached bounds) of the
        # previous graph survives, and the simplify memo is empty.
        symbolic._simplified.clear()
        gc.collect()
        root, x, j, ops = build_graph(n)
        start = time.perf_counter()
        out = symbolic.simplify(root)
        seconds = time.perf_counter() - start
        print(f"ops {ops} after {count(out)} seconds {seconds:.6f} eval",
              *evaluate(out, x, j), flush=True)
        del root, out
        n *= 10


if __name__ == "__main__":
    sys.setrecursionlimit(100000)
    main()
