#!/usr/bin/env python3
"""The CUDA C path against the PTX path: both bundles of each program run on the GPU and agree.

  cuda_c_vs_ptx.py prepare BIN OUTDIR PROGRAM...   compile each program twice for cuda with
                                                   uop-compile (no GPU needed): the PTX path
                                                   (NAME.ptx.uopx) and the CUDA C path,
                                                   --codegen=cuda-c with nvcc (NAME.cuda-c.uopx)
  cuda_c_vs_ptx.py check RUNNER OUTDIR             run both bundles of each program with
                                                   uop-runner on the GPU, the same random inputs,
                                                   and compare
  cuda_c_vs_ptx.py run BIN OUTDIR PROGRAM...       prepare, then check with BIN/uop-runner (lit,
                                                   where a GPU is)
  cuda_c_vs_ptx.py nvcc BIN OUTDIR NVCC PROGRAM... uop-translate --uop-to-cuda each program and
                                                   compile its CUDA C, kernels and host, with
                                                   `NVCC -arch=sm_90 -c` (no GPU needed)

Floats agree within a tolerance for reassociation (nvcc contracts and orders some float math
differently from LLVM's NVPTX), integers and bools exactly, and a failed run-time check with the
same message. Compile here, run there, as cuda_vs_cpu.py: `check` needs only uop-runner.
"""
import json
import os
import subprocess
import sys

import numpy as np

from cuda_vs_cpu import compare, output_flags, plan_outputs

SEED = 5


def prepare(bindir, outdir, programs):
    os.makedirs(outdir, exist_ok=True)
    manifest = []
    for prog in programs:
        name = os.path.basename(prog).replace('.', '_')
        entry = {"name": name}
        for path, flags in (("ptx", []), ("cuda-c", ["--codegen=cuda-c"])):
            bundle = f"{name}.{path}.uopx"
            c = subprocess.run([os.path.join(bindir, "uop-compile"), prog, "--target=cuda",
                                "-o", os.path.join(outdir, bundle)] + flags,
                               capture_output=True, text=True)
            if c.returncode != 0:
                entry.setdefault("compile_errors", {})[path] = c.stderr.strip()
                continue
            entry[path] = bundle
            # What to compare: uop-runner prints the plan before it needs a GPU.
            plan = subprocess.run([os.path.join(bindir, "uop-runner"), os.path.join(outdir, bundle),
                                   "--print-plan", f"--random-inputs={SEED}"],
                                  capture_output=True, text=True)
            entry["outputs"] = plan_outputs(plan.stdout)
        if "ptx" not in entry:
            print(f"skip {name}: the PTX path does not compile it either")
            continue
        manifest.append(entry)
    with open(os.path.join(outdir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    print(f"prepared {len(manifest)} program(s) in {outdir}")
    return manifest


def check(runner, outdir):
    with open(os.path.join(outdir, "manifest.json")) as f:
        manifest = json.load(f)
    passed = failed = 0
    for entry in manifest:
        name = entry["name"]
        if "cuda-c" not in entry:
            print(f"FAIL {name}: the CUDA C path does not compile it: "
                  f"{entry['compile_errors']['cuda-c']}")
            failed += 1
            continue
        runs = {}
        for path in ("ptx", "cuda-c"):
            bundle = os.path.join(outdir, entry[path])
            flags, files = output_flags([tuple(o) for o in entry["outputs"]], outdir,
                                        f"{name}.{path}")
            r = subprocess.run([runner, bundle, f"--random-inputs={SEED}"] + flags,
                               capture_output=True, text=True)
            runs[path] = (r, files)
        (ref, ref_files), (got, got_files) = runs["ptx"], runs["cuda-c"]
        if ref.returncode != 0 or got.returncode != 0:
            if ref.returncode != 0 and got.returncode != 0 and ref.stderr == got.stderr:
                print(f"PASS {name}: the same error: {ref.stderr.strip().splitlines()[0]}")
                passed += 1
            else:
                print(f"FAIL {name}: ptx exit {ref.returncode} {ref.stderr.strip()!r}, "
                      f"cuda-c exit {got.returncode} {got.stderr.strip()!r}")
                failed += 1
            continue
        bad = [f"{os.path.basename(g)}: {m}" for g, w in zip(got_files, ref_files)
               if (m := compare(np.load(g), np.load(w)))]
        if bad:
            print(f"FAIL {name}: " + "; ".join(bad))
            failed += 1
        else:
            print(f"PASS {name} ({len(got_files)} output(s))")
            passed += 1
    print(f"{passed} passed, {failed} failed")
    return failed == 0


def nvcc(bindir, outdir, nvcc_path, programs):
    os.makedirs(outdir, exist_ok=True)
    passed = failed = 0
    for prog in programs:
        name = os.path.basename(prog).replace('.', '_')
        src = os.path.join(outdir, name + ".cu")
        t = subprocess.run([os.path.join(bindir, "uop-translate"), "--uop-to-cuda", prog, "-o", src],
                           capture_output=True, text=True)
        if t.returncode != 0:
            print(f"skip {name}: no CUDA C: {t.stderr.strip().splitlines()[-1]}")
            continue
        c = subprocess.run([nvcc_path, "-arch=sm_90", "-c", src, "-o",
                            os.path.join(outdir, name + ".o")], capture_output=True, text=True)
        if c.returncode != 0:
            print(f"FAIL {name}: nvcc:\n{c.stderr.strip()}")
            failed += 1
        else:
            print(f"PASS {name}")
            passed += 1
    print(f"{passed} passed, {failed} failed")
    return failed == 0


def main(argv):
    if len(argv) > 3 and argv[1] == "prepare":
        prepare(argv[2], argv[3], argv[4:])
        return 0
    if len(argv) == 4 and argv[1] == "check":
        return 0 if check(argv[2], argv[3]) else 1
    if len(argv) > 3 and argv[1] == "run":
        prepare(argv[2], argv[3], argv[4:])
        return 0 if check(os.path.join(argv[2], "uop-runner"), argv[3]) else 1
    if len(argv) > 4 and argv[1] == "nvcc":
        return 0 if nvcc(argv[2], argv[3], argv[4], argv[5:]) else 1
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
