#!/usr/bin/env python3
"""Training steps on the GPU: uop's step replayed from a bundle beside PyTorch.

  train.py prepare BIN OUTDIR [STEPS]   here (the compiler): each example trains STEPS (200) steps
                                        on the CPU in process and exports its captured step as a
                                        CUDA step bundle (OUTDIR/mlp, OUTDIR/gpt: step.uopx, the
                                        batches as .npy, the state at the export, the CPU's losses)
  train.py run RUNNER OUTDIR            on the GPU machine (no compiler): replays each bundle with
                                        uop-runner (one CUDA graph a step, then kernel by kernel),
                                        runs the same model on the same batches from the same state
                                        in PyTorch, eager and as a CUDA graph (torch.cuda.graphs),
                                        and prints one table: ms/step and the loss after STEPS
                                        steps, against the CPU's
  train.py check OUTDIR                 here: the same comparisons with uop-runner on CPU bundles
                                        (OUTDIR/*/cpu), bit for bit (for tests)

The models are the examples': mnist_mlp (784-128-10, ReLU, AdamW lr 1e-3, batch 128) and gpt (the
seed's gpt.py at the example's defaults: 2 layers, dim 64, 4 heads, context 64, batch 16, AdamW
lr 3e-3, weight decay 0.01). A bundle is exported after the TinyJit's capture (steps 1 and 2), so
its replay is steps 3..STEPS: uop-runner --steps=STEPS-2, and PyTorch starts from the same state
(the parameters, AdamW's moments and step count) on the same batches.
"""
import csv
import math
import os
import re
import subprocess
import sys
import time

MODELS = ["mlp", "gpt"]


def prepare(bindir, outdir, steps):
    os.makedirs(outdir, exist_ok=True)
    # The MLP's batches are 400 KB each: 40 of them, cycled, keep the directory small.
    runs = {
        "mlp": [os.path.join(bindir, "mnist_mlp"), "--export-batches=40"],
        "gpt": [os.path.join(bindir, "gpt"), "--sample=0"],
    }
    for name, cmd in runs.items():
        d = os.path.join(outdir, name)
        os.makedirs(d, exist_ok=True)
        args = cmd + [f"--steps={steps}", f"--export-step={d}", "--export-target=cuda",
                      f"--out={d}", f"--every={max(1, steps // 4)}"]
        print("$", " ".join(args), flush=True)
        subprocess.run(args, check=True)


def read_csv(path):
    return [(int(r["step"]), float(r["loss"])) for r in csv.DictReader(open(path))]


def run_uop(runner, d, steps, graph=True):
    """ms/step (steps 2..) and the losses of uop-runner on the bundle."""
    csv_path = os.path.join(d, "uop-gpu.csv" if graph else "uop-gpu-nograph.csv")
    args = [runner, os.path.join(d, "step.uopx"), f"--steps={steps}",
            "--data", "0=" + os.path.join(d, "x.npy"), "--data", "1=" + os.path.join(d, "y.npy"),
            f"--csv={csv_path}", f"--every={max(1, steps // 4)}"]
    if not graph:
        args.append("--no-graph")
    out = subprocess.run(args, capture_output=True, text=True)
    sys.stdout.write(out.stdout)
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip())
    ms = float(re.search(r"; ([0-9.]+) ms/step", out.stdout).group(1))
    return ms, [l for _, l in read_csv(csv_path)]


def torch_models():
    import torch
    import torch.nn.functional as F

    def mlp(p, x, y):
        h = torch.relu(torch.addmm(p["l1.bias"], x, p["l1.weight"]))
        return F.cross_entropy(torch.addmm(p["l2.bias"], h, p["l2.weight"]), y)

    def layer_norm(x, w, b):
        return F.layer_norm(x, (x.shape[-1],), w, b, 1e-5)

    def gpt(p, x, y, layers=2, heads=4):
        B, T = x.shape
        h = F.embedding(x, p["tok.weight"]) + p["pos"][:T].unsqueeze(0)
        C = h.shape[-1]
        D = C // heads
        mask = torch.triu(torch.full((T, T), -1e9, device=x.device), 1)
        for i in range(layers):
            q = f"blocks.{i}."
            a = layer_norm(h, p[q + "ln1.weight"], p[q + "ln1.bias"])
            t = (a @ p[q + "attn.qkv.weight"] + p[q + "attn.qkv.bias"]).reshape(B, T, 3, heads, D)
            qq, kk, vv = (t[:, :, j].permute(0, 2, 1, 3) for j in range(3))
            att = torch.softmax(qq @ kk.transpose(-1, -2) * (1.0 / math.sqrt(D)) + mask, -1)
            o = (att @ vv).permute(0, 2, 1, 3).reshape(B, T, C)
            h = h + o @ p[q + "attn.proj.weight"] + p[q + "attn.proj.bias"]
            a = layer_norm(h, p[q + "ln2.weight"], p[q + "ln2.bias"]) @ p[q + "fc.weight"] + p[q + "fc.bias"]
            u = (a + a * a * a * 0.044715) * math.sqrt(2 / math.pi)
            g = a * 0.5 * (torch.tanh(torch.clamp(u, min=-10.0)) + 1)
            h = h + g @ p[q + "out.weight"] + p[q + "out.bias"]
        logits = layer_norm(h, p["ln.weight"], p["ln.bias"]) @ p["head.weight"] + p["head.bias"]
        return F.cross_entropy(logits.reshape(B * T, -1), y)

    return {"mlp": (mlp, 1e-3, 0.0), "gpt": (gpt, 3e-3, 0.01)}


def run_torch(name, d, steps, graphs):
    """ms/step (steps 2..) and losses of PyTorch on the same state and batches."""
    import numpy as np
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    fn, lr, wd = torch_models()[name]
    dev = "cuda"
    state = {f[:-4]: np.load(os.path.join(d, "state0", f))
             for f in os.listdir(os.path.join(d, "state0")) if f.endswith(".npy")}
    names = [k for k in state if not k.startswith("adamw.")]
    p = {k: torch.tensor(state[k], device=dev, requires_grad=True) for k in names}
    opt = torch.optim.AdamW([p[k] for k in names], lr=lr, betas=(0.9, 0.999), eps=1e-8,
                            weight_decay=wd, capturable=graphs, foreach=True)
    t0 = float(state["adamw.t"].reshape(-1)[0])
    for k in names:
        opt.state[p[k]] = {
            "step": torch.tensor(t0, dtype=torch.float32, device=dev if graphs else "cpu"),
            "exp_avg": torch.tensor(state["adamw.m." + k], device=dev),
            "exp_avg_sq": torch.tensor(state["adamw.v." + k], device=dev)}
    xs = torch.tensor(np.load(os.path.join(d, "x.npy")), device=dev)
    if not xs.is_floating_point():
        xs = xs.long()  # token ids
    ys = torch.tensor(np.load(os.path.join(d, "y.npy")), device=dev).long()
    nb = xs.shape[0]
    losses = []

    def step(x, y):
        opt.zero_grad(set_to_none=True)
        loss = fn(p, x, y)
        loss.backward()
        opt.step()
        return loss

    logged = torch.empty(steps, device=dev)
    if not graphs:
        logged[0] = step(xs[0], ys[0]).detach()
        torch.cuda.synchronize()
        start = time.perf_counter()
        for s in range(1, steps):
            logged[s] = step(xs[s % nb], ys[s % nb]).detach()
        torch.cuda.synchronize()
        return (time.perf_counter() - start) * 1e3 / (steps - 1), logged.tolist()
    # A CUDA graph of the whole step (forward, backward, AdamW), as torch.cuda.graphs' "whole
    # network capture": static inputs; 3 warm-up steps on a side stream, which train too; the grads
    # set to None before the capture, so each replay's backward writes them afresh.
    sx, sy = xs[0].clone(), ys[0].clone()
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for s in range(3):
            sx.copy_(xs[s % nb])
            sy.copy_(ys[s % nb])
            logged[s] = step(sx, sy).detach()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    opt.zero_grad(set_to_none=True)
    with torch.cuda.graph(graph):
        static_loss = fn(p, sx, sy)
        static_loss.backward()
        opt.step()
    torch.cuda.synchronize()
    start = None
    for s in range(3, steps):
        sx.copy_(xs[s % nb])
        sy.copy_(ys[s % nb])
        graph.replay()
        logged[s] = static_loss.detach()
        if s == 3:  # the first replay pays for uploading the graph
            torch.cuda.synchronize()
            start = time.perf_counter()
    torch.cuda.synchronize()
    return (time.perf_counter() - start) * 1e3 / max(1, steps - 4), logged.tolist()


def run(runner, outdir):
    import torch
    gpu = torch.cuda.get_device_name()
    rows = []
    for name in MODELS:
        d = os.path.join(outdir, name)
        if not os.path.exists(os.path.join(d, "step.uopx")):
            continue
        ref = read_csv(os.path.join(d, "reference.csv"))  # the CPU, in process: steps 3..N
        steps = len(ref)
        print(f"== {name}: {steps} replayed steps", flush=True)
        row = {"name": name, "steps": steps + 2, "cpu": ref[-1][1]}
        for key, fn in [("uop", lambda: run_uop(runner, d, steps, True)),
                        ("uop_nograph", lambda: run_uop(runner, d, steps, False)),
                        ("eager", lambda: run_torch(name, d, steps, False)),
                        ("graph", lambda: run_torch(name, d, steps, True))]:
            try:
                row[key] = fn()
            except Exception as e:  # one failure does not hide the other columns
                print(f"{name} {key}: error: {e}", flush=True)
                row[key] = None
        rows.append(row)

    def ms(r, k):
        return f"{r[k][0]:.3f}" if r.get(k) else "error"

    def loss(r, k):
        return f"{r[k][1][-1]:.4f}" if r.get(k) else "error"

    print(f"\nTraining steps on {gpu}: ms/step (the mean of steps 2..N of the replay; "
          f"uop: uop-runner on a CUDA step bundle, no compiler on this machine)")
    print("| model | uop, CUDA graph | uop, kernel by kernel | PyTorch eager | PyTorch CUDA graph "
          "| uop / eager | uop / CUDA graph |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        ratio = lambda k: (f"{r['uop'][0] / r[k][0]:.2f}x" if r.get("uop") and r.get(k) else "-")
        print(f"| {r['name']} | {ms(r, 'uop')} | {ms(r, 'uop_nograph')} | {ms(r, 'eager')} | "
              f"{ms(r, 'graph')} | {ratio('eager')} | {ratio('graph')} |")
    print(f"\nLoss after {rows[0]['steps'] if rows else '?'} steps (the bundle's replay is steps "
          f"3..N; the CPU: the example's TinyJit in process on the same batches)")
    print("| model | uop GPU | uop CPU | GPU vs CPU | PyTorch eager | PyTorch CUDA graph |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        rel = (f"{abs(r['uop'][1][-1] - r['cpu']) / abs(r['cpu']) * 100:.3f}%"
               if r.get("uop") else "-")
        print(f"| {r['name']} | {loss(r, 'uop')} | {r['cpu']:.4f} | {rel} | {loss(r, 'eager')} | "
              f"{loss(r, 'graph')} |")


def check(outdir, runner):
    """CPU bundles (OUTDIR/NAME/cpu): uop-runner's losses and state are the in-process TinyJit's."""
    import numpy as np
    bad = 0
    for name in MODELS:
        d = os.path.join(outdir, name)
        if not os.path.exists(os.path.join(d, "step.uopx")):
            continue
        ref = read_csv(os.path.join(d, "reference.csv"))
        steps = len(ref)
        out = os.path.join(d, "check")
        subprocess.run([runner, os.path.join(d, "step.uopx"), f"--steps={steps}",
                        "--data", "0=" + os.path.join(d, "x.npy"),
                        "--data", "1=" + os.path.join(d, "y.npy"),
                        f"--csv={out}.csv", f"--save-state={out}-state"], check=True,
                       stdout=subprocess.DEVNULL)
        got = read_csv(out + ".csv")
        same = [g[1] == r[1] for g, r in zip(got, ref)]
        print(f"{name}: {sum(same)}/{len(ref)} losses bit for bit")
        bad += len(ref) - sum(same)
        for f in sorted(os.listdir(os.path.join(d, "reference-state"))):
            a = np.load(os.path.join(d, "reference-state", f))
            b = np.load(os.path.join(out + "-state", f))
            if not np.array_equal(a, b):
                print(f"{name}: state {f} differs: max abs {np.abs(a - b).max()}")
                bad += 1
    print("OK" if bad == 0 else f"FAIL ({bad})")
    return 1 if bad else 0


def main(argv):
    if len(argv) >= 4 and argv[1] == "prepare":
        prepare(argv[2], argv[3], int(argv[4]) if len(argv) > 4 else 200)
    elif len(argv) == 4 and argv[1] == "run":
        run(argv[2], argv[3])
    elif len(argv) == 4 and argv[1] == "check":
        return check(argv[3], argv[2])
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
