//===- LowerGemm.cpp - GEMM kernels on tensor cores ---------------*- C++ -*-===//
//
// uop-lower-gemm: a GEMM-shaped kernel (mlir::uop::matchGemm) whose
// `#uop.opts` name a tensor-core instruction (`tc`) becomes the loops
// uop-linearize{gpu=true} would have made of it, written directly: a grid of
// blocks, each computing one (BM x BN) tile of C with its warps on the
// tensor cores. The seed's `wmma_gemm` writes the same kernel as CUDA C
// with nvcuda::wmma; here it is the `nvgpu` dialect, as MLIR's own NVGPU
// examples and Triton's sm_80 path write it:
//
//   * the operand tiles of each step along K (BM x BK of A, BK x BN of B)
//     are copied from global to shared memory by `nvgpu.device_async_copy`
//     (cp.async, 16 bytes a thread), `stages` tiles in flight: each step
//     issues the copies of the tile `stages - 1` steps ahead, one commit
//     group per step, and waits (`nvgpu.device_async_wait`) until the
//     next step's group has landed;
//   * each row of 16 bytes of a tile is stored at a swizzled place (the
//     16-byte chunk index XOR a function of the row), so that the 8 rows an
//     `ldmatrix` reads at one time are 8 different bank groups: no bank
//     conflicts for the copies or the loads;
//   * a warp loads its fragments of A and B with `nvgpu.ldmatrix` (B with
//     .trans where it is stored K x N) and accumulates tm x tn instruction
//     tiles with `nvgpu.mma.sync` (m16n8k16, f16 in, f32 accumulators in
//     registers: a per-thread array that LLVM promotes);
//   * the blocks are numbered in groups of 8 block rows (Triton's GROUP_M),
//     so that blocks running at once share rows of A and columns of B in L2.
//
// The fragment layouts are the PTX ISA's (`mma.m16n8k16`, "Matrix Fragments
// for mma.m16n8k16 with floating point type"); uop-emulate-mma gives the
// same ops the same meaning on the CPU, lane by lane.
//
//===----------------------------------------------------------------------===//

#include "Uop/Conversion/Passes.h"

#include "GemmLowering.h"

#include "Uop/IR/UopGemm.h"
#include "Uop/IR/UopOps.h"

#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPLOWERGEMMPASS
#include "Uop/Conversion/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;
using namespace mlir::uop::gemm;

namespace {

/// The tiling a `#uop.opts` with `tc` asks for, checked against the GEMM.
struct TcPlan {
  GemmMatch g;
  int64_t im = 16, in = 8, ik = 16; // the instruction
  int64_t wm = 1, wn = 1;           // warps of a block along M, N
  int64_t tm = 1, tn = 1;           // instruction tiles of a warp along M, N
  int64_t ku = 1;                   // instruction steps along K of a stage
  int64_t stages = 2;
  int64_t bm = 0, bn = 0, bk = 0; // the block's tile
  int64_t threads = 0, steps = 0; // threads of a block, steps along K
  int64_t gridM = 0, gridN = 0;
  /// B stored N x K (B^T row-major) rather than K x N.
  bool bTransposed = false;
  /// Elements of a 16-byte chunk.
  int64_t vec = 8;
};

FailureOr<TcPlan> planTensorCore(func::FuncOp kernel, OptsAttr opts) {
  std::optional<GemmMatch> g = matchGemm(kernel);
  if (!g)
    return kernel.emitOpError("uop-lower-gemm: opts tc on a kernel that is not a GEMM: ")
           << explainNotGemm(kernel);
  MmaAttr mma = opts.getTc();
  if (mma.getWarpgroup() || mma.getM() != 16 || mma.getN() != 8 || mma.getK() != 16 ||
      !mma.getA().isF16() || !mma.getC().isF32())
    return kernel.emitOpError("uop-lower-gemm: tensor-core instruction ")
           << Attribute(mma) << " is not supported (mma.sync m16n8k16 f16 into f32 is)";
  if (!fitsTensorCore(*g, mma)) {
    // (Types printed plainly, not quoted as a diagnostic argument.)
    std::string types;
    llvm::raw_string_ostream os(types);
    os << g->inType << " into " << g->accType;
    return kernel.emitOpError("uop-lower-gemm: the GEMM (")
           << g->m << "x" << g->n << "x" << g->k << ", " << types
           << ") does not fit " << Attribute(mma)
           << ": its operand and accumulator types, rows contiguous and 16-byte aligned, and "
              "M, N, K multiples of the instruction's";
  }
  TcPlan p;
  p.g = *g;
  p.wm = lookupAxis(opts.getLocal(), 0, 1);
  p.wn = lookupAxis(opts.getLocal(), 1, 1);
  p.tm = lookupAxis(opts.getUpcast(), 0, 1);
  p.tn = lookupAxis(opts.getUpcast(), 1, 1);
  p.ku = opts.getUnroll();
  p.stages = opts.getStages();
  p.bm = p.wm * p.tm * p.im;
  p.bn = p.wn * p.tn * p.in;
  p.bk = p.ku * p.ik;
  p.threads = 32 * p.wm * p.wn;
  p.bTransposed = !g->b.rowMajor();
  auto fail = [&](const Twine &why) {
    return kernel.emitOpError("uop-lower-gemm: opts ") << opts << ": " << why;
  };
  for (size_t i = 0; i + 1 < opts.getLocal().size(); i += 2)
    if (opts.getLocal()[i] > 1)
      return fail("tc takes warps on axes 0 and 1 only");
  if (p.stages < 2)
    return fail("tc needs stages >= 2 (shared-memory buffers)");
  if (p.tn % 2)
    return fail("tc needs an even upcast of axis 1 (ldmatrix loads two 8-column tiles of B)");
  if (p.threads > 1024)
    return fail("more than 1024 threads a block");
  if (g->m % p.bm || g->n % p.bn || g->k % p.bk)
    return fail(Twine("the block tile ") + Twine(p.bm) + "x" + Twine(p.bn) + "x" + Twine(p.bk) +
                " does not divide the GEMM " + Twine(g->m) + "x" + Twine(g->n) + "x" +
                Twine(g->k));
  if ((p.bm * p.bk / p.vec) % p.threads || (p.bk * p.bn / p.vec) % p.threads)
    return fail("the block's threads do not divide the 16-byte chunks of a tile");
  auto pow2 = [](int64_t v) { return v > 0 && (v & (v - 1)) == 0; };
  if (!pow2(p.bk / p.vec) || !pow2(p.bn / p.vec))
    return fail("the tile's rows are not a power of two of 16-byte chunks (the swizzle)");
  p.steps = g->k / p.bk;
  p.gridM = g->m / p.bm;
  p.gridN = g->n / p.bn;
  return p;
}

class TcLowering {
public:
  TcLowering(func::FuncOp kernel, const TcPlan &p)
      : kernel(kernel), p(p), b(kernel.getContext()), loc(kernel.getLoc()), ix(b, loc) {}
  LogicalResult run();

private:
  /// The copies of step `step`'s tiles into stage `stage`; with `valid` (an
  /// i1), copies of no bytes (zero fill) where it is false. Returns their
  /// tokens, for one commit group.
  SmallVector<Value> issue(Value step, Value stage, Value valid = Value());
  void compute(Value stage);
  void epilogue();
  /// The element of the tile buffers where a stage starts.
  Value stageBase(Value stage, int64_t tileElems) { return ix.mul(stage, tileElems); }

  func::FuncOp kernel;
  const TcPlan &p;
  OpBuilder b;
  Location loc;
  Ix ix;
  Value memA, memB, memC; // kernel arguments
  Value smA, smB;         // shared tiles (all stages)
  Value acc;              // per-thread accumulators: tm x tn x 4
  Value tid, lane, warpM, warpN, rowA0, colB0;
  Type tokenType;
};

SmallVector<Value> TcLowering::issue(Value step, Value stage, Value valid) {
  const GemmMatch &g = p.g;
  int64_t vec = p.vec;
  SmallVector<Value> tokens;
  Value srcElems;
  if (valid)
    srcElems = arith::SelectOp::create(b, loc, valid, ix.c(vec), ix.c(0));
  // A: BM rows of BK (row-major), one 16-byte chunk a copy.
  int64_t perRowA = p.bk / vec;
  Value baseA = stageBase(stage, p.bm * p.bk);
  Value kOff = ix.mul(step, p.bk);
  for (int64_t i = 0, n = p.bm * p.bk / vec / p.threads; i < n; ++i) {
    Value chunkId = ix.add(tid, i * p.threads);
    Value row = ix.div(chunkId, perRowA), ch = ix.rem(chunkId, perRowA);
    Value src = ix.add(ix.add(ix.c(g.a.offset), ix.mul(ix.add(rowA0, row), g.a.stride[0])),
                       ix.add(kOff, ix.mul(ch, vec)));
    Value dst = ix.add(baseA, ix.add(ix.mul(row, p.bk), ix.mul(ix.swizzle(row, ch, perRowA), vec)));
    tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(b, loc, tokenType, smA, ValueRange{dst},
                                                      memA, ValueRange{src}, b.getIndexAttr(vec),
                                                      srcElems, b.getUnitAttr()));
  }
  // B: BK rows of BN (stored K x N), or BN rows of BK (stored N x K).
  Value baseB = stageBase(stage, p.bk * p.bn);
  int64_t rowLen = p.bTransposed ? p.bk : p.bn;
  int64_t perRowB = rowLen / vec;
  for (int64_t i = 0, n = p.bk * p.bn / vec / p.threads; i < n; ++i) {
    Value chunkId = ix.add(tid, i * p.threads);
    Value row = ix.div(chunkId, perRowB), ch = ix.rem(chunkId, perRowB);
    Value src;
    if (p.bTransposed) // row n of B^T: element (k, n) at offset + n * stride[1] + k
      src = ix.add(ix.add(ix.c(g.b.offset), ix.mul(ix.add(colB0, row), g.b.stride[1])),
                   ix.add(kOff, ix.mul(ch, vec)));
    else // row k of B: element (k, n) at offset + k * stride[0] + n
      src = ix.add(ix.add(ix.c(g.b.offset), ix.mul(ix.add(kOff, row), g.b.stride[0])),
                   ix.add(colB0, ix.mul(ch, vec)));
    Value dst =
        ix.add(baseB, ix.add(ix.mul(row, rowLen), ix.mul(ix.swizzle(row, ch, perRowB), vec)));
    tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(b, loc, tokenType, smB, ValueRange{dst},
                                                      memB, ValueRange{src}, b.getIndexAttr(vec),
                                                      srcElems, b.getUnitAttr()));
  }
  return tokens;
}

void TcLowering::compute(Value stage) {
  Type f16 = b.getF16Type(), f32 = b.getF32Type();
  auto fragType = VectorType::get({4, 2}, f16);
  auto halfFragType = VectorType::get({2, 2}, f16);
  auto accType = VectorType::get({2, 2}, f32);
  Value baseA = stageBase(stage, p.bm * p.bk), baseB = stageBase(stage, p.bk * p.bn);
  int64_t perRowA = p.bk / p.vec;
  int64_t rowLenB = p.bTransposed ? p.bk : p.bn, perRowB = rowLenB / p.vec;
  Value lane16 = ix.rem(lane, 16), laneHi = ix.div(lane, 16);
  Value lane8 = ix.rem(lane, 8), laneMat = ix.rem(ix.div(lane, 8), 2);
  for (int64_t ku = 0; ku < p.ku; ++ku) {
    // Each lane's row address for ldmatrix. A (x4): lanes 0-15 rows 0-15 at
    // k 0-7, lanes 16-31 rows 0-15 at k 8-15: the four 8x8 matrices are a0
    // (rows 0-7, k 0-7), a1 (rows 8-15), a2 (k 8-15), a3: the order of the
    // A fragment's registers.
    SmallVector<Value> addrA, addrB;
    for (int64_t t = 0; t < p.tm; ++t) {
      Value row = ix.add(ix.mul(warpM, p.tm * p.im), ix.add(lane16, t * p.im));
      Value ch = ix.add(laneHi, ku * 2);
      addrA.push_back(
          ix.add(baseA, ix.add(ix.mul(row, p.bk), ix.mul(ix.swizzle(row, ch, perRowA), p.vec))));
    }
    // B (x4, two 8-column tiles): matrices b0 (k 0-7), b1 (k 8-15) of tile
    // 2j and the same of tile 2j+1. Stored K x N: lane l reads k row
    // (l % 8) + 8 * ((l / 8) % 2) at column chunk l / 16, transposed by
    // ldmatrix.trans; stored N x K: n row (l % 8) + 8 * (l / 16) at k chunk
    // (l / 8) % 2.
    for (int64_t j = 0; j < p.tn / 2; ++j) {
      Value n0 = ix.add(ix.mul(warpN, p.tn * p.in), j * 2 * p.in);
      Value row, ch;
      if (p.bTransposed) {
        row = ix.add(n0, ix.add(lane8, ix.mul(laneHi, 8)));
        ch = ix.add(laneMat, ku * 2);
      } else {
        row = ix.add(ix.c(ku * p.ik), ix.add(lane8, ix.mul(laneMat, 8)));
        ch = ix.add(ix.div(n0, p.vec), laneHi);
      }
      addrB.push_back(
          ix.add(baseB, ix.add(ix.mul(row, rowLenB), ix.mul(ix.swizzle(row, ch, perRowB), p.vec))));
    }
    // The loads, one after another (uop-emulate-mma emulates a run of them
    // between one pair of barriers).
    SmallVector<Value> fragA, fragB;
    for (Value a : addrA)
      fragA.push_back(nvgpu::LdMatrixOp::create(b, loc, fragType, smA, ValueRange{a},
                                                /*transpose=*/false, /*numTiles=*/4));
    for (Value a : addrB)
      fragB.push_back(nvgpu::LdMatrixOp::create(b, loc, fragType, smB, ValueRange{a},
                                                /*transpose=*/!p.bTransposed, /*numTiles=*/4));
    // B's two tiles of each load: rows 0-1 and 2-3 of its registers.
    auto rowsOf = [&](Value f, int64_t first, VectorType type) {
      Value v = arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
      for (int64_t r = 0; r < 2; ++r) {
        Value row = vector::ExtractOp::create(b, loc, f, ArrayRef<int64_t>{first + r});
        v = vector::InsertOp::create(b, loc, row, v, ArrayRef<int64_t>{r});
      }
      return v;
    };
    SmallVector<Value> tilesB;
    for (Value f : fragB)
      for (int64_t h = 0; h < 2; ++h)
        tilesB.push_back(rowsOf(f, 2 * h, halfFragType));
    // The accumulators, then the tm x tn instructions one after another,
    // then the accumulators back.
    SmallVector<Value> cs;
    auto rowType = VectorType::get({2}, f32);
    for (int64_t t = 0; t < p.tm * p.tn; ++t) {
      Value v = arith::ConstantOp::create(b, loc, accType, b.getZeroAttr(accType));
      for (int64_t r = 0; r < 2; ++r) {
        SmallVector<Value> pair;
        for (int64_t e = 0; e < 2; ++e)
          pair.push_back(
              memref::LoadOp::create(b, loc, acc, ValueRange{ix.c(t * 4 + r * 2 + e)}));
        Value row = vector::FromElementsOp::create(b, loc, rowType, pair);
        v = vector::InsertOp::create(b, loc, row, v, ArrayRef<int64_t>{r});
      }
      cs.push_back(v);
    }
    SmallVector<Value> ds;
    for (int64_t tm = 0; tm < p.tm; ++tm)
      for (int64_t tn = 0; tn < p.tn; ++tn)
        ds.push_back(nvgpu::MmaSyncOp::create(b, loc, fragA[tm], tilesB[tn], cs[tm * p.tn + tn],
                                              ArrayRef<int64_t>{p.im, p.in, p.ik}));
    for (auto [t, d] : llvm::enumerate(ds))
      for (int64_t e = 0; e < 4; ++e) {
        Value v = vector::ExtractOp::create(b, loc, d, ArrayRef<int64_t>{e / 2, e % 2});
        memref::StoreOp::create(b, loc, v, acc, ValueRange{ix.c((int64_t)t * 4 + e)});
      }
  }
}

void TcLowering::epilogue() {
  // Accumulator element e of a tile: row g + 8 * (e / 2), column 2 * t +
  // e % 2, where g = lane / 4 and t = lane % 4 (the C fragment).
  Type out = p.g.outType;
  Value g = ix.div(lane, 4), t2 = ix.mul(ix.rem(lane, 4), 2);
  for (int64_t tm = 0; tm < p.tm; ++tm)
    for (int64_t tn = 0; tn < p.tn; ++tn)
      for (int64_t half = 0; half < 2; ++half) {
        int64_t tile = tm * p.tn + tn;
        Value row = ix.add(ix.add(rowA0, ix.mul(warpM, p.tm * p.im)),
                           ix.add(g, tm * p.im + half * 8));
        Value col =
            ix.add(ix.add(colB0, ix.mul(warpN, p.tn * p.in)), ix.add(t2, tn * p.in));
        SmallVector<Value> pair;
        for (int64_t e = 0; e < 2; ++e)
          pair.push_back(
              memref::LoadOp::create(b, loc, acc, ValueRange{ix.c(tile * 4 + half * 2 + e)}));
        Value v = vector::FromElementsOp::create(b, loc, VectorType::get({2}, b.getF32Type()),
                                                 pair);
        if (out != b.getF32Type())
          v = arith::TruncFOp::create(b, loc, VectorType::get({2}, out), v);
        Value at = ix.add(ix.mul(row, p.g.n), col);
        vector::StoreOp::create(b, loc, v, memC, ValueRange{at});
      }
}

LogicalResult TcLowering::run() {
  tokenType = nvgpu::DeviceAsyncTokenType::get(kernel.getContext());
  GemmKernelFrame frame(kernel, p.g, b);
  frame.begin();
  memA = frame.memA;
  memB = frame.memB;
  memC = frame.memC;
  // Shared memory: the stages of A's and B's tiles.
  smA = frame.shared(p.stages * p.bm * p.bk, b.getF16Type());
  smB = frame.shared(p.stages * p.bk * p.bn, b.getF16Type());
  frame.enterBlocks(p.gridM, p.gridN, p.bm, p.bn);
  rowA0 = frame.rowA0;
  colB0 = frame.colB0;
  tid = frame.enterThreads(p.threads);

  acc = memref::AllocaOp::create(b, loc, MemRefType::get({p.tm * p.tn * 4}, b.getF32Type()));
  Value zero = arith::ConstantFloatOp::create(b, loc, b.getF32Type(), APFloat(0.0f));
  for (int64_t e = 0; e < p.tm * p.tn * 4; ++e)
    memref::StoreOp::create(b, loc, zero, acc, ValueRange{ix.c(e)});

  Value warp = ix.div(tid, 32);
  lane = ix.rem(tid, 32);
  warpM = ix.div(warp, p.wn);
  warpN = ix.rem(warp, p.wn);

  emitStagedLoop(
      b, loc, p.steps, p.stages,
      [&](Value step, Value stage, Value valid) { return issue(step, stage, valid); },
      [&](Value stage) { compute(stage); });
  epilogue();

  frame.finish();
  return success();
}

struct UopLowerGemmPass : mlir::uop::impl::UopLowerGemmPassBase<UopLowerGemmPass> {
  using Base::Base;
  void runOnOperation() override {
    func::FuncOp kernel = getOperation();
    auto opts = kernel->getAttrOfType<OptsAttr>(kOptsAttrName);
    if (!opts || (!opts.getTc() && opts.getStages() == 0) || kernel.isExternal())
      return;
    auto ret = dyn_cast<func::ReturnOp>(kernel.getBody().front().getTerminator());
    if (!ret || ret.getNumOperands() != 1 || !isa<RankedTensorType>(ret.getOperand(0).getType()))
      return; // not a shaped kernel (already lowered, or a host)
    // Stages without a tensor-core instruction: the CUDA-core GEMM.
    if (!opts.getTc()) {
      if (failed(lowerSimtGemm(kernel, opts)))
        signalPassFailure();
      return;
    }
    // Hopper's warpgroup MMA fed by TMA: LowerGemmWarpgroup.cpp.
    if (opts.getTc().getWarpgroup()) {
      if (failed(lowerWarpgroupGemm(kernel, opts)))
        signalPassFailure();
      return;
    }
    FailureOr<TcPlan> plan = planTensorCore(kernel, opts);
    if (failed(plan) || failed(TcLowering(kernel, *plan).run()))
      return signalPassFailure();
  }
};

} // namespace
