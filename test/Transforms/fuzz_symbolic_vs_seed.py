"""Differential fuzzing of uop-symbolic against the seed (not a lit test).

  PYTHONPATH=/work/shared/reference/uopc-python python3 \
      test/Transforms/fuzz_symbolic_vs_seed.py build/bin/uop-opt [seeds...]

Random i32 expressions over two parameters (add, mul, floordiv, floormod by
constants, max, where/cmplt, edge constants) are simplified symbolically
(the parameters unknown: they are a uop.call's block arguments), then run on
edge values; the result must be the seed's run(simplify(expr)[params :=
values]). Bit for bit, including the seed's rules that ignore i32 wrap-around
((x*3)//3 -> x). The one known difference: the seed rewrites (x % c1) // c2
for c1 < 0, which is wrong (uop requires c1 > 0), so such cases may differ.
"""
import random, re, subprocess, sys
from uopc.symbolic import exec_alu, simplify, run
from uopc.uop import UOp, Ops, ParamArg
from uopc.dtype import dtypes

CONSTS = [1, 2, 3, 4, 6, 8, 16, -1, -2, -4, 5, 7, 0, 65536, -2147483648, 2147483647]
OPS = {'add': Ops.ADD, 'mul': Ops.MUL, 'floordiv': Ops.FLOORDIV, 'floormod': Ops.FLOORMOD,
       'max': Ops.MAX, 'cmplt': Ops.CMPLT}
X = UOp(Ops.PARAM, (), ParamArg(0, dtypes.i32))
Y = UOp(Ops.PARAM, (), ParamArg(1, dtypes.i32))

def gen(depth):
    if depth == 0 or random.random() < 0.2:
        return random.choice([('x',), ('y',), ('c', random.choice(CONSTS))])
    op = random.choice(['add', 'add', 'mul', 'floordiv', 'floormod', 'max', 'where'])
    if op in ('floordiv', 'floormod'):
        return (op, gen(depth - 1), ('c', random.choice([1, 2, 3, 4, 8, -2, -4, 6, 16])))
    if op == 'where':
        return (op, ('cmplt', gen(depth - 1), gen(depth - 1)), gen(depth - 1), gen(depth - 1))
    return (op, gen(depth - 1), gen(depth - 1))

def build(e):
    if e[0] == 'x': return X
    if e[0] == 'y': return Y
    if e[0] == 'c': return UOp.const(e[1])
    if e[0] == 'where': return build(e[1]).where(build(e[2]), build(e[3]))
    return UOp(OPS[e[0]], tuple(build(s) for s in e[1:]))

def seed_value(e, xv, yv):
    v = run(simplify(build(e)).substitute({X: UOp.const(xv), Y: UOp.const(yv)}))
    return v.arg if v.op is Ops.CONST else None

def emit(e, lines):
    if e[0] in ('x', 'y'): return '%' + e[0]
    if e[0] == 'c':
        n = f'%v{len(lines)}'; lines.append(f'{n} = uop.const {e[1]} : i32'); return n
    args = [emit(s, lines) for s in e[1:]]
    n = f'%v{len(lines)}'
    lines.append(f'{n} = uop.{e[0]} {", ".join(args)} : i32')
    return n

def fuzz(uop_opt, seed, n=200):
    random.seed(seed)
    progs, text = {}, []
    for k in range(n):
        e = gen(4)
        lines = []
        r = emit(e, lines)
        body = '\n      '.join(lines)
        for j in range(3):
            xv = random.choice([0, 1, -1, 5, -7, 13, 100, -100, 2**31 - 1, -2**31, 65535])
            yv = random.choice([0, 2, -3, 8, 17, -2**31])
            want = seed_value(e, xv, yv)
            if want is None:
                continue
            name = f'p{k}_{j}'
            progs[name] = (e, xv, yv, want)
            text.append(f'''func.func @{name}() -> i32 {{
  %cx = uop.const {xv} : i32
  %cy = uop.const {yv} : i32
  %0 = uop.call "f"(%cx, %cy : i32, i32) {{
    ^bb0(%x: i32, %y: i32):
      {body}
      uop.yield {r} : i32
  }}
  return %0 : i32
}}''')
    out = subprocess.run([uop_opt, '-', '--uop-symbolic', '--uop-evaluate'], input='\n'.join(text),
                         capture_output=True, text=True, check=True).stdout
    bad = 0
    for f in re.split(r'(?=func\.func @)', out)[1:]:
        name = f.split('(')[0].split('@')[1]
        m = re.search(r'(%\w+) = uop\.const (-?\d+) : i32\n(?:.*\n)*?\s*return \1', f)
        got = int(m.group(2)) if m else None
        if got != progs[name][3]:
            bad += 1
            print('DIFFERS', name, progs[name], 'uop:', got)
    print(f'seed {seed}: {len(progs)} programs, {bad} differ')
    return bad

if __name__ == '__main__':
    seeds = [int(s) for s in sys.argv[2:]] or [1, 2, 3]
    sys.exit(1 if sum(fuzz(sys.argv[1], s) for s in seeds) else 0)
