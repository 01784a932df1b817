#!/usr/bin/env python3
"""GEMM on the GPU: uop (C = A @ B from movement ops, the seed's bench_gemm graph) beside cuBLAS and Triton.

Three programs: fp32 (f32 operands, f32 sums), f16 (f16 operands cast to f32 before the multiply,
f32 sums, f32 result: the seed's WMMA contract, which uop-hand-opt puts on the tensor cores) and
f16bt (the same with B stored N x K). f16 and f16bt are compiled for sm_90a (CHIPS), where the
tensor cores are Hopper's warpgroup MMA fed by TMA.

  gemm.py prepare BIN OUTDIR [N...]      here (the compiler): one CUDA bundle per N and dtype
                                         (uop-compile --target=cuda, the opts uop-hand-opt picks;
                                         gemmN.uopx, gemmN-f16.uopx) and each one's plan (opts)
  gemm.py run RUNNER OUTDIR [REPS]       on the GPU machine (no compiler): checks each bundle at the
                                         smallest N against torch in float64, times each with
                                         uop-runner --bench (CUDA events), cuBLAS through PyTorch
                                         (fp32: TF32 off; f16: f32 accumulation, no reduced-precision
                                         reduction) and Triton (autotuned; fp32: input_precision
                                         "ieee", no TF32), in one run, and prints one table
  gemm.py prepare-opts BIN OUTDIR N [f16 [REGEX]]  here: one bundle per candidate of OPTS
                                         (OPTS_F16 for f16, mma.sync `tc...` and wgmma `wg...`; a
                                         #uop.opts on @main overrides the heuristic) at size N, the
                                         candidates whose name REGEX matches (default all)
  gemm.py run-opts RUNNER OUTDIR [REPS]  there: times every candidate bundle, one line each
  gemm.py uir N [f16]                    prints the program (for tests)
"""
import os
import re
import subprocess
import sys

SIZES = [4096, 8192]

# The chip each dtype's bundles are compiled for: f16 for sm_90a (the H200 with Hopper's
# warpgroup MMA, which uop-hand-opt gives large f16 GEMMs); fp32 for sm_90 as before.
CHIPS = {"f32": "sm_90", "f16": "sm_90a", "f16bt": "sm_90a"}


DTYPES = ["f32", "f16", "f16bt"]


def gemm_uir(n, dtype="f32"):
    """C = A @ B (n x n); f16: the operands cast to f32 before the multiply (f32 sums and result);
    f16bt: the same with B given as B^T (stored N x K, as a linear layer's weight)."""
    if dtype == "f32":
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
    if dtype == "f16bt":
        return "\n".join([
            f"# C (f32) = A @ B^T (B stored N x K), {n}x{n} f16 operands, f32 products and sums",
            f"%0 = buffer {n * n} : dtype=f16 slot=0",
            "%1 = cast %0 : dtype=f32",
            f"%2 = reshape %1, ({n}, 1, {n})",
            f"%3 = expand %2, ({n}, {n}, {n})",
            f"%4 = buffer {n * n} : dtype=f16 slot=1",
            "%5 = cast %4 : dtype=f32",
            f"%6 = reshape %5, (1, {n}, {n})",
            f"%7 = expand %6, ({n}, {n}, {n})",
            "%8 = mul %3, %7",
            "%9 = reduce %8 : op=add pop=1", ""])
    return "\n".join([
        f"# C (f32) = A @ B, {n}x{n} f16 operands, f32 products and sums, from movement ops",
        f"%0 = buffer {n * n} : dtype=f16 slot=0",
        "%1 = cast %0 : dtype=f32",
        f"%2 = reshape %1, ({n}, 1, {n})",
        f"%3 = expand %2, ({n}, {n}, {n})",
        f"%4 = buffer {n * n} : dtype=f16 slot=1",
        "%5 = cast %4 : dtype=f32",
        f"%6 = reshape %5, ({n}, {n})",
        "%7 = permute %6, (1, 0)",
        f"%8 = reshape %7, (1, {n}, {n})",
        f"%9 = expand %8, ({n}, {n}, {n})",
        "%10 = mul %3, %9",
        "%11 = reduce %10 : op=add pop=1", ""])


def stem(n, dtype):
    return f"gemm{n}" if dtype == "f32" else f"gemm{n}-{dtype}"


def prepare(bindir, outdir, sizes):
    os.makedirs(outdir, exist_ok=True)
    for dtype in DTYPES:
        for n in sizes:
            src = os.path.join(outdir, stem(n, dtype) + ".uir")
            with open(src, "w") as f:
                f.write(gemm_uir(n, dtype))
            bundle = os.path.join(outdir, stem(n, dtype) + ".uopx")
            subprocess.run([os.path.join(bindir, "uop-compile"), src, "--target=cuda",
                            "--chip=" + CHIPS[dtype], "-o", bundle], check=True)
            # What the hand strategy chose, for the table.
            plan = subprocess.run([os.path.join(bindir, "uop-runner"), bundle, "--print-plan"],
                                  capture_output=True, text=True).stdout
            m = re.search(r"(#uop\.opts<.*>)", plan)
            with open(os.path.join(outdir, stem(n, dtype) + ".opts"), "w") as f:
                f.write(m.group(1) if m else "?")


# Candidates for the GPU gemm (upcast = the register tile per thread along M, N;
# local = the threads of a block along M, N).
def simt_opts(lm, ln, tm, tn, bk, stages):
    """The staged CUDA-core GEMM (uop-lower-gemm without tc): lm x ln threads, tm x tn outputs a
    thread, BK = bk along K a stage, `stages` shared-memory buffers filled by cp.async."""
    return (f"upcast = {{0: {tm}, 1: {tn}}}, unroll = {bk}, gpu, local = {{0: {lm}, 1: {ln}}}, "
            f"stages = {stages}")


OPTS = {
    # The register tile of before (no shared memory; each thread reads A and B through L1/L2,
    # B's rows prefetched 8 iterations ahead).
    "u16x8_l8x16_pf8": "upcast = {0: 16, 1: 8}, gpu, local = {0: 8, 1: 16}, prefetch = 8",
    # Staged through shared memory (cp.async), name: block tile x BK, stages.
    "s128x128x32_s2": simt_opts(16, 16, 8, 8, 32, 2),
    "s128x128x32_s3": simt_opts(16, 16, 8, 8, 32, 3),
    "s128x128x32_s4": simt_opts(16, 16, 8, 8, 32, 4),
    "s128x128x64_s2": simt_opts(16, 16, 8, 8, 64, 2),
    "s128x128x32_t128_s3": simt_opts(8, 16, 16, 8, 32, 3),
    "s128x64x32_s2": simt_opts(16, 16, 8, 4, 32, 2),
    "s128x64x32_s3": simt_opts(16, 16, 8, 4, 32, 3),
    "s128x64x32_s4": simt_opts(16, 16, 8, 4, 32, 4),
    "s64x128x32_s4": simt_opts(8, 16, 8, 8, 32, 4),
    "s128x256x32_s2": simt_opts(16, 32, 8, 8, 32, 2),
}


# Tensor-core candidates (f16): local = warps along M, N; upcast = m16n8k16 tiles a warp;
# unroll = instruction steps along K a stage; stages = shared-memory buffers (past 48 KiB a block
# they are dynamic shared memory, opted into up to the target's 227 KiB).
TC = "tc = #uop.mma<m = 16, n = 8, k = 16, a = f16, c = f32>"


def tc_opts(wm, wn, tm, tn, ku, stages):
    return (f"upcast = {{0: {tm}, 1: {tn}}}, unroll = {ku}, gpu, local = {{0: {wm}, 1: {wn}}}, "
            f"stages = {stages}, {TC}")


OPTS_F16 = {
    "tc128x128x32_s3": tc_opts(2, 2, 4, 8, 2, 3),   # 48 KiB, round 1's hand choice
    "tc128x128x32_s4": tc_opts(2, 2, 4, 8, 2, 4),   # 64 KiB
    "tc128x128x64_s3": tc_opts(2, 2, 4, 8, 4, 3),   # 96 KiB
    "tc128x128x64_s4": tc_opts(2, 2, 4, 8, 4, 4),   # 128 KiB
    "tc128x256x32_s3": tc_opts(2, 4, 4, 8, 2, 3),   # 8 warps, 72 KiB
    "tc128x256x32_s4": tc_opts(2, 4, 4, 8, 2, 4),   # 96 KiB
    "tc256x128x32_s4": tc_opts(4, 2, 4, 8, 2, 4),   # 96 KiB
    "tc128x256x64_s3": tc_opts(2, 4, 4, 8, 4, 3),   # 144 KiB (Triton's best config's shape)
    "tc128x256x64_s4": tc_opts(2, 4, 4, 8, 4, 4),   # 192 KiB
    "tc256x128x64_s3": tc_opts(4, 2, 4, 8, 4, 3),   # 144 KiB
    "tc128x128x32_w8_s4": tc_opts(4, 2, 2, 8, 2, 4),  # 8 warps of 32 x 64, 64 KiB
}


def wg_opts(wm, wn, tm, n, stages):
    """Hopper's warpgroup MMA (sm_90a): wm x wn warpgroups, each tm x 64 rows by n columns (the
    instruction's n), 64 of K a stage (unroll 4), TMA into `stages` buffers."""
    local = ", ".join(f"{a}: {v}" for a, v in ((0, wm), (1, wn)) if v > 1)
    up = f"upcast = {{0: {tm}}}, " if tm > 1 else ""
    return (f"{up}unroll = 4, gpu, {'local = {' + local + '}, ' if local else ''}stages = {stages}, "
            f"tc = #uop.mma<m = 64, n = {n}, k = 16, a = f16, c = f32, warpgroup = true>")


OPTS_F16_WG = {
    "wg128x256_s2": wg_opts(2, 1, 1, 256, 2),   # 2 warpgroups of 64 x 256, 96 KiB
    "wg128x256_s3": wg_opts(2, 1, 1, 256, 3),   # 144 KiB
    "wg128x256_s4": wg_opts(2, 1, 1, 256, 4),   # 192 KiB (the hand choice)
    "wg128x128_s4": wg_opts(2, 1, 1, 128, 4),   # 2 warpgroups of 64 x 128, 128 KiB
    "wg128x128_1wg_s4": wg_opts(1, 1, 2, 128, 4),   # 1 warpgroup of 128 x 128
    "wg256x128_s3": wg_opts(4, 1, 1, 128, 3),   # 4 warpgroups of 64 x 128, 144 KiB
    "wg128x256_2x2_s3": wg_opts(1, 2, 2, 128, 3),   # 2 warpgroups of 128 x 128, 144 KiB
    "wg64x256_s4": wg_opts(1, 1, 1, 256, 4),    # 1 warpgroup of 64 x 256, 160 KiB
}
OPTS_F16.update(OPTS_F16_WG)
# B^T (f16bt): wgmma with a K-major B (no upcast of axis 0), and mma.sync's hand tile.
OPTS_F16BT = {k: v for k, v in OPTS_F16.items()
              if k.startswith("tc128x128x32_s4") or (k.startswith("wg") and "upcast" not in v)}


def prepare_opts(bindir, outdir, n, dtype="f32", pattern=""):
    os.makedirs(outdir, exist_ok=True)
    src = os.path.join(outdir, stem(n, dtype) + ".uir")
    with open(src, "w") as f:
        f.write(gemm_uir(n, dtype))
    mlir = subprocess.run([os.path.join(bindir, "uop-translate"), "--import-uir", src],
                          capture_output=True, text=True, check=True).stdout
    for name, opts in {"f32": OPTS, "f16": OPTS_F16, "f16bt": OPTS_F16BT}[dtype].items():
        if pattern and not re.search(pattern, name):
            continue
        prog = os.path.join(outdir, f"{stem(n, dtype)}_{name}.mlir")
        with open(prog, "w") as f:
            f.write(re.sub(r"(func\.func @main\(\) -> [^{]*)\{",
                           lambda m: m.group(1) + "attributes {uop.opts = #uop.opts<" + opts + ">} {",
                           mlir, count=1))
        subprocess.run([os.path.join(bindir, "uop-compile"), prog, "--target=cuda",
                        "--chip=" + CHIPS[dtype], "-o",
                        os.path.join(outdir, f"{stem(n, dtype)}_{name}.uopx")], check=True)


def run_opts(runner, outdir, reps):
    """Times every candidate; each one's result on one set of random operands is checked against
    torch in float64 (||out - ref|| / ||ref||) first."""
    import numpy as np
    import torch
    refs = {}
    for f in sorted(os.listdir(outdir)):
        if not (f.endswith(".uopx") and "_" in f):
            continue
        n = int(re.match(r"gemm(\d+)", f).group(1))
        dtype = "f16bt" if "-f16bt" in f else "f16" if "-f16" in f else "f32"
        if (n, dtype) not in refs:
            rng = np.random.default_rng(7)
            a = rng.standard_normal((n, n), dtype=np.float32).astype(np.float32 if dtype == "f32" else np.float16)
            b = rng.standard_normal((n, n), dtype=np.float32).astype(a.dtype)
            np.save("/tmp/opts_a.npy", a.reshape(-1))
            np.save("/tmp/opts_b.npy", b.reshape(-1))
            bd = torch.from_numpy(b).cuda().double()
            refs[(n, dtype)] = torch.from_numpy(a).cuda().double() @ (bd.T if dtype == "f16bt" else bd)
        ref = refs[(n, dtype)]
        np.save("/tmp/opts_c.npy", np.full(n * n, np.nan, np.float32))
        out = subprocess.run([runner, os.path.join(outdir, f), "--input", "0=/tmp/opts_a.npy", "--input",
                              "1=/tmp/opts_b.npy", "--output", "/tmp/opts_c.npy"], capture_output=True, text=True)
        if out.returncode != 0:
            print(f"{f}: error: {out.stderr.strip()[:300]}", flush=True)
            continue
        c = torch.from_numpy(np.load("/tmp/opts_c.npy").astype(np.float64)).cuda().reshape(n, n)
        err = (torch.linalg.norm(c - ref) / torch.linalg.norm(ref)).item()
        out = subprocess.run([runner, os.path.join(outdir, f), "--random-inputs", f"--bench={reps}"],
                             capture_output=True, text=True)
        m = re.search(r"median ([0-9.]+) ms", out.stdout)
        if out.returncode != 0 or not m:
            print(f"{f}: error: {out.stderr.strip()[:200]}", flush=True)
            continue
        ms = float(m.group(1))
        print(f"{f}: median {ms:.3f} ms, {2 * n ** 3 / (ms / 1e3) / 1e12:.2f} TFLOP/s, rel. error {err:.1e} "
              f"{'PASS' if err < 1e-5 else 'FAIL'}", flush=True)


def median_time(fn, reps):
    import torch
    fn()  # warm-up
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        fn()
        e.record()
        torch.cuda.synchronize()
        times.append(s.elapsed_time(e) / 1e3)
    times.sort()
    return times[len(times) // 2]


def operands(n, dtype):
    import torch
    t = torch.float32 if dtype == "f32" else torch.float16  # f16bt: b is B^T (N x K)
    return torch.randn(n, n, device="cuda", dtype=t), torch.randn(n, n, device="cuda", dtype=t)


def cublas_tflops(n, dtype, reps):
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
    a, b = operands(n, dtype)
    if dtype == "f16bt":  # B stored N x K: a @ b.T (cuBLAS's transposed B)
        return 2 * n ** 3 / median_time(lambda: a @ b.T, reps) / 1e12, torch.cuda.get_device_name()
    return 2 * n ** 3 / median_time(lambda: a @ b, reps) / 1e12, torch.cuda.get_device_name()


_triton_kernel = None


def triton_matmul():
    """Triton's tutorial matmul, autotuned over the usual configs; the result in f32."""
    global _triton_kernel
    if _triton_kernel is not None:
        return _triton_kernel
    import triton
    import triton.language as tl

    configs = [triton.Config({"BM": bm, "BN": bn, "BK": bk, "G": 8}, num_stages=s, num_warps=w)
               for bm, bn, bk, s, w in [(128, 256, 64, 3, 8), (256, 128, 64, 3, 8), (128, 128, 64, 4, 4),
                                        (128, 128, 32, 4, 4), (128, 64, 32, 4, 4), (64, 128, 32, 4, 4),
                                        (128, 256, 32, 3, 8), (128, 128, 32, 3, 8)]]

    @triton.autotune(configs=configs, key=["M", "N", "K", "IEEE"])
    @triton.jit
    def kernel(a, b, c, M, N, K, IEEE: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
               BK: tl.constexpr, G: tl.constexpr):
        pid = tl.program_id(0)
        gm, gn = tl.cdiv(M, BM), tl.cdiv(N, BN)
        group = pid // (G * gn)
        first = group * G
        rows = min(gm - first, G)
        pm = first + (pid % (G * gn)) % rows
        pn = (pid % (G * gn)) // rows
        rm = pm * BM + tl.arange(0, BM)
        rn = pn * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        pa = a + rm[:, None] * K + rk[None, :]
        pb = b + rk[:, None] * N + rn[None, :]
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for _ in range(0, K, BK):
            if IEEE:
                acc = tl.dot(tl.load(pa), tl.load(pb), acc, input_precision="ieee")
            else:
                acc = tl.dot(tl.load(pa), tl.load(pb), acc)
            pa += BK
            pb += BK * N
        tl.store(c + rm[:, None] * N + rn[None, :], acc)

    def matmul(a, b):
        import torch
        n = a.shape[0]
        c = torch.empty(n, n, device="cuda", dtype=torch.float32)
        grid = lambda meta: (triton.cdiv(n, meta["BM"]) * triton.cdiv(n, meta["BN"]),)
        kernel[grid](a, b, c, n, n, n, IEEE=a.dtype == torch.float32)
        return c

    _triton_kernel = matmul
    return matmul


def triton_tflops(n, dtype, reps):
    if dtype == "f16bt":  # the tutorial kernel reads B stored K x N only
        return None
    try:
        import triton  # noqa: F401
    except ImportError:
        return None
    a, b = operands(n, dtype)
    mm = triton_matmul()
    return 2 * n ** 3 / median_time(lambda: mm(a, b), reps) / 1e12


def check(runner, bundle, n, dtype, tmp):
    """uop's result on random operands against torch in float64: ||out - ref|| / ||ref||."""
    import numpy as np
    import torch
    rng = np.random.default_rng(5)
    a = rng.standard_normal((n, n)).astype(np.float32 if dtype == "f32" else np.float16)
    b = rng.standard_normal((n, n)).astype(a.dtype)
    np.save(os.path.join(tmp, "a.npy"), a.reshape(-1))
    np.save(os.path.join(tmp, "b.npy"), b.reshape(-1))
    np.save(os.path.join(tmp, "c.npy"), np.full(n * n, np.nan, np.float32))
    out = subprocess.run([runner, bundle, "--input", "0=" + os.path.join(tmp, "a.npy"), "--input",
                          "1=" + os.path.join(tmp, "b.npy"), "--output", os.path.join(tmp, "c.npy")],
                         capture_output=True, text=True)
    if out.returncode != 0:
        return f"error: {out.stderr.strip()[:200]}"
    c = torch.from_numpy(np.load(os.path.join(tmp, "c.npy")).astype(np.float64)).cuda().reshape(n, n)
    bd = torch.from_numpy(b.astype(np.float64)).cuda()
    ref = torch.from_numpy(a.astype(np.float64)).cuda() @ (bd.T if dtype == "f16bt" else bd)
    err = (torch.linalg.norm(c - ref) / torch.linalg.norm(ref)).item()
    return f"rel. error {err:.1e} {'PASS' if err < 1e-5 else 'FAIL'}"


def run(runner, outdir, reps):
    rows = []
    gpu = "?"
    for dtype in DTYPES:
        checked = False
        for n in SIZES:
            bundle = os.path.join(outdir, stem(n, dtype) + ".uopx")
            if not os.path.exists(bundle):
                continue
            opts = open(os.path.join(outdir, stem(n, dtype) + ".opts")).read().strip() \
                if os.path.exists(os.path.join(outdir, stem(n, dtype) + ".opts")) else "?"
            if not checked:
                checked = True
                print(f"check {stem(n, dtype)}: {check(runner, bundle, n, dtype, '/tmp')}", flush=True)
            out = subprocess.run([runner, bundle, "--random-inputs", f"--bench={reps}"],
                                 capture_output=True, text=True)
            if out.returncode != 0:
                rows.append((dtype, n, None, None, None, out.stderr.strip(), opts))
                continue
            ms = float(re.search(r"median ([0-9.]+) ms", out.stdout).group(1))
            uop = 2 * n ** 3 / (ms / 1e3) / 1e12
            cublas, gpu = cublas_tflops(n, dtype, reps)
            triton = triton_tflops(n, dtype, reps)
            rows.append((dtype, n, uop, cublas, triton, "", opts))
            print(f"{dtype} {n}: uop {uop:.1f} cuBLAS {cublas:.1f} Triton {triton or 0:.1f} TFLOP/s",
                  flush=True)
    print(f"GEMM, C = A @ B, on {gpu} (uop: uop-runner --bench={reps}, CUDA events; cuBLAS: torch.matmul, "
          f"fp32 with TF32 off; Triton: autotuned, fp32 IEEE; medians)")
    print("| operands | N | uop TFLOP/s | cuBLAS TFLOP/s | Triton TFLOP/s | uop / cuBLAS | Triton / cuBLAS | uop opts (hand) |")
    print("|---|---|---|---|---|---|---|---|")
    for dtype, n, uop, cublas, triton, err, opts in rows:
        what = {"f32": "fp32", "f16": "f16, f32 sums", "f16bt": "f16 A @ B^T, f32 sums"}[dtype]
        if uop is None:
            print(f"| {what} | {n} | error: {err[:200]} | | | | | {opts} |")
        else:
            tr = f"{triton:.1f}" if triton else "-"
            trr = f"{triton / cublas:.2f}x" if triton else "-"
            print(f"| {what} | {n} | {uop:.1f} | {cublas:.1f} | {tr} | {uop / cublas:.2f}x | {trr} | `{opts}` |")


def main(argv):
    if argv[1] == "prepare":
        prepare(argv[2], argv[3], [int(x) for x in argv[4:]] or SIZES)
    elif argv[1] == "prepare-opts":
        prepare_opts(argv[2], argv[3], int(argv[4]), argv[5] if len(argv) > 5 else "f32",
                     argv[6] if len(argv) > 6 else "")
    elif argv[1] == "run-opts":
        run_opts(argv[2], argv[3], int(argv[4]) if len(argv) > 4 else 5)
    elif argv[1] == "uir":
        sys.stdout.write(gemm_uir(int(argv[2]), argv[3] if len(argv) > 3 else "f32"))
    elif argv[1] == "run":
        run(argv[2], argv[3], int(argv[4]) if len(argv) > 4 else 10)
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
