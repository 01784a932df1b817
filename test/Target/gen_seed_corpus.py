"""Regenerates test/Target/seed/*.uir: programs printed by the Python seed's to_uir.

Run from the repo root:
  PYTHONPATH=/work/shared/reference/uopc-python python3 test/Target/gen_seed_corpus.py
Each file gets lit RUN lines: the round trip export(import(x)) == x, the same through
uop-opt, and import(export(m)) == m.
"""
import os, sys
import numpy as np
from uopc.uop import UOp, Ops, ParamArg, CallArg, AxisType, range_, sink
from uopc.dtype import dtypes, AddrSpace
from uopc.uir import parse, to_uir
from uopc.symbolic import run, simplify
from uopc.rangeify import lower, Ctx, Opts
from uopc.composite import pad, flip_axis, anti_eye
from uopc.gpu import smem_gemm_ir

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "seed")
HEADER = """# RUN: grep -v '^#' %s > %t.expected
# RUN: uop-translate --import-uir %s | uop-translate --export-uir | diff %t.expected -
# RUN: uop-opt %s | uop-translate --export-uir | diff %t.expected -
# RUN: uop-translate --import-uir %s -o %t.mlir
# RUN: uop-translate --export-uir %t.mlir | uop-translate --import-uir | diff %t.mlir -
"""

def buf(slot, n, dtype=dtypes.f32): return UOp(Ops.BUFFER, (), ParamArg(slot, dtype, (n,)))
def param(slot, dtype=dtypes.i32, shape=()): return UOp(Ops.PARAM, (), ParamArg(slot, dtype, shape))
def out_buf(root, slot): return buf(slot, max(1, int(np.prod(root.shape))), root.dtype)

progs = {}
# test_w01: syllabus example and the evaluation program
progs["w01_syllabus"] = parse("""
%0 = buffer 65536 : dtype=f32 slot=0
%1 = buffer 65536 : dtype=f32 slot=1
%2 = reshape %0, (256, 256, 1)
%3 = reshape %1, (256, 1, 256)
%4 = mul %2, %3
%5 = reduce %4 : op=add pop=1
""")
progs["w01_evaluates"] = parse("""
%0 = stack 1.0, 2.0, 3.0
%1 = stack %0, %0
%2 = mul %1, 2
%3 = permute %2, (1, 0)
%4 = reduce %3 : op=add pop=1
""")
progs["w01_evaluates_run"] = run(progs["w01_evaluates"])
# test_w01 CALL programs
p0 = param(0)
progs["w01_call_sq"] = UOp(Ops.CALL, (p0 * p0, UOp.const(7)), CallArg("sq"))
inner = UOp(Ops.CALL, (p0 * p0, p0 + 1), CallArg("sq"))
progs["w01_call_nested"] = UOp(Ops.CALL, (inner + p0, UOp.const(3)), CallArg("f"))
from uopc.symbolic import inline_call
progs["w01_call_inlined"] = inline_call(progs["w01_call_nested"])
# test_w01 misc
def stack(*xs): return UOp(Ops.STACK, tuple(x if isinstance(x, UOp) else UOp.const(x) for x in xs))
a, b = stack(1, 2, 3), stack(10, 20, 30)
progs["w01_stack_where"] = (a < stack(2, 2, 2)).where(a, b)
progs["w01_index"] = stack(a, b).index(UOp.const(1)).index(UOp.const(2))
progs["w01_ranges"] = simplify((range_(4, 0) * 8 + range_(8, 1)) // 8 + range_(8, 1) % 3)
progs["w01_deep_run"] = run(stack(stack(1.5, 2.5), stack(1.5, 2.5), stack(0.1, -0.0)))
# test_w04 programs
N = 16
progs["w04_gemm"] = parse(f"""
%0 = buffer {N*N} : dtype=f32 slot=0
%1 = buffer {N*N} : dtype=f32 slot=1
%2 = reshape %0, ({N}, 1, {N})
%3 = reshape %1, ({N}, {N})
%4 = permute %3, (1, 0)
%5 = reshape %4, (1, {N}, {N})
%6 = mul %2, %5
%7 = reduce %6 : op=add pop=1""")
N = 8
progs["w04_syllabus_gemm"] = parse(f"""
%0 = buffer {N*N} : dtype=f32 slot=0
%1 = buffer {N*N} : dtype=f32 slot=1
%2 = reshape %0, ({N}, {N}, 1)
%3 = reshape %1, ({N}, 1, {N})
%4 = mul %2, %3
%5 = reduce %4 : op=add pop=1""")
for seed in range(5):
    rng = np.random.default_rng(seed)
    u, shape = buf(0, 24).reshape((2, 3, 4)), (2, 3, 4)
    for _ in range(6):
        k = rng.integers(4)
        if k == 0: u = u.permute(tuple(int(x) for x in rng.permutation(len(u.shape))))
        elif k == 1: u = u.shrink(tuple((int(b), int(rng.integers(b + 1, s + 1))) for s in u.shape for b in [rng.integers(0, s)]))
        elif k == 2: u = u.reshape((1,) + u.shape); u = u.expand((2,) + u.shape[1:])
        else: u = u.reshape((int(np.prod(u.shape)),))
    progs[f"w04_movement_{seed}"] = u
x = buf(0, 30).reshape((6, 5))
m = x.reduce(Ops.MAX, 1).reshape((6, 1)).expand((6, 5))
progs["w04_reduce_max"] = x + -m
progs["w04_reduce_all"] = x.reduce(Ops.ADD, 2)
u4 = buf(0, 4)
progs["w04_stack_index"] = UOp(Ops.STACK, (u4, u4 * u4, u4 + u4)).index(UOp.const(1))
u12 = buf(0, 12).reshape((3, 4))
progs["w04_pad"] = pad(u12, ((1, 5), (2, 0)))
progs["w04_flip"] = flip_axis(u12, 1)
progs["w04_anti_eye"] = run(anti_eye(3, dtypes.f32))
# L2: rangeify output (range/index/load/store/end/after/sink/alloc)
progs["w04_lower_gemm"] = lower(progs["w04_gemm"], out_buf(progs["w04_gemm"], 2))
progs["w04_lower_reduce_max"] = lower(progs["w04_reduce_max"], out_buf(progs["w04_reduce_max"], 1))
progs["w04_lower_pad"] = lower(progs["w04_pad"], out_buf(progs["w04_pad"], 1))
progs["w06_lower_opts"] = lower(progs["w04_gemm"], out_buf(progs["w04_gemm"], 2),
                                Ctx(opts=Opts(upcast={0: 2}, unroll=2, thread=1)))
progs["w07_lower_gpu"] = lower(progs["w04_gemm"], out_buf(progs["w04_gemm"], 2),
                               Ctx(opts=Opts(gpu=True, local={0: 4, 1: 4})))
progs["w07_smem_gemm"] = smem_gemm_ir(32, 16)
# dtypes: f16 constants, bool, casts, unary math, where with a literal
h = UOp(Ops.PARAM, (), ParamArg(0, dtypes.f16, (4,)))
progs["dtypes_f16"] = (h * 0.5 + UOp.const(1.0, dtypes.f16).reshape((1,)).expand((4,))).cast(dtypes.f32)
f = UOp(Ops.PARAM, (), ParamArg(1, dtypes.f32))
progs["dtypes_math"] = sink(
    UOp(Ops.EXP2, (f,)), UOp(Ops.LOG2, (f,)), UOp(Ops.SQRT, (f,)), UOp(Ops.SIN, (f,)), f.recip(),
    (f < 1e-05).where(f, UOp.const(float("inf"))), f.maximum(-1e+16), (f.cast(dtypes.i32) // 3) % 7,
    f.cast(dtypes.bool).ne(True), UOp(Ops.STAGE, (f + 0.1,)), (f * 1234567.0) + float("nan"))

for name, g in progs.items():
    with open(os.path.join(OUT, name + ".uir"), "w") as fh:
        fh.write(HEADER + to_uir(g))
print(f"wrote {len(progs)} programs to {OUT}")
