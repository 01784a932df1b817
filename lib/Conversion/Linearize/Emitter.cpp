//===- Emitter.cpp - uop-linearize's emission driver ------------*- C++ -*-===//
//
// The driver of the emission: the kernel's signature (a buffer argument per
// slot, then the check record), the decisions taken on the whole schedule
// before emitting (flags, GPU dimensions, vector lanes), and the walk over
// the schedule, each op emitted by the handler registered for it (memory,
// loops, structure) or else by the elementwise lowerings. The walk is the
// emitter's own, not the dialect conversion driver's: ops are emitted in the
// schedule's order into the loops it opens, not rewritten where they stand
// (ElementwiseLowering.cpp says more).
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"

#include "Uop/Codegen/LaneLegality.h"
#include "Lanes.h"

#include "Uop/Conversion/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <map>

using namespace mlir;
using namespace mlir::uop;

Emitter::Emitter(func::FuncOp func, Scheduler &sched, DataFlowSolver &solver, bool gpu, bool checks)
    : func(func), sched(sched), b(func.getContext()), gpu(gpu), checks(b, solver, checks) {
  on<ConstOp>(&Emitter::emitConst);
  on<BufferOp>(&Emitter::emitBuffer);
  on<AllocOp>(&Emitter::emitAlloc);
  on<AfterOp>(&Emitter::emitAfter);
  on<IndexOp>(&Emitter::emitIndex);
  on<LoadOp>(&Emitter::emitLoad);
  on<StoreOp>(&Emitter::emitStore);
  on<RangeOp>(&Emitter::emitRange);
  on<EndOp>(&Emitter::emitEnd);
  on<SinkOp>(&Emitter::emitNothing);
  on<BarrierOp>(&Emitter::emitBarrier);
  reject<WmmaOp>("uop-linearize: wmma needs the GPU path (uop-to-gpu)");
  reject<ReshapeOp, ExpandOp, PermuteOp, ShrinkOp, ReduceOp, StageOp, StackOp>(
      "uop-linearize: expects a kernel graph (L2); shaped ops are lowered by uop-rangeify");
  reject<CallOp>("uop-linearize: inline calls first (uop-inline-calls)");
  reject<ParamOp>("uop-linearize: kernels take buffers, not params");
  populateElementwiseLowerings(elementwise);
}

LogicalResult Emitter::run() {
  MLIRContext *ctx = func.getContext();
  // Buffers become arguments in slot order; one argument per slot.
  std::map<int64_t, BufferOp> slots;
  for (Operation *op : sched.getOrder()) {
    auto buf = dyn_cast<BufferOp>(op);
    if (!buf)
      continue;
    if (!isa<MemRefType>(buf.getType()))
      return buf.emitOpError("uop-linearize: expects a kernel graph (L2), but this "
                             "buffer is a tensor value (run uop-rangeify first)");
    auto [it, inserted] = slots.insert({buf.getSlotAttr().getInt(), buf});
    if (!inserted && it->second.getType() != buf.getType())
      return buf.emitOpError("slot ")
             << it->first << " is also a buffer of type " << it->second.getType();
  }
  SmallVector<Type> argTypes;
  SmallVector<int64_t> slotList;
  for (auto &[slot, buf] : slots) {
    auto t = cast<MemRefType>(buf.getType());
    argOf[slot] = argTypes.size();
    // A buffer of no elements is passed one (as the host plan allocates
    // it); its checks still use its declared size.
    argTypes.push_back(
        MemRefType::get({std::max<int64_t>(1, t.getNumElements())}, t.getElementType()));
    slotList.push_back(slot);
  }

  flags = ArithFlags::analyze(sched.getOrder());
  if (gpu) {
    assignProcessors(); // (the jam is for the CPU's SLP vectorizer)
  } else {
    int64_t lanes = 1;
    if (auto opts = func->getAttrOfType<OptsAttr>(kOptsAttrName))
      lanes = opts.getVector();
    outerVectorize = findOuterVectorization(
        sched.getOrder(), [&](Operation *op) { return sched.getLoops(op); }, lanes);
  }
  for (Operation *op : sched.getOrder())
    for (Operation *r : sched.getLoops(op))
      ++bodySize[r];

  // A fresh body; the old one is dropped at the end.
  Region &region = func.getBody();
  Block *oldEntry = &region.front();
  entry = new Block();
  region.getBlocks().insert(region.begin(), entry);
  for (Type t : argTypes)
    entry->addArgument(t, func.getLoc());
  checks.addRecord(entry, func.getLoc());
  b.setInsertionPointToStart(entry);
  auto ret = func::ReturnOp::create(b, func.getLoc());
  b.setInsertionPoint(ret);

  for (Operation *op : sched.getOrder())
    if (failed(emitOp(op)))
      return failure();
  for (auto [block, mem] : heapAllocs) {
    b.setInsertionPoint(block->getTerminator());
    memref::DeallocOp::create(b, mem.getLoc(), mem);
  }

  // Drop the graph.
  oldEntry->dropAllDefinedValueUses();
  oldEntry->dropAllReferences();
  oldEntry->erase();
  checks.finish(func, entry, argTypes);
  func.setType(FunctionType::get(ctx, argTypes, {}));
  func->setAttr(kSlotsAttrName, b.getDenseI64ArrayAttr(slotList));
  func->setAttr(kKernelAttrName, UnitAttr::get(ctx));
  return success();
}

LogicalResult Emitter::emitOp(Operation *op) {
  b.setInsertionPoint(loops.empty() ? entry->getTerminator() : loops.back().body->getTerminator());
  auto it = handlers.find(op->getName().getTypeID());
  if (it != handlers.end())
    return it->second(op);
  return emitElementwise(op);
}

LogicalResult Emitter::emitConst(Operation *op) {
  auto c = cast<ConstOp>(op);
  if (isa<ShapedType>(c.getType()))
    return op->emitOpError("uop-linearize: expects scalar constants in a "
                           "kernel graph, got ")
           << c.getType();
  vals[op] = arith::ConstantOp::create(b, op->getLoc(), cast<TypedAttr>(c.getValue()));
  return success();
}

LogicalResult Emitter::emitBuffer(Operation *op) {
  mems[op] = entry->getArgument(argOf[cast<BufferOp>(op).getSlotAttr().getInt()]);
  return success();
}

Value Emitter::constIndex(int64_t v) {
  return arith::ConstantIndexOp::create(b, b.getUnknownLoc(), v);
}

bool Emitter::inJam(Operation *op) const {
  return jam && llvm::is_contained(sched.getLoops(op), jam);
}

Value Emitter::lanesOf(Value v) { return mlir::uop::lanesOf(b, v, jamWidth); }

Value Emitter::laneSteps(Type t, int64_t s) {
  SmallVector<int32_t> steps;
  for (int64_t l = 0; l < jamWidth; ++l)
    steps.push_back(static_cast<int32_t>(l * s));
  return arith::ConstantOp::create(b, b.getUnknownLoc(),
                                   DenseElementsAttr::get(laneType(t), ArrayRef(steps)));
}
