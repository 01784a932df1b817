#!/usr/bin/env python3
"""Every CPU integration program, on the GPU: the CUDA result must equal the CPU's.

  cuda_vs_cpu.py prepare BIN OUTDIR [--chip=C] PROGRAM...
                                                 compile each program for cuda (uop-compile, a
                                                 bundle: no GPU needed; for chip C, e.g. sm_90a
                                                 for Hopper's wgmma) and record the CPU result
                                                 (uop-run) of the same random inputs
  cuda_vs_cpu.py check RUNNER OUTDIR             run each bundle with uop-runner on the GPU and
                                                 compare with the CPU result
  cuda_vs_cpu.py run BIN OUTDIR PROGRAM...       prepare, then uop-run --target=cuda on each
                                                 program (lit, where a GPU is)

Compile here, run there: `prepare` needs the compiler (uop-run, uop-compile), `check` only the
MLIR-free uop-runner, so the GPU machine needs no LLVM. Floats agree within a tolerance for
reassociation (reductions run in another order on the GPU); integers and bools exactly.
"""
import json
import os
import re
import subprocess
import sys

import numpy as np

SEED = 7


def plan_outputs(plan_text):
    """What to save: the values of a shaped program, the written slots of an in-place one."""
    if plan_text.startswith("plan: shaped"):
        n = len(re.findall(r"^  value \d+:", plan_text, re.M))
        return [("value", i) for i in range(n)]
    slots = re.findall(r"^  arg \d+: \w+ slot (\d+), .*written", plan_text, re.M)
    return [("slot", int(s)) for s in slots]


def output_flags(outputs, directory, prefix):
    flags, files = [], []
    for kind, i in outputs:
        f = os.path.join(directory, f"{prefix}.{kind}{i}.npy")
        flags += ["--output", f if kind == "value" else f"{i}={f}"]
        files.append(f)
    return flags, files


def prepare(bindir, outdir, programs):
    os.makedirs(outdir, exist_ok=True)
    chip = [p for p in programs if p.startswith("--chip=")]
    programs = [p for p in programs if not p.startswith("--chip=")]
    manifest = []
    for prog in programs:
        name = os.path.basename(prog).replace('.', '_')
        # The reference: the CPU, or for a kernel with barriers (which the CPU
        # target refuses) the CPU emulation of the GPU (uop-emulate-gpu).
        for target in ("cpu", "emulate"):
            plan = subprocess.run([os.path.join(bindir, "uop-run"), prog, f"--random-inputs={SEED}",
                                   f"--target={target}", "--print-plan"], capture_output=True, text=True)
            if plan.returncode == 0 or "barriers need the GPU path" not in plan.stderr:
                break
        if plan.returncode != 0:
            print(f"skip {name}: does not run on the CPU: {plan.stderr.strip().splitlines()[-1]}")
            continue
        outputs = plan_outputs(plan.stdout)
        flags, refs = output_flags(outputs, outdir, name + ".cpu")
        subprocess.run([os.path.join(bindir, "uop-run"), prog, f"--random-inputs={SEED}",
                        f"--target={target}"] + flags, check=True)
        bundle = os.path.join(outdir, name + ".uopx")
        c = subprocess.run([os.path.join(bindir, "uop-compile"), prog, "--target=cuda"] + chip + ["-o", bundle],
                           capture_output=True, text=True)
        if c.returncode != 0:
            manifest.append({"name": name, "compile_error": c.stderr.strip()})
            continue
        manifest.append({"name": name, "program": os.path.abspath(prog),
                         "bundle": os.path.basename(bundle), "outputs": outputs,
                         "refs": [os.path.basename(r) for r in refs]})
    with open(os.path.join(outdir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    return manifest


def compare(got, want):
    if got.shape != want.shape or got.dtype != want.dtype:
        return f"{got.dtype}{got.shape} vs {want.dtype}{want.shape}"
    if want.dtype.kind == "f":
        if np.allclose(got, want, rtol=1e-4, atol=1e-5, equal_nan=True):
            return None
        err = np.nanmax(np.abs(got.astype(np.float64) - want))
        return f"max abs difference {err:g}"
    if np.array_equal(got, want):
        return None
    return f"{int(np.sum(got != want))} of {got.size} elements differ"


def check(run_one, outdir):
    with open(os.path.join(outdir, "manifest.json")) as f:
        manifest = json.load(f)
    passed = failed = 0
    for entry in manifest:
        name = entry["name"]
        if "compile_error" in entry:
            print(f"FAIL {name}: does not compile for cuda: {entry['compile_error']}")
            failed += 1
            continue
        flags, files = output_flags([tuple(o) for o in entry["outputs"]], outdir, name + ".gpu")
        r = run_one(entry, flags)
        if r.returncode != 0:
            print(f"FAIL {name}: {r.stderr.strip()}")
            failed += 1
            continue
        bad = [f"{os.path.basename(g)}: {m}" for g, w in zip(files, entry["refs"])
               if (m := compare(np.load(g), np.load(os.path.join(outdir, w))))]
        if bad:
            print(f"FAIL {name}: " + "; ".join(bad))
            failed += 1
        else:
            print(f"PASS {name} ({len(files)} output(s))")
            passed += 1
    print(f"{passed} passed, {failed} failed")
    return failed == 0


def main(argv):
    cmd = argv[1]
    if cmd == "prepare":
        prepare(argv[2], argv[3], argv[4:])
        return 0
    if cmd == "check":
        runner, outdir = argv[2], argv[3]
        run = lambda e, flags: subprocess.run(
            [runner, os.path.join(outdir, e["bundle"]), f"--random-inputs={SEED}"] + flags,
            capture_output=True, text=True)
        return 0 if check(run, outdir) else 1
    if cmd == "run":
        bindir, outdir, programs = argv[2], argv[3], argv[4:]
        # uop-run --target=cuda: compile and run in one process.
        prepare(bindir, outdir, programs)
        run = lambda e, flags: subprocess.run(
            [os.path.join(bindir, "uop-run"), e["program"], "--target=cuda",
             f"--random-inputs={SEED}"] + flags, capture_output=True, text=True)
        return 0 if check(run, outdir) else 1
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
