//===- GemmLowering.cpp - The frame of uop-lower-gemm's kernels ---*- C++ -*-===//

#include "GemmLowering.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <map>

using namespace mlir;
using namespace mlir::uop;
using namespace mlir::uop::gemm;

void GemmKernelFrame::begin() {
  // The signature uop-linearize gives a kernel: one buffer per slot, in
  // slot order.
  std::map<int64_t, Type> slots;
  slots[g.a.slot] = MemRefType::get({std::max<int64_t>(1, g.a.size)}, g.a.dtype);
  slots[g.b.slot] = MemRefType::get({std::max<int64_t>(1, g.b.size)}, g.b.dtype);
  slots[g.outSlot] = MemRefType::get({std::max<int64_t>(1, g.m * g.n)}, g.outType);
  for (auto &[slot, type] : slots) {
    slotList.push_back(slot);
    argTypes.push_back(type);
  }
  Region &region = kernel.getBody();
  old = &region.front();
  Block *entry = new Block();
  region.getBlocks().insert(region.begin(), entry);
  for (Type t : argTypes)
    entry->addArgument(t, loc);
  auto argOf = [&](int64_t slot) {
    return entry->getArgument(llvm::find(slotList, slot) - slotList.begin());
  };
  memA = argOf(g.a.slot);
  memB = argOf(g.b.slot);
  memC = argOf(g.outSlot);
  b.setInsertionPointToStart(entry);
  auto ret = func::ReturnOp::create(b, loc);
  b.setInsertionPoint(ret);
}

Value GemmKernelFrame::shared(int64_t elems, Type type) {
  auto workgroup = gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  auto t = MemRefType::get({elems}, type, MemRefLayoutAttrInterface(), workgroup);
  return memref::AllocaOp::create(b, loc, t, b.getI64IntegerAttr(128)).getResult();
}

Value GemmKernelFrame::gpuLoop(int64_t n, gpu::Processor proc, AxisKind kind) {
  MLIRContext *ctx = b.getContext();
  AffineMap id = b.getDimIdentityMap();
  auto par = scf::ParallelOp::create(b, loc, ValueRange{ix.c(0)}, ValueRange{ix.c(n)},
                                     ValueRange{ix.c(1)});
  par->setAttr(kMappingAttrName,
               b.getArrayAttr({gpu::ParallelLoopDimMappingAttr::get(ctx, proc, id, id)}));
  par->setAttr(kAxisAttrName, AxisKindAttr::get(ctx, kind));
  b.setInsertionPointToStart(par.getBody());
  return par.getInductionVars()[0];
}

void GemmKernelFrame::enterBlocks(int64_t gridM, int64_t gridN, int64_t bm, int64_t bn) {
  Value blk = gpuLoop(gridM * gridN, gpu::Processor::BlockX, AxisKind::Global);
  // The block's tile: groups of kGroupRows block rows, column-major within
  // a group (Triton's program-id swizzle). Computed in the block loop,
  // outside the thread loop (which also keeps canonicalization from merging
  // the two loops into one that is no GPU range).
  int64_t groupRows = std::min(kGroupRows, gridM);
  int64_t perGroup = groupRows * gridN;
  Value group = ix.div(blk, perGroup);
  Value firstRow = ix.mul(group, groupRows);
  Value rows = ix.minI(ix.add(ix.mul(firstRow, -1), gridM), ix.c(groupRows));
  Value inGroup = ix.rem(blk, perGroup);
  Value pm = ix.add(firstRow, arith::RemUIOp::create(b, loc, inGroup, rows));
  Value pn = arith::DivUIOp::create(b, loc, inGroup, rows);
  rowA0 = ix.mul(pm, bm);
  colB0 = ix.mul(pn, bn);
}

Value GemmKernelFrame::enterThreads(int64_t threads) {
  return gpuLoop(threads, gpu::Processor::ThreadX, AxisKind::Local);
}

void GemmKernelFrame::finish() {
  MLIRContext *ctx = b.getContext();
  old->dropAllDefinedValueUses();
  old->dropAllReferences();
  old->erase();
  kernel.setType(FunctionType::get(ctx, argTypes, {}));
  kernel->setAttr(kSlotsAttrName, b.getDenseI64ArrayAttr(slotList));
  kernel->setAttr(kOutputSlotAttrName, b.getI64IntegerAttr(g.outSlot));
  kernel->setAttr(kOutputShapeAttrName, b.getDenseI64ArrayAttr({g.m, g.n}));
  kernel->setAttr(kKernelAttrName, UnitAttr::get(ctx));
}

void mlir::uop::gemm::emitStagedLoop(
    OpBuilder &b, Location loc, int64_t steps, int64_t stages,
    function_ref<SmallVector<Value>(Value, Value, Value)> issue,
    function_ref<void(Value)> compute) {
  Ix ix(b, loc);
  Type tokenType = nvgpu::DeviceAsyncTokenType::get(b.getContext());
  // Prologue: a step past the last (K has fewer steps than stages - 1)
  // commits a group of copies of no bytes.
  Value last;
  for (int64_t s = 0; s + 1 < stages; ++s) {
    Value valid;
    if (s >= steps)
      valid = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0);
    SmallVector<Value> tokens = issue(ix.c(s % steps), ix.c(s), valid);
    last = nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, tokenType, tokens);
  }
  nvgpu::DeviceAsyncWaitOp::create(b, loc, last, b.getI32IntegerAttr(stages - 2));
  gpu::BarrierOp::create(b, loc);

  auto loop = scf::ForOp::create(b, loc, ix.c(0), ix.c(steps), ix.c(1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  Value step = loop.getInductionVar();
  Value ahead = ix.add(step, stages - 1);
  Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, ahead, ix.c(steps));
  SmallVector<Value> tokens = issue(ix.rem(ahead, steps), ix.rem(ahead, stages), inRange);
  Value token = nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, tokenType, tokens);
  compute(ix.rem(step, stages));
  nvgpu::DeviceAsyncWaitOp::create(b, loc, token, b.getI32IntegerAttr(stages - 2));
  gpu::BarrierOp::create(b, loc);
}
