//===- EmulateMma.cpp - nvgpu warp-level ops lane by lane ---------*- C++ -*-===//
//
// uop-emulate-mma: the warp-collective ops of uop-lower-gemm (ldmatrix,
// mma.sync) and its asynchronous copies as per-thread code for the CPU. A
// collective op gives each lane values that other lanes hold or name; on
// the CPU, where uop-emulate-gpu runs a block's threads one after another
// between barriers, each thread writes what it contributes to workgroup
// memory, a barrier passes, and each thread reads what the PTX ISA says its
// lane receives:
//
//   %f = nvgpu.ldmatrix %sm[%i] {numTiles = 4}   ->  addr[tid] = %i
//                                                    gpu.barrier
//                                                    f[r][h] = sm[addr[lane of row] + ...]
//                                                    gpu.barrier
//
// so a kernel that puts an element in the wrong lane computes the wrong
// result here as on the GPU. Adjacent ops of one kind share their barriers
// (their scratch has a slot per op). Vector values are scalarized on the
// way (uop-emulate-gpu keeps scalars, not vectors, across barriers).
// Hopper's TMA loads and warpgroup MMAs go first (EmulateWarpgroup.cpp).
//
//===----------------------------------------------------------------------===//

#include "EmulateWarpgroup.h"

#include "Uop/Codegen/IndexArith.h"
#include "Uop/Codegen/Passes.h"

#include "Uop/IR/UopAttrs.h"

#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPEMULATEMMAPASS
#include "Uop/Codegen/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

FailureOr<std::pair<scf::ParallelOp, int64_t>> mlir::uop::emulatedThreadLoop(Operation *op) {
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp()) {
    auto par = dyn_cast<scf::ParallelOp>(p);
    if (!par)
      continue;
    auto kind = par->getAttrOfType<AxisKindAttr>(kAxisAttrName);
    if (!kind || kind.getValue() != AxisKind::Local)
      continue;
    std::optional<int64_t> lb = getConstantIntValue(par.getLowerBound()[0]);
    std::optional<int64_t> ub = getConstantIntValue(par.getUpperBound()[0]);
    if (par.getNumLoops() != 1 || !lb || *lb != 0 || !ub || *ub % 32)
      return op->emitOpError("uop-emulate-mma: needs a thread loop of a constant multiple of 32 "
                             "threads (whole warps)"),
             failure();
    return std::make_pair(par, *ub);
  }
  return op->emitOpError("uop-emulate-mma: a warp-level op outside a GPU thread loop"), failure();
}

namespace {

class MmaEmulator {
public:
  MmaEmulator(func::FuncOp func) : func(func), b(func.getContext()), loc(func.getLoc()) {}
  LogicalResult run();

private:
  /// Workgroup memory at the kernel's entry.
  Value scratch(int64_t elems, Type type) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&func.getBody().front());
    auto space = gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
    auto t = MemRefType::get({elems}, type, MemRefLayoutAttrInterface(), space);
    return memref::AllocaOp::create(b, loc, t);
  }
  /// The elements of the vector `v` (row-major), as scalars available at
  /// the builder's point.
  SmallVector<Value> scalars(Value v);
  LogicalResult copy(nvgpu::DeviceAsyncCopyOp op);
  LogicalResult ldmatrixRun(MutableArrayRef<nvgpu::LdMatrixOp> run);
  LogicalResult mmaRun(MutableArrayRef<nvgpu::MmaSyncOp> run);
  /// Replaces the result of each op of `ops` by a vector of its `elems`,
  /// made at the builder's point, then erases the ops (not before: the
  /// point may be one of them).
  template <typename OpT>
  void replaceAll(ArrayRef<OpT> ops, ArrayRef<SmallVector<Value>> elems) {
    for (auto [op, e] : llvm::zip(ops, elems)) {
      Operation *o = op;
      auto type = cast<VectorType>(o->getResult(0).getType());
      o->getResult(0).replaceAllUsesWith(vector::FromElementsOp::create(b, loc, type, e));
    }
    for (OpT op : ops)
      op->erase();
  }
  void cleanup();

  func::FuncOp func;
  OpBuilder b;
  Location loc;
  Ix ix{b, loc};
};

SmallVector<Value> MmaEmulator::scalars(Value v) {
  auto type = cast<VectorType>(v.getType());
  int64_t n = type.getNumElements();
  if (auto fe = v.getDefiningOp<vector::FromElementsOp>())
    return SmallVector<Value>(fe.getElements());
  if (auto cst = v.getDefiningOp<arith::ConstantOp>())
    if (auto dense = dyn_cast<DenseElementsAttr>(cst.getValue())) {
      SmallVector<Value> out;
      for (Attribute a : dense.getValues<Attribute>())
        out.push_back(arith::ConstantOp::create(b, loc, cast<TypedAttr>(a)));
      return out;
    }
  // The flat offset of a static position's sub-vector in `t`, and its size.
  auto slot = [](VectorType t, ArrayRef<int64_t> pos) {
    int64_t flat = 0, size = 1;
    for (int64_t d = 0; d < t.getRank(); ++d) {
      flat = flat * t.getDimSize(d) + (d < (int64_t)pos.size() ? pos[d] : 0);
      if (d >= (int64_t)pos.size())
        size *= t.getDimSize(d);
    }
    return std::make_pair(flat, size);
  };
  if (auto ins = v.getDefiningOp<vector::InsertOp>(); ins && ins.getDynamicPosition().empty()) {
    SmallVector<Value> all = scalars(ins.getDest());
    SmallVector<Value> part = isa<VectorType>(ins.getValueToStore().getType())
                                  ? scalars(ins.getValueToStore())
                                  : SmallVector<Value>{ins.getValueToStore()};
    auto [at, size] = slot(type, ins.getStaticPosition());
    for (int64_t e = 0; e < size; ++e)
      all[at + e] = part[e];
    return all;
  }
  if (auto ex = v.getDefiningOp<vector::ExtractOp>(); ex && ex.getDynamicPosition().empty()) {
    SmallVector<Value> all = scalars(ex.getSource());
    auto [at, size] = slot(ex.getSourceVectorType(), ex.getStaticPosition());
    return SmallVector<Value>(ArrayRef<Value>(all).slice(at, size));
  }
  // Any other vector: element by element.
  SmallVector<Value> out;
  ArrayRef<int64_t> shape = type.getShape();
  for (int64_t e = 0; e < n; ++e) {
    SmallVector<int64_t> pos(shape.size());
    for (int64_t d = shape.size() - 1, rest = e; d >= 0; --d) {
      pos[d] = rest % shape[d];
      rest /= shape[d];
    }
    out.push_back(vector::ExtractOp::create(b, loc, v, pos));
  }
  return out;
}

LogicalResult MmaEmulator::copy(nvgpu::DeviceAsyncCopyOp op) {
  auto dstType = cast<MemRefType>(op.getDst().getType());
  auto srcType = cast<MemRefType>(op.getSrc().getType());
  if (dstType.getRank() != 1 || srcType.getRank() != 1)
    return op.emitOpError("uop-emulate-mma: copies between flat buffers only");
  b.setInsertionPoint(op);
  int64_t n = op.getDstElements().getZExtValue();
  Value zero;
  for (int64_t e = 0; e < n; ++e) {
    Value v;
    if (op.getSrcElements()) {
      // Elements past srcElements are zeros.
      if (!zero)
        zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(dstType.getElementType()));
      Value inSrc =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, ix.c(e), op.getSrcElements());
      auto ifIn = scf::IfOp::create(b, loc, TypeRange{dstType.getElementType()}, inSrc, true);
      {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(ifIn.thenBlock());
        Value l = memref::LoadOp::create(b, loc, op.getSrc(), ix.add(op.getSrcIndices()[0], e));
        scf::YieldOp::create(b, loc, l);
        b.setInsertionPointToStart(ifIn.elseBlock());
        scf::YieldOp::create(b, loc, zero);
      }
      v = ifIn.getResult(0);
    } else {
      v = memref::LoadOp::create(b, loc, op.getSrc(), ix.add(op.getSrcIndices()[0], e));
    }
    memref::StoreOp::create(b, loc, v, op.getDst(), ix.add(op.getDstIndices()[0], e));
  }
  op.erase();
  return success();
}

LogicalResult MmaEmulator::ldmatrixRun(MutableArrayRef<nvgpu::LdMatrixOp> run) {
  FailureOr<std::pair<scf::ParallelOp, int64_t>> loop = emulatedThreadLoop(run.front());
  if (failed(loop))
    return failure();
  auto [par, threads] = *loop;
  for (nvgpu::LdMatrixOp op : run) {
    auto t = cast<MemRefType>(op.getSrcMemref().getType());
    if (t.getRank() != 1 || t.getElementType().getIntOrFloatBitWidth() != 16)
      return op.emitOpError("uop-emulate-mma: ldmatrix of a flat buffer of 16-bit elements only");
    if (emulatedThreadLoop(op)->first != par)
      return op.emitOpError("uop-emulate-mma: adjacent ldmatrix in different thread loops");
  }
  int64_t r = run.size();
  b.setInsertionPoint(run.front());
  Value addr = scratch(r * threads, b.getIndexType());
  Value tid = par.getInductionVars()[0];
  for (auto [j, op] : llvm::enumerate(run))
    memref::StoreOp::create(b, loc, op.getIndices()[0], addr, ix.add(tid, (int64_t)j * threads));
  gpu::BarrierOp::create(b, loc);
  Value lane = ix.rem(tid, 32), warpBase = ix.mul(ix.div(tid, 32), 32);
  Value g = ix.div(lane, 4), t2 = ix.mul(ix.rem(lane, 4), 2);
  SmallVector<SmallVector<Value>> results;
  for (auto [j, op] : llvm::enumerate(run)) {
    Value slot = ix.add(warpBase, (int64_t)j * threads);
    Value src = op.getSrcMemref();
    SmallVector<Value> elems;
    for (int64_t i = 0; i < (int64_t)op.getNumTiles(); ++i) {
      if (!op.getTranspose()) {
        // Lane l: row l / 4 of matrix i, elements 2 (l % 4) and + 1.
        Value rowAddr = memref::LoadOp::create(b, loc, addr, ix.add(ix.add(slot, g), i * 8));
        for (int64_t h = 0; h < 2; ++h)
          elems.push_back(memref::LoadOp::create(b, loc, src, ix.add(ix.add(rowAddr, t2), h)));
      } else {
        // .trans: element l / 4 of rows 2 (l % 4) and + 1 of matrix i.
        for (int64_t h = 0; h < 2; ++h) {
          Value rowAddr = memref::LoadOp::create(b, loc, addr, ix.add(ix.add(slot, t2), i * 8 + h));
          elems.push_back(memref::LoadOp::create(b, loc, src, ix.add(rowAddr, g)));
        }
      }
    }
    results.push_back(elems);
  }
  gpu::BarrierOp::create(b, loc);
  replaceAll(ArrayRef(run.begin(), run.end()), results);
  return success();
}

LogicalResult MmaEmulator::mmaRun(MutableArrayRef<nvgpu::MmaSyncOp> run) {
  FailureOr<std::pair<scf::ParallelOp, int64_t>> loop = emulatedThreadLoop(run.front());
  if (failed(loop))
    return failure();
  auto [par, threads] = *loop;
  Type f32 = b.getF32Type();
  for (nvgpu::MmaSyncOp op : run) {
    SmallVector<int64_t> shape;
    for (Attribute a : op.getMmaShape())
      shape.push_back(cast<IntegerAttr>(a).getInt());
    auto ta = cast<VectorType>(op.getMatrixA().getType());
    auto tc = cast<VectorType>(op.getMatrixC().getType());
    if (shape != SmallVector<int64_t>{16, 8, 16} || !ta.getElementType().isF16() ||
        !tc.getElementType().isF32())
      return op.emitOpError("uop-emulate-mma: mma.sync m16n8k16 of f16 into f32 only");
    if (emulatedThreadLoop(op)->first != par)
      return op.emitOpError("uop-emulate-mma: adjacent mma.sync in different thread loops");
  }
  int64_t r = run.size(), warps = threads / 32;
  b.setInsertionPoint(run.front());
  Value aTiles = scratch(r * warps * 256, f32), bTiles = scratch(r * warps * 128, f32);
  Value tid = par.getInductionVars()[0];
  Value lane = ix.rem(tid, 32), warp = ix.div(tid, 32);
  Value g = ix.div(lane, 4), t2 = ix.mul(ix.rem(lane, 4), 2);
  SmallVector<Value> aBase, bBase;
  for (auto [j, op] : llvm::enumerate(run)) {
    Value slot = ix.add(ix.mul(warp, 1), (int64_t)j * warps);
    aBase.push_back(ix.mul(slot, 256));
    bBase.push_back(ix.mul(slot, 128));
    SmallVector<Value> a = scalars(op.getMatrixA()), bv = scalars(op.getMatrixB());
    // A (16 x 16): register q, half h at row g + 8 (q % 2), column
    // 2 t + h + 8 (q / 2).
    for (int64_t q = 0; q < 4; ++q)
      for (int64_t h = 0; h < 2; ++h) {
        Value row = ix.add(g, 8 * (q % 2)), col = ix.add(t2, h + 8 * (q / 2));
        Value v = arith::ExtFOp::create(b, loc, f32, a[q * 2 + h]);
        memref::StoreOp::create(b, loc, v, aTiles,
                                ix.add(aBase.back(), ix.add(ix.mul(row, 16), col)));
      }
    // B (16 x 8): register q, half h at row 2 t + h + 8 q, column g.
    for (int64_t q = 0; q < 2; ++q)
      for (int64_t h = 0; h < 2; ++h) {
        Value row = ix.add(t2, h + 8 * q);
        Value v = arith::ExtFOp::create(b, loc, f32, bv[q * 2 + h]);
        memref::StoreOp::create(b, loc, v, bTiles, ix.add(bBase.back(), ix.add(ix.mul(row, 8), g)));
      }
  }
  gpu::BarrierOp::create(b, loc);
  SmallVector<SmallVector<Value>> results;
  for (auto [j, op] : llvm::enumerate(run)) {
    SmallVector<Value> cv = scalars(op.getMatrixC());
    SmallVector<Value> d;
    // C element e: row g + 8 (e / 2), column 2 t + e % 2.
    for (int64_t e = 0; e < 4; ++e) {
      Value row = ix.add(g, 8 * (e / 2)), col = ix.add(t2, e % 2);
      auto loop = scf::ForOp::create(b, loc, ix.c(0), ix.c(16), ix.c(1), ValueRange{cv[e]});
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(loop.getBody());
        Value k = loop.getInductionVar();
        Value x =
            memref::LoadOp::create(b, loc, aTiles, ix.add(aBase[j], ix.add(ix.mul(row, 16), k)));
        Value y =
            memref::LoadOp::create(b, loc, bTiles, ix.add(bBase[j], ix.add(ix.mul(k, 8), col)));
        Value p = arith::MulFOp::create(b, loc, x, y);
        Value s = arith::AddFOp::create(b, loc, loop.getRegionIterArg(0), p);
        scf::YieldOp::create(b, loc, s);
      }
      d.push_back(loop.getResult(0));
    }
    results.push_back(d);
  }
  gpu::BarrierOp::create(b, loc);
  replaceAll(ArrayRef(run.begin(), run.end()), results);
  return success();
}

/// vector.extract of a from_elements is the element; vector ops left
/// without uses go.
void MmaEmulator::cleanup() {
  bool changed = true;
  while (changed) {
    changed = false;
    SmallVector<Operation *> ops;
    func.walk([&](Operation *op) {
      if (isa<vector::ExtractOp, vector::InsertOp, vector::FromElementsOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      auto ex = dyn_cast<vector::ExtractOp>(op);
      if (ex && ex.getDynamicPosition().empty() && !isa<VectorType>(ex.getType())) {
        Value src = ex.getSource();
        if (src.getDefiningOp<vector::FromElementsOp>() || src.getDefiningOp<vector::InsertOp>() ||
            src.getDefiningOp<vector::ExtractOp>()) {
          b.setInsertionPoint(ex);
          auto type = cast<VectorType>(src.getType());
          int64_t flat = 0;
          for (auto [d, p] : llvm::enumerate(ex.getStaticPosition()))
            flat = flat * type.getDimSize(d) + p;
          ex.getResult().replaceAllUsesWith(scalars(src)[flat]);
          ex.erase();
          changed = true;
          continue;
        }
      }
      if (op->use_empty()) {
        op->erase();
        changed = true;
      }
    }
  }
}

LogicalResult MmaEmulator::run() {
  // Hopper's TMA loads and warpgroup MMAs first (EmulateWarpgroup.cpp).
  if (failed(emulateWarpgroupOps(func)))
    return failure();
  // Copies land where they are issued; groups and waits have nothing left.
  SmallVector<Operation *> waits, groups;
  SmallVector<nvgpu::DeviceAsyncCopyOp> copies;
  func.walk([&](Operation *op) {
    if (isa<nvgpu::DeviceAsyncWaitOp>(op))
      waits.push_back(op);
    else if (isa<nvgpu::DeviceAsyncCreateGroupOp>(op))
      groups.push_back(op);
    else if (auto cp = dyn_cast<nvgpu::DeviceAsyncCopyOp>(op))
      copies.push_back(cp);
  });
  for (Operation *op : waits)
    op->erase();
  for (Operation *op : groups) {
    if (!op->use_empty())
      return op->emitOpError("uop-emulate-mma: an async group token used other than by a wait");
    op->erase();
  }
  for (nvgpu::DeviceAsyncCopyOp cp : copies) {
    if (!cp.getAsyncToken().use_empty())
      return cp.emitOpError("uop-emulate-mma: an async copy token used other than by a group");
    if (failed(copy(cp)))
      return failure();
  }

  // Runs of adjacent ldmatrix / mma.sync, in program order.
  SmallVector<SmallVector<Operation *>> runs;
  func.walk([&](Operation *op) {
    if (!isa<nvgpu::LdMatrixOp, nvgpu::MmaSyncOp>(op))
      return;
    Operation *prev = op->getPrevNode();
    if (!runs.empty() && prev && runs.back().back() == prev &&
        prev->getName() == op->getName())
      runs.back().push_back(op);
    else
      runs.push_back({op});
  });
  for (ArrayRef<Operation *> run : runs) {
    if (isa<nvgpu::LdMatrixOp>(run.front())) {
      SmallVector<nvgpu::LdMatrixOp> ops;
      for (Operation *op : run)
        ops.push_back(cast<nvgpu::LdMatrixOp>(op));
      if (failed(ldmatrixRun(ops)))
        return failure();
    } else {
      SmallVector<nvgpu::MmaSyncOp> ops;
      for (Operation *op : run)
        ops.push_back(cast<nvgpu::MmaSyncOp>(op));
      if (failed(mmaRun(ops)))
        return failure();
    }
  }
  WalkResult left = func.walk([&](Operation *op) {
    if (isa_and_nonnull<nvgpu::NVGPUDialect>(op->getDialect())) {
      op->emitOpError("uop-emulate-mma: no emulation of this op");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (left.wasInterrupted())
    return failure();
  cleanup();
  return success();
}

struct UopEmulateMmaPass : mlir::uop::impl::UopEmulateMmaPassBase<UopEmulateMmaPass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(MmaEmulator(getOperation()).run()))
      signalPassFailure();
  }
};

} // namespace
