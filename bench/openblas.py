"""numpy's OpenBLAS at its best core on this host, for every benchmark peer.

Debian's OpenBLAS 0.3.21 picks its kernels by CPU model and falls back to a
generic core (Prescott, SSE3) on CPUs it does not know: on an Emerald Rapids
Xeon that is 46-53 GFLOP/s against 242-305 with its AVX-512 kernels. So a
peer that runs OpenBLAS first asks this module for the fastest correct core:
the default, then each AVX-512 and AVX2 core the CPU's flags allow
(OPENBLAS_CORETYPE, read when the library loads, so each is tried in a
process of its own), each checked against float64 on a 512^3 product and
timed on a 1024^3 one; the fastest correct one wins, and the table prints
which ran.

  from openblas import best_core
  core = best_core(threads)      # {"env": {...}, "name": "SkylakeX", "gflops": ..., "tried": [...]}
  subprocess.run([...numpy child...], env=dict(os.environ, **core["env"]))

`python3 bench/openblas.py [THREADS]` prints what each candidate did.
"""
import os
import subprocess
import sys

PY = "/usr/bin/python3"

# Each candidate core and the cpuinfo flags it needs.
CANDIDATES = [
    ("SapphireRapids", {"avx512f", "avx512_bf16", "avx512_fp16"}),
    ("Cooperlake", {"avx512f", "avx512_bf16"}),
    ("SkylakeX", {"avx512f", "avx512bw", "avx512vl", "avx512dq"}),
    ("Zen", {"avx2", "fma"}),
    ("Haswell", {"avx2", "fma"}),
]

PROBE = r"""
import ctypes, sys, time
import numpy as np
threads = int(sys.argv[1])
rng = np.random.default_rng(0)
a = rng.standard_normal((512, 512), dtype=np.float32)
b = rng.standard_normal((512, 512), dtype=np.float32)
ref = a.astype(np.float64) @ b.astype(np.float64)
err = float(np.abs(a @ b - ref).max() / np.abs(ref).max())
n = 1024
a = rng.standard_normal((n, n), dtype=np.float32)
b = rng.standard_normal((n, n), dtype=np.float32)
a @ b
ts = []
for _ in range(5):
    t0 = time.perf_counter(); a @ b; ts.append(time.perf_counter() - t0)
ts.sort()
core = "?"
for l in open("/proc/self/maps"):
    if ".so" in l and "blas" in l:
        try:
            lib = ctypes.CDLL(l.split()[-1])
            lib.openblas_get_corename.restype = ctypes.c_char_p
            core = lib.openblas_get_corename().decode()
            break
        except (OSError, AttributeError):
            pass
print(2 * n**3 / ts[len(ts) // 2] / 1e9, err, core)
"""


def cpu_flags():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    return set()


def _env(threads, core):
    env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")}
    env["OPENBLAS_NUM_THREADS"] = env["OMP_NUM_THREADS"] = str(threads)
    if core:
        env["OPENBLAS_CORETYPE"] = core
    return env


_cache = {}


def best_core(threads=2):
    """The fastest correct OpenBLAS core here: {'env': the environment to run
    numpy in, 'name': the core OpenBLAS reports, 'gflops': its 1024^3 rate,
    'tried': [(asked, reported, gflops, rel_err), ...]}."""
    if threads in _cache:
        return _cache[threads]
    flags = cpu_flags()
    asked = [None] + [c for c, need in CANDIDATES if need <= flags]
    tried, best = [], None
    for core in asked:
        r = subprocess.run([PY, "-c", PROBE, str(threads)], env=_env(threads, core),
                           capture_output=True, text=True)
        if r.returncode != 0:
            tried.append((core or "default", "failed", 0.0, float("nan")))
            continue
        gflops, err, name = r.stdout.split()
        gflops, err = float(gflops), float(err)
        tried.append((core or "default", name, gflops, err))
        if err < 1e-4 and (best is None or gflops > best["gflops"]):
            best = {"env": {k: v for k, v in _env(threads, core).items()
                            if k.startswith(("OPENBLAS", "OMP"))},
                    "name": name, "gflops": gflops}
    if best is None:
        best = {"env": {k: v for k, v in _env(threads, None).items() if k.startswith(("OPENBLAS", "OMP"))},
                "name": "?", "gflops": 0.0}
    best["tried"] = tried
    _cache[threads] = best
    return best


def describe(core):
    """'SkylakeX (OPENBLAS_CORETYPE=SkylakeX; tried: default=Prescott 49, ...)'."""
    how = core["env"].get("OPENBLAS_CORETYPE", "the default")
    tried = ", ".join(f"{a}={n} {g:.0f}" for a, n, g, _ in core["tried"])
    return f"{core['name']} ({how}; tried, GFLOP/s at 1024: {tried})"


if __name__ == "__main__":
    c = best_core(int(sys.argv[1]) if len(sys.argv) > 1 else 2)
    print("OpenBLAS core:", describe(c))
