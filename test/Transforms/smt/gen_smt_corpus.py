"""The corpus that uop-smt-check proves uop-symbolic on (smt-corpus.test).

  python3 test/Transforms/smt/gen_smt_corpus.py [SEED] > corpus.mlir

Deterministic for a seed (default 1). One func.func per program, in sections:
  seed_*   the symbolic cases of the seed's tests/test_w01_uops.py
  rule_*   each rule of uop-symbolic (UopSymbolic.cpp) and each folder rule
           (UopFold.cpp) on random constants, edge values included
  fold_*   constant folding of every ALU op and dtype (i32, bool, f32, f16)
  mem_*    the movement and stack folders on tensors
  rand_*   random i32 expressions over two inputs and two ranges, as the
           seed's differential fuzzer makes them (fuzz_symbolic_vs_seed.py)
  float_*  random f32 expressions (no float rule reassociates, but constants
           move, identities fold and wheres collapse)
  kern_*   L2 kernels: loads and stores at index expressions of ranges
"""
import math, random, struct, sys

SEED = int(sys.argv[1]) if len(sys.argv) > 1 else 1
random.seed(SEED)
EDGE = [0, 1, -1, 2, -2, 3, 4, -4, 6, 7, 8, 16, 65536, 46341, 2**31 - 1, -2**31]
POS = [1, 2, 3, 4, 6, 8, 16, 5, 7]
out = []


def f32hex(v):
    return '0x%08X' % struct.unpack('<I', struct.pack('<f', v))[0]


def f16hex(v):
    return '0x%04X' % struct.unpack('<H', struct.pack('<e', v))[0]


class Fn:
    """A function under construction: lines of SSA, constants made once."""

    def __init__(self, name, args):
        self.name, self.args, self.lines, self.n, self.consts = name, args, [], 0, {}

    def v(self, text):
        self.n += 1
        name = f'%v{self.n}'
        self.lines.append(f'  {name} = {text}')
        return name

    def c(self, value, t='i32'):
        key = (repr(value), t)
        if key not in self.consts:
            if t == 'i1':
                lit = 'true' if value else 'false'
                self.consts[key] = self.v(f'uop.const {lit}')
            elif t == 'f32':
                self.consts[key] = self.v(f'uop.const {f32hex(value)} : f32')
            elif t == 'f16':
                self.consts[key] = self.v(f'uop.const {f16hex(value)} : f16')
            else:
                self.consts[key] = self.v(f'uop.const {value} : {t}')
        return self.consts[key]

    def op(self, name, *args, t='i32'):
        return self.v(f'uop.{name} {", ".join(args)} : {t}')

    def range(self, end, idx):
        return self.v(f'uop.range {self.c(end)} idx {idx} <loop>')

    def done(self, results):
        sig = ', '.join(f'{a}: {t}' for a, t in self.args)
        types = ', '.join(t for _, t in results)
        vals = ', '.join(v for v, _ in results)
        out.append(f'func.func @{self.name}({sig}) -> ({types}) {{')
        out.extend(self.lines)
        out.append(f'  return {vals} : {types}')
        out.append('}')


def i32fn(name, n=2):
    return Fn(name, [(f'%{a}', 'i32') for a in 'xyz'[:n]])


# ---------------------------------------------------------------------------
# The seed's tests (test_w01_uops.py: test_symbolic_identities, _ranges,
# test_folding_matches_c_semantics, test_float_constants_do_not_reassociate)

f = i32fn('seed_identities', 1)
r = [f.op('add', '%x', f.c(0)), f.op('mul', '%x', f.c(1)), f.op('mul', '%x', f.c(0)),
     f.op('add', f.op('add', '%x', f.c(3)), f.c(4)), f.op('floordiv', f.op('mul', '%x', f.c(4)), f.c(4)),
     f.op('floormod', f.op('add', f.op('mul', '%x', f.c(6)), f.c(4)), f.c(2)),
     f.op('mul', f.op('mul', '%x', f.c(65536)), f.c(65536))]
f.done([(v, 'i32') for v in r])
f = Fn('seed_ranges', [])
i, j = f.range(4, 0), f.range(8, 1)
flat = f.op('add', f.op('mul', i, f.c(8)), j)
d, m = f.op('floordiv', flat, f.c(8)), f.op('floormod', flat, f.c(8))
f.done([(d, 'i32'), (m, 'i32'), (f.op('add', f.op('mul', d, f.c(8)), m), 'i32'),
        (f.op('floordiv', j, f.c(8)), 'i32'), (f.op('floormod', j, f.c(8)), 'i32'),
        (f.op('cmplt', i, f.c(4)), 'i1'), (f.op('cmplt', i, f.c(0)), 'i1')])
f = Fn('seed_float', [('%f', 'f32')])
f.done([(f.op('add', f.op('add', '%f', f.c(1.0, 'f32'), t='f32'), f.c(2.0, 'f32'), t='f32'), 'f32'),
        (f.op('add', f.c(16777217.0, 'f32'), f.c(2.0, 'f32'), t='f32'), 'f32')])

# ---------------------------------------------------------------------------
# Each rule on random constants

def k(pool=EDGE):
    return random.choice(pool)


def rule(name, build, n=4, args=2):
    for t in range(n):
        f = i32fn(f'rule_{name}_{t}', args)
        f.done([(v, 'i32') if isinstance(v, str) else v for v in build(f)])


rule('add_self', lambda f: [f.op('add', '%x', '%x'), f.op('add', f.op('mul', '%x', f.c(k())), f.op('mul', '%x', f.c(k())))], 2)
rule('reassoc_add', lambda f: [f.op('add', f.op('add', '%x', f.c(k())), f.c(k())),
                               f.op('add', f.c(k()), f.op('add', f.c(k()), '%x'))])
rule('hoist_add', lambda f: [f.op('add', f.op('add', '%x', f.c(k())), '%y'),
                             f.op('add', '%y', f.op('add', f.c(k()), '%x'))])
rule('combine_terms', lambda f: [f.op('add', f.op('mul', '%x', f.c(k())), f.op('mul', '%x', f.c(k()))),
                                 f.op('add', f.op('mul', f.c(k()), '%x'), '%x'),
                                 f.op('add', '%x', f.op('mul', '%x', f.c(k())))])
def recombine(f):
    c = k(POS + [-3, -4])
    q = f.op('mul', f.op('floordiv', '%x', f.c(c)), f.c(c))
    m = f.op('floormod', '%x', f.c(c))
    return [f.op('add', q, m), f.op('add', f.op('add', q, '%y'), m), f.op('add', m, f.op('add', '%y', q))]
rule('recombine', recombine)
def recombine_scaled(f):
    c, b = k(POS + [-3, -4]), k(POS + [-2, 3, 65536])
    q = f.op('mul', f.op('floordiv', '%x', f.c(c)), f.c(c * b))
    m = f.op('mul', f.op('floormod', '%x', f.c(c)), f.c(b))
    return [f.op('add', q, m), f.op('add', f.op('add', q, '%y'), m), f.op('add', m, f.op('add', '%y', q))]
rule('recombine_scaled', recombine_scaled)
rule('reassoc_mul', lambda f: [f.op('mul', f.op('mul', '%x', f.c(k())), f.c(k())),
                               f.op('mul', f.c(k()), f.op('mul', f.c(k()), '%x'))])
rule('distribute', lambda f: [f.op('mul', f.op('add', '%x', f.c(k())), f.c(k())),
                              f.op('mul', f.op('add', '%x', '%y'), f.c(k())),
                              f.op('mul', f.op('add', f.op('add', '%x', '%y'), '%z'), f.c(k()))], args=3)
def divdiv(f):
    a, b = k(POS + [-2, 46341]), k(POS + [-3, 46341])
    return [f.op('floordiv', f.op('floordiv', '%x', f.c(a)), f.c(b))]
rule('div_div', divdiv)
def moddiv(f):
    c2 = k(POS + [-2])
    c1 = c2 * k([1, 2, 3, 4, -1, -2])
    m = f.op('floormod', '%x', f.c(c1))
    return [f.op('floordiv', m, f.c(c2)), f.op('floormod', m, f.c(c2)),
            f.op('floormod', m, f.c(k(POS)))]
rule('mod_div', moddiv, 6)
def divsum(f):
    c = k(POS + [-2])
    terms = [f.op('mul', '%x', f.c(c * k([1, 2, 3, -1]))), '%y', f.c(c * k([0, 1, 2, -1])),
             f.op('mul', '%z', f.c(k([1, 2, 3])))]
    random.shuffle(terms)
    s = terms[0]
    for t in terms[1:]:
        s = f.op('add', s, t)
    return [f.op('floordiv', s, f.c(c)), f.op('floormod', s, f.c(c))]
rule('div_sum', divsum, 6, args=3)
def bounds_rules(f):
    e = k([1, 2, 4, 8, 9])
    r, r2 = f.range(e, 0), f.range(k([1, 3]), 1)
    c = k([1, 2, 4, 8, 9, 16])
    s = f.op('add', f.op('mul', r, f.c(k([1, 2, 3]))), r2)
    return [f.op('floordiv', r, f.c(c)), f.op('floormod', r, f.c(c)), f.op('floordiv', s, f.c(c)),
            f.op('floormod', s, f.c(c)), (f.op('cmplt', s, f.c(k([0, 3, 8, 30]))), 'i1'),
            (f.op('cmpne', s, f.c(k([-1, 3, 40]))), 'i1')]
rule('div_mod_bounds', bounds_rules, 4, args=0)
def pinned(f):
    """Bounds pin a value that is not a constant: ranges of end 1."""
    a, b = f.range(1, 0), f.range(1, 1)
    cond = f.op('cmplt', '%x', '%y')
    return [f.op('add', a, b), f.op('mul', a, b), f.op('max', a, b), (f.op('cmpne', a, b), 'i1'),
            f.v(f'uop.where {cond}, {a}, {b} : i1, i32, i32'), f.op('floordiv', a, f.c(k([-1, -2, 1]))),
            (f.op('cmplt', a, b), 'i1'), f.op('floormod', a, f.c(k([-2, -3])))]
rule('const_bounds', pinned, 2)
def pinned_div(f):
    """x // c pinned away from 0: x in [9, 11], c = 4 (no term divides c)."""
    r = f.range(3, 0)
    c = k([9, 13, 17])
    return [f.op('floordiv', f.op('add', r, f.c(c)), f.c(4)), f.op('floormod', f.op('add', r, f.c(c)), f.c(4))]
rule('const_bounds_div', pinned_div, 2, args=0)
def compares(f):
    return [(f.op('cmplt', f.op('add', '%x', f.c(k())), f.c(k())), 'i1'),
            (f.op('cmplt', f.op('mul', '%x', f.c(k(POS + [-2, 0]))), f.c(k())), 'i1'),
            (f.op('cmplt', f.op('mul', f.c(k(POS)), '%x'), f.c(k())), 'i1')]
rule('compares', compares, 6)
def identities(f):
    b = f.op('cmplt', '%x', '%y')
    w = f.v(f'uop.where {b}, %x, %y : i1, i32, i32')
    return [f.op('add', '%x', f.c(0)), f.op('add', f.c(0), '%x'), f.op('mul', f.c(1), '%x'),
            f.op('mul', '%x', f.c(0)), f.op('floordiv', '%x', f.c(1)), f.op('floormod', '%x', f.c(1)),
            f.op('max', '%x', '%x'), (f.op('cmplt', '%x', '%x'), 'i1'), (f.op('cmpne', '%x', '%x'), 'i1'),
            (f.v(f'uop.cmpne {b}, {f.c(False, "i1")} : i1'), 'i1'),
            f.v(f'uop.where {b}, %x, %x : i1, i32, i32'),
            f.v(f'uop.where {f.c(True, "i1")}, %x, %y : i1, i32, i32'),
            f.v(f'uop.where {b}, {w}, %y : i1, i32, i32'), f.v(f'uop.where {b}, %y, {w} : i1, i32, i32'),
            f.v('uop.cast %x : i32 to i32'), f.op('add', '%x', f.op('mul', '%x', f.c(-1))),
            f.op('add', f.op('mul', f.c(-1), '%x'), '%x'),
            f.op('add', f.c(k()), '%x'), f.op('mul', f.c(k()), '%x'), f.op('max', f.c(k()), '%x'),
            (f.op('cmpne', f.c(k()), '%x'), 'i1')]
rule('identities', identities, 2)

# Float and bool identities, constants to the right, where rules.
for t in range(3):
    f = Fn(f'rule_float_{t}', [('%f', 'f32'), ('%g', 'f32'), ('%b', 'i1'), ('%h', 'f16')])
    z, one = f.c(0.0, 'f32'), f.c(1.0, 'f32')
    c = f.c(random.choice([2.5, -1.0, 0.0, -0.0, math.inf, 3e38]), 'f32')
    cond = f.op('cmplt', '%f', '%g', t='f32')
    w = f.v(f'uop.where {cond}, %f, %g : i1, f32, f32')
    f.done([(f.op('add', '%f', z, t='f32'), 'f32'), (f.op('mul', one, '%f', t='f32'), 'f32'),
            (f.op('add', c, '%f', t='f32'), 'f32'), (f.op('mul', c, '%g', t='f32'), 'f32'),
            (f.op('cmpne', c, '%g', t='f32'), 'i1'), (f.op('max', '%f', '%f', t='f32'), 'f32'),
            (f.v(f'uop.where {cond}, {w}, %f : i1, f32, f32'), 'f32'),
            (f.v(f'uop.where {f.c(False, "i1")}, %f, %g : i1, f32, f32'), 'f32'),
            (f.v('uop.cast %f : f32 to f32'), 'f32'), (f.op('mul', '%b', f.c(False, 'i1'), t='i1'), 'i1'),
            (f.op('add', f.c(0.0, 'f16'), '%h', t='f16'), 'f16'),
            (f.op('mul', '%h', f.c(1.0, 'f16'), t='f16'), 'f16'),
            (f.op('cmplt', '%f', '%f', t='f32'), 'i1')])

# ---------------------------------------------------------------------------
# Constant folding of every ALU op and dtype

FV = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 3.5, 1e-3, -2.7, 16777217.0, 1e38, -1e38, 3e9, math.inf,
      -math.inf, math.nan, 65504.0, 200.0, 0.1, 1e-8]
HV = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 3.5, -2.7, 65504.0, 200.0, 0.1, math.inf, math.nan]
for t in range(6):
    f = Fn(f'fold_{t}', [])
    res = []
    for name in ['add', 'mul', 'max', 'cmplt', 'cmpne', 'floordiv', 'floormod']:
        a, b = f.c(k()), f.c(k(EDGE + [0, 0]))
        res.append((f.op(name, a, b), 'i1' if name in ('cmplt', 'cmpne') else 'i32'))
    for name in ['add', 'mul', 'max', 'cmplt', 'cmpne']:
        a, b = f.c(random.choice([True, False]), 'i1'), f.c(random.choice([True, False]), 'i1')
        res.append((f.op(name, a, b, t='i1'), 'i1'))
    for dt, vals in (('f32', FV), ('f16', HV)):
        for name in ['add', 'mul', 'max', 'cmplt', 'cmpne']:
            a, b = f.c(random.choice(vals), dt), f.c(random.choice(vals), dt)
            res.append((f.op(name, a, b, t=dt), 'i1' if name in ('cmplt', 'cmpne') else dt))
        for name in ['recip', 'exp2', 'log2', 'sqrt', 'sin']:
            res.append((f.op(name, f.c(random.choice(vals), dt), t=dt), dt))
        w = f.v(f'uop.where {f.op("cmplt", f.c(k()), f.c(k()))}, {f.c(random.choice(vals), dt)}, '
                f'{f.c(random.choice(vals), dt)} : i1, {dt}, {dt}')
        res.append((w, dt))
    for src, vals in (('i32', EDGE), ('f32', FV), ('f16', HV), ('i1', [True, False])):
        for dst in ('i32', 'f32', 'f16', 'i1'):
            if src != dst:
                res.append((f.v(f'uop.cast {f.c(random.choice(vals), src)} : {src} to {dst}'), dst))
    f.done(res)

# ---------------------------------------------------------------------------
# Stack and movement folders on tensors, elementwise rules on tensors

for t in range(2):
    f = Fn(f'mem_{t}', [('%t', 'tensor<4xi32>'), ('%u', 'tensor<2x3xf32>')])
    s = f.v(f'uop.stack {f.c(k())}, {f.c(k())}, {f.c(k())}, {f.c(k())} : i32')
    sp = f.v('uop.const dense<5> : tensor<2x2xi32>')
    dense = f.v('uop.const dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>')
    c4 = f.v(f'uop.const dense<{k(POS)}> : tensor<4xi32>')
    z4 = f.v('uop.const dense<0> : tensor<4xi32>')
    f.done([(s, 'tensor<4xi32>'),
            (f.v(f'uop.reshape {sp}, [4] : tensor<2x2xi32>'), 'tensor<4xi32>'),
            (f.v(f'uop.reshape {dense}, [3, 2] : tensor<2x3xi32>'), 'tensor<3x2xi32>'),
            (f.v(f'uop.permute {sp}, [1, 0] : tensor<2x2xi32>'), 'tensor<2x2xi32>'),
            (f.v(f'uop.expand {f.v("uop.const dense<7> : tensor<1x2xi32>")}, [3, 2] : tensor<1x2xi32>'), 'tensor<3x2xi32>'),
            (f.v(f'uop.shrink {sp} [0:1, 0:2] : tensor<2x2xi32>'), 'tensor<1x2xi32>'),
            (f.v('uop.reshape %u, [2, 3] : tensor<2x3xf32>'), 'tensor<2x3xf32>'),
            (f.v('uop.permute %u, [0, 1] : tensor<2x3xf32>'), 'tensor<2x3xf32>'),
            (f.v('uop.shrink %u [0:2, 0:3] : tensor<2x3xf32>'), 'tensor<2x3xf32>'),
            (f.v('uop.expand %u, [2, 3] : tensor<2x3xf32>'), 'tensor<2x3xf32>'),
            (f.v(f'uop.reduce {f.v("uop.permute %u, [1, 0] : tensor<2x3xf32>")} <max> pop 1 : tensor<3x2xf32>'), 'tensor<3xf32>'),
            (f.op('floordiv', f.op('mul', '%t', c4, t='tensor<4xi32>'), c4, t='tensor<4xi32>'), 'tensor<4xi32>'),
            (f.op('add', f.op('add', '%t', c4, t='tensor<4xi32>'), c4, t='tensor<4xi32>'), 'tensor<4xi32>'),
            (f.op('add', z4, '%t', t='tensor<4xi32>'), 'tensor<4xi32>'),
            (f.op('mul', '%t', z4, t='tensor<4xi32>'), 'tensor<4xi32>'),
            (f.v(f'uop.index {dense}[{f.c(1)}] : tensor<2x3xi32>'), 'tensor<3xi32>')])

# ---------------------------------------------------------------------------
# Random i32 expressions (fuzz_symbolic_vs_seed.py's generator, with ranges)

CONSTS = [1, 2, 3, 4, 6, 8, 16, -1, -2, -4, 5, 7, 0, 65536, -2**31, 2**31 - 1]


def gen(depth):
    if depth == 0 or random.random() < 0.2:
        return random.choice([('x',), ('y',), ('i',), ('j',), ('c', random.choice(CONSTS))])
    op = random.choice(['add', 'add', 'mul', 'floordiv', 'floormod', 'max', 'where', 'add'])
    if op in ('floordiv', 'floormod'):
        return (op, gen(depth - 1), ('c', random.choice([1, 2, 3, 4, 8, -2, -4, 6, 16])))
    if op == 'mul':
        return (op, gen(depth - 1), ('c', random.choice(CONSTS))) if random.random() < 0.8 else \
            (op, gen(depth - 1), gen(depth - 1))
    if op == 'where':
        return (op, ('cmplt', gen(depth - 1), gen(depth - 1)), gen(depth - 1), gen(depth - 1))
    return (op, gen(depth - 1), gen(depth - 1))


def emit(f, e, env):
    if e[0] in env:
        return env[e[0]]
    if e[0] == 'c':
        return f.c(e[1])
    args = [emit(f, s, env) for s in e[1:]]
    if e[0] == 'where':
        return f.v(f'uop.where {args[0]}, {args[1]}, {args[2]} : i1, i32, i32')
    return f.op(e[0], *args)


for t in range(70):
    f = i32fn(f'rand_{t}')
    env = {'x': '%x', 'y': '%y', 'i': f.range(random.choice([4, 8, 16]), 0),
           'j': f.range(random.choice([3, 8, 32]), 1)}
    f.done([(emit(f, gen(4), env), 'i32') for _ in range(2)])

# ---------------------------------------------------------------------------
# Random f32 expressions


def fgen(depth):
    if depth == 0 or random.random() < 0.25:
        # No 0.0: x + 0.0 -> x is in rule_float_*; inside a sum, Z3 times out
        # proving (0.0 + f) + c == f + c bit by bit.
        return random.choice([('f',), ('g',), ('c', random.choice([1.0, -1.0, 2.0, 0.5, math.inf]))])
    op = random.choice(['add', 'mul', 'max', 'where', 'recip', 'sqrt', 'add'])
    if op in ('recip', 'sqrt'):
        return (op, fgen(depth - 1))
    if op == 'where':
        return (op, ('cmplt', fgen(depth - 1), fgen(depth - 1)), fgen(depth - 1), fgen(depth - 1))
    return (op, fgen(depth - 1), fgen(depth - 1))


def femit(f, e):
    if e[0] in ('f', 'g'):
        return '%' + e[0]
    if e[0] == 'c':
        return f.c(e[1], 'f32')
    args = [femit(f, s) for s in e[1:]]
    if e[0] == 'where':
        return f.v(f'uop.where {args[0]}, {args[1]}, {args[2]} : i1, f32, f32')
    return f.op(e[0], *args, t='f32')


for t in range(12):
    f = Fn(f'float_{t}', [('%f', 'f32'), ('%g', 'f32')])
    f.done([(femit(f, fgen(3)), 'f32')])

# ---------------------------------------------------------------------------
# L2 kernels: out[idx(i, j)] = a[idx2(i, j)] * 2, with index expressions of
# ranges as rangeify makes them (flattened, split by div/mod, recombined)

for t in range(10):
    n, m = random.choice([(4, 8), (8, 8), (3, 16), (16, 4)])
    f = Fn(f'kern_{t}', [])
    a = f.v(f'uop.buffer 0 : memref<{n * m}xf32, #uop.addrspace<global>>')
    o = f.v(f'uop.buffer 1 : memref<{n * m}xf32, #uop.addrspace<global>>')
    i, j = f.range(n, 0), f.range(m, 1)
    flat = f.op('add', f.op('mul', i, f.c(m)), j)
    split = f.op('add', f.op('mul', f.op('floordiv', flat, f.c(m)), f.c(m)), f.op('floormod', flat, f.c(m)))
    env = {'x': flat, 'y': split, 'i': i, 'j': j}
    src = f.op('floormod', emit(f, gen(3), env), f.c(n * m))
    pa = f.v(f'uop.index {a}[{src}] : memref<{n * m}xf32, #uop.addrspace<global>>')
    v = f.op('mul', f.v(f'uop.load {pa} : !uop.ptr<f32, global>'), f.c(2.0, 'f32'), t='f32')
    po = f.v(f'uop.index {o}[{split}] : memref<{n * m}xf32, #uop.addrspace<global>>')
    st = f.v(f'uop.store {po}, {v} : !uop.ptr<f32, global>')
    e = f.v(f'uop.end {st}, {i}, {j} : !uop.void')
    out.append(f'func.func @{f.name}() -> !uop.void {{')
    out.extend(f.lines)
    out.append(f'  %sink = uop.sink({e} : !uop.void)')
    out.append('  return %sink : !uop.void')
    out.append('}')

print(f'// Generated by gen_smt_corpus.py {SEED}: the uop-symbolic corpus of uop-smt-check.')
print('\n'.join(out))
