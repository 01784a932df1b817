#!/usr/bin/env python3
"""Two builds of uop side by side on the same gemm, interleaved (A, B, A,
B, ...), so that a loaded machine's noise falls on both alike: before and
after a change that should not change the numbers.

  /usr/bin/python3 bench/ab_gemm.py OLD_BUILD NEW_BUILD N [N ...]

Each round runs `uop-run --opt=hand --bench=5` of A @ B (N x N x N, from
movement ops as bench/gemm.py writes it) with each build; prints each
build's median and range of 5 rounds.
"""
import subprocess, sys, re, statistics, os, tempfile, numpy as np
old, new = sys.argv[1], sys.argv[2]
tmp = tempfile.mkdtemp()
def gemm_prog(n):
    p = f"{tmp}/gemm{n}.mlir"
    open(p, "w").write(f"""func.func @main() -> tensor<{n}x{n}xf32> {{
  %a = uop.buffer 0 : tensor<{n*n}xf32>
  %b = uop.buffer 1 : tensor<{n*n}xf32>
  %a2 = uop.reshape %a, [{n}, 1, {n}] : tensor<{n*n}xf32>
  %ae = uop.expand %a2, [{n}, {n}, {n}] : tensor<{n}x1x{n}xf32>
  %b2 = uop.reshape %b, [{n}, {n}] : tensor<{n*n}xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<{n}x{n}xf32>
  %b3 = uop.reshape %bt, [1, {n}, {n}] : tensor<{n}x{n}xf32>
  %be = uop.expand %b3, [{n}, {n}, {n}] : tensor<1x{n}x{n}xf32>
  %m = uop.mul %ae, %be : tensor<{n}x{n}x{n}xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<{n}x{n}x{n}xf32>
  return %c : tensor<{n}x{n}xf32>
}}
""")
    return p
env = dict(os.environ, OMP_NUM_THREADS="2", UOP_CACHE=f"{tmp}/cache")
for n in [int(x) for x in sys.argv[3:]]:
    p = gemm_prog(n)
    res = {"old": [], "new": []}
    for r in range(5):
        for name, b in (("old", old), ("new", new)):
            out = subprocess.run([b + "/bin/uop-run", p, "--random-inputs", "--opt=hand", "--bench=5"], capture_output=True, text=True, env=env).stdout
            m = re.search(r"([0-9.]+) GFLOP/s", out)
            res[name].append(float(m.group(1)) if m else float("nan"))
    for name in ("old", "new"):
        v = res[name]
        print(f"N={n} {name}: median {statistics.median(v):.1f} GFLOP/s (range {min(v):.1f}-{max(v):.1f})")
