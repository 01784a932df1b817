#!/usr/bin/env python3
"""The C path against the LLVM path: every program runs both ways and must agree.

  c_vs_llvm.py run BIN OUTDIR PROGRAM...      uop-run each program with --codegen=c and with
                                              the LLVM path on the same random inputs: floats
                                              within reassociation, integers and bools exactly,
                                              a run-time check's error message exactly
  c_vs_llvm.py warnings BIN OUTDIR CC PROGRAM...
                                              uop-translate --uop-to-c each program (the C that
                                              --codegen=c compiles; for a program with barriers
                                              the emulation's, uop-run --print-c) and compile it
                                              with `CC -Wall -Wextra -Werror`

A program the CPU target refuses (barriers) runs on --target=emulate both ways; one that does
not compile on the LLVM path is skipped (its error is the subject of its own test). Threads run
one at a time (OMP_NUM_THREADS=1), so that the first failing check is the same on both paths.
"""
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "GPU"))
from cuda_vs_cpu import compare as compare32, output_flags, plan_outputs  # noqa: E402

SEED = 11


def compare(got, want):
    """cuda_vs_cpu's comparison; f16 sums reassociated (the LLVM path vectorizes a reduction, C
    adds in order, each add rounded to f16) differ by more than f32's tolerance."""
    if got.dtype == np.float16 and want.dtype == np.float16 and got.shape == want.shape:
        if np.allclose(got.astype(np.float32), want.astype(np.float32), rtol=1e-2, atol=1e-2,
                       equal_nan=True):
            return None
    return compare32(got, want)


def run_program(bindir, prog, target, codegen, flags):
    env = dict(os.environ, OMP_NUM_THREADS="1")
    return subprocess.run([os.path.join(bindir, "uop-run"), prog, f"--random-inputs={SEED}",
                           f"--target={target}", f"--codegen={codegen}"] + flags,
                          capture_output=True, text=True, env=env)


def run(bindir, outdir, programs):
    os.makedirs(outdir, exist_ok=True)
    passed = failed = 0
    for prog in programs:
        name = os.path.basename(prog).replace('.', '_')
        for target in ("cpu", "emulate"):
            plan = run_program(bindir, prog, target, "llvm", ["--print-plan"])
            if plan.returncode == 0 or "barriers need the GPU path" not in plan.stderr:
                break
        if not plan.stdout.startswith("plan:"):
            print(f"skip {name}: does not compile: {plan.stderr.strip().splitlines()[-1]}")
            continue
        outputs = plan_outputs(plan.stdout)
        results = {}
        for codegen in ("llvm", "c"):
            flags, files = output_flags(outputs, outdir, f"{name}.{codegen}")
            results[codegen] = (run_program(bindir, prog, target, codegen, flags), files)
        (ref, ref_files), (got, got_files) = results["llvm"], results["c"]
        if ref.returncode != 0 or got.returncode != 0:
            # A failed run-time check (random indices): the same error, exactly.
            if ref.returncode != 0 and got.returncode != 0 and ref.stderr == got.stderr:
                print(f"PASS {name} ({target}): the same error: {ref.stderr.strip().splitlines()[0]}")
                passed += 1
            else:
                print(f"FAIL {name} ({target}): llvm exit {ref.returncode} {ref.stderr.strip()!r}, "
                      f"c exit {got.returncode} {got.stderr.strip()!r}")
                failed += 1
            continue
        bad = [f"{os.path.basename(g)}: {m}" for g, w in zip(got_files, ref_files)
               if (m := compare(np.load(g), np.load(w)))]
        if bad:
            print(f"FAIL {name} ({target}): " + "; ".join(bad))
            failed += 1
        else:
            print(f"PASS {name} ({target}, {len(got_files)} output(s))")
            passed += 1
    print(f"{passed} passed, {failed} failed")
    return failed == 0


def warnings(bindir, outdir, cc, programs):
    os.makedirs(outdir, exist_ok=True)
    passed = failed = 0
    for prog in programs:
        name = os.path.basename(prog).replace('.', '_')
        src = os.path.join(outdir, name + ".c")
        t = subprocess.run([os.path.join(bindir, "uop-translate"), "--uop-to-c", prog, "-o", src],
                           capture_output=True, text=True)
        if t.returncode != 0 and "barriers need the GPU path" in t.stderr:
            # The emulated GPU's C (uop-translate compiles for the CPU target):
            # what uop-run compiles, printed before it runs.
            t = run_program(bindir, prog, "emulate", "c", ["--print-c"])
            with open(src, "w") as f:
                f.write(t.stdout)
        if t.returncode != 0:
            print(f"skip {name}: no C: {t.stderr.strip().splitlines()[-1]}")
            continue
        c = subprocess.run([cc, "-std=gnu11", "-Wall", "-Wextra", "-Werror", "-fopenmp", "-c", src,
                            "-o", os.path.join(outdir, name + ".o")], capture_output=True, text=True)
        if c.returncode != 0:
            print(f"FAIL {name}: {cc}:\n{c.stderr.strip()}")
            failed += 1
        else:
            print(f"PASS {name}")
            passed += 1
    print(f"{passed} passed, {failed} failed")
    return failed == 0


def main(argv):
    if len(argv) > 3 and argv[1] == "run":
        return 0 if run(argv[2], argv[3], argv[4:]) else 1
    if len(argv) > 4 and argv[1] == "warnings":
        return 0 if warnings(argv[2], argv[3], argv[4], argv[5:]) else 1
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
