#!/usr/bin/env python3
"""C = A @ B from movement ops (the seed's examples/bench_gemm.py graph), uop beside numpy + OpenBLAS.

  /usr/bin/python3 bench/gemm.py [N ...] [--uop-run build/bin/uop-run] [--threads 2] [--reps 5]
                                 [--repeat R]

For each N (default 256 512 1024 2048) the program is A (N,1,N) times B^T
(1,N,N) broadcast to (N,N,N) and summed over k (B read down its columns),
run by `uop-run --bench` with --opt=none, --opt=hand and, where this
uop-run accepts it, --opt=search (the column appears when it does), on
--threads OpenMP threads; numpy's a @ b with OpenBLAS on as many threads.
Every uop result is checked against numpy first (relative max error).

Setup: numpy's BLAS is libblas.so.3, which Debian points at OpenBLAS once
libopenblas0-pthread is installed; the script installs it (apt-get) where it
is missing. numpy runs on the fastest correct OpenBLAS core of this CPU
(bench/openblas.py: the default, then each AVX-512/AVX2 core the CPU
allows, checked and timed), and the core that ran is printed
(openblas_get_corename through ctypes).
"""
import argparse
import ctypes
import os
import re
import shutil
import subprocess
import sys
import tempfile

from hostinfo import host_cpu, uop_target
from openblas import best_core, describe

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PY = "/usr/bin/python3"


def ensure_openblas():
    ok = subprocess.run(["dpkg", "-s", "libopenblas0-pthread"], capture_output=True).returncode == 0
    if ok:
        return
    print("installing libopenblas0-pthread (numpy's BLAS) ...", flush=True)
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    r = subprocess.run(sudo + ["apt-get", "install", "-y", "-q", "libopenblas0-pthread"], env=env,
                       capture_output=True, text=True)
    if r.returncode != 0:
        subprocess.run(sudo + ["apt-get", "update", "-q"], env=env, capture_output=True)
        r = subprocess.run(sudo + ["apt-get", "install", "-y", "-q", "libopenblas0-pthread"],
                           env=env, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("could not install libopenblas0-pthread:\n" + r.stderr[-2000:])


def gemm_mlir(n):
    """The seed's gemm_graph(N): A as (N,1,N), B^T as (1,N,N), multiplied and summed over k."""
    return f"""func.func @main() -> tensor<{n}x{n}xf32> {{
  %a = uop.buffer 0 : tensor<{n * n}xf32>
  %b = uop.buffer 1 : tensor<{n * n}xf32>
  %a3 = uop.reshape %a, [{n}, 1, {n}] : tensor<{n * n}xf32>
  %b2 = uop.reshape %b, [{n}, {n}] : tensor<{n * n}xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<{n}x{n}xf32>
  %b3 = uop.reshape %bt, [1, {n}, {n}] : tensor<{n}x{n}xf32>
  %ae = uop.expand %a3, [{n}, {n}, {n}] : tensor<{n}x1x{n}xf32>
  %be = uop.expand %b3, [{n}, {n}, {n}] : tensor<1x{n}x{n}xf32>
  %m = uop.mul %ae, %be : tensor<{n}x{n}x{n}xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<{n}x{n}x{n}xf32>
  return %c : tensor<{n}x{n}xf32>
}}
"""


# numpy's side, in its own process (OpenBLAS reads its environment at load).
NUMPY_CHILD = r"""
import ctypes, sys, time
import numpy as np
n, reps = int(sys.argv[1]), int(sys.argv[2])
rng = np.random.default_rng(0)
a = rng.standard_normal((n, n), dtype=np.float32)
b = rng.standard_normal((n, n), dtype=np.float32)
a @ b
ts = []
for _ in range(reps):
    t0 = time.perf_counter(); a @ b; ts.append(time.perf_counter() - t0)
ts.sort()
core = "?"
paths = sorted({l.split()[-1] for l in open("/proc/self/maps") if ".so" in l and ("blas" in l or "lapack" in l)},
               key=lambda p: ("openblas" not in p.rsplit("/", 1)[-1], "blas" not in p.rsplit("/", 1)[-1]))
for path in paths:
    if True:
        try:
            lib = ctypes.CDLL(path)
            lib.openblas_get_corename.restype = ctypes.c_char_p
            lib.openblas_get_num_threads.restype = ctypes.c_int
            core = "%s, %d threads (%s)" % (lib.openblas_get_corename().decode(),
                                            lib.openblas_get_num_threads(), path)
            break
        except (OSError, AttributeError):
            core = "not OpenBLAS (%s)" % path
print(ts[len(ts) // 2], core)
"""


def run_numpy(n, threads, reps):
    # OpenBLAS at the fastest correct core this CPU has (bench/openblas.py).
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENBLAS")}
    env.update(best_core(threads)["env"])
    out = subprocess.run([PY, "-c", NUMPY_CHILD, str(n), str(reps)], env=env, capture_output=True,
                         text=True, check=True).stdout.split(None, 1)
    return float(out[0]), out[1].strip()


def uop_accepts(uop_run, opt):
    """Whether uop-run's --opt lists `opt` (its help line: `--opt=<string> - none ... hand`)."""
    r = subprocess.run([uop_run, "--help"], capture_output=True, text=True)
    line = next((l for l in (r.stdout + r.stderr).splitlines() if l.strip().startswith("--opt=")), "")
    return re.search(rf"\b{opt}\b", line.split(" - ", 1)[-1]) is not None


def run_uop(uop_run, prog, opt, tmp, threads, reps, a, b):
    import numpy as np
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    c = os.path.join(tmp, "c.npy")
    subprocess.run([uop_run, prog, f"--opt={opt}", "--input", f"0={tmp}/a.npy", "--input",
                    f"1={tmp}/b.npy", "--output", c], env=env, check=True, capture_output=True)
    ref = a @ b
    err = float(np.abs(np.load(c).reshape(ref.shape) - ref).max() / np.abs(ref).max())
    r = subprocess.run([uop_run, prog, f"--opt={opt}", "--random-inputs", f"--bench={reps}"],
                       env=env, check=True, capture_output=True, text=True)
    m = re.search(r"median ([0-9.]+) ms", r.stdout + r.stderr)
    return float(m.group(1)) / 1e3, err


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("n", type=int, nargs="*", default=[256, 512, 1024, 2048])
    ap.add_argument("--uop-run", default=os.path.join(ROOT, "build", "bin", "uop-run"))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--none-max", type=int, default=1024,
                    help="largest N run with --opt=none (the scalar loops take minutes above)")
    ap.add_argument("--repeat", type=int, default=1,
                    help="measure each cell this many times, interleaved (uop, then numpy, "
                         "per round): cells print the median and the range, ratios are of "
                         "the medians (on a noisy machine one run says little)")
    args = ap.parse_args()
    ensure_openblas()
    import numpy as np
    opts = ["none", "hand"] + (["search"] if uop_accepts(args.uop_run, "search") else [])
    print(f"host: {host_cpu()}; {args.threads} threads (OMP_NUM_THREADS, OPENBLAS_NUM_THREADS)")
    print(f"uop target: {uop_target(args.uop_run)}")
    print(f"OpenBLAS core: {describe(best_core(args.threads))}")
    cols = " | ".join(f"uop {o} GFLOP/s" for o in opts)
    ratios = " | ".join(f"{o} / OpenBLAS" for o in opts if o != "none")
    print(f"| N | {cols} | numpy+OpenBLAS GFLOP/s | {ratios} | max rel. error |")
    print("|---" * (len(opts) * 2 + 2) + "|")
    core = ""
    tmp = tempfile.mkdtemp(prefix="uop-bench-gemm-")
    try:
        for n in args.n:
            flop = 2.0 * n ** 3
            rng = np.random.default_rng(1)
            a = rng.standard_normal((n, n), dtype=np.float32)
            b = rng.standard_normal((n, n), dtype=np.float32)
            np.save(f"{tmp}/a.npy", a.ravel())
            np.save(f"{tmp}/b.npy", b.ravel())
            prog = f"{tmp}/gemm{n}.mlir"
            with open(prog, "w") as f:
                f.write(gemm_mlir(n))
            runs, errs, blas_runs = {}, [], []
            for _ in range(max(1, args.repeat)):
                for o in opts:
                    if o == "none" and n > args.none_max:
                        continue
                    # Small sizes run in well under a millisecond: enough
                    # runs that the median is not one thread wake-up.
                    reps = max(args.reps, min(200, int(2e9 / n ** 3))) if o != "none" else 2
                    t, err = run_uop(args.uop_run, prog, o, tmp, args.threads, reps, a, b)
                    runs.setdefault(o, []).append(flop / t / 1e9)
                    errs.append(err)
                tb, core = run_numpy(n, args.threads, max(args.reps, 5))
                blas_runs.append(flop / tb / 1e9)
            gf = {o: float(np.median(v)) for o, v in runs.items()}
            blas = float(np.median(blas_runs))

            def cell(v):
                med = float(np.median(v))
                return f"{med:.1f}" if len(v) == 1 else f"{med:.1f} ({min(v):.0f}-{max(v):.0f})"
            row = " | ".join(cell(runs[o]) if o in runs else "-" for o in opts)
            rat = " | ".join(f"{gf[o] / blas:.2f}x" for o in opts if o != "none")
            print(f"| {n} | {row} | {cell(blas_runs)} | {rat} | {max(errs):.1e} |", flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"OpenBLAS core: {core}")


if __name__ == "__main__":
    main()
