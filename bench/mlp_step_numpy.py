"""The MLP training step of bench/MlpStep.cpp in numpy: 784-128-10, ReLU,
cross entropy, the backward pass by hand, AdamW (the seed's update).

python3 bench/mlp_step_numpy.py DIR STEPS WARMUP
DIR holds the initial parameters and the data that uop-bench-mlp-step wrote
(w1 b1 w2 b2 x y .npy); step s trains on rows (s*B .. s*B+B-1) mod len(x).
Prints `ms_per_step M` and `cpu_ms_per_step C` (medians over STEPS after
WARMUP: wall-clock, process CPU time) and `loss L` (the loss of the last
step), for the C++ driver to read.
"""
import os, sys, time

# OpenBLAS reads its core at load: probe the fastest correct one first (in
# child processes), then run this script again with it (bench/openblas.py).
if "UOP_BENCH_OPENBLAS" not in os.environ:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from openblas import best_core, describe
    threads = int(os.environ.get("OMP_NUM_THREADS", os.cpu_count() or 1))
    core = best_core(threads)
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENBLAS")}
    env.update(core["env"], UOP_BENCH_OPENBLAS=describe(core))
    os.execve(sys.executable, [sys.executable] + sys.argv, env)

import numpy as np

d, steps, warmup = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
L = lambda n: np.load(f"{d}/{n}.npy")
params = [L("w1"), L("b1"), L("w2"), L("b2")]
X, Y = L("x"), L("y")
B = 128
lr, b1, b2, eps, wd = 1e-3, 0.9, 0.999, 1e-8, 0.0
m = [np.zeros_like(p) for p in params]
v = [np.zeros_like(p) for p in params]
eye = np.eye(10, dtype=np.float32)


def step(s, t):
    w1, bb1, w2, bb2 = params
    rows = (np.arange(B) + s * B) % len(X)
    x, y = X[rows], Y[rows]
    h = x @ w1 + bb1
    a = np.maximum(h, 0)
    z = a @ w2 + bb2
    z = z - z.max(-1, keepdims=True)
    e = np.exp(z)
    se = e.sum(-1, keepdims=True)
    loss = -(z - np.log(se))[np.arange(B), y].mean()
    dz = (e / se - eye[y]) * np.float32(1 / B)
    da = dz @ w2.T
    dh = da * (h > 0)
    grads = [x.T @ dh, dh.sum(0), a.T @ dz, dz.sum(0)]
    c1 = np.float32(lr / (1 - b1**t))
    c2 = np.float32(1 / (1 - b2**t))
    for i, g in enumerate(grads):
        m[i] = m[i] * np.float32(b1) + g * np.float32(1 - b1)
        v[i] = v[i] * np.float32(b2) + g * g * np.float32(1 - b2)
        params[i] = params[i] * np.float32(1 - lr * wd) - m[i] * c1 / (np.sqrt(v[i] * c2) + np.float32(eps))
    return loss


for s in range(warmup):
    step(s, s + 1)
times, cpu = [], []
for s in range(warmup, warmup + steps):
    t0, c0 = time.perf_counter(), time.process_time()
    loss = step(s, s + 1)
    times.append(time.perf_counter() - t0)
    cpu.append(time.process_time() - c0)
print(f"ms_per_step {float(np.median(times)) * 1e3:.4f}")
print(f"cpu_ms_per_step {float(np.median(cpu)) * 1e3:.4f}")
print(f"loss {float(loss):.6f}")
print(f"openblas {os.environ.get('UOP_BENCH_OPENBLAS', '?')}")
