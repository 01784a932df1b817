#!/usr/bin/env python3
"""Differential fuzzing of uop against the Python seed, with a minimizer.

  fuzz_diff.py SEED_ROOT UOP_RUN RESULTS N [SEED] [--batch B] [--extra-frac F]
                                               [--no-minimize] [--quiet]
  fuzz_diff.py SEED_ROOT UOP_RUN --replay RESULTS/case-NAME

Program i of run SEED is one of (randprog.py, the generator the other
differential tests use):
  * L2: a random loop program (loop_program), f32 and i32 buffers;
  * L1: a random chain of f32 Tensor ops (tensor_program): elementwise,
    broadcasts, movement ops, reductions, several kernels;
  * L1: the same over i32 (int_tensor_program).
Its .uir text (slots renumbered 0..k-1) is written to a file; the seed parses
that text with its own uir.parse and computes it (L1: kernelize.realize, L2:
runtime.run_c, C through gcc; kernels of a batch are compiled by one gcc
call); uop-run runs the same file with --target=cpu and --target=emulate, and
on a fraction of the programs also --opt=hand and (L1) --fuse-reduce, on the
same inputs. Values are compared: integers and bools exactly; floats to a
tight tolerance (rtol 2e-5), a looser one (rtol 1e-4) only where the program
reduces (reassociation), with the same non-finite values (a reduction may
turn inf into nan).

A difference (a mismatch, a uop-run error or crash where the seed runs it) is
delta-debugged: the root moved to an earlier statement, a statement bypassed
by one of its operands, a store dropped, a size shrunk, while the same
variant still differs the same way. The minimized program, its inputs and
meta.json go to RESULTS/case-NAME/, and the commands that reproduce it are
printed. The last line is `N of N programs agree with the seed` (exit 1 on
any difference).
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

ap = argparse.ArgumentParser()
ap.add_argument("seed_root")
ap.add_argument("uop_run")
ap.add_argument("results", nargs="?")
ap.add_argument("count", nargs="?", type=int, default=0)
ap.add_argument("seed", nargs="?", type=int, default=0)
ap.add_argument("--batch", type=int, default=25)
ap.add_argument("--extra-frac", type=float, default=0.25,
                help="fraction of programs also run with --opt=hand and with --fuse-reduce")
ap.add_argument("--no-minimize", action="store_true")
ap.add_argument("--quiet", action="store_true")
ap.add_argument("--replay")
ap.add_argument("--timeout", type=float, default=60)
opts = ap.parse_args()

sys.path.insert(0, opts.seed_root)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# The oracle's C: -O1 and no -march / fast-math flags, so gcc keeps IEEE order
# (no reassociation, no FMA contraction); fast to compile.
os.environ.setdefault("CFLAGS", "-O1 -fno-strict-aliasing")
WORK = tempfile.mkdtemp(prefix="fuzz-diff-")
os.environ.setdefault("UOPC_CACHE", os.path.join(WORK, "uopc-cache"))

import uopc.kernelize as kernelize  # noqa: E402
import uopc.runtime as runtime  # noqa: E402
from uopc.dtype import dtypes  # noqa: E402
from uopc.render_c import render_c  # noqa: E402
from uopc.uir import parse, to_uir  # noqa: E402
from uopc.uop import Ops, prod  # noqa: E402

import randprog  # noqa: E402

# ---------------------------------------------------------------------------
# the seed, with the C of many kernels compiled by one gcc call

_compiled = {}  # C source -> (ctypes.CDLL, symbol)
_OrigProgram = runtime.Program


class BatchedProgram(_OrigProgram):
    """runtime.Program, but a source compiled by precompile() is not compiled again."""

    def __init__(self, src, name="kernel", flags=None):
        if src not in _compiled:
            return super().__init__(src, name, flags)
        self.src, self.name = src, name
        self.lib, sym = _compiled[src]
        self.fn = getattr(self.lib, sym)
        self.fn.restype = None


runtime.Program = BatchedProgram
kernelize.Program = BatchedProgram


def _fn_name(src):
    m = re.search(r"^void (\w+)\(", src, re.M)
    return m.group(1) if m else None


def precompile(srcs):
    """One gcc call for every new source: each a translation unit of its own
    with its function renamed (#define) so that they link together."""
    import ctypes
    new = [s for s in dict.fromkeys(srcs) if s not in _compiled and _fn_name(s)]
    if not new:
        return
    d = tempfile.mkdtemp(dir=WORK)
    files = []
    for i, s in enumerate(new):
        p = os.path.join(d, f"k{i}.c")
        with open(p, "w") as f:
            f.write(f"#define {_fn_name(s)} fuzz_k{i}\n" + s)
        files.append(p)
    so = os.path.join(d, "batch.so")
    p = subprocess.run([runtime.CC, *runtime.CFLAGS, "-w", "-shared", "-fPIC", "-o", so, *files, "-lm"],
                       capture_output=True, text=True)
    if p.returncode != 0:  # leave them to the seed one at a time (it reports the error)
        return
    lib = ctypes.CDLL(so)
    for i, s in enumerate(new):
        _compiled[s] = (lib, f"fuzz_k{i}")


def seed_sources(case):
    """The C sources the seed will compile for `case` (to precompile them)."""
    g = parse(case["text"])
    if case["level"] == "L2":
        return [render_c(g, "kernel")]
    plan, _ = kernelize.make_plan([g])
    return [k.src for k in plan.kernels]


def seed_values(case):
    """The seed's result: {name: array}. Raises where the seed cannot run it."""
    g = parse(case["text"])
    ins = case["inputs"]
    if case["level"] == "L2":
        bufs = {u.arg.slot: u for u in g.toposort() if u.op is Ops.BUFFER}
        arrays = {}
        for s, u in bufs.items():
            arrays[s] = ins[s].copy() if s in ins else np.zeros(u.arg.shape[0], runtime.np_dtype(u.dtype))
        runtime.run_c(g, arrays)
        return {f"slot{s}": arrays[s] for s in case["outputs"]}
    for u in g.toposort():
        if u.op is Ops.BUFFER:
            u.__dict__["np"] = ins[u.arg.slot].copy()
    out = kernelize.realize([g])[0]
    return {"value": kernelize.buffer_data(out)[:max(1, prod(g.shape))].reshape(g.shape).copy()}


# ---------------------------------------------------------------------------
# programs

def renumber_slots(text):
    order = {}
    return re.sub(r"slot=(\d+)", lambda m: f"slot={order.setdefault(m.group(1), len(order))}", text)


def make_inputs(text, seed):
    """Random inputs for every buffer of `text`, by slot: a function of (seed,
    slot) whose prefix does not change when the minimizer shrinks a buffer."""
    ins = {}
    for m in re.finditer(r"= buffer (\d+) : dtype=(\w+) slot=(\d+)", text):
        n, dt, slot = int(m.group(1)), m.group(2), int(m.group(3))
        r = np.random.default_rng([seed, slot])
        if dt == "i32":
            ins[slot] = r.integers(-4, 5, n).astype(np.int32)
        elif dt == "bool":
            ins[slot] = r.integers(0, 2, n).astype(np.bool_)
        else:
            ins[slot] = r.standard_normal(n).astype(runtime.np_dtype(dtypes.from_name(dt)))
    return ins


def generate(seed, i):
    s = seed * 1_000_003 + i
    kind = ["L2", "L1f", "L1f", "L1i"][s % 4]
    if kind == "L2":
        prog, n = randprog.loop_program(random.Random(s))
        text = to_uir(prog)
        # L2 inputs as random_loops.py has them: slot 0 f32, slot 1 i32 in [-20, 20)
        r = np.random.default_rng(s)
        ins = {0: r.standard_normal(n).astype(np.float32), 1: r.integers(-20, 20, n).astype(np.int32)}
        level, outputs = "L2", [2, 3]
    else:
        rs = np.random.default_rng(s)
        t = (randprog.tensor_program if kind == "L1f" else randprog.int_tensor_program)(rs)
        text = renumber_slots(to_uir(t.uop))
        ins, level, outputs = make_inputs(text, s), "L1", []
    extra = random.Random(s ^ 0x5EED)
    variants = ["cpu", "emulate"]
    if extra.random() < opts.extra_frac:
        variants.append("hand")
    if level == "L1" and extra.random() < opts.extra_frac:
        variants.append("fuse")
    return {"name": f"s{seed}-{i}", "seed": s, "kind": kind, "level": level, "text": text,
            "inputs": ins, "outputs": outputs, "variants": variants}


VARIANT_ARGS = {"cpu": ["--opt=none"], "emulate": ["--target=emulate"], "hand": ["--opt=hand"],
                "fuse": ["--fuse-reduce"]}


def uop_command(case, d, variant):
    """Writes the program and its inputs under d; returns the uop-run command."""
    prog = os.path.join(d, "prog.uir")
    with open(prog, "w") as f:
        f.write(case["text"])
    args = [opts.uop_run, prog] + VARIANT_ARGS[variant]
    for s, a in sorted(case["inputs"].items()):
        if case["level"] == "L2" and f"slot={s}" not in case["text"]:
            continue
        np.save(os.path.join(d, f"in{s}.npy"), a)
        args.append(f"--input={s}={os.path.join(d, f'in{s}.npy')}")
    if case["level"] == "L2":
        args += [f"--output={s}={os.path.join(d, f'out{s}.npy')}" for s in case["outputs"]]
    else:
        args.append(f"--output={os.path.join(d, 'out.npy')}")
    return args


def uop_values(case, variant):
    d = tempfile.mkdtemp(dir=WORK)
    try:
        args = uop_command(case, d, variant)
        try:
            p = subprocess.run(args, capture_output=True, text=True, timeout=opts.timeout)
        except subprocess.TimeoutExpired:
            return None, ("timeout", "")
        if p.returncode != 0:
            kind = "error" if p.returncode == 1 else f"crash rc={p.returncode}"
            first = next((ln for ln in p.stderr.splitlines() if "error" in ln or "Assert" in ln),
                         p.stderr.strip().splitlines()[0] if p.stderr.strip() else "")
            return None, (kind, first)
        if case["level"] == "L2":
            return {f"slot{s}": np.load(os.path.join(d, f"out{s}.npy")) for s in case["outputs"]}, None
        return {"value": np.load(os.path.join(d, "out.npy"))}, None
    finally:
        shutil.rmtree(d, ignore_errors=True)


def differs(case, got, want):
    """None where got agrees with want, else a one-line description."""
    reduces = "reduce" in case["text"]
    for k, w in want.items():
        g = got[k]
        w = np.asarray(w)
        if g.shape != w.shape or g.dtype != w.dtype:
            return f"{k}: got {g.dtype}{g.shape}, the seed's {w.dtype}{w.shape}"
        if g.dtype.kind != "f":
            if not np.array_equal(g, w):
                bad = np.flatnonzero(g.ravel() != w.ravel())
                return f"{k}: {len(bad)} of {g.size} differ, first at {bad[0]}: got {g.ravel()[bad[0]]}, the seed's {w.ravel()[bad[0]]}"
            continue
        gf, wf = g.ravel().astype(np.float64), w.ravel().astype(np.float64)
        fin = np.isfinite(wf)
        if reduces:
            bad_nf = np.isfinite(gf[~fin])  # the seed's inf/nan: any non-finite value
            rtol, atol = 1e-4, 1e-5
        else:
            bad_nf = ~((np.isnan(gf[~fin]) & np.isnan(wf[~fin])) | (gf[~fin] == wf[~fin]))
            rtol, atol = 2e-5, 1e-6
        close = np.isclose(gf[fin], wf[fin], rtol=rtol, atol=atol)
        if bad_nf.any() or not close.all():
            idx = np.concatenate([np.flatnonzero(~fin)[bad_nf], np.flatnonzero(fin)[~close]])
            j = int(np.sort(idx)[0])
            return f"{k}: {len(idx)} of {g.size} differ, first at {j}: got {gf[j]!r}, the seed's {wf[j]!r}"
    return None


# uop-run errors the seed shares: not differences. The seed's GPU mapping
# (gpu.py) raises NotImplementedError on more than 3 output axes, as uop's
# hand opt does for --target=emulate (and --opt=hand); the seed's CPU path,
# the oracle here, has no such limit.
EXPECTED_ERRORS = [("emulate", "more than 3 non-trivial output axes"),
                   ("hand", "more than 3 non-trivial output axes")]
expected_counts = {}


def check(case, variants=None):
    """{variant: failure signature} for `case`; raises SeedError where the seed fails."""
    try:
        want = seed_values(case)
    except Exception as e:  # noqa: BLE001
        raise SeedError(f"{type(e).__name__}: {e}") from None
    fails = {}
    for v in variants or case["variants"]:
        got, err = uop_values(case, v)
        if err and any(v == ev and msg in err[1] for ev, msg in EXPECTED_ERRORS):
            expected_counts[v] = expected_counts.get(v, 0) + 1
        elif err:
            fails[v] = (err[0], re.sub(r"\d+", "N", err[1]), err[1])
        else:
            why = differs(case, got, want)
            if why:
                fails[v] = ("mismatch", "", why)
    return fails


class SeedError(Exception):
    pass


# ---------------------------------------------------------------------------
# the minimizer (on the .uir text)

STMT = re.compile(r"^%(\w+) = (\w+)(.*)$")


def parse_lines(text):
    return [STMT.match(ln).groups() for ln in text.splitlines() if ln.strip()]


def emit(stmts):
    """Drops what the last statement does not reach; renumbers %names."""
    live, out = set(), []
    if not stmts:
        return ""
    live.add(stmts[-1][0])
    for name, op, rest in reversed(stmts):
        if name in live:
            live.update(re.findall(r"%(\w+)", rest.split(" : ")[0]))
    keep = [s for s in stmts if s[0] in live]
    ren = {s[0]: str(i) for i, s in enumerate(keep)}
    for name, op, rest in keep:
        rest = re.sub(r"%(\w+)", lambda m: "%" + ren.get(m.group(1), m.group(1)), rest)
        out.append(f"%{ren[name]} = {op}{rest}")
    return "\n".join(out) + "\n"


def candidates(case):
    stmts = parse_lines(case["text"])
    names = [s[0] for s in stmts]
    level = case["level"]
    # 1. an earlier statement as the program (L1)
    if level == "L1":
        for j in range(len(stmts) - 1):
            if stmts[j][1] != "buffer":
                yield emit(stmts[:j + 1])
    # 2. a statement bypassed by one of its operands
    for j in range(len(stmts) - 2, -1, -1):
        name, op, rest = stmts[j]
        for operand in dict.fromkeys(re.findall(r"%(\w+)", rest.split(" : ")[0])):
            new = [(n, o, re.sub(rf"%{name}\b", f"%{operand}", r)) if k > j else (n, o, r)
                   for k, (n, o, r) in enumerate(stmts)]
            yield emit(new)
    # 3. a store (an operand of a sink) dropped
    for j, (name, op, rest) in enumerate(stmts):
        if op == "sink":
            ops = [x.strip() for x in rest.split(",")]
            for k in range(len(ops)):
                if len(ops) > 1:
                    yield emit(stmts[:j] + [(name, op, " " + ", ".join(ops[:k] + ops[k + 1:]))] + stmts[j + 1:])
    # 4. operand literals simplified (a float constant to 1.0 / 0.0)
    for j, (name, op, rest) in enumerate(stmts):
        for m in re.finditer(r"(?<![\w.%-])-?\d+\.\d+(e-?\d+)?(?![\w.])", rest.split(" : ")[0]):
            for v in ("0.0", "1.0"):
                if m.group(0) != v:
                    r2 = rest[:m.start()] + v + rest[m.end():]
                    yield emit(stmts[:j] + [(name, op, r2)] + stmts[j + 1:])
    # 5. sizes: every occurrence of a size d in tuples, ranges and buffers shrunk
    text = case["text"]
    sizes = sorted({int(x) for x in re.findall(r"(?<![\w.%-])(\d+)(?![\w.])", text)
                    if int(x) > 1}, reverse=True)
    for d in sizes:
        for e in dict.fromkeys([1, d // 2, d - 1]):
            if e >= d or e < 1:
                continue
            new = shrink_size(stmts, d, e, level)
            if new and new != text:
                yield new


def shrink_size(stmts, d, e, level):
    out = []
    for name, op, rest in stmts:
        if op in ("reshape", "expand", "shrink", "permute", "range") or (op == "const" and level == "L2"):
            head, sep, attrs = rest.partition(" : ")
            head = re.sub(rf"(?<![\w.%-]){d}(?![\w.])", str(e), head)
            rest = head + sep + attrs
        out.append([name, op, rest])
    # a buffer's size: the product of its first reshape (L1), else shrunk alike
    for s in out:
        if s[1] != "buffer":
            continue
        size = None
        for name, op, rest in out:
            m = re.match(rf" %{s[0]}, (\(.*\))$", rest)
            if op == "reshape" and m:
                size = int(np.prod(eval(m.group(1)))) if m.group(1) != "()" else 1
                break
        if size is None and level == "L1":
            size = int(re.match(r" (\d+)", s[2]).group(1))
            size = e if size == d else size
        if size is not None:
            s[2] = re.sub(r"^ \d+", f" {size}", s[2])
    return emit([tuple(s) for s in out])


def with_text(case, text):
    c = dict(case, text=text)
    if case["level"] == "L1":
        c["inputs"] = make_inputs(text, case["seed"])
    else:
        sizes = {int(m.group(2)): int(m.group(1))
                 for m in re.finditer(r"= buffer (\d+) : dtype=\w+ slot=(\d+)", text)}
        c["inputs"] = {s: a[:sizes[s]] for s, a in case["inputs"].items() if s in sizes}
        c["outputs"] = [s for s in case["outputs"] if s in sizes]
    return c


def minimize(case, variant, sig, budget=400):
    """Greedy delta debugging: keep any smaller program with the same failure."""
    tries = 0
    progress = True
    while progress and tries < budget:
        progress = False
        for text in candidates(case):
            if tries >= budget:
                break
            if len(text) >= len(case["text"]) and not _smaller_sizes(text, case["text"]):
                continue
            tries += 1
            c = with_text(case, text)
            try:
                f = check(c, [variant])
            except Exception:  # noqa: BLE001  (the seed rejects it: not a valid candidate)
                continue
            if variant in f and f[variant][:2] == sig[:2]:
                case, progress = c, True
                break
    return case, tries


def _smaller_sizes(a, b):
    return sum(map(int, re.findall(r"\d+", a))) < sum(map(int, re.findall(r"\d+", b)))


def report(case, variant, sig, original):
    d = os.path.join(opts.results, f"case-{case['name']}-{variant}")
    os.makedirs(d, exist_ok=True)
    args = uop_command(case, d, variant)
    with open(os.path.join(d, "original.uir"), "w") as f:
        f.write(original["text"])
    meta = {k: case[k] for k in ("name", "seed", "kind", "level", "outputs")}
    meta.update(variant=variant, failure=list(sig), command=args)
    with open(os.path.join(d, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
    print(f"DIFF {case['name']} [{case['kind']}, {variant}] {sig[0]}: {sig[2]}")
    print("  minimized program (" + os.path.join(d, "prog.uir") + "):")
    for ln in case["text"].splitlines():
        print("    " + ln)
    print("  reproduce: " + " ".join(args))
    print(f"  compare:   {sys.executable} {os.path.abspath(__file__)} {opts.seed_root} {opts.uop_run} --replay {d}")


def replay(d):
    meta = json.load(open(os.path.join(d, "meta.json")))
    text = open(os.path.join(d, "prog.uir")).read()
    ins = {int(f[2:-4]): np.load(os.path.join(d, f)) for f in os.listdir(d) if re.match(r"in\d+\.npy$", f)}
    case = dict(meta, text=text, inputs=ins, variants=[meta["variant"]])
    want = seed_values(case)
    got, err = uop_values(case, meta["variant"])
    print(f"the seed: " + ", ".join(f"{k} = {np.array2string(v.ravel()[:16], precision=6)}" for k, v in want.items()))
    if err:
        print(f"uop-run ({meta['variant']}): {err[0]}: {err[1]}")
        return 1
    print(f"uop ({meta['variant']}): " + ", ".join(f"{k} = {np.array2string(v.ravel()[:16], precision=6)}" for k, v in got.items()))
    why = differs(case, got, want)
    print("DIFFERS: " + why if why else "agree")
    return 1 if why else 0


def main():
    if opts.replay:
        return replay(opts.replay)
    os.makedirs(opts.results, exist_ok=True)
    failures = seed_skips = runs = 0
    seen = {}
    for b0 in range(0, opts.count, opts.batch):
        cases = [generate(opts.seed, i) for i in range(b0, min(opts.count, b0 + opts.batch))]
        srcs = []
        for c in cases:
            try:
                srcs += seed_sources(c)
            except Exception:  # noqa: BLE001  (reported below, by check)
                pass
        precompile(srcs)
        for c in cases:
            try:
                fails = check(c)
            except SeedError as e:
                seed_skips += 1
                if not opts.quiet:
                    print(f"skip {c['name']}: the seed cannot run it ({e})")
                continue
            runs += len(c["variants"])
            if not fails:
                if not opts.quiet:
                    print(f"ok {c['name']} {c['kind']} {' '.join(c['variants'])}")
                continue
            failures += 1
            for v, sig in fails.items():
                key = (c["kind"], v, sig[0], sig[1])
                if key in seen:  # minimized once already: one line
                    print(f"DIFF {c['name']} [{c['kind']}, {v}] {sig[0]}: {sig[2]} (as {seen[key]})")
                    continue
                m = c
                if not opts.no_minimize:
                    m, tries = minimize(c, v, sig)
                    sig = check(m, [v]).get(v, sig)
                seen[key] = c["name"]
                report(m, v, sig, c)
        sys.stdout.flush()
    n = opts.count - seed_skips
    known = ", ".join(f"{n} {v}" for v, n in sorted(expected_counts.items()))
    print(f"({seed_skips} skipped: the seed cannot run them; {runs} uop-run runs;"
          f" expected errors (EXPECTED_ERRORS): {known or 'none'})")
    print(f"{n - failures} of {n} programs agree with the seed")
    shutil.rmtree(WORK, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
