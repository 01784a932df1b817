//===- EmulateWarpgroup.cpp - Hopper's wgmma and TMA on the CPU ---*- C++ -*-===//
//
// The sm_90a half of uop-emulate-mma (EmulateWarpgroup.h): a warpgroup GEMM
// of uop-lower-gemm run thread by thread. The shared-memory layout is the
// hardware's, not a convenient one: a TMA load writes its box with the
// 128-byte swizzle (16-byte chunk j of a 128-byte row r lands at chunk
// j ^ (r % 8) of the 1024-byte period), and a wgmma reads A and B back
// through the same function of the byte address, so a kernel whose views,
// coordinates or descriptors disagree with its loads computes the wrong
// result here as on the H200. Each thread owns the accumulator elements
// wgmma gives its lane (rows 16 w + l / 4 (+ 8), columns 8 j + 2 (l % 4)
// (+ 1), w the warp's rank in its warpgroup), and stores them where
// nvgpu.warpgroup.mma.store's lowering puts them (w the warp's index in the
// block), so a wrong fragment or store offset is a wrong result too.
//
//===----------------------------------------------------------------------===//

#include "EmulateWarpgroup.h"

#include "Uop/Codegen/IndexArith.h"
#include "Uop/IR/UopAttrs.h"
#include "Uop/IR/UopDialect.h"
#include "Uop/IR/UopGemm.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::uop;

namespace {

/// The only swizzle uop-lower-gemm uses: 128-byte rows, 8 a period.
constexpr int64_t kSwizzleRow = 128;

class WarpgroupEmulator {
public:
  explicit WarpgroupEmulator(func::FuncOp func)
      : func(func), b(func.getContext()), loc(func.getLoc()) {}
  LogicalResult run();

private:
  /// The physical byte of the linear byte `x` under the 128-byte swizzle.
  Value swizzle(Value x) { return ix.xorI(x, ix.mul(ix.rem(ix.div(x, kSwizzleRow), 8), 16)); }
  /// Runs `body(ivs)` in a loop nest over [0, ub) for each of `ubs`.
  void nest(ArrayRef<int64_t> ubs, function_ref<void(ValueRange)> body) {
    SmallVector<Value> lbs(ubs.size(), ix.c(0)), steps(ubs.size(), ix.c(1)), hi;
    for (int64_t u : ubs)
      hi.push_back(ix.c(u));
    scf::buildLoopNest(b, loc, lbs, hi, steps,
                       [&](OpBuilder &, Location, ValueRange ivs) { body(ivs); });
  }

  /// The shared buffer (an i8 alloca) and the byte offset of `view`, a
  /// memref.view of it; an error at `user` otherwise.
  FailureOr<std::pair<Value, Value>> sharedAt(Value view, Operation *user);
  /// The f16 elements of the shared buffer `bytes`, made after it.
  Value halves(Value bytes);
  /// The thread's lane, rank of its warp in the warpgroup, and warpgroup.
  struct Lane {
    Value tid, lane, warp, rank, group;
    int64_t threads; ///< the block's
  };
  FailureOr<Lane> laneOf(Operation *op);
  /// Runs `body(row, column, row of the store)` for each accumulator
  /// element the thread holds in a `rows` x `n` warpgroup tile.
  void forEachElement(const Lane &l, int64_t rows, int64_t n,
                      function_ref<void(Value, Value, Value)> body);
  /// The workgroup slot of an accumulator value and its tile's shape.
  FailureOr<Value> accumulatorOf(Value acc);

  LogicalResult tmaLoad(nvgpu::TmaAsyncLoadOp op);
  LogicalResult initAccumulator(nvgpu::WarpgroupMmaInitAccumulatorOp op);
  LogicalResult mma(nvgpu::WarpgroupMmaOp op);
  LogicalResult store(nvgpu::WarpgroupMmaStoreOp op);

  func::FuncOp func;
  OpBuilder b;
  Location loc;
  Ix ix{b, loc};
  DenseMap<Value, Value> halvesOf;
  DenseMap<Operation *, Value> slots;
};

FailureOr<std::pair<Value, Value>> WarpgroupEmulator::sharedAt(Value view, Operation *user) {
  auto v = view.getDefiningOp<memref::ViewOp>();
  auto alloca = v ? v.getSource().getDefiningOp<memref::AllocaOp>() : memref::AllocaOp();
  if (!alloca || !alloca.getType().getElementType().isInteger(8) || alloca.getType().getRank() != 1)
    return user->emitOpError("uop-emulate-mma: a shared tile that is not a view of a shared byte "
                             "buffer"),
           failure();
  if (!cast<MemRefType>(v.getType()).getElementType().isF16())
    return user->emitOpError("uop-emulate-mma: a shared tile of f16 only"), failure();
  return std::pair<Value, Value>(alloca.getResult(), v.getByteShift());
}

Value WarpgroupEmulator::halves(Value bytes) {
  Value &h = halvesOf[bytes];
  if (h)
    return h;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointAfterValue(bytes);
  auto type = cast<MemRefType>(bytes.getType());
  auto t = MemRefType::get({type.getDimSize(0) / 2}, b.getF16Type(), MemRefLayoutAttrInterface(),
                           type.getMemorySpace());
  h = memref::ViewOp::create(b, loc, t, bytes, ix.c(0), ValueRange());
  return h;
}

FailureOr<WarpgroupEmulator::Lane> WarpgroupEmulator::laneOf(Operation *op) {
  FailureOr<std::pair<scf::ParallelOp, int64_t>> loop = emulatedThreadLoop(op);
  if (failed(loop))
    return failure();
  if (loop->second % 128)
    return op->emitOpError("uop-emulate-mma: a warpgroup op in a block of ")
           << loop->second << " threads (whole warpgroups of 128 are needed)";
  Lane l;
  l.tid = loop->first.getInductionVars()[0];
  l.lane = ix.rem(l.tid, 32);
  l.warp = ix.div(l.tid, 32);
  l.rank = ix.rem(l.warp, 4);
  l.group = ix.div(l.tid, 128);
  l.threads = loop->second;
  return l;
}

void WarpgroupEmulator::forEachElement(const Lane &l, int64_t rows, int64_t n,
                                       function_ref<void(Value, Value, Value)> body) {
  // 64-row instruction tile t, 8-row half i, 8-column group j, element h.
  nest({rows / 64, 2, n / 8, 2}, [&](ValueRange iv) {
    Value inTile = ix.add(ix.div(l.lane, 4), ix.mul(iv[1], 8));
    Value tile = ix.mul(iv[0], 64);
    Value row = ix.add(ix.add(tile, ix.mul(l.rank, 16)), inTile);
    Value stored = ix.add(ix.add(tile, ix.mul(l.warp, 16)), inTile);
    Value col = ix.add(ix.add(ix.mul(iv[2], 8), ix.mul(ix.rem(l.lane, 4), 2)), iv[3]);
    body(row, col, stored);
  });
}

FailureOr<Value> WarpgroupEmulator::accumulatorOf(Value acc) {
  if (auto init = acc.getDefiningOp<nvgpu::WarpgroupMmaInitAccumulatorOp>()) {
    auto it = slots.find(init);
    if (it != slots.end())
      return it->second;
  } else if (auto op = acc.getDefiningOp<nvgpu::WarpgroupMmaOp>()) {
    return accumulatorOf(op.getMatrixC());
  } else if (auto loop = acc.getDefiningOp<scf::ForOp>()) {
    return accumulatorOf(loop.getInitArgs()[cast<OpResult>(acc).getResultNumber()]);
  } else if (auto arg = dyn_cast<BlockArgument>(acc)) {
    if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
        loop && arg.getArgNumber() > 0)
      return accumulatorOf(loop.getInitArgs()[arg.getArgNumber() - 1]);
  }
  if (Operation *def = acc.getDefiningOp())
    def->emitOpError("uop-emulate-mma: a warpgroup accumulator of an unknown origin");
  else
    func.emitOpError("uop-emulate-mma: a warpgroup accumulator of an unknown origin");
  return failure();
}

LogicalResult WarpgroupEmulator::tmaLoad(nvgpu::TmaAsyncLoadOp op) {
  if (op.getMulticastMask())
    return op.emitOpError("uop-emulate-mma: multicast TMA loads are not emulated");
  auto map = op.getTensorMapDescriptor().getDefiningOp<UnrealizedConversionCastOp>();
  auto index = map ? map->getAttrOfType<IntegerAttr>(kTensorMapAttrName) : IntegerAttr();
  auto maps = func->getAttrOfType<ArrayAttr>(kTensorMapAttrName);
  if (!index || !maps || index.getInt() < 0 || index.getInt() >= (int64_t)maps.size())
    return op.emitOpError("uop-emulate-mma: a TMA load of a tensor map the kernel does not "
                          "describe (its ")
           << kTensorMapAttrName << " attribute)";
  std::optional<TensorMapSpec> spec = TensorMapSpec::fromAttr(maps[index.getInt()]);
  auto dstType = cast<MemRefType>(op.getDst().getType());
  if (!spec || spec->param < 0 || spec->param >= (int64_t)func.getNumArguments() ||
      op.getCoordinates().size() != 2)
    return op.emitOpError("uop-emulate-mma: a malformed ") << kTensorMapAttrName << " entry";
  Value src = func.getArgument(spec->param);
  auto srcType = dyn_cast<MemRefType>(src.getType());
  ArrayRef<int64_t> dims = spec->dims, box = spec->box;
  if (!srcType || !srcType.getElementType().isF16() || spec->swizzle != kSwizzleRow ||
      box[0] * 2 != spec->swizzle || dstType.getRank() != 2 || dstType.getDimSize(0) != box[1] ||
      dstType.getDimSize(1) != box[0] || spec->stride % 2)
    return op.emitOpError("uop-emulate-mma: TMA loads of f16 boxes of 128-byte rows with the "
                          "128-byte swizzle only");
  FailureOr<std::pair<Value, Value>> at = sharedAt(op.getDst(), op);
  if (failed(at))
    return failure();
  Value flat = halves(at->first);
  b.setInsertionPoint(op);
  auto body = [&] {
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(b.getF16Type()));
    Value col0 = op.getCoordinates()[0], row0 = op.getCoordinates()[1];
    nest({box[1], box[0]}, [&](ValueRange iv) {
      Value row = ix.add(row0, iv[0]), col = ix.add(col0, iv[1]);
      // Elements outside the tensor are zeros (the map's OOB fill).
      Value in = arith::AndIOp::create(
          b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, ix.c(dims[1])),
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, col, ix.c(dims[0])));
      Value elem = ix.add(ix.add(ix.mul(row, spec->stride / 2), col), spec->offset);
      elem = arith::SelectOp::create(b, loc, in, elem, ix.c(0));
      Value v = memref::LoadOp::create(b, loc, src, elem);
      v = arith::SelectOp::create(b, loc, in, v, zero);
      Value linear = ix.add(ix.add(at->second, ix.mul(iv[0], kSwizzleRow)), ix.mul(iv[1], 2));
      memref::StoreOp::create(b, loc, v, flat, ix.div(swizzle(linear), 2));
    });
  };
  if (Value pred = op.getPredicate()) {
    auto ifOp = scf::IfOp::create(b, loc, pred, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    body();
  } else {
    body();
  }
  op.erase();
  return success();
}

LogicalResult WarpgroupEmulator::initAccumulator(nvgpu::WarpgroupMmaInitAccumulatorOp op) {
  VectorType frag = op.getMatrixC().getType().getFragmented();
  int64_t rows = frag.getDimSize(0), n = frag.getDimSize(1);
  if (rows % 64 || n % 8 || !frag.getElementType().isF32())
    return op.emitOpError("uop-emulate-mma: f32 accumulators of 64-row tiles only");
  b.setInsertionPoint(op);
  FailureOr<Lane> l = laneOf(op);
  if (failed(l))
    return failure();
  // A slot a warpgroup, at the kernel's entry.
  Value slot;
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&func.getBody().front());
    auto space = gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
    slot = memref::AllocaOp::create(b, loc,
                                    MemRefType::get({l->threads / 128, rows, n}, b.getF32Type(),
                                                    MemRefLayoutAttrInterface(), space));
  }
  slots[op] = slot;
  b.setInsertionPoint(op);
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
  forEachElement(*l, rows, n, [&](Value row, Value col, Value) {
    memref::StoreOp::create(b, loc, zero, slot, ValueRange{l->group, row, col});
  });
  return success();
}

LogicalResult WarpgroupEmulator::mma(nvgpu::WarpgroupMmaOp op) {
  auto descA = op.getDescriptorA().getDefiningOp<nvgpu::WarpgroupGenerateDescriptorOp>();
  auto descB = op.getDescriptorB().getDefiningOp<nvgpu::WarpgroupGenerateDescriptorOp>();
  if (!descA || !descB)
    return op.emitOpError("uop-emulate-mma: a warpgroup MMA whose descriptors are not made by "
                          "nvgpu.warpgroup.generate.descriptor");
  for (auto d : {descA, descB})
    if (d.getTensorMap().getType().getSwizzle() != nvgpu::TensorMapSwizzleKind::SWIZZLE_128B)
      return op.emitOpError("uop-emulate-mma: warpgroup MMA operands with the 128-byte "
                            "swizzle only");
  if (op.getTransposeA())
    return op.emitOpError("uop-emulate-mma: an MN-major A (transposeA) is not emulated");
  MemRefType ta = descA.getTensor().getType(), tb = descB.getTensor().getType();
  VectorType frag = op.getMatrixD().getType().getFragmented();
  int64_t rows = frag.getDimSize(0), n = frag.getDimSize(1), k = ta.getDimSize(1);
  if (ta.getDimSize(0) != rows || tb.getDimSize(0) != k || tb.getDimSize(1) != n ||
      k * 2 > kSwizzleRow || !frag.getElementType().isF32())
    return op.emitOpError("uop-emulate-mma: a warpgroup MMA of unexpected shapes (A ")
           << ta << ", B " << tb << ", C " << frag << ")";
  FailureOr<std::pair<Value, Value>> atA = sharedAt(descA.getTensor(), op);
  FailureOr<std::pair<Value, Value>> atB = sharedAt(descB.getTensor(), op);
  FailureOr<Value> slot = accumulatorOf(op.getMatrixC());
  if (failed(atA) || failed(atB) || failed(slot))
    return failure();
  b.setInsertionPoint(op);
  FailureOr<Lane> l = laneOf(op);
  if (failed(l))
    return failure();
  Value flatA = halves(atA->first), flatB = halves(atB->first);
  bool mnMajorB = op.getTransposeB().has_value();
  Type f32 = b.getF32Type();
  forEachElement(*l, rows, n, [&](Value row, Value col, Value) {
    Value sum = memref::LoadOp::create(b, loc, *slot, ValueRange{l->group, row, col});
    // A is K-major: row r is a 128-byte row of the swizzle.
    Value aRow = ix.add(atA->second, ix.mul(row, kSwizzleRow));
    // B MN-major (stored K x N): 64-column blocks of k rows of 128 bytes;
    // K-major (stored N x K): column c is a 128-byte row.
    Value bCol = mnMajorB ? ix.add(ix.add(atB->second, ix.mul(ix.div(col, 64), k * kSwizzleRow)),
                                   ix.mul(ix.rem(col, 64), 2))
                          : ix.add(atB->second, ix.mul(col, kSwizzleRow));
    auto loop = scf::ForOp::create(b, loc, ix.c(0), ix.c(k), ix.c(1), ValueRange{sum});
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value kk = loop.getInductionVar();
      Value x =
          memref::LoadOp::create(b, loc, flatA, ix.div(swizzle(ix.add(aRow, ix.mul(kk, 2))), 2));
      Value yAt = mnMajorB ? ix.add(bCol, ix.mul(kk, kSwizzleRow)) : ix.add(bCol, ix.mul(kk, 2));
      Value y = memref::LoadOp::create(b, loc, flatB, ix.div(swizzle(yAt), 2));
      Value p = arith::MulFOp::create(b, loc, arith::ExtFOp::create(b, loc, f32, x),
                                      arith::ExtFOp::create(b, loc, f32, y));
      scf::YieldOp::create(b, loc,
                           ValueRange{arith::AddFOp::create(b, loc, loop.getRegionIterArg(0), p)});
    }
    memref::StoreOp::create(b, loc, loop.getResult(0), *slot, ValueRange{l->group, row, col});
  });
  // The accumulator is its slot now: the value passes through.
  op.getMatrixD().replaceAllUsesWith(op.getMatrixC());
  op.erase();
  return success();
}

LogicalResult WarpgroupEmulator::store(nvgpu::WarpgroupMmaStoreOp op) {
  FailureOr<Value> slot = accumulatorOf(op.getMatrixD());
  if (failed(slot))
    return failure();
  VectorType frag = op.getMatrixD().getType().getFragmented();
  auto dst = cast<MemRefType>(op.getDstMemref().getType());
  if (dst.getRank() != 2 || dst.getElementType() != frag.getElementType())
    return op.emitOpError("uop-emulate-mma: a warpgroup MMA store to a 2-D memref of f32 only");
  b.setInsertionPoint(op);
  FailureOr<Lane> l = laneOf(op);
  if (failed(l))
    return failure();
  forEachElement(*l, frag.getDimSize(0), frag.getDimSize(1),
                 [&](Value row, Value col, Value stored) {
                   Value v = memref::LoadOp::create(b, loc, *slot, ValueRange{l->group, row, col});
                   memref::StoreOp::create(b, loc, v, op.getDstMemref(), ValueRange{stored, col});
                 });
  op.erase();
  return success();
}

/// Drops the iteration arguments of `loop` that are yielded unchanged and
/// whose type `drop` accepts (the accumulators, invariant once they live in
/// workgroup memory): uop-emulate-gpu splits loops that carry no values.
void dropInvariantIterArgs(scf::ForOp loop, function_ref<bool(Type)> drop) {
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  SmallVector<unsigned> gone;
  for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs()))
    if (yield.getOperand(i) == arg && drop(arg.getType()))
      gone.push_back(i);
  if (gone.empty())
    return;
  SmallVector<Value> inits;
  for (auto [i, init] : llvm::enumerate(loop.getInitArgs()))
    if (!llvm::is_contained(gone, i))
      inits.push_back(init);
  for (unsigned i : gone) {
    loop.getRegionIterArgs()[i].replaceAllUsesWith(loop.getInitArgs()[i]);
    loop.getResult(i).replaceAllUsesWith(loop.getInitArgs()[i]);
  }
  OpBuilder b(loop);
  auto next = scf::ForOp::create(b, loop.getLoc(), loop.getLowerBound(), loop.getUpperBound(),
                                 loop.getStep(), inits);
  next->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  next.getRegion().takeBody(loop.getRegion());
  for (unsigned i : llvm::reverse(gone)) {
    yield.getResultsMutable().erase(i);
    next.getBody()->eraseArgument(i + 1);
  }
  unsigned at = 0;
  for (unsigned i = 0; i < loop.getNumResults(); ++i)
    if (!llvm::is_contained(gone, i))
      loop.getResult(i).replaceAllUsesWith(next.getResult(at++));
  loop.erase();
}

LogicalResult WarpgroupEmulator::run() {
  SmallVector<nvgpu::TmaAsyncLoadOp> loads;
  SmallVector<nvgpu::WarpgroupMmaInitAccumulatorOp> inits;
  SmallVector<nvgpu::WarpgroupMmaOp> mmas;
  SmallVector<nvgpu::WarpgroupMmaStoreOp> stores;
  func.walk([&](Operation *op) {
    if (auto x = dyn_cast<nvgpu::TmaAsyncLoadOp>(op))
      loads.push_back(x);
    else if (auto x = dyn_cast<nvgpu::WarpgroupMmaInitAccumulatorOp>(op))
      inits.push_back(x);
    else if (auto x = dyn_cast<nvgpu::WarpgroupMmaOp>(op))
      mmas.push_back(x);
    else if (auto x = dyn_cast<nvgpu::WarpgroupMmaStoreOp>(op))
      stores.push_back(x);
  });
  if (loads.empty() && inits.empty() && mmas.empty() && stores.empty())
    return success();
  for (auto op : loads)
    if (failed(tmaLoad(op)))
      return failure();
  for (auto op : inits)
    if (failed(initAccumulator(op)))
      return failure();
  for (auto op : mmas)
    if (failed(mma(op)))
      return failure();
  for (auto op : stores)
    if (failed(store(op)))
      return failure();
  SmallVector<scf::ForOp> loops;
  func.walk([&](scf::ForOp loop) { loops.push_back(loop); });
  for (scf::ForOp loop : loops)
    dropInvariantIterArgs(loop, [](Type t) { return isa<nvgpu::WarpgroupAccumulatorType>(t); });

  // What is left has no meaning on the CPU once the copies are done where
  // they are issued: the mbarriers and their waits, prefetches, wgmma waits,
  // the descriptors and tensor maps (users first).
  llvm::SetVector<Operation *> dead;
  func.walk([&](Operation *op) {
    bool tensorMap = isa<UnrealizedConversionCastOp>(op) && op->hasAttr(kTensorMapAttrName);
    if (tensorMap ||
        isa<nvgpu::MBarrierCreateOp, nvgpu::MBarrierInitOp, nvgpu::MBarrierArriveExpectTxOp,
            nvgpu::MBarrierTryWaitParityOp, nvgpu::TmaPrefetchOp,
            nvgpu::WarpgroupGenerateDescriptorOp, nvgpu::WarpgroupMmaInitAccumulatorOp,
            NVVM::WgmmaWaitGroupSyncOp, NVVM::WgmmaFenceAlignedOp, NVVM::WgmmaGroupSyncAlignedOp>(
            op))
      dead.insert(op);
  });
  for (Operation *op : llvm::reverse(dead)) {
    for (Operation *user : op->getUsers())
      if (!dead.contains(user))
        return user->emitOpError("uop-emulate-mma: uses a Hopper value (")
               << op->getName() << ") the CPU has no meaning for";
  }
  for (Operation *op : llvm::reverse(dead))
    op->erase();
  func->removeAttr(kTensorMapAttrName);
  return success();
}

} // namespace

LogicalResult mlir::uop::emulateWarpgroupOps(func::FuncOp func) {
  return WarpgroupEmulator(func).run();
}
