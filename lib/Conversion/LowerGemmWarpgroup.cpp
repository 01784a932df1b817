//===- LowerGemmWarpgroup.cpp - GEMM kernels on Hopper's wgmma ----*- C++ -*-===//
//
// uop-lower-gemm for a `tc` with `warpgroup` (sm_90a): each block computes
// a BM x BN tile of C with Hopper's warpgroup MMA (`nvgpu.warpgroup.mma`,
// PTX wgmma.mma_async m64nNk16, f16 operands read from shared memory through
// matrix descriptors, f32 accumulators in registers), its operand tiles
// brought into shared memory by the tensor memory accelerator
// (`nvgpu.tma.async.load`, cp.async.bulk.tensor) as MLIR's own sm_90 tests
// and Triton's Hopper path do:
//
//   * a step along K is 64 columns of A (BM x 64: one 128-byte row a row,
//     the TMA's 128-byte swizzle) and 64 rows of B (64 x BN, stored K x N:
//     BN / 64 boxes of 64 x 64; stored N x K, B^T: BN / n boxes of n rows
//     of 64, as A's); `stages` steps are in shared memory at once, each stage with an mbarrier that its loads complete
//     (`mbarrier.arrive.expect_tx` with the stage's bytes, by thread 0,
//     which issues every load);
//   * a step waits on its stage's mbarrier (the parity of its round), then
//     each warpgroup issues its wgmmas (tm x 64 rows of A, n columns of B,
//     4 instruction steps of K: B read MN-major, wgmma's transposed B) and
//     waits until at most this step's group is in flight; B^T (K-major,
//     which nvgpu.warpgroup.mma does not step along K) is one
//     nvgpu.warpgroup.mma a 16-wide instruction step, each from descriptors
//     32 bytes further along the swizzled rows, the last waiting until only
//     this step's 4 groups are in flight; after a block
//     barrier every warpgroup is done with the previous step's stage, and
//     thread 0 refills it with the step `stages` ahead;
//   * the accumulators go to C with `nvgpu.warpgroup.mma.store` (f32).
//
// The tensor maps (CUtensorMap, which the driver encodes on the host) are
// kernel parameters the runtime adds after the launch's buffers. Here each
// is a placeholder, a `builtin.unrealized_conversion_cast` of no operands
// tagged `uop.tma = i`, and the kernel says what the runtime must encode in
// its `uop.tma` attribute (one dictionary a map: the buffer parameter, its
// element type and offset, the dims and row stride it covers, the box, the
// swizzle); uop-tensor-maps-to-nvvm makes the placeholders parameters after
// convert-gpu-to-nvvm, and the plan carries the attribute to the runtime
// (docs/GPU.md, "Warpgroup MMA").
//
//===----------------------------------------------------------------------===//

#include "GemmLowering.h"

#include "Uop/IR/UopGemm.h"
#include "Uop/IR/UopOps.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::uop;
using namespace mlir::uop::gemm;

namespace {

/// f16 elements of one 128-byte swizzled row: the K of a stage, and the
/// columns of a box of B.
constexpr int64_t kRowElems = 64;
constexpr int64_t kSwizzleBytes = 128;
/// Bytes of one 64 x 64 box of B.
constexpr int64_t kBoxBytes = kRowElems * kRowElems * 2;

/// The tiling a warpgroup `tc` asks for, checked against the GEMM.
struct WgPlan {
  GemmMatch g;
  int64_t n = 0;          ///< the instruction's N: a warpgroup's columns
  int64_t wm = 1, wn = 1; ///< warpgroups of a block along M, N
  int64_t tm = 1;         ///< 64-row instruction tiles of a warpgroup along M
  int64_t stages = 2;
  int64_t bm = 0, bn = 0, bk = kRowElems;
  int64_t threads = 0, steps = 0, gridM = 0, gridN = 0;
  int64_t aBytes = 0, bBytes = 0; ///< a stage's tiles
  /// B stored N x K (B^T row-major: K-major) rather than K x N.
  bool bTransposed = false;
};

FailureOr<WgPlan> planWarpgroup(func::FuncOp kernel, OptsAttr opts) {
  std::optional<GemmMatch> g = matchGemm(kernel);
  if (!g)
    return kernel.emitOpError("uop-lower-gemm: opts tc on a kernel that is not a GEMM: ")
           << explainNotGemm(kernel);
  MmaAttr mma = opts.getTc();
  if (mma.getM() != 64 || mma.getK() != 16 || mma.getN() % kRowElems || mma.getN() > 256 ||
      !mma.getA().isF16() || !mma.getC().isF32())
    return kernel.emitOpError("uop-lower-gemm: warpgroup instruction ")
           << Attribute(mma)
           << " is not supported (wgmma m64nNk16, f16 into f32, N a multiple of 64 up to 256, is)";
  if (!fitsWarpgroupMma(*g, mma) || !g->outType.isF32()) {
    std::string types;
    llvm::raw_string_ostream os(types);
    os << g->inType << " into " << g->accType << ", C " << g->outType;
    return kernel.emitOpError("uop-lower-gemm: the GEMM (")
           << g->m << "x" << g->n << "x" << g->k << ", " << types << ") does not fit "
           << Attribute(mma)
           << ": f16 operands summed and stored in f32, A row-major and B row-major (K x N or "
              "N x K), rows 16-byte aligned, M, N, K multiples of the instruction's";
  }
  WgPlan p;
  p.g = *g;
  p.n = mma.getN();
  p.wm = lookupAxis(opts.getLocal(), 0, 1);
  p.wn = lookupAxis(opts.getLocal(), 1, 1);
  p.tm = lookupAxis(opts.getUpcast(), 0, 1);
  p.stages = opts.getStages();
  auto fail = [&](const Twine &why) {
    return kernel.emitOpError("uop-lower-gemm: opts ") << opts << ": " << why;
  };
  for (size_t i = 0; i + 1 < opts.getLocal().size(); i += 2)
    if (opts.getLocal()[i] > 1)
      return fail("a warpgroup tc takes warpgroups on axes 0 and 1 only");
  for (size_t i = 0; i + 1 < opts.getUpcast().size(); i += 2)
    if (opts.getUpcast()[i] != 0 && opts.getUpcast()[i + 1] > 1)
      return fail("a warpgroup tc takes instruction tiles on axis 0 only (the instruction's n "
                  "is a warpgroup's columns)");
  if (opts.getUnroll() != kRowElems / mma.getK())
    return fail("a warpgroup tc needs unroll = 4 (a stage is 64 f16 of K: one 128-byte "
                "swizzled row)");
  if (p.stages < 2 || p.stages > 8)
    return fail("a warpgroup tc needs 2 to 8 stages");
  p.bm = p.wm * p.tm * 64;
  p.bn = p.wn * p.n;
  p.threads = 128 * p.wm * p.wn;
  p.bTransposed = !g->b.rowMajor();
  if (p.bTransposed && p.tm != 1)
    return fail("a warpgroup tc with B^T (N x K) takes one 64-row instruction tile a warpgroup "
                "(no upcast of axis 0)");
  if (p.threads > 1024)
    return fail("more than 1024 threads a block");
  if (p.bm > 256)
    return fail("a block tile of more than 256 rows (a TMA box is at most 256)");
  if (p.tm * p.n > 256)
    return fail("more than 128 accumulators a thread (upcast of axis 0 x n > 256)");
  if (g->m % p.bm || g->n % p.bn || g->k % p.bk)
    return fail(Twine("the block tile ") + Twine(p.bm) + "x" + Twine(p.bn) + "x" + Twine(p.bk) +
                " does not divide the GEMM " + Twine(g->m) + "x" + Twine(g->n) + "x" +
                Twine(g->k));
  p.steps = g->k / p.bk;
  p.gridM = g->m / p.bm;
  p.gridN = g->n / p.bn;
  p.aBytes = p.bm * kRowElems * 2;
  p.bBytes = kRowElems * p.bn * 2;
  return p;
}

class WgLowering {
public:
  WgLowering(func::FuncOp kernel, const WgPlan &p)
      : kernel(kernel), p(p), b(kernel.getContext()), loc(kernel.getLoc()), ix(b, loc) {}
  LogicalResult run();

private:
  /// A 2-D f16 view of the shared buffer at `bytes`.
  Value view(Value bytes, int64_t rows, int64_t cols) {
    auto type = MemRefType::get({rows, cols}, b.getF16Type(), MemRefLayoutAttrInterface(),
                                workgroup);
    return memref::ViewOp::create(b, loc, type, smem, bytes, ValueRange()).getResult();
  }
  /// The tensor-map parameter `index`, of `boxRows` x 64 f16.
  Value tensorMap(int64_t index, int64_t boxRows);
  /// What the runtime encodes for a tensor map of `o` (K x ... rows).
  DictionaryAttr tensorMapSpec(const GemmOperand &o, int64_t rowStride, int64_t rows,
                               int64_t cols, int64_t boxRows);
  /// Thread 0's loads of step `step` into stage `stage`.
  void issue(Value step, Value stage);

  func::FuncOp kernel;
  const WgPlan &p;
  OpBuilder b;
  Location loc;
  Ix ix;
  Attribute workgroup;
  Value smem, bars, tmA, tmB, rowA0, colB0;
};

Value WgLowering::tensorMap(int64_t index, int64_t boxRows) {
  auto box = MemRefType::get({boxRows, kRowElems}, b.getF16Type(), MemRefLayoutAttrInterface(),
                             workgroup);
  auto type = nvgpu::TensorMapDescriptorType::get(
      b.getContext(), box, nvgpu::TensorMapSwizzleKind::SWIZZLE_128B,
      nvgpu::TensorMapL2PromoKind::L2PROMO_256B, nvgpu::TensorMapOOBKind::OOB_ZERO,
      nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
  auto cast = UnrealizedConversionCastOp::create(b, loc, TypeRange{type}, ValueRange());
  cast->setAttr(kTensorMapAttrName, b.getI64IntegerAttr(index));
  return cast.getResult(0);
}

DictionaryAttr WgLowering::tensorMapSpec(const GemmOperand &o, int64_t rowStride, int64_t rows,
                                         int64_t cols, int64_t boxRows) {
  // The kernel parameter of the operand's buffer: its slot's place in slot
  // order (GemmKernelFrame's signature).
  SmallVector<int64_t> slots = {p.g.a.slot, p.g.b.slot, p.g.outSlot};
  llvm::sort(slots);
  int64_t param = llvm::find(slots, o.slot) - slots.begin();
  // Dims and the box innermost first, as cuTensorMapEncodeTiled takes them.
  TensorMapSpec spec;
  spec.param = param;
  spec.type = o.dtype;
  spec.offset = o.offset;
  spec.dims = {cols, rows};
  spec.stride = rowStride * 2;
  spec.box = {kRowElems, boxRows};
  spec.swizzle = kSwizzleBytes;
  return spec.toAttr(b);
}

void WgLowering::issue(Value step, Value stage) {
  Value base = ix.mul(stage, p.aBytes + p.bBytes);
  nvgpu::MBarrierArriveExpectTxOp::create(b, loc, bars, ix.c(p.aBytes + p.bBytes), stage,
                                          Value());
  Value k0 = ix.mul(step, p.bk);
  // Coordinates innermost first: A at (k, row), B at (column, k).
  nvgpu::TmaAsyncLoadOp::create(b, loc, view(base, p.bm, kRowElems), bars, tmA,
                                ValueRange{k0, rowA0}, stage, Value(), Value());
  if (p.bTransposed) {
    // B^T: n rows of 64 of K a box (as A's), at (k, column).
    for (int64_t j = 0; j < p.bn / p.n; ++j)
      nvgpu::TmaAsyncLoadOp::create(
          b, loc, view(ix.add(base, p.aBytes + j * p.n * kSwizzleBytes), p.n, kRowElems), bars,
          tmB, ValueRange{k0, ix.add(colB0, j * p.n)}, stage, Value(), Value());
    return;
  }
  for (int64_t j = 0; j < p.bn / kRowElems; ++j)
    nvgpu::TmaAsyncLoadOp::create(b, loc,
                                  view(ix.add(base, p.aBytes + j * kBoxBytes), kRowElems,
                                       kRowElems),
                                  bars, tmB, ValueRange{ix.add(colB0, j * kRowElems), k0}, stage,
                                  Value(), Value());
}

LogicalResult WgLowering::run() {
  MLIRContext *ctx = kernel.getContext();
  workgroup = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  GemmKernelFrame frame(kernel, p.g, b);
  frame.begin();
  Value memC = frame.memC;
  // One buffer of bytes for every stage's tiles, 1024-byte aligned (the
  // period of the 128-byte swizzle, which the matrix descriptors assume).
  int64_t stageBytes = p.aBytes + p.bBytes;
  smem = memref::AllocaOp::create(
             b, loc,
             MemRefType::get({p.stages * stageBytes}, b.getI8Type(), MemRefLayoutAttrInterface(),
                             workgroup),
             b.getI64IntegerAttr(1024))
             .getResult();
  frame.enterBlocks(p.gridM, p.gridN, p.bm, p.bn);
  rowA0 = frame.rowA0;
  colB0 = frame.colB0;
  Value tid = frame.enterThreads(p.threads);

  tmA = tensorMap(0, p.bm);
  tmB = tensorMap(1, p.bTransposed ? p.n : kRowElems);
  auto barsType = nvgpu::MBarrierGroupType::get(ctx, workgroup, p.stages);
  bars = nvgpu::MBarrierCreateOp::create(b, loc, barsType);
  Value leader = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, ix.c(0));
  // Thread 0 sets up the barriers (one arrival each: its own, with the
  // stage's bytes) and prefetches the tensor maps; a barrier publishes them.
  {
    auto init = scf::IfOp::create(b, loc, leader, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(init.thenBlock()->getTerminator());
    for (int64_t s = 0; s < p.stages; ++s)
      nvgpu::MBarrierInitOp::create(b, loc, bars, ix.c(1), ix.c(s), Value());
    nvgpu::TmaPrefetchOp::create(b, loc, tmA, Value());
    nvgpu::TmaPrefetchOp::create(b, loc, tmB, Value());
  }
  gpu::BarrierOp::create(b, loc);
  // Prologue: the first `stages` steps.
  {
    auto pro = scf::IfOp::create(b, loc, leader, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(pro.thenBlock()->getTerminator());
    for (int64_t s = 0; s < std::min(p.stages, p.steps); ++s)
      issue(ix.c(s), ix.c(s));
  }

  Value wg = ix.div(tid, 128);
  Value wgM = ix.div(wg, p.wn), wgN = ix.rem(wg, p.wn);
  int64_t rows = p.tm * 64;
  auto accType = nvgpu::WarpgroupAccumulatorType::get(
      ctx, VectorType::get({rows, p.n}, b.getF32Type()));
  auto descAType = nvgpu::WarpgroupMatrixDescriptorType::get(
      ctx, MemRefType::get({rows, kRowElems}, b.getF16Type(), MemRefLayoutAttrInterface(),
                           workgroup));
  auto descBType = nvgpu::WarpgroupMatrixDescriptorType::get(
      ctx, MemRefType::get({kRowElems, p.n}, b.getF16Type(), MemRefLayoutAttrInterface(),
                           workgroup));
  Value acc0 = nvgpu::WarpgroupMmaInitAccumulatorOp::create(b, loc, accType);
  auto loop = scf::ForOp::create(b, loc, ix.c(0), ix.c(p.steps), ix.c(1), ValueRange{acc0});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value step = loop.getInductionVar();
    Value acc = loop.getRegionIterArgs()[0];
    Value stage = ix.rem(step, p.stages);
    Value round = ix.rem(ix.div(step, p.stages), 2);
    Value parity = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, round, ix.c(0));
    nvgpu::MBarrierTryWaitParityOp::create(b, loc, bars, parity, ix.c(10000000), stage);
    Value base = ix.mul(stage, stageBytes);
    // The warpgroup's rows of A (64-row tiles: 8 KiB each) and columns of B
    // (64-column boxes: 8 KiB each; B^T: n rows of 128 bytes).
    Value rowsA = ix.add(base, ix.mul(wgM, rows * kSwizzleBytes));
    Value next;
    if (!p.bTransposed) {
      Value tileA = view(rowsA, rows, kRowElems);
      Value tileB = view(ix.add(ix.add(base, p.aBytes), ix.mul(wgN, (p.n / kRowElems) * kBoxBytes)),
                         kRowElems, p.n);
      Value descA = nvgpu::WarpgroupGenerateDescriptorOp::create(b, loc, descAType, tileA, tmA);
      Value descB = nvgpu::WarpgroupGenerateDescriptorOp::create(b, loc, descBType, tileB, tmB);
      // B is stored K x N: wgmma's transposed (MN-major) B. At most this
      // step's group stays in flight.
      next = nvgpu::WarpgroupMmaOp::create(b, loc, accType, descA, descB, b.getI64IntegerAttr(1),
                                           UnitAttr(), b.getUnitAttr(), acc);
    } else {
      // B^T, K-major as A: one op a 16-wide step, its descriptors 32 bytes
      // further along the swizzled rows (what nvgpu.warpgroup.mma does for A
      // within one op, and not for a K-major B). The last op waits until
      // only this step's 4 groups are in flight; the others do not wait.
      Value rowsB = ix.add(ix.add(base, p.aBytes), ix.mul(wgN, p.n * kSwizzleBytes));
      auto kType = [&](int64_t r, int64_t c) {
        return nvgpu::WarpgroupMatrixDescriptorType::get(
            ctx, MemRefType::get({r, c}, b.getF16Type(), MemRefLayoutAttrInterface(), workgroup));
      };
      int64_t ik = 16, steps = kRowElems / ik;
      next = acc;
      for (int64_t kk = 0; kk < steps; ++kk) {
        Value tileA = view(ix.add(rowsA, kk * ik * 2), rows, ik);
        Value tileB = view(ix.add(rowsB, kk * ik * 2), ik, p.n);
        Value descA = nvgpu::WarpgroupGenerateDescriptorOp::create(b, loc, kType(rows, ik), tileA,
                                                                   tmA);
        Value descB = nvgpu::WarpgroupGenerateDescriptorOp::create(b, loc, kType(ik, p.n), tileB,
                                                                   tmB);
        int64_t wait = kk + 1 == steps ? steps : 2 * steps - 1;
        next = nvgpu::WarpgroupMmaOp::create(b, loc, accType, descA, descB,
                                             b.getI64IntegerAttr(wait), UnitAttr(), UnitAttr(),
                                             next);
      }
    }
    // Every warpgroup is past the previous step's stage: refill it with the
    // step `stages` after that one.
    gpu::BarrierOp::create(b, loc);
    Value refill = ix.add(step, p.stages - 1);
    Value some = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, step, ix.c(1));
    Value more = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, refill, ix.c(p.steps));
    Value go = arith::AndIOp::create(
        b, loc, leader, arith::AndIOp::create(b, loc, some, more).getResult());
    auto reload = scf::IfOp::create(b, loc, go, /*withElseRegion=*/false);
    {
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPoint(reload.thenBlock()->getTerminator());
      issue(refill, ix.rem(refill, p.stages));
    }
    scf::YieldOp::create(b, loc, next);
  }
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, b.getI64IntegerAttr(0));
  // The warpgroup's tile of C: rows x n at (row, column), rows N apart.
  // nvgpu.warpgroup.mma.store puts a thread's rows at 16 x its warp index in
  // the block (thread id / 32), not in its warpgroup: a later warpgroup's
  // rows land 64 rows further down a warpgroup, so its view starts that
  // much higher (the addresses stored to are the tile's).
  Value row = ix.add(rowA0, ix.mul(wgM, rows));
  Value col = ix.add(colB0, ix.mul(wgN, p.n));
  Value at = ix.add(ix.add(ix.mul(row, p.g.n), col), ix.mul(wg, -64 * p.g.n));
  auto cType = MemRefType::get({rows, p.n}, b.getF32Type(),
                               StridedLayoutAttr::get(ctx, ShapedType::kDynamic, {p.g.n, 1}));
  Value tileC = memref::ReinterpretCastOp::create(
      b, loc, cType, memC, OpFoldResult(at),
      ArrayRef<OpFoldResult>{b.getIndexAttr(rows), b.getIndexAttr(p.n)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(p.g.n), b.getIndexAttr(1)});
  nvgpu::WarpgroupMmaStoreOp::create(b, loc, loop.getResult(0), tileC);

  frame.finish();
  // What the runtime encodes: A's rows of K (box 64 x BM), B's rows of N
  // (boxes of 64 x 64), or B^T's rows of K (boxes of 64 x n).
  kernel->setAttr(kTensorMapAttrName,
                  b.getArrayAttr({tensorMapSpec(p.g.a, p.g.a.stride[0], p.g.m, p.g.k, p.bm),
                                  p.bTransposed
                                      ? tensorMapSpec(p.g.b, p.g.b.stride[1], p.g.n, p.g.k, p.n)
                                      : tensorMapSpec(p.g.b, p.g.b.stride[0], p.g.k, p.g.n,
                                                      kRowElems)}));
  return success();
}

} // namespace

LogicalResult mlir::uop::gemm::lowerWarpgroupGemm(func::FuncOp kernel, OptsAttr opts) {
  FailureOr<WgPlan> plan = planWarpgroup(kernel, opts);
  if (failed(plan))
    return failure();
  return WgLowering(kernel, *plan).run();
}
