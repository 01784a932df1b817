"""Matrix products from movement ops and one way to run them, shared by the
integration scripts that check opts on them (reduce_tile.py, ragged_tile.py).

  from products import product, run
"""
import subprocess

import numpy as np


def attrs(opts):
    """The function attribute that sets `opts`: "" is `#uop.opts<>` (no
    opts: kernelize copies it to every kernel, so uop-hand-opt chooses
    none), None no attribute (uop-run's --opt=hand then chooses)."""
    return f" attributes {{uop.opts = #uop.opts<{opts}>}}" if opts is not None else ""


def product(m, n, k, kind, opts=None, bt=False):
    """C[i, j] = reduce_k(A[i, k] op B[k, j]) (op: * for add, + for max);
    with `bt` B is given transposed (n x k)."""
    if bt:
        b = f"%b3 = uop.reshape %b, [1, {n}, {k}] : tensor<{k * n}xf32>"
    else:
        b = (f"%b2 = uop.reshape %b, [{k}, {n}] : tensor<{k * n}xf32>\n"
             f"  %bt = uop.permute %b2, [1, 0] : tensor<{k}x{n}xf32>\n"
             f"  %b3 = uop.reshape %bt, [1, {n}, {k}] : tensor<{n}x{k}xf32>")
    op = "mul" if kind == "add" else "add"
    return f"""func.func @main() -> tensor<{m}x{n}xf32>{attrs(opts)} {{
  %a = uop.buffer 0 : tensor<{m * k}xf32>
  %b = uop.buffer 1 : tensor<{k * n}xf32>
  %a3 = uop.reshape %a, [{m}, 1, {k}] : tensor<{m * k}xf32>
  {b}
  %ae = uop.expand %a3, [{m}, {n}, {k}] : tensor<{m}x1x{k}xf32>
  %be = uop.expand %b3, [{m}, {n}, {k}] : tensor<1x{n}x{k}xf32>
  %x = uop.{op} %ae, %be : tensor<{m}x{n}x{k}xf32>
  %c = uop.reduce %x <{kind}> pop 1 : tensor<{m}x{n}x{k}xf32>
  return %c : tensor<{m}x{n}xf32>
}}
"""


def run(uop_run, tmp, text, a, b, *flags):
    """Runs `text` with buffers 0 = a and 1 = b: (the output, "") or (None,
    the end of uop-run's error)."""
    prog, out = f"{tmp}/p.mlir", f"{tmp}/c.npy"
    with open(prog, "w") as f:
        f.write(text)
    np.save(f"{tmp}/a.npy", a.ravel())
    np.save(f"{tmp}/b.npy", b.ravel())
    r = subprocess.run([uop_run, prog, "--input", f"0={tmp}/a.npy", "--input", f"1={tmp}/b.npy",
                        "--output", out, *flags], capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr.strip()[-400:]
    return np.load(out), ""
