#!/usr/bin/env python3
"""uop-stash (`#uop.opts<stash>`) against the same opts without it, and numpy.

  stash.py UOP_RUN TMPDIR

A fused softmax (--fuse-reduce: one kernel) computes exp2 of the shifted
row in the sum's loop and again in the output's; with `stash` the sum's loop
stores it into the output and the output's loop reads it back. That is the
same value, so the output must be the same bit for bit as without `stash`
(NaN rows, infinities, f16 and odd sizes included), and match numpy; and
--opt=hand must choose `stash` for this kernel.
"""
import subprocess
import sys

import numpy as np

uop_run, tmp = sys.argv[1:3]
checks = failed = 0


def check(name, ok, detail=""):
    global checks, failed
    checks += 1
    if not ok:
        failed += 1
        print(f"FAIL {name} {detail}")


def softmax(r, c, dt, opts):
    attrs = f" attributes {{uop.opts = #uop.opts<{opts}>}}" if opts is not None else ""
    t = f"tensor<{r}x{c}x{dt}>"
    return f"""func.func @main() -> {t}{attrs} {{
  %0 = uop.buffer 0 : tensor<{r * c}x{dt}>
  %1 = uop.reshape %0, [{r}, {c}] : tensor<{r * c}x{dt}>
  %2 = uop.reduce %1 <max> pop 1 : {t}
  %3 = uop.reshape %2, [{r}, 1] : tensor<{r}x{dt}>
  %4 = uop.const -1.000000e+00 : {dt}
  %5 = uop.reshape %4, [1, 1] : {dt}
  %6 = uop.expand %5, [{r}, 1] : tensor<1x1x{dt}>
  %7 = uop.mul %3, %6 : tensor<{r}x1x{dt}>
  %8 = uop.expand %7, [{r}, {c}] : tensor<{r}x1x{dt}>
  %9 = uop.add %1, %8 : {t}
  %10 = uop.const 1.44269502 : {dt}
  %11 = uop.reshape %10, [1, 1] : {dt}
  %12 = uop.expand %11, [{r}, {c}] : tensor<1x1x{dt}>
  %13 = uop.mul %9, %12 : {t}
  %14 = uop.exp2 %13 : {t}
  %15 = uop.reduce %14 <add> pop 1 : {t}
  %16 = uop.reshape %15, [{r}, 1] : tensor<{r}x{dt}>
  %17 = uop.recip %16 : tensor<{r}x1x{dt}>
  %18 = uop.expand %17, [{r}, {c}] : tensor<{r}x1x{dt}>
  %19 = uop.mul %14, %18 : {t}
  return %19 : {t}
}}
"""


def run(text, x, *flags):
    prog, out = f"{tmp}/p.mlir", f"{tmp}/y.npy"
    with open(prog, "w") as f:
        f.write(text)
    np.save(f"{tmp}/x.npy", x.ravel())
    r = subprocess.run([uop_run, prog, "--fuse-reduce", "--input", f"0={tmp}/x.npy", "--output", out,
                        *flags], capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr.strip()[-400:] + r.stdout.strip()[-400:]
    return np.load(out), r.stdout


def bits(a):
    return a.view(np.uint16 if a.dtype == np.float16 else np.uint32)


rng = np.random.default_rng(11)
for (r, c) in [(8, 64), (12, 100), (1, 7), (64, 33), (16, 256)]:
    for dt in ["f32", "f16"]:
        npdt = np.float32 if dt == "f32" else np.float16
        x = (rng.standard_normal((r, c)) * 4).astype(npdt)
        if r >= 8:  # rows with an infinity, a NaN, -inf only, a huge value
            x[1, c // 2] = np.inf
            x[2, 0] = np.nan
            x[3, :] = -np.inf
            x[4, c - 1] = 60000 if dt == "f16" else 1e30
        with np.errstate(all="ignore"):
            x64 = x.astype(np.float64)
            e = np.exp(x64 - x64.max(axis=1, keepdims=True))
            ref = e / e.sum(axis=1, keepdims=True)
        for base in ["upcast = {0: 4}, thread = 0", "", "upcast = {0: 2}, vector = 16", "thread = 0"]:
            if "upcast = {0: 4}" in base and r % 4:
                continue
            if "upcast = {0: 2}" in base and r % 2:
                continue
            sep = ", " if base else ""
            name = f"softmax {r}x{c} {dt} <{base}>"
            got, err = run(softmax(r, c, dt, f"{base}{sep}stash"), x)
            want, err2 = run(softmax(r, c, dt, base), x)
            if got is None or want is None:
                check(name, False, err if got is None else err2)
                continue
            check(name + " stash vs not, bit for bit", np.array_equal(bits(got), bits(want)))
            got = got.reshape(r, c).astype(np.float64)
            fin = np.isfinite(ref)
            tol = 2e-3 if dt == "f16" else 1e-5
            check(name + " vs numpy", np.array_equal(np.isnan(got), np.isnan(ref)) and
                  np.abs(got[fin] - ref[fin]).max() <= tol, f"max error {np.abs(got[fin] - ref[fin]).max()}")

# The hand rules choose it (and the answer is the same).
x = rng.standard_normal((32, 128)).astype(np.float32)
got, out = run(softmax(32, 128, "f32", None), x, "--opt=hand", "--print-plan")
check("--opt=hand chooses stash", got is not None and "stash>" in out, out)
want, _ = run(softmax(32, 128, "f32", "upcast = {0: 4}, vector = 16"), x)
check("--opt=hand = no stash, bit for bit", got is not None and want is not None and
      np.array_equal(bits(got), bits(want)))

print(f"{checks - failed} of {checks} checks pass")
sys.exit(1 if failed else 0)
