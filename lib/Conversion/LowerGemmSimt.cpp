//===- LowerGemmSimt.cpp - GEMM kernels on CUDA cores, staged -----*- C++ -*-===//
//
// uop-lower-gemm for a GEMM whose `#uop.opts` ask for shared-memory
// `stages` without a tensor-core instruction: the fp32 GEMM on CUDA cores
// as CUTLASS's and Triton's SIMT kernels write it. A block computes a
// (lm*tm) x (ln*tn) tile of C, each of its lm x ln threads a tm x tn tile
// of accumulators in registers:
//
//   * the operand tiles of each step along K (BM x BK of A, BK x BN of B,
//     both row-major as in global memory) are copied to shared memory by
//     `nvgpu.device_async_copy` (cp.async, 16 bytes = 4 floats a copy),
//     `stages` tiles in flight, exactly as the tensor-core kernel's
//     (gemm::emitStagedLoop);
//   * a thread reads its rows of A four k at a time (one 16-byte load a
//     row) and, for each k, its columns of B as tn / 4 16-byte loads: a
//     thread's columns are chunks of 4, the block's threads along N
//     interleaved chunk by chunk, so that 8 consecutive threads (one
//     phase of a 16-byte shared load) read 8 consecutive chunks of a row
//     of B, and all 8 read one row of A (a broadcast): no bank conflicts
//     without a swizzle (lm and ln as the hand strategy chooses them, ln a
//     multiple of 8);
//   * tm x tn fused multiply-adds a k; C is stored chunk by chunk, a warp's
//     stores to a row contiguous.
//
// Per 4 steps of k a thread issues tm + tn loads of 16 bytes for
// 4 * tm * tn FMAs (8 x 8: 16 loads for 256 FMAs).
//
//===----------------------------------------------------------------------===//

#include "GemmLowering.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::uop;
using namespace mlir::uop::gemm;

namespace {

/// The tiling a `#uop.opts` with `stages` and no `tc` asks for.
struct SimtPlan {
  GemmMatch g;
  int64_t lm = 1, ln = 1; // threads of a block along M, N
  int64_t tm = 1, tn = 4; // outputs of a thread along M, N
  int64_t bk = 4;         // elements along K a stage
  int64_t stages = 2;
  int64_t bm = 0, bn = 0, threads = 0, steps = 0, gridM = 0, gridN = 0;
  /// Elements of a 16-byte chunk.
  static constexpr int64_t vec = 4;
};

FailureOr<SimtPlan> planSimt(func::FuncOp kernel, OptsAttr opts) {
  auto fail = [&](const Twine &why) {
    return kernel.emitOpError("uop-lower-gemm: opts ") << opts << ": " << why;
  };
  std::optional<GemmMatch> g = matchGemm(kernel);
  if (!g)
    return kernel.emitOpError("uop-lower-gemm: opts stages on a kernel that is not a GEMM: ")
           << explainNotGemm(kernel);
  if (std::string why = explainNotStagedGemm(*g); !why.empty())
    return fail("stages without tc (the CUDA-core GEMM) takes " + why);
  SimtPlan p;
  p.g = *g;
  p.lm = lookupAxis(opts.getLocal(), 0, 1);
  p.ln = lookupAxis(opts.getLocal(), 1, 1);
  p.tm = lookupAxis(opts.getUpcast(), 0, 1);
  p.tn = lookupAxis(opts.getUpcast(), 1, 1);
  p.bk = opts.getUnroll();
  p.stages = opts.getStages();
  p.bm = p.lm * p.tm;
  p.bn = p.ln * p.tn;
  p.threads = p.lm * p.ln;
  for (size_t i = 0; i + 1 < opts.getLocal().size(); i += 2)
    if (opts.getLocal()[i] > 1 && opts.getLocal()[i + 1] > 1)
      return fail("stages takes threads on axes 0 and 1 only");
  if (p.stages < 2)
    return fail("stages must be >= 2 (shared-memory buffers)");
  if (p.tn % p.vec || p.bk % p.vec)
    return fail("the CUDA-core GEMM needs upcast of axis 1 and unroll (BK) multiples of 4 "
                "(16-byte loads)");
  if (p.threads > 1024)
    return fail("more than 1024 threads a block");
  if (g->m % p.bm || g->n % p.bn || g->k % p.bk)
    return fail(Twine("the block tile ") + Twine(p.bm) + "x" + Twine(p.bn) + "x" + Twine(p.bk) +
                " does not divide the GEMM " + Twine(g->m) + "x" + Twine(g->n) + "x" +
                Twine(g->k));
  if ((p.bm * p.bk / p.vec) % p.threads || (p.bk * p.bn / p.vec) % p.threads)
    return fail("the block's threads do not divide the 16-byte chunks of a tile");
  p.steps = g->k / p.bk;
  p.gridM = g->m / p.bm;
  p.gridN = g->n / p.bn;
  return p;
}

class SimtLowering {
public:
  SimtLowering(func::FuncOp kernel, const SimtPlan &p)
      : kernel(kernel), p(p), b(kernel.getContext()), loc(kernel.getLoc()), ix(b, loc) {}
  void run();

private:
  SmallVector<Value> issue(Value step, Value stage, Value valid);
  void compute(Value stage);
  void epilogue();

  func::FuncOp kernel;
  const SimtPlan &p;
  OpBuilder b;
  Location loc;
  Ix ix;
  Value memA, memB, memC, smA, smB, acc;
  Value tid, ty, tx, rowA0, colB0;
};

SmallVector<Value> SimtLowering::issue(Value step, Value stage, Value valid) {
  const GemmMatch &g = p.g;
  Type tokenType = nvgpu::DeviceAsyncTokenType::get(b.getContext());
  SmallVector<Value> tokens;
  Value srcElems;
  if (valid)
    srcElems = arith::SelectOp::create(b, loc, valid, ix.c(p.vec), ix.c(0));
  Value kOff = ix.mul(step, p.bk);
  auto copy = [&](Value sm, Value dst, Value mem, Value src) {
    tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(b, loc, tokenType, sm, ValueRange{dst}, mem,
                                                      ValueRange{src}, b.getIndexAttr(p.vec),
                                                      srcElems, b.getUnitAttr()));
  };
  // A: BM rows of BK; B: BK rows of BN. Chunk c of a tile is thread
  // c % threads's, so a warp's copies of a row are contiguous.
  int64_t perRowA = p.bk / p.vec;
  Value baseA = ix.mul(stage, p.bm * p.bk);
  for (int64_t i = 0, n = p.bm * perRowA / p.threads; i < n; ++i) {
    Value chunk = ix.add(tid, i * p.threads);
    Value row = ix.div(chunk, perRowA), ch = ix.rem(chunk, perRowA);
    Value src = ix.add(ix.add(ix.c(g.a.offset), ix.mul(ix.add(rowA0, row), g.a.stride[0])),
                       ix.add(kOff, ix.mul(ch, p.vec)));
    copy(smA, ix.add(baseA, ix.mul(chunk, p.vec)), memA, src);
  }
  int64_t perRowB = p.bn / p.vec;
  Value baseB = ix.mul(stage, p.bk * p.bn);
  for (int64_t i = 0, n = p.bk * perRowB / p.threads; i < n; ++i) {
    Value chunk = ix.add(tid, i * p.threads);
    Value row = ix.div(chunk, perRowB), ch = ix.rem(chunk, perRowB);
    Value src = ix.add(ix.add(ix.c(g.b.offset), ix.mul(ix.add(kOff, row), g.b.stride[0])),
                       ix.add(colB0, ix.mul(ch, p.vec)));
    copy(smB, ix.add(baseB, ix.mul(chunk, p.vec)), memB, src);
  }
  return tokens;
}

void SimtLowering::compute(Value stage) {
  auto v4 = VectorType::get({p.vec}, b.getF32Type());
  Value baseA = ix.mul(stage, p.bm * p.bk), baseB = ix.mul(stage, p.bk * p.bn);
  // The accumulators in, tm x tn FMAs a k, the accumulators out (LLVM keeps
  // them in registers across the steps).
  SmallVector<Value> c;
  for (int64_t e = 0; e < p.tm * p.tn; ++e)
    c.push_back(memref::LoadOp::create(b, loc, acc, ValueRange{ix.c(e)}));
  Value rowBase = ix.add(baseA, ix.mul(ty, p.tm * p.bk));
  for (int64_t kk = 0; kk < p.bk; kk += p.vec) {
    SmallVector<Value> a;
    for (int64_t i = 0; i < p.tm; ++i)
      a.push_back(vector::LoadOp::create(b, loc, v4, smA, ValueRange{ix.add(rowBase, i * p.bk + kk)},
                                         /*nontemporal=*/false, llvm::Align(16)));
    for (int64_t kq = 0; kq < p.vec; ++kq) {
      SmallVector<Value> bv;
      Value rowB = ix.add(baseB, (kk + kq) * p.bn);
      for (int64_t j = 0; j < p.tn / p.vec; ++j)
        bv.push_back(vector::LoadOp::create(
            b, loc, v4, smB, ValueRange{ix.add(rowB, ix.mul(ix.add(tx, j * p.ln), p.vec))},
            /*nontemporal=*/false, llvm::Align(16)));
      SmallVector<Value> bs;
      for (Value v : bv)
        for (int64_t e = 0; e < p.vec; ++e)
          bs.push_back(vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{e}));
      for (int64_t i = 0; i < p.tm; ++i) {
        Value ai = vector::ExtractOp::create(b, loc, a[i], ArrayRef<int64_t>{kq});
        for (int64_t j = 0; j < p.tn; ++j)
          c[i * p.tn + j] = math::FmaOp::create(b, loc, ai, bs[j], c[i * p.tn + j]);
      }
    }
  }
  for (int64_t e = 0; e < p.tm * p.tn; ++e)
    memref::StoreOp::create(b, loc, c[e], acc, ValueRange{ix.c(e)});
}

void SimtLowering::epilogue() {
  Type out = p.g.outType;
  auto v4 = VectorType::get({p.vec}, b.getF32Type());
  for (int64_t i = 0; i < p.tm; ++i) {
    Value row = ix.add(rowA0, ix.add(ix.mul(ty, p.tm), i));
    for (int64_t j = 0; j < p.tn / p.vec; ++j) {
      SmallVector<Value> quad;
      for (int64_t e = 0; e < p.vec; ++e)
        quad.push_back(
            memref::LoadOp::create(b, loc, acc, ValueRange{ix.c(i * p.tn + j * p.vec + e)}));
      Value v = vector::FromElementsOp::create(b, loc, v4, quad);
      if (out != b.getF32Type())
        v = arith::TruncFOp::create(b, loc, VectorType::get({p.vec}, out), v);
      Value col = ix.add(colB0, ix.mul(ix.add(tx, j * p.ln), p.vec));
      // (N is a multiple of the block's columns, so of 4: the chunks are
      // aligned as the buffer is.)
      int64_t align = p.vec * out.getIntOrFloatBitWidth() / 8;
      vector::StoreOp::create(b, loc, v, memC, ValueRange{ix.add(ix.mul(row, p.g.n), col)},
                              /*nontemporal=*/false, llvm::Align(align));
    }
  }
}

void SimtLowering::run() {
  GemmKernelFrame frame(kernel, p.g, b);
  frame.begin();
  memA = frame.memA;
  memB = frame.memB;
  memC = frame.memC;
  smA = frame.shared(p.stages * p.bm * p.bk, b.getF32Type());
  smB = frame.shared(p.stages * p.bk * p.bn, b.getF32Type());
  frame.enterBlocks(p.gridM, p.gridN, p.bm, p.bn);
  rowA0 = frame.rowA0;
  colB0 = frame.colB0;
  tid = frame.enterThreads(p.threads);
  ty = ix.div(tid, p.ln);
  tx = ix.rem(tid, p.ln);

  acc = memref::AllocaOp::create(b, loc, MemRefType::get({p.tm * p.tn}, b.getF32Type()));
  Value zero = arith::ConstantFloatOp::create(b, loc, b.getF32Type(), APFloat(0.0f));
  for (int64_t e = 0; e < p.tm * p.tn; ++e)
    memref::StoreOp::create(b, loc, zero, acc, ValueRange{ix.c(e)});

  emitStagedLoop(
      b, loc, p.steps, p.stages,
      [&](Value step, Value stage, Value valid) { return issue(step, stage, valid); },
      [&](Value stage) { compute(stage); });
  epilogue();
  frame.finish();
}

} // namespace

LogicalResult mlir::uop::gemm::lowerSimtGemm(func::FuncOp kernel, OptsAttr opts) {
  FailureOr<SimtPlan> plan = planSimt(kernel, opts);
  if (failed(plan))
    return failure();
  SimtLowering(kernel, *plan).run();
  return success();
}
