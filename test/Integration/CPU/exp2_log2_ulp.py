#!/usr/bin/env python3
"""exp2 and log2 (uop-expand-math's polynomials) against numpy in f64, in ulps.

  exp2_log2_ulp.py UOP_RUN TMPDIR

exp2 over [-160, 140] (overflow, denormal results, underflow to 0) and
log2 over positive f32 bit patterns (denormals, up to FLT_MAX) and
[0.5, 2], each with the special values, run by uop-run on the CPU
(scalar, and in vector lanes) and the emulated GPU, in f32 and f16. f32
results must be within MAX_ULP of the exact value rounded, f16 ones within
1 f16 ulp of numpy's f32-then-f16 (what the seed's C computes), and
wherever either side is NaN, +-inf or 0 both must be the same.
"""
import subprocess
import sys

import numpy as np

uop_run, tmp = sys.argv[1:3]
MAX_ULP = 1.5

rng = np.random.default_rng(11)
specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -1.0, 1.0, 2.0, 0.5, 2.0**-149, 2.0**-126,
                     3.4028235e38, -3.4028235e38, 128.0, 127.99999, -126.0, -149.0, -149.5, -150.0,
                     -150.5, 1e-45, 5e-39], dtype=np.float32)
exp2_in = np.concatenate([specials, np.linspace(-160, 140, 300001, dtype=np.float32),
                          rng.uniform(-1, 1, 100000).astype(np.float32)])
bits = rng.integers(0, 0x7F800000, 300000, dtype=np.int64).astype(np.int32)
log2_in = np.concatenate([specials, bits.view(np.float32), np.linspace(0.5, 2, 100001, dtype=np.float32),
                          -bits[:1000].view(np.float32)])
# Whole vectors of 16 lanes (the specials come first).
exp2_in = exp2_in[: exp2_in.size // 16 * 16]
log2_in = log2_in[: log2_in.size // 16 * 16]


def program(n, dtype, op):
    return f"""func.func @main() -> tensor<{n}x{dtype}>OPTS {{
  %x = uop.buffer 0 : tensor<{n}x{dtype}>
  %y = uop.{op} %x : tensor<{n}x{dtype}>
  return %y : tensor<{n}x{dtype}>
}}
"""


def run(name, text, target, opts, x):
    attr = f" attributes {{uop.opts = #uop.opts<{opts}>}}" if opts else ""
    prog = f"{tmp}/{name}_{target}_{len(opts)}.mlir"
    with open(prog, "w") as f:
        f.write(text.replace("OPTS", attr, 1))
    np.save(f"{prog}.in.npy", x)
    out = f"{prog}.npy"
    p = subprocess.run([uop_run, prog, f"--target={target}", "--opt=none", f"--input=0={prog}.in.npy",
                        f"--output={out}"], capture_output=True, text=True)
    if p.returncode:
        return None, p.stderr
    return np.load(out), ""


def ulp_error(got, exact, dtype):
    """|got - exact| in ulps of exact rounded to dtype (denormal ulps below the normal range)."""
    rounded = exact.astype(dtype)
    tiny = np.finfo(dtype).smallest_subnormal
    ulp = np.maximum(np.spacing(np.abs(rounded)).astype(np.float64), float(tiny))
    return np.abs(got.astype(np.float64) - exact) / ulp


def specials_differ(got, want):
    """Where either side is NaN, +-inf or 0, the indices at which they differ."""
    special = ~np.isfinite(want) | (want == 0) | ~np.isfinite(got) | (got == 0)
    same = (np.isnan(got) & np.isnan(want)) | (got == want)
    return np.flatnonzero(special & ~same)


checked = failures = 0
with np.errstate(all="ignore"):
    cases = {
        "exp2": (exp2_in, np.exp2),
        "log2": (log2_in, np.log2),
    }
    for op, (x32, fn) in cases.items():
        for dtype in (np.float32, np.float16):
            x = x32.astype(dtype)
            if dtype == np.float32:
                exact = fn(x.astype(np.float64))
                want = exact.astype(np.float32)
                tol = MAX_ULP
            else:
                # The seed's C: the f16 value promoted, exp2f/log2f, rounded to f16.
                want = fn(x.astype(np.float32)).astype(np.float16)
                exact = want.astype(np.float64)
                tol = 1.0
            text = program(x.size, "f32" if dtype == np.float32 else "f16", op)
            for target, opts in [("cpu", ""), ("cpu", "vector = 8"), ("cpu", "vector = 16"),
                                 ("emulate", "")]:
                checked += 1
                got, err = run(f"{op}_{np.dtype(dtype).name}", text, target, opts, x)
                where = f"{op} {np.dtype(dtype).name} {target} [{opts}]"
                if got is None:
                    failures += 1
                    print(f"FAIL {where}: {err.strip()}")
                    continue
                finite = np.isfinite(want) & np.isfinite(got)
                errs = ulp_error(got[finite], exact[finite], dtype)
                worst = errs.max() if errs.size else 0.0
                bad = specials_differ(got, want)
                if worst > tol or bad.size:
                    failures += 1
                    i = np.flatnonzero(finite)[errs.argmax()] if errs.size else 0
                    print(f"FAIL {where}: max {worst:.3f} ulp at x={x[i]!r} (got {got[i]!r}, want {want[i]!r}); "
                          f"specials differ at x={x[bad[:5]]!r}: got {got[bad[:5]]!r} want {want[bad[:5]]!r}")
                else:
                    print(f"ok {where}: max {worst:.3f} ulp")

print(f"{checked - failures} of {checked} checks pass")
sys.exit(1 if failures else 0)
