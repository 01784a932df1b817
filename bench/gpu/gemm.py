#!/usr/bin/env python3
"""fp32 GEMM on the GPU: uop (C = A @ B from movement ops, the seed's bench_gemm graph) beside cuBLAS.

  gemm.py prepare BIN OUTDIR [N...]      here (the compiler): one CUDA bundle per N (uop-compile
                                         --target=cuda, the opts gpu_opt_choice picks)
  gemm.py run RUNNER OUTDIR [REPS]       on the GPU machine (no compiler): times each bundle with
                                         uop-runner --bench (CUDA events) and cuBLAS through
                                         PyTorch (fp32, TF32 off) on the same sizes, in one run,
                                         and prints one table: TFLOP/s and the ratio
"""
import os
import re
import subprocess
import sys

SIZES = [4096, 8192]


def gemm_uir(n):
    return "\n".join([
        f"# C = A @ B, {n}x{n} f32, from movement ops",
        f"%0 = buffer {n * n} : dtype=f32 slot=0",
        f"%1 = reshape %0, ({n}, 1, {n})",
        f"%2 = expand %1, ({n}, {n}, {n})",
        f"%3 = buffer {n * n} : dtype=f32 slot=1",
        f"%4 = reshape %3, ({n}, {n})",
        "%5 = permute %4, (1, 0)",
        f"%6 = reshape %5, (1, {n}, {n})",
        f"%7 = expand %6, ({n}, {n}, {n})",
        "%8 = mul %2, %7",
        "%9 = reduce %8 : op=add pop=1", ""])


def prepare(bindir, outdir, sizes):
    os.makedirs(outdir, exist_ok=True)
    for n in sizes:
        src = os.path.join(outdir, f"gemm{n}.uir")
        with open(src, "w") as f:
            f.write(gemm_uir(n))
        subprocess.run([os.path.join(bindir, "uop-compile"), src, "--target=cuda", "-o",
                        os.path.join(outdir, f"gemm{n}.uopx")], check=True)


def cublas_tflops(n, reps):
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    a = torch.randn(n, n, device="cuda", dtype=torch.float32)
    b = torch.randn(n, n, device="cuda", dtype=torch.float32)
    c = a @ b  # warm-up
    times = []
    for _ in range(reps):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        c = a @ b
        e.record()
        torch.cuda.synchronize()
        times.append(s.elapsed_time(e) / 1e3)
    times.sort()
    return 2 * n ** 3 / times[len(times) // 2] / 1e12, torch.cuda.get_device_name()


def run(runner, outdir, reps):
    rows = []
    gpu = "?"
    for n in SIZES:
        bundle = os.path.join(outdir, f"gemm{n}.uopx")
        if not os.path.exists(bundle):
            continue
        out = subprocess.run([runner, bundle, "--random-inputs", f"--bench={reps}"],
                             capture_output=True, text=True)
        if out.returncode != 0:
            rows.append((n, None, None, out.stderr.strip()))
            continue
        ms = float(re.search(r"median ([0-9.]+) ms", out.stdout).group(1))
        uop = 2 * n ** 3 / (ms / 1e3) / 1e12
        cublas, gpu = cublas_tflops(n, reps)
        rows.append((n, uop, cublas, ""))
    print(f"fp32 GEMM, C = A @ B, on {gpu} (uop: uop-runner --bench={reps}, CUDA events; "
          f"cuBLAS: torch.matmul, TF32 off; medians)")
    print("| N | uop TFLOP/s | cuBLAS TFLOP/s | uop / cuBLAS |")
    print("|---|---|---|---|")
    for n, uop, cublas, err in rows:
        if uop is None:
            print(f"| {n} | error: {err} | | |")
        else:
            print(f"| {n} | {uop:.2f} | {cublas:.2f} | {uop / cublas:.2f}x |")


def main(argv):
    if argv[1] == "prepare":
        prepare(argv[2], argv[3], [int(x) for x in argv[4:]] or SIZES)
    elif argv[1] == "run":
        run(argv[2], argv[3], int(argv[4]) if len(argv) > 4 else 10)
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
