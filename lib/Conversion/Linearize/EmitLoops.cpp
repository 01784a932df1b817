//===- EmitLoops.cpp - uop-linearize's loops --------------------*- C++ -*-===//
//
// Loops: a RANGE opens a serial scf.for counting in i32 (unrolled and
// jammed into vector lanes where `#uop.opts<vector = W>` chose it), or an
// scf.parallel (a CPU thread range; on the GPU path a block or thread id,
// mapped as gpu-map-parallel-loops would map it); an END closes the
// innermost open loops. Barriers are the GPU path's.
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"

#include "Uop/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::uop;

/// The most ops in a loop body that LLVM's loop vectorizer is let at.
constexpr int64_t kMaxVectorizedBody = 2048;

/// The seed's CUDARenderer: per kind, the GPU ranges sorted by idx, highest
/// first (the fastest-varying axis), get x, y, z; a fourth is sequential,
/// which uop-to-gpu rejects (CUDA has 3 grid and 3 block dimensions).
void Emitter::assignProcessors() {
  SmallVector<std::pair<int64_t, RangeOp>> ranges;
  for (Operation *op : sched.getOrder())
    if (auto r = dyn_cast<RangeOp>(op))
      if (r.getKind() == AxisKind::Global || r.getKind() == AxisKind::Local)
        ranges.push_back({r.getIdxAttr().getInt(), r});
  llvm::stable_sort(ranges, [](const auto &a, const auto &b) { return a.first > b.first; });
  unsigned numGlobal = 0, numLocal = 0;
  for (auto &[idx, r] : ranges) {
    bool global = r.getKind() == AxisKind::Global;
    unsigned &n = global ? numGlobal : numLocal;
    unsigned base =
        static_cast<unsigned>(global ? gpu::Processor::BlockX : gpu::Processor::ThreadX);
    processors[r] = n < 3 ? static_cast<gpu::Processor>(base + n) : gpu::Processor::Sequential;
    ++n;
  }
}

LogicalResult Emitter::emitRange(Operation *op) {
  auto range = cast<RangeOp>(op);
  Location loc = op->getLoc();
  Operation *loop;
  Block *body;
  bool gpuRange =
      gpu && (range.getKind() == AxisKind::Global || range.getKind() == AxisKind::Local);
  if (gpuRange) {
    // A block or thread id: a parallel loop mapped as gpu-map-parallel-loops
    // would map it, for uop-to-gpu.
    std::optional<int64_t> c = getConstantIntValue(range.getEnd());
    Value end = c ? constIndex(*c)
                  : arith::IndexCastOp::create(b, loc, b.getIndexType(), val(op, 0)).getResult();
    auto par = scf::ParallelOp::create(b, loc, ValueRange{constIndex(0)}, ValueRange{end},
                                       ValueRange{constIndex(1)});
    MLIRContext *ctx = b.getContext();
    AffineMap id = b.getDimIdentityMap();
    par->setAttr(
        kMappingAttrName,
        b.getArrayAttr({gpu::ParallelLoopDimMappingAttr::get(ctx, processors.lookup(op), id, id)}));
    par->setAttr(kAxisAttrName, range.getKindAttr());
    loop = par;
    body = par.getBody();
    b.setInsertionPointToStart(body);
    vals[op] = arith::IndexCastOp::create(b, loc, b.getI32Type(), par.getInductionVars()[0]);
  } else if (range.getKind() == AxisKind::Thread && !gpu) {
    // scf.parallel counts in index.
    Value end = arith::IndexCastOp::create(b, loc, b.getIndexType(), val(op, 0));
    auto par = scf::ParallelOp::create(b, loc, ValueRange{constIndex(0)}, ValueRange{end},
                                       ValueRange{constIndex(1)});
    loop = par;
    body = par.getBody();
    b.setInsertionPointToStart(body);
    vals[op] = arith::IndexCastOp::create(b, loc, b.getI32Type(), par.getInductionVars()[0]);
  } else {
    // A serial loop counts in i32, like the seed's `for (int ridx = 0; ...)`.
    Value zero = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
    Value one = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 1);
    int64_t width = jam ? 0 : outerVectorize.lookup(op);
    Value end = val(op, 0);
    if (width > 1) {
      // Unrolled and jammed: jj counts groups of `width` lanes.
      end = arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                         *getConstantIntValue(range.getEnd()) / width);
    }
    auto f = scf::ForOp::create(b, loc, zero, end, one);
    // LLVM's loop vectorizer takes time quadratic in the length of a
    // dependence chain in the body (measured on the dev VM, x*a+b chains:
    // 1000 ops 0.13 s, 4000 ops 2 s, 20000 ops 73 s): a longer body is not
    // vectorized.
    if (jam || bodySize.lookup(op) > kMaxVectorizedBody) {
      // The lanes are the vector: keep LLVM's loop vectorizer off the
      // inner loop (it would reorder the lanes' reductions).
      MLIRContext *ctx = b.getContext();
      auto noVec = LLVM::LoopVectorizeAttr::get(ctx, b.getBoolAttr(true), {}, {}, {}, {}, {}, {});
      f->setAttr("llvm.loop_annotation",
                 LLVM::LoopAnnotationAttr::get(ctx, {}, noVec, {}, {}, {}, {}, {}, {}, {}, {}, {},
                                               {}, {}, {}, {}));
    }
    b.setInsertionPointToStart(f.getBody());
    if (width > 1) {
      // Lane l of iteration jj is jj * width + l.
      jam = op;
      jamWidth = width;
      Value w = arith::ConstantIntOp::create(b, loc, b.getI32Type(), width);
      Value base =
          arith::MulIOp::create(b, loc, f.getInductionVar(), w, arith::IntegerOverflowFlags::nsw);
      vals[op] = arith::AddIOp::create(b, loc, lanesOf(base), laneSteps(b.getI32Type(), 1),
                                       arith::IntegerOverflowFlags::nsw);
      affine[op] = {base, 1};
    } else {
      vals[op] = f.getInductionVar();
    }
    loop = f;
    body = f.getBody();
  }
  loops.push_back({op, loop, body});
  return success();
}

LogicalResult Emitter::emitEnd(Operation *op) {
  // The scheduler emits an END exactly when its ranges are the innermost
  // open loops.
  size_t k = std::min<size_t>(cast<EndOp>(op).getRanges().size(), loops.size());
  for (size_t i = loops.size() - k; i < loops.size(); ++i)
    if (loops[i].range == jam)
      jam = nullptr, jamWidth = 1;
  loops.resize(loops.size() - k);
  return success();
}

LogicalResult Emitter::emitBarrier(Operation *op) {
  if (!gpu)
    return op->emitOpError("uop-linearize: barriers need the GPU path (uop-to-gpu)");
  gpu::BarrierOp::create(b, op->getLoc());
  return success();
}
