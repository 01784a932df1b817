#!/usr/bin/env python3
"""fp32 GEMM on the GPU: uop (C = A @ B from movement ops, the seed's bench_gemm graph) beside cuBLAS.

  gemm.py prepare BIN OUTDIR [N...]      here (the compiler): one CUDA bundle per N (uop-compile
                                         --target=cuda, the opts gpu_opt_choice picks)
  gemm.py run RUNNER OUTDIR [REPS]       on the GPU machine (no compiler): times each bundle with
                                         uop-runner --bench (CUDA events) and cuBLAS through
                                         PyTorch (fp32, TF32 off) on the same sizes, in one run,
                                         and prints one table: TFLOP/s and the ratio
  gemm.py prepare-opts BIN OUTDIR N      here: one bundle per candidate of OPTS (a #uop.opts on
                                         @main overrides the heuristic) at size N
  gemm.py run-opts RUNNER OUTDIR [REPS]  there: times every candidate bundle, one line each
  gemm.py uir N                          prints the program (for tests)
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


# Candidates for the GPU gemm (upcast = the register tile per thread along M, N;
# local = the threads of a block along M, N).
OPTS = {
    "seed_u2x2_l16x16": "upcast = {0: 2, 1: 2}, gpu, local = {0: 16, 1: 16}",
    "u8x4_l16x16": "upcast = {0: 8, 1: 4}, gpu, local = {0: 16, 1: 16}",
    "u8x4_l8x32": "upcast = {0: 8, 1: 4}, gpu, local = {0: 8, 1: 32}",
    "u8x8_l16x8": "upcast = {0: 8, 1: 8}, gpu, local = {0: 16, 1: 8}",
    "u8x8_l8x16": "upcast = {0: 8, 1: 8}, gpu, local = {0: 8, 1: 16}",
    "u8x8_l8x8": "upcast = {0: 8, 1: 8}, gpu, local = {0: 8, 1: 8}",
    "u8x8_l4x16": "upcast = {0: 8, 1: 8}, gpu, local = {0: 4, 1: 16}",
    "u8x8_l4x32": "upcast = {0: 8, 1: 8}, gpu, local = {0: 4, 1: 32}",
    "u8x8_l8x32": "upcast = {0: 8, 1: 8}, gpu, local = {0: 8, 1: 32}",
    "u8x16_l8x8": "upcast = {0: 8, 1: 16}, gpu, local = {0: 8, 1: 8}",
    "u16x8_l8x16": "upcast = {0: 16, 1: 8}, gpu, local = {0: 8, 1: 16}",
    "u16x8_l8x16_pf4": "upcast = {0: 16, 1: 8}, gpu, local = {0: 8, 1: 16}, prefetch = 4",
    "u16x8_l8x16_pf8": "upcast = {0: 16, 1: 8}, gpu, local = {0: 8, 1: 16}, prefetch = 8",
    "u16x8_l8x16_pf16": "upcast = {0: 16, 1: 8}, gpu, local = {0: 8, 1: 16}, prefetch = 16",
    "u8x8_l8x16_pf8": "upcast = {0: 8, 1: 8}, gpu, local = {0: 8, 1: 16}, prefetch = 8",
    "u8x8_l16x16_pf8": "upcast = {0: 8, 1: 8}, gpu, local = {0: 16, 1: 16}, prefetch = 8",
    "u8x16_l16x8_pf8": "upcast = {0: 8, 1: 16}, gpu, local = {0: 16, 1: 8}, prefetch = 8",
    "u16x8_l16x8_pf8": "upcast = {0: 16, 1: 8}, gpu, local = {0: 16, 1: 8}, prefetch = 8",
    "u8x4_l16x16_pf8": "upcast = {0: 8, 1: 4}, gpu, local = {0: 16, 1: 16}, prefetch = 8",
    "u8x8_l8x16_unroll2": "upcast = {0: 8, 1: 8}, unroll = 2, gpu, local = {0: 8, 1: 16}",
    "u8x8_l8x16_unroll4": "upcast = {0: 8, 1: 8}, unroll = 4, gpu, local = {0: 8, 1: 16}",
    "u4x8_l8x16": "upcast = {0: 4, 1: 8}, gpu, local = {0: 8, 1: 16}",
    "u8x4_l8x16": "upcast = {0: 8, 1: 4}, gpu, local = {0: 8, 1: 16}",
}


def prepare_opts(bindir, outdir, n):
    os.makedirs(outdir, exist_ok=True)
    src = os.path.join(outdir, f"gemm{n}.uir")
    with open(src, "w") as f:
        f.write(gemm_uir(n))
    mlir = subprocess.run([os.path.join(bindir, "uop-translate"), "--import-uir", src],
                          capture_output=True, text=True, check=True).stdout
    for name, opts in OPTS.items():
        prog = os.path.join(outdir, f"gemm{n}_{name}.mlir")
        with open(prog, "w") as f:
            f.write(re.sub(r"(func\.func @main\(\) -> [^{]*)\{",
                           lambda m: m.group(1) + "attributes {uop.opts = #uop.opts<" + opts + ">} {",
                           mlir, count=1))
        subprocess.run([os.path.join(bindir, "uop-compile"), prog, "--target=cuda", "-o",
                        os.path.join(outdir, f"gemm{n}_{name}.uopx")], check=True)


def run_opts(runner, outdir, reps):
    for f in sorted(os.listdir(outdir)):
        if not (f.endswith(".uopx") and "_" in f):
            continue
        n = int(re.match(r"gemm(\d+)_", f).group(1))
        out = subprocess.run([runner, os.path.join(outdir, f), "--random-inputs", f"--bench={reps}"],
                             capture_output=True, text=True)
        m = re.search(r"median ([0-9.]+) ms", out.stdout)
        if out.returncode != 0 or not m:
            print(f"{f}: error: {out.stderr.strip()[:200]}")
            continue
        ms = float(m.group(1))
        print(f"{f}: median {ms:.3f} ms, {2 * n ** 3 / (ms / 1e3) / 1e12:.2f} TFLOP/s")


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
    elif argv[1] == "prepare-opts":
        prepare_opts(argv[2], argv[3], int(argv[4]))
    elif argv[1] == "run-opts":
        run_opts(argv[2], argv[3], int(argv[4]) if len(argv) > 4 else 5)
    elif argv[1] == "uir":
        sys.stdout.write(gemm_uir(int(argv[2])))
    elif argv[1] == "run":
        run(argv[2], argv[3], int(argv[4]) if len(argv) > 4 else 10)
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
