"""Fused row programs for the integration scripts (stash.py, prefetch_next.py):
a softmax and a layernorm as uop MLIR with optional #uop.opts, and their run
through uop-run --fuse-reduce.

  from fused import softmax, layernorm, run
"""
import subprocess

import numpy as np


def softmax(r, c, dt, opts):
    """The seed's Tensor.softmax over rows (max, exp2 of the shifted row times log2 e,
    sum, times the reciprocal), of dtype `dt`, with `#uop.opts<opts>` on @main (none: None)."""
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


def layernorm(r, c, opts):
    """Fused layernorm without the affine part: (x - mean) / sqrt(var + 1e-5) over rows."""
    t = f"tensor<{r}x{c}xf32>"
    attrs = f" attributes {{uop.opts = #uop.opts<{opts}>}}" if opts is not None else ""
    return f"""func.func @main() -> {t}{attrs} {{
  %0 = uop.buffer 0 : tensor<{r * c}xf32>
  %1 = uop.reshape %0, [{r}, {c}] : tensor<{r * c}xf32>
  %2 = uop.reduce %1 <add> pop 1 : {t}
  %3 = uop.reshape %2, [{r}, 1] : tensor<{r}xf32>
  %4 = uop.const {-1.0 / c!r} : f32
  %5 = uop.reshape %4, [1, 1] : f32
  %6 = uop.expand %5, [{r}, 1] : tensor<1x1xf32>
  %7 = uop.mul %3, %6 : tensor<{r}x1xf32>
  %8 = uop.expand %7, [{r}, {c}] : tensor<{r}x1xf32>
  %9 = uop.add %1, %8 : {t}
  %10 = uop.mul %9, %9 : {t}
  %11 = uop.reduce %10 <add> pop 1 : {t}
  %12 = uop.reshape %11, [{r}, 1] : tensor<{r}xf32>
  %13 = uop.const {1.0 / c!r} : f32
  %14 = uop.reshape %13, [1, 1] : f32
  %15 = uop.expand %14, [{r}, 1] : tensor<1x1xf32>
  %16 = uop.mul %12, %15 : tensor<{r}x1xf32>
  %17 = uop.const 9.99999974E-6 : f32
  %18 = uop.reshape %17, [1, 1] : f32
  %19 = uop.expand %18, [{r}, 1] : tensor<1x1xf32>
  %20 = uop.add %16, %19 : tensor<{r}x1xf32>
  %21 = uop.sqrt %20 : tensor<{r}x1xf32>
  %22 = uop.recip %21 : tensor<{r}x1xf32>
  %23 = uop.expand %22, [{r}, {c}] : tensor<{r}x1xf32>
  %24 = uop.mul %9, %23 : {t}
  return %24 : {t}
}}
"""


def run(uop_run, tmp, text, x, *flags):
    """`text` run by uop-run --fuse-reduce on `x` (slot 0): (output, stdout), or (None, error)."""
    prog, out = f"{tmp}/p.mlir", f"{tmp}/y.npy"
    with open(prog, "w") as f:
        f.write(text)
    np.save(f"{tmp}/x.npy", x.ravel())
    r = subprocess.run([uop_run, prog, "--fuse-reduce", "--input", f"0={tmp}/x.npy", "--output", out,
                        *flags], capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr.strip()[-400:] + r.stdout.strip()[-400:]
    return np.load(out), r.stdout
