#!/usr/bin/env python3
"""flash_attention's programs on the GPU beside PyTorch's scaled_dot_product_attention.

  attention.py prepare BIN OUTDIR [N,...]   here (the compiler): the example writes each way's
                                            program for the GPU with Q, K, V and numpy's output
                                            (flash_attention --target=cuda --export), and each
                                            program becomes a CUDA bundle (uop-compile
                                            --target=cuda; the fused way with --fuse-reduce)
  attention.py run RUNNER OUTDIR            on the GPU machine (no compiler): runs every bundle
                                            with uop-runner on the same Q, K, V, checks it against
                                            numpy's output, times it (uop-runner --bench=10: the
                                            median of its runs), and runs
                                            torch.nn.functional.scaled_dot_product_attention on
                                            the same inputs (f32, its default backend for them;
                                            CUDA events, the median of 50 runs) in one table

out = softmax(Q K^T / sqrt(D)) V, Q, K, V of N x D (D = 64), f32. The ways are the example's:
unfused (the Tensor code kernelized: Q K^T materialized), fused (fuse-reduce: one kernel, Q K^T
recomputed by each pass), online (FlashAttention's online softmax as a loop program, a query a
thread), blocked (8 queries a thread); on the GPU the loop programs' thread range is blocks of 64
GPU threads. The tiled way is written for a CPU's vector lanes.
"""
import glob
import os
import re
import subprocess
import sys

WAYS = ["unfused", "fused", "online", "blocked"]


def prepare(bindir, outdir, sizes):
    subprocess.run([os.path.join(bindir, "flash_attention"), "--target=cuda", "--export=" + outdir,
                    "--n=" + sizes, "--ways=" + ",".join(WAYS), "--reps=1"], check=True)
    for program in sorted(glob.glob(os.path.join(outdir, "n*", "*.mlir"))):
        way = os.path.basename(program)[:-5]
        bundle = program[:-5] + ".uopx"
        cmd = [os.path.join(bindir, "uop-compile"), program, "--target=cuda", "-o", bundle]
        if way == "fused":
            cmd.append("--fuse-reduce")
        subprocess.run(cmd, check=True)
        print("compiled", bundle)
    for junk in glob.glob(os.path.join(outdir, "n*", "numpy*")):
        os.remove(junk)


def run(runner, outdir):
    import numpy as np
    import torch
    import torch.nn.functional as F
    dev = torch.device("cuda")
    print("flash attention on %s: out = softmax(Q K^T / sqrt(D)) V, f32; uop-runner on CUDA bundles "
          "(compiled elsewhere) beside PyTorch %s" % (torch.cuda.get_device_name(0), torch.__version__))
    print("| N | way | ms | vs SDPA | max err vs numpy | check |")
    print("|---|---|---|---|---|---|")
    ok = True
    for ndir in sorted(glob.glob(os.path.join(outdir, "n*")), key=lambda p: int(p.rsplit("n", 1)[1])):
        n = int(ndir.rsplit("n", 1)[1])
        q, k, v, ref = (np.load(os.path.join(ndir, x + ".npy")) for x in ("q", "k", "v", "ref"))
        tq, tk, tv = (torch.from_numpy(a).to(dev)[None, None] for a in (q, k, v))
        out = F.scaled_dot_product_attention(tq, tk, tv)
        torch.cuda.synchronize()
        sdpa_err = float(np.abs(out[0, 0].cpu().numpy() - ref).max())
        times = []
        for _ in range(60):
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            F.scaled_dot_product_attention(tq, tk, tv)
            e.record()
            torch.cuda.synchronize()
            times.append(s.elapsed_time(e))
        sdpa = sorted(times[10:])[len(times[10:]) // 2]
        print("| %d | PyTorch SDPA | %.3f | 1.00x | %.1e | %s |" % (n, sdpa, sdpa_err,
                                                                   "OK" if sdpa_err <= 1e-4 else "MISMATCH"),
              flush=True)
        for way in WAYS:
            bundle = os.path.join(ndir, way + ".uopx")
            if not os.path.exists(bundle):
                continue
            outfile = os.path.join(ndir, way + ".out.npy")
            inputs = ["--input", "0=" + os.path.join(ndir, "q.npy"), "--input",
                      "1=" + os.path.join(ndir, "k.npy"), "--input", "2=" + os.path.join(ndir, "v.npy")]
            # A loop program writes slot 3; a shaped program returns its value.
            text = open(os.path.join(ndir, way + ".mlir")).read()
            save = ["--output", "3=" + outfile] if "uop.store" in text or "store " in text else \
                   ["--output=" + outfile]
            try:
                r = subprocess.run([runner, bundle] + inputs + save + ["--bench=10"],
                                   capture_output=True, text=True, timeout=120)
            except subprocess.TimeoutExpired:
                print("| %d | uop %s | - | - | - | TIMEOUT (120 s for 11 runs) |" % (n, way), flush=True)
                ok = False
                continue
            m = re.search(r"median ([0-9.]+) ms", r.stdout)
            if r.returncode != 0 or not m or not os.path.exists(outfile):
                print("| %d | %s | - | - | - | FAILED: %s |" % (n, way, (r.stderr or r.stdout).strip()[:200]))
                ok = False
                continue
            ms = float(m.group(1))
            err = float(np.abs(np.load(outfile).reshape(ref.shape) - ref).max())
            good = err <= 1e-4
            ok &= good
            print("| %d | uop %s | %.3f | %.2fx | %.1e | %s |" % (n, way, ms, sdpa / ms, err,
                                                               "OK" if good else "MISMATCH"), flush=True)
    print("(vs SDPA > 1: faster than PyTorch's scaled_dot_product_attention)")
    return 0 if ok else 1


def main(argv):
    if len(argv) in (4, 5) and argv[1] == "prepare":
        prepare(argv[2], argv[3], argv[4] if len(argv) == 5 else "1024,4096")
        return 0
    if len(argv) == 4 and argv[1] == "run":
        return run(argv[2], argv[3])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
