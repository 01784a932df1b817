//===- EmitMemory.cpp - uop-linearize's allocs and accesses -----*- C++ -*-===//
//
// Memory: allocs as allocas (or heap allocs) where LLVM promotes them, an
// `uop.index` as an access (memref, index and, inside vector lanes, the
// lanes' stride or indices), loads and stores through an access: one
// vector access where the lanes are contiguous, lane by lane elsewhere.
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"

#include "Lanes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::uop;

/// The largest uop.alloc made on the stack (memref.alloca); larger ones are
/// memref.alloc and memref.dealloc.
constexpr int64_t kMaxStackAllocBytes = 64 * 1024;

LogicalResult Emitter::emitAlloc(Operation *op) {
  auto alloc = cast<AllocOp>(op);
  Location loc = op->getLoc();
  auto t = cast<MemRefType>(alloc.getType());
  // Allocas go to the function entry (so LLVM promotes them to registers),
  // or to the top of the innermost parallel body (one per thread).
  OpBuilder::InsertionGuard guard(b);
  Block *home = entry;
  for (const Loop &l : loops)
    if (isa<scf::ParallelOp>(l.loop))
      home = l.body;
  Attribute space;
  if (getAddressSpace(t) == AddressSpace::Shared) {
    home = entry;
    // Workgroup memory on the GPU path (uop-to-gpu makes it an attribution).
    if (gpu)
      space = gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  }
  b.setInsertionPointToStart(home);
  // Inside vector lanes every lane has its own copy: one vector per element.
  // An alloc of no elements gets one, so that a (checked) access is safe.
  bool priv = inJam(op);
  Type elem = priv ? Type(laneType(t.getElementType())) : t.getElementType();
  auto type = MemRefType::get({std::max<int64_t>(1, t.getNumElements())}, elem,
                              MemRefLayoutAttrInterface(), space);
  if (priv)
    privateMems.insert(op);
  // A large one (the stack is a few MiB, an OpenMP worker's less) is on
  // the heap, freed at the end of the same block (once it is emitted). On
  // the GPU, shared memory is workgroup memory and locals are registers.
  int64_t bytes = type.getNumElements() * (priv ? jamWidth : 1) *
                  std::max<int64_t>(1, t.getElementTypeBitWidth() / 8);
  if (!gpu && bytes > kMaxStackAllocBytes) {
    // The runtime's allocator (uop-kernel-allocator) draws from the memory
    // budget and may refuse: a null pointer is a failed check here, and
    // the rest of the block runs only without it.
    Value mem = memref::AllocOp::create(b, loc, type);
    checks.checkAlloc(op, mem, bytes);
    heapAllocs.push_back({home, mem});
    mems[op] = mem;
    return success();
  }
  mems[op] = memref::AllocaOp::create(b, loc, type);
  return success();
}

LogicalResult Emitter::emitAfter(Operation *op) {
  Operation *src = srcOp(op, 0);
  if (mems.count(src)) {
    mems[op] = mems.lookup(src);
    if (privateMems.contains(src))
      privateMems.insert(op);
  } else if (ptrs.count(src)) {
    ptrs[op] = ptrs.lookup(src);
  } else {
    vals[op] = vals.lookup(src);
    if (affine.count(src))
      affine[op] = affine.lookup(src);
  }
  return success();
}

LogicalResult Emitter::emitIndex(Operation *op) {
  auto index = cast<IndexOp>(op);
  Location loc = op->getLoc();
  Operation *src = srcOp(op, 0);
  if (!mems.count(src))
    return op->emitOpError("uop-linearize: expects an index of memory (L2); "
                           "value indexing is lowered by uop-rangeify");
  Ptr p;
  p.mem = mems.lookup(src);
  p.priv = privateMems.contains(src);
  if (index.getIndices().empty()) {
    mems[op] = p.mem;
    if (p.priv)
      privateMems.insert(op);
    return success();
  }
  if (index.getIndices().size() != 1)
    return op->emitOpError("uop-linearize: only flat (1-D) memory is supported");
  Value i = val(op, 1);
  auto aff = affine.find(srcOp(op, 1));
  // Lane 0's index of an access affine in the lanes (strided loads/stores).
  Value base = aff != affine.end() ? aff->second.first : Value();
  int64_t stride = aff != affine.end() ? aff->second.second : 0;
  checks.checkIndex(index, i, base, stride, jamWidth);
  if (base) {
    p.idx = arith::IndexCastOp::create(b, loc, b.getIndexType(), base);
    p.stride = stride;
  } else if (isa<VectorType>(i.getType())) {
    p.lanes = arith::IndexCastOp::create(b, loc, laneType(b.getIndexType()), i);
  } else {
    p.idx = arith::IndexCastOp::create(b, loc, b.getIndexType(), i);
  }
  if (p.priv && (p.lanes || p.stride))
    return op->emitOpError("uop-linearize: a lane-private alloc indexed differently per lane");
  ptrs[op] = p;
  return success();
}

/// Lane l's index of a lane-variant access.
static Value laneIndex(OpBuilder &b, Location loc, Value idx, int64_t stride, Value lanes,
                       int64_t l) {
  if (lanes)
    return vector::ExtractOp::create(b, loc, lanes, ArrayRef<int64_t>{l});
  return arith::AddIOp::create(b, loc, idx,
                               arith::ConstantIndexOp::create(b, loc, l * stride).getResult());
}

LogicalResult Emitter::emitLoad(Operation *op) {
  Location loc = op->getLoc();
  if (!ptrs.count(srcOp(op, 0)))
    return op->emitOpError("uop-linearize: load of a whole memref is not supported");
  Ptr p = ptrs.lookup(srcOp(op, 0));
  // The same element in every lane (or the lane's own, in a lane-private
  // memref of vectors): one load.
  if (p.priv || (!p.lanes && p.stride == 0)) {
    vals[op] = memref::LoadOp::create(b, loc, p.mem, p.idx);
    return success();
  }
  Type elem = cast<MemRefType>(p.mem.getType()).getElementType();
  if (!p.lanes && p.stride == 1 && !elem.isInteger(1)) {
    vals[op] = vector::LoadOp::create(b, loc, laneType(elem), p.mem, ValueRange{p.idx});
    return success();
  }
  SmallVector<Value> elems;
  for (int64_t l = 0; l < jamWidth; ++l)
    elems.push_back(
        memref::LoadOp::create(b, loc, p.mem, laneIndex(b, loc, p.idx, p.stride, p.lanes, l)));
  vals[op] = vector::FromElementsOp::create(b, loc, laneType(elem), elems);
  return success();
}

LogicalResult Emitter::emitStore(Operation *op) {
  Location loc = op->getLoc();
  if (!ptrs.count(srcOp(op, 0)))
    return op->emitOpError("uop-linearize: store to a whole memref is not supported");
  Ptr p = ptrs.lookup(srcOp(op, 0));
  Value v = val(op, 1);
  if (!v || (isa<ShapedType>(v.getType()) && !inJam(op)))
    return op->emitOpError("uop-linearize: stores a scalar");
  if (p.priv) {
    memref::StoreOp::create(b, loc, lanesOf(v), p.mem, p.idx);
    return success();
  }
  Type elem = cast<MemRefType>(p.mem.getType()).getElementType();
  if (!p.lanes && p.stride == 0) {
    // Every lane stores to the same element: the last lane's value stays.
    memref::StoreOp::create(b, loc, laneOf(b, loc, v, jamWidth - 1), p.mem, p.idx);
    return success();
  }
  if (!p.lanes && p.stride == 1 && !elem.isInteger(1)) {
    vector::StoreOp::create(b, loc, lanesOf(v), p.mem, ValueRange{p.idx});
    return success();
  }
  // Lane after lane, as the loop's iterations would.
  for (int64_t l = 0; l < jamWidth; ++l) {
    memref::StoreOp::create(b, loc, laneOf(b, loc, v, l), p.mem,
                            laneIndex(b, loc, p.idx, p.stride, p.lanes, l));
  }
  return success();
}
