"""Regenerates test/Transforms/fold-seed.mlir: random folds over edge values,
each checked bit for bit against the seed's exec_alu.

Run from the repo root, with a built uop-opt:
  PYTHONPATH=/work/shared/reference/uopc-python python3 \\
      test/Transforms/gen_fold_corpus.py build/bin/uop-opt [seed]
Cases whose result the seed cannot represent (an f16 of magnitude >= 65520)
are expected to stay unfolded. The script fails if uop-opt disagrees with the
seed anywhere; otherwise it writes the test with uop-opt's printed constants.
"""
import math, random, re, struct, subprocess, sys
from uopc.symbolic import exec_alu
from uopc.uop import Ops
from uopc.dtype import dtypes, truncate

UOP_OPT = sys.argv[1]
random.seed(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
OUT = __file__.replace("gen_fold_corpus.py", "fold-seed.mlir")
I32 = [0, 1, -1, 2, -2, 3, 7, -7, 2**31-1, -2**31, 65536, 46341, -46341, 100, -100, 13]
F = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 3.5, 1e-3, -2.7, 16777217.0, 1e38, -1e38, 3e9, 1e-40, math.inf, -math.inf, math.nan, 65504.0, 65520.0, 1024.0, 200.0, -200.0, 0.1, 0.2, 70000.0, 1e-8]
def f32(x): return truncate(dtypes.f32, x)
def f16(x):
    try: return struct.unpack('e', struct.pack('e', x))[0]
    except OverflowError: return math.copysign(math.inf, x)
def lit(v, t):
    if t == 'i32': return str(v)
    if t == 'i1': return 'true' if v else 'false'
    if t == 'f32': return '0x%08X' % struct.unpack('<I', struct.pack('<f', v))[0]
    if t == 'f16': return '0x%04X' % struct.unpack('<H', struct.pack('<e', v))[0]
cases = []
bins = [('add', Ops.ADD), ('mul', Ops.MUL), ('max', Ops.MAX), ('cmplt', Ops.CMPLT), ('cmpne', Ops.CMPNE)]
for _ in range(300):
    t = random.choice(['i32', 'f32', 'f16', 'i1'])
    kind = random.random()
    if t == 'i1':
        a, b = random.choice([True, False]), random.choice([True, False])
        name, op = random.choice(bins)
        dt = dtypes.bool
        r = exec_alu(op, dt, [a, b])
        cases.append((name, t, [a, b], t, r)); continue
    if t == 'i32':
        a, b = random.choice(I32), random.choice(I32)
        name, op = random.choice(bins + [('floordiv', Ops.FLOORDIV), ('floormod', Ops.FLOORMOD)])
        rt = 'i1' if name in ('cmplt', 'cmpne') else 'i32'
        r = exec_alu(op, dtypes.bool if rt == 'i1' else dtypes.i32, [a, b])
        cases.append((name, t, [a, b], rt, r))
        if random.random() < 0.3:
            tt = random.choice(['f32', 'f16', 'i1'])
            r = exec_alu(Ops.CAST, {'f32': dtypes.f32, 'f16': dtypes.f16, 'i1': dtypes.bool}[tt], [a])
            cases.append(('cast', t, [a], tt, r))
        continue
    rnd = f32 if t == 'f32' else f16
    a, b = rnd(random.choice(F)), rnd(random.choice(F))
    dt = dtypes.f32 if t == 'f32' else dtypes.f16
    if kind < 0.5:
        name, op = random.choice(bins)
        rt = 'i1' if name in ('cmplt', 'cmpne') else t
        r = exec_alu(op, dtypes.bool if rt == 'i1' else dt, [a, b])
        cases.append((name, t, [a, b], rt, r))
    elif kind < 0.8:
        name, op = random.choice([('recip', Ops.RECIP), ('exp2', Ops.EXP2), ('log2', Ops.LOG2), ('sqrt', Ops.SQRT), ('sin', Ops.SIN)])
        r = exec_alu(op, dt, [a])
        cases.append((name, t, [a], t, r))
    else:
        tt = random.choice(['i32', 'i1', 'f32', 'f16'])
        r = exec_alu(Ops.CAST, {'f32': dtypes.f32, 'f16': dtypes.f16, 'i1': dtypes.bool, 'i32': dtypes.i32}[tt], [a])
        if tt == 'f16' and r is not None and math.isfinite(r) and abs(r) >= 65520: r = None
        cases.append(('cast', t, [a], tt, r))
out = open("/tmp/fold-cases.mlir", "w")
exp = open("/tmp/fold-expected.txt", "w")
for k, (name, t, args, rt, r) in enumerate(cases):
    if rt == 'f16' and r is not None and math.isfinite(r) and abs(r) >= 65520: r = None
    out.write(f'func.func @c{k}() -> {rt} {{\n')
    for i, a in enumerate(args):
        out.write(f'  %a{i} = uop.const {lit(a, t)}' + ('' if t == 'i1' else f' : {t}') + '\n')
    if name == 'cast':
        out.write(f'  %r = uop.cast %a0 : {t} to {rt}\n')
    else:
        out.write(f'  %r = uop.{name} ' + ', '.join(f'%a{i}' for i in range(len(args))) + f' : {t}\n')
    out.write(f'  return %r : {rt}\n}}\n')
    exp.write(f'c{k} {name} {t}->{rt} {args} => {"NOFOLD" if r is None else lit(r, rt)}\n')
out.close(); exp.close()
printed = subprocess.run([UOP_OPT, "/tmp/fold-cases.mlir", "--canonicalize"], check=True,
                         capture_output=True, text=True).stdout
funcs_out = {f.split("(")[0].split("@")[1]: f for f in re.split(r"(?=func\.func @)", printed)[1:]}
expected = {l.split()[0]: l.strip() for l in open("/tmp/fold-expected.txt")}

def got(body):
    if re.search(r"= uop\.(?!const)", body):
        return "NOFOLD"
    v, t = re.search(r"uop\.const ([^ \n]+)(?: : (\w+))?\n\s*return", body).groups()
    if t in (None, "i32"):
        return v
    if v.startswith("0x"):
        bits = int(v, 16)
    else:
        bits = struct.unpack("<I" if t == "f32" else "<H", struct.pack("<f" if t == "f32" else "<e", float(v)))[0]
    return ("0x%08X" if t == "f32" else "0x%04X") % bits

bad = [n for n, e in expected.items() if got(funcs_out[n]) != e.split("=> ")[1]]
if bad:
    sys.exit("uop-opt disagrees with the seed: " + ", ".join(expected[n] for n in bad))
w = open(OUT, "w")
w.write("""// RUN: uop-opt %s -canonicalize | FileCheck %s
//
// Folding checked bit for bit against the seed's exec_alu: some 300 random cases
// over edge values (wrap-around, INT_MIN, division by 0, +-0.0, inf, NaN,
// f32/f16 rounding and overflow, casts). Generated by gen_fold_corpus.py,
// which asks the seed for each result and checks uop-opt against it before
// writing the expected lines. NOFOLD: left for run time.

""")
for f in re.split(r"(?=func\.func @)", open("/tmp/fold-cases.mlir").read())[1:]:
    name = f.split("(")[0].split("@")[1]
    desc, body = expected[name].split(" ", 1)[1], funcs_out[name]
    w.write(f"// {desc}\n// CHECK-LABEL: func.func @{name}()\n")
    if "NOFOLD" in desc:
        op = re.search(r"= (uop\.(?!const)\w+)", body).group(1)
        w.write(f"// CHECK: {op}\n")
    else:
        line = re.search(r"(uop\.const [^\n]+)\n\s*return", body).group(1)
        w.write("// CHECK-NEXT: %{{.*}} = " + line + "\n// CHECK-NEXT: return\n")
    w.write(f)
