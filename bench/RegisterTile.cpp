//===- RegisterTile.cpp - register tile shapes from L1 -------------*- C++ -*-===//
//
// Register tile shapes with their operands in L1, on one core: the FMA
// rate of a gemm microkernel of R rows x V vectors of f32 accumulators (per
// k step V loads of B, R broadcasts of A, R * V FMAs), beside a loop of 12
// FMA chains with no loads (the core's FMA peak). It separates what a tile
// shape costs in the core from what it costs in memory: on this Zen 3 VM
// (best of 6 runs) 4x2 and 6x2 both reach the peak (93 and 89 GFLOP/s),
// 8x1 does not (42: a broadcast per FMA), so uop-hand-opt's 6 rows on AVX2
// pay in the gemm by loading B (from L2 there) a third less per FMA, not
// in the core. The VM's rates move by 10-20% from run to run (other guests
// share its cores): take the best of several runs.
//
//   uop-bench-register-tile [--iters=N]
//
// AVX2 + FMA on x86-64 (checked at run time); elsewhere it says so and exits.
//
//===----------------------------------------------------------------------===//

#include "Uop/IR/UopTarget.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringRef.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#if defined(__x86_64__)
#include <immintrin.h>

namespace {

constexpr int kK = 256; // k steps per call: A (R x K) and B (K x V*8) stay in L1
alignas(64) float gA[12 * kK];
alignas(64) float gB[kK * 32];
alignas(64) float gC[12 * 32];

/// C[R x 8V] += A[R x K] B[K x 8V], the tile's accumulators in registers:
/// per k, V loads of B, R broadcasts of A, R * V FMAs.
template <int R, int V> __attribute__((target("avx2,fma"))) void tile() {
  __m256 c[R][V];
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < V; ++j)
      c[i][j] = _mm256_setzero_ps();
  for (int k = 0; k < kK; ++k) {
    __m256 b[V];
    for (int j = 0; j < V; ++j)
      b[j] = _mm256_load_ps(gB + k * V * 8 + j * 8);
    for (int i = 0; i < R; ++i) {
      __m256 a = _mm256_broadcast_ss(gA + i * kK + k);
      for (int j = 0; j < V; ++j)
        c[i][j] = _mm256_fmadd_ps(a, b[j], c[i][j]);
    }
  }
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < V; ++j)
      _mm256_storeu_ps(gC + i * 32 + j * 8,
                       _mm256_add_ps(c[i][j], _mm256_loadu_ps(gC + i * 32 + j * 8)));
}

/// 12 independent FMA chains and nothing else: the FMA peak.
__attribute__((target("avx2,fma"))) double peak(long iters) {
  __m256 a[12];
  for (int i = 0; i < 12; ++i)
    a[i] = _mm256_set1_ps(0.001f * i);
  __m256 m = _mm256_set1_ps(0.9999f), s = _mm256_set1_ps(0.0001f);
  auto t0 = std::chrono::steady_clock::now();
  for (long n = 0; n < iters * kK; ++n) {
    for (int i = 0; i < 12; ++i)
      a[i] = _mm256_fmadd_ps(a[i], m, s);
    // Keep the chains in registers and the loop from being folded.
    asm volatile(""
                 : "+x"(a[0]), "+x"(a[1]), "+x"(a[2]), "+x"(a[3]), "+x"(a[4]), "+x"(a[5]),
                   "+x"(a[6]), "+x"(a[7]), "+x"(a[8]), "+x"(a[9]), "+x"(a[10]), "+x"(a[11]));
  }
  double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  float sink = 0;
  for (int i = 0; i < 12; ++i)
    sink += a[i][0];
  std::fprintf(stderr, "%s", sink == 12345.f ? " " : "");
  return 16.0 * 12 * iters * kK / sec / 1e9;
}

template <int R, int V> double rate(long iters) {
  tile<R, V>(); // warm L1
  auto t0 = std::chrono::steady_clock::now();
  for (long n = 0; n < iters; ++n)
    tile<R, V>();
  double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return 2.0 * R * V * 8 * kK * iters / sec / 1e9;
}

} // namespace

int main(int argc, char **argv) {
  long iters = 200000;
  for (int i = 1; i < argc; ++i) {
    if (!std::strncmp(argv[i], "--iters=", 8)) {
      iters = std::atol(argv[i] + 8);
    } else {
      std::fprintf(stderr, "usage: %s [--iters=N]\n", argv[0]);
      return 2;
    }
  }
  if (iters <= 0) {
    std::fprintf(stderr, "--iters must be positive\n");
    return 2;
  }
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) {
    std::printf("this CPU has no AVX2 + FMA: nothing to measure\n");
    return 0;
  }
  for (int i = 0; i < 12 * kK; ++i)
    gA[i] = 0.001f * (i % 13);
  for (int i = 0; i < kK * 32; ++i)
    gB[i] = 0.001f * (i % 7);
  mlir::MLIRContext context;
  std::string cpu = mlir::uop::describeTarget(mlir::uop::detectHostTarget(&context));
  double p = peak(iters);
  std::printf("host: %s, one core; operands in L1 (K = %d); FMA peak (12 chains, no loads) "
              "%.1f GFLOP/s\n\n",
              cpu.c_str(), kK, p);
  std::printf("| tile (rows x 8-lane vectors) | accumulators | GFLOP/s | of peak |\n");
  std::printf("|---|---|---|---|\n");
  auto row = [&](const char *name, int acc, double g) {
    std::printf("| %s | %d | %.1f | %.0f%% |\n", name, acc, g, 100 * g / p);
  };
  row("8x1", 8, rate<8, 1>(iters));
  row("4x2 (uop's AVX2 tile before)", 8, rate<4, 2>(iters));
  row("5x2", 10, rate<5, 2>(iters));
  row("4x3", 12, rate<4, 3>(iters));
  row("6x2 (uop-hand-opt's AVX2 tile)", 12, rate<6, 2>(iters));
  return 0;
}
#else
int main() {
  std::printf("uop-bench-register-tile measures AVX2 tiles on x86-64 only\n");
  return 0;
}
#endif
