//===- EmulateGPU.cpp - GPU kernels with barriers as CPU loops ----*- C++ -*-===//
//
// uop-emulate-gpu: runs a kernel of uop-linearize{gpu=true} on the CPU. The
// seed's emulator turns block and thread ids into loops and refuses
// barriers; here a barrier splits the thread loops instead (loop fission at
// the barrier, as Polygeist's barrier elimination does), so that every
// thread finishes the code before a barrier before any thread runs the code
// after it:
//
//   parallel(t) { A; barrier; B }      ->  for(t) { A }  for(t) { B }
//   parallel(t) { A; for(k) { C } B }  ->  for(t) { A }
//     (C has a barrier)                    for(k) { for(t) { C } }
//                                          for(t) { B }
//
// A value computed before a barrier and used after it is recomputed when it
// is pure arithmetic of the thread ids and values from outside, and
// otherwise kept per thread in an array (stored where it is computed,
// loaded where it is used). Per-thread allocas (accumulators) become arrays
// with the thread ids as their leading indices. Then every GPU-mapped
// scf.parallel becomes a serial scf.for nest and workgroup memory an
// ordinary alloca: blocks run one after another, so one copy of the shared
// arrays and the per-thread arrays serves them all.
//
//===----------------------------------------------------------------------===//

#include "Uop/Codegen/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "Uop/IR/UopAttrs.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPEMULATEGPUPASS
#include "Uop/Codegen/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {

/// A GPU-mapped scf.parallel of uop-linearize{gpu=true}.
static bool isGpuLoop(Operation *op) {
  return isa<scf::ParallelOp>(op) && op->hasAttr(kMappingAttrName);
}

static bool isThreadLoop(Operation *op) {
  if (!isGpuLoop(op))
    return false;
  auto kind = op->getAttrOfType<AxisKindAttr>(kAxisAttrName);
  return kind && kind.getValue() == AxisKind::Local;
}

static bool containsBarrier(Operation *op) {
  return op->walk([](gpu::BarrierOp) { return WalkResult::interrupt(); }).wasInterrupted();
}

/// Recomputing a value this deep is not worth it; it is stored instead.
constexpr int kMaxRematerializeDepth = 16;

class Emulator {
public:
  explicit Emulator(func::FuncOp func) : func(func), b(func.getContext()) {}

  LogicalResult run();

private:
  LogicalResult processRegion(scf::ParallelOp root);
  FailureOr<scf::ParallelOp> collapse(scf::ParallelOp root);
  LogicalResult expandAllocas(scf::ParallelOp region);
  LogicalResult split(scf::ParallelOp par, SmallVectorImpl<scf::ParallelOp> &work);
  scf::ParallelOp emptyLike(scf::ParallelOp par);
  void moveInto(scf::ParallelOp from, ArrayRef<Operation *> ops, scf::ParallelOp to);
  LogicalResult fixCrossings(scf::ParallelOp def, ArrayRef<scf::ParallelOp> users);
  Value rematerialize(Value v, scf::ParallelOp from, scf::ParallelOp to, IRMapping &map,
                      OpBuilder &at, int depth);
  Value entryAlloca(MemRefType type);
  void serialize();

  func::FuncOp func;
  OpBuilder b;
  /// The thread counts of the region being processed (static).
  SmallVector<int64_t> threads;
};

/// An alloca at the kernel's entry (per-thread storage shared by all
/// blocks, which run one after another).
Value Emulator::entryAlloca(MemRefType type) {
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(&func.getBody().front());
  return memref::AllocaOp::create(b, func.getLoc(), type);
}

/// A parallel loop over the same threads as `par`, just before `par`, with
/// an empty body (its scf.reduce terminator only).
scf::ParallelOp Emulator::emptyLike(scf::ParallelOp par) {
  auto q = scf::ParallelOp::create(b, par.getLoc(), par.getLowerBound(), par.getUpperBound(),
                                   par.getStep());
  q->setAttrs(par->getAttrs());
  return q;
}

/// Moves `ops` (top-level ops of `from`'s body, in order) to the end of
/// `to`'s body; uses of `from`'s ids among them become `to`'s.
void Emulator::moveInto(scf::ParallelOp from, ArrayRef<Operation *> ops, scf::ParallelOp to) {
  Operation *term = to.getBody()->getTerminator();
  for (Operation *op : ops)
    op->moveBefore(term);
  for (auto [oldIv, newIv] : llvm::zip(from.getInductionVars(), to.getInductionVars()))
    oldIv.replaceUsesWithIf(newIv, [&](OpOperand &use) {
      return to->isProperAncestor(use.getOwner());
    });
}

/// Fuses `root` with the thread loops nested in it, so that one
/// scf.parallel runs every thread of the block: parallel(y) { pure ops;
/// parallel(x) { body } } -> parallel(y, x) { pure ops; body }.
FailureOr<scf::ParallelOp> Emulator::collapse(scf::ParallelOp root) {
  while (true) {
    Block *body = root.getBody();
    SmallVector<scf::ParallelOp> inners;
    for (Operation &op : body->without_terminator())
      if (isThreadLoop(&op))
        inners.push_back(cast<scf::ParallelOp>(op));
    if (inners.empty())
      return root; // the innermost thread loop
    scf::ParallelOp inner = inners.front();
    SmallVector<Operation *> pre;
    for (Operation &op : body->without_terminator()) {
      if (&op == inner.getOperation())
        break;
      pre.push_back(&op);
    }
    // Code after the inner loop, or with effects around it, would run once
    // per outer thread id instead of once per thread.
    if (inners.size() != 1 || inner->getNextNode() != body->getTerminator() ||
        llvm::any_of(pre, [](Operation *op) { return !isPure(op) || op->getNumRegions() != 0; }))
      return root.emitOpError("uop-emulate-gpu: cannot emulate a barrier under thread loops "
                              "with code between them that has effects");
    if (!inner)
      return root;
    b.setInsertionPoint(root);
    SmallVector<Value> lbs(root.getLowerBound()), ubs(root.getUpperBound()),
        steps(root.getStep());
    // The inner loop's bounds, from outside (constants defined between the
    // loops are cloned before them).
    auto hoist = [&](ValueRange vs, SmallVectorImpl<Value> &out) -> LogicalResult {
      for (Value v : vs) {
        if (!root->isAncestor(v.getParentRegion()->getParentOp())) {
          out.push_back(v);
          continue;
        }
        Operation *def = v.getDefiningOp();
        if (!def || !isPure(def) || def->getNumOperands() != 0)
          return root.emitOpError("uop-emulate-gpu: a thread loop whose size depends on "
                                  "another thread id");
        out.push_back(b.clone(*def)->getResult(0));
      }
      return success();
    };
    if (failed(hoist(inner.getLowerBound(), lbs)) || failed(hoist(inner.getUpperBound(), ubs)) ||
        failed(hoist(inner.getStep(), steps)))
      return failure();
    auto fused = scf::ParallelOp::create(b, root.getLoc(), lbs, ubs, steps);
    SmallVector<Attribute> mapping(root->getAttrOfType<ArrayAttr>(kMappingAttrName).getValue());
    llvm::append_range(mapping, inner->getAttrOfType<ArrayAttr>(kMappingAttrName).getValue());
    fused->setAttr(kMappingAttrName, b.getArrayAttr(mapping));
    fused->setAttr(kAxisAttrName, root->getAttr(kAxisAttrName));
    Operation *term = fused.getBody()->getTerminator();
    for (Operation *op : pre)
      op->moveBefore(term);
    SmallVector<Operation *> innerOps;
    for (Operation &op : inner.getBody()->without_terminator())
      innerOps.push_back(&op);
    for (Operation *op : innerOps)
      op->moveBefore(term);
    unsigned n = root.getNumLoops();
    for (auto [i, iv] : llvm::enumerate(root.getInductionVars()))
      iv.replaceAllUsesWith(fused.getInductionVars()[i]);
    for (auto [i, iv] : llvm::enumerate(inner.getInductionVars()))
      iv.replaceAllUsesWith(fused.getInductionVars()[n + i]);
    inner.erase();
    root.erase();
    root = fused;
  }
}

/// Per-thread allocas in the thread loop `region` become arrays at the
/// kernel's entry indexed by the thread ids first (their loads and stores
/// get the ids as leading indices), so that they survive the split.
LogicalResult Emulator::expandAllocas(scf::ParallelOp region) {
  SmallVector<memref::AllocaOp> allocas;
  region.walk([&](memref::AllocaOp a) { allocas.push_back(a); });
  for (memref::AllocaOp a : allocas) {
    MemRefType t = a.getType();
    if (!t.hasStaticShape() || !t.getLayout().isIdentity() || !a.getDynamicSizes().empty())
      return a.emitOpError("uop-emulate-gpu: a per-thread alloca of dynamic shape");
    SmallVector<int64_t> shape(threads);
    llvm::append_range(shape, t.getShape());
    Value wide = entryAlloca(MemRefType::get(shape, t.getElementType()));
    for (OpOperand &use : llvm::make_early_inc_range(a->getUses())) {
      Operation *user = use.getOwner();
      SmallVector<Value> idx(region.getInductionVars());
      b.setInsertionPoint(user);
      if (auto load = dyn_cast<memref::LoadOp>(user)) {
        llvm::append_range(idx, load.getIndices());
        auto l = memref::LoadOp::create(b, load.getLoc(), wide, idx);
        load.replaceAllUsesWith(l.getResult());
        load.erase();
      } else if (auto store = dyn_cast<memref::StoreOp>(user);
                 store && store.getMemRef() == a.getResult()) {
        llvm::append_range(idx, store.getIndices());
        memref::StoreOp::create(b, store.getLoc(), store.getValue(), wide, idx);
        store.erase();
      } else {
        return user->emitOpError("uop-emulate-gpu: a per-thread alloca used other than by "
                                 "loads and stores");
      }
    }
    a.erase();
  }
  return success();
}

/// `v`'s value in `to` by recomputing it there (pure ops only, of `from`'s
/// thread ids and of values from outside `from`); null when it cannot be.
Value Emulator::rematerialize(Value v, scf::ParallelOp from, scf::ParallelOp to, IRMapping &map,
                              OpBuilder &at, int depth) {
  if (Value m = map.lookupOrNull(v))
    return m;
  if (!from->isAncestor(v.getParentRegion()->getParentOp()))
    return v; // defined outside: visible in `to` too
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (arg.getOwner() != from.getBody())
      return {};
    Value iv = to.getInductionVars()[arg.getArgNumber()];
    map.map(v, iv);
    return iv;
  }
  Operation *op = v.getDefiningOp();
  if (depth > kMaxRematerializeDepth || op->getBlock() != from.getBody() || !isPure(op) ||
      op->getNumRegions() != 0)
    return {};
  for (Value operand : op->getOperands())
    if (!rematerialize(operand, from, to, map, at, depth + 1))
      return {};
  Operation *clone = at.clone(*op, map);
  return clone->getResult(cast<OpResult>(v).getResultNumber());
}

/// Values of `def`'s top-level ops used in the loops `users` are recomputed
/// there or passed through a per-thread array.
LogicalResult Emulator::fixCrossings(scf::ParallelOp def, ArrayRef<scf::ParallelOp> users) {
  llvm::MapVector<Value, Value> spilled; // value -> its array
  for (scf::ParallelOp to : users) {
    OpBuilder at(to.getBody(), to.getBody()->begin());
    IRMapping map;
    SmallVector<Operation *> defs;
    for (Operation &op : def.getBody()->without_terminator())
      defs.push_back(&op);
    for (Operation *opp : defs) {
      Operation &op = *opp;
      for (Value r : op.getResults()) {
        bool used = llvm::any_of(r.getUses(), [&](OpOperand &u) {
          return to->isProperAncestor(u.getOwner());
        });
        if (!used)
          continue;
        Value repl = rematerialize(r, def, to, map, at, 0);
        if (!repl) {
          Type t = r.getType();
          if (!t.isIntOrIndexOrFloat())
            return op.emitOpError("uop-emulate-gpu: a value of type ")
                   << t << " lives across a barrier";
          Value &array = spilled[r];
          if (!array) {
            SmallVector<int64_t> shape(threads);
            array = entryAlloca(MemRefType::get(shape, t));
            OpBuilder after(op.getContext());
            after.setInsertionPointAfter(&op);
            memref::StoreOp::create(after, op.getLoc(), r, array, def.getInductionVars());
          }
          repl = memref::LoadOp::create(at, op.getLoc(), array, to.getInductionVars());
        }
        r.replaceUsesWithIf(repl,
                            [&](OpOperand &u) { return to->isProperAncestor(u.getOwner()); });
      }
    }
  }
  return success();
}

/// Splits `par` at its first barrier (or loop with a barrier); the loops
/// that may hold more barriers go on `work`.
LogicalResult Emulator::split(scf::ParallelOp par, SmallVectorImpl<scf::ParallelOp> &work) {
  SmallVector<Operation *> before, after;
  Operation *at = nullptr;
  for (Operation &op : par.getBody()->without_terminator()) {
    if (at)
      after.push_back(&op);
    else if (isa<gpu::BarrierOp>(op) || containsBarrier(&op))
      at = &op;
    else
      before.push_back(&op);
  }
  if (!at)
    return success();
  b.setInsertionPoint(par);
  if (isa<gpu::BarrierOp>(at)) {
    scf::ParallelOp first = emptyLike(par);
    moveInto(par, before, first);
    scf::ParallelOp second = emptyLike(par);
    moveInto(par, after, second);
    at->erase();
    par.erase();
    work.push_back(second);
    return fixCrossings(first, {second});
  }
  auto loop = dyn_cast<scf::ForOp>(at);
  if (!loop) {
    InFlightDiagnostic d = at->emitOpError(
        "uop-emulate-gpu: a barrier under a condition cannot be emulated (all threads must "
        "reach each barrier)");
    return d;
  }
  if (loop.getNumResults() != 0)
    return loop.emitOpError("uop-emulate-gpu: a barrier in a loop that carries values");
  // The loop runs the same steps in every thread (a barrier in it says so):
  // its bounds must not depend on the thread.
  scf::ParallelOp first = emptyLike(par);
  moveInto(par, before, first);
  IRMapping boundsMap;
  SmallVector<Value> bounds;
  for (Value v : {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()}) {
    // Recomputed just before the loop, outside every thread loop.
    Value outside = v;
    Operation *owner = v.getParentRegion()->getParentOp();
    if (first->isAncestor(owner) || par->isAncestor(owner)) {
      Operation *op = v.getDefiningOp();
      if (!op || !isPure(op) || op->getNumOperands() != 0)
        return loop.emitOpError("uop-emulate-gpu: a loop with a barrier has bounds that "
                                "depend on the thread");
      outside = b.clone(*op)->getResult(0);
    }
    bounds.push_back(outside);
  }
  auto serial = scf::ForOp::create(b, loop.getLoc(), bounds[0], bounds[1], bounds[2]);
  serial->setAttrs(loop->getAttrs());
  b.setInsertionPoint(serial.getBody()->getTerminator());
  scf::ParallelOp inner = emptyLike(par);
  SmallVector<Operation *> body;
  for (Operation &op : loop.getBody()->without_terminator())
    body.push_back(&op);
  Operation *term = inner.getBody()->getTerminator();
  for (Operation *op : body)
    op->moveBefore(term);
  loop.getInductionVar().replaceAllUsesWith(serial.getInductionVar());
  for (auto [oldIv, newIv] : llvm::zip(par.getInductionVars(), inner.getInductionVars()))
    oldIv.replaceUsesWithIf(newIv,
                            [&](OpOperand &use) { return inner->isProperAncestor(use.getOwner()); });
  b.setInsertionPointAfter(serial);
  scf::ParallelOp rest = emptyLike(par);
  moveInto(par, after, rest);
  loop.erase();
  par.erase();
  work.push_back(inner);
  work.push_back(rest);
  return fixCrossings(first, {inner, rest});
}

LogicalResult Emulator::processRegion(scf::ParallelOp root) {
  FailureOr<scf::ParallelOp> region = collapse(root);
  if (failed(region))
    return failure();
  threads.clear();
  for (auto [lb, ub, step] :
       llvm::zip(region->getLowerBound(), region->getUpperBound(), region->getStep())) {
    std::optional<int64_t> l = getConstantIntValue(lb), u = getConstantIntValue(ub),
                           s = getConstantIntValue(step);
    if (!l || !u || !s || *l != 0 || *s != 1)
      return region->emitOpError("uop-emulate-gpu: a block size that is not a constant");
    threads.push_back(*u);
  }
  if (failed(expandAllocas(*region)))
    return failure();
  SmallVector<scf::ParallelOp> work{*region};
  while (!work.empty()) {
    scf::ParallelOp par = work.pop_back_val();
    if (failed(split(par, work)))
      return failure();
  }
  return success();
}

/// Every GPU-mapped scf.parallel becomes a nest of serial scf.for loops.
void Emulator::serialize() {
  SmallVector<scf::ParallelOp> loops;
  func.walk([&](scf::ParallelOp p) {
    if (isGpuLoop(p))
      loops.push_back(p);
  });
  for (scf::ParallelOp p : loops) {
    b.setInsertionPoint(p);
    SmallVector<Value> ivs;
    Block *body = nullptr;
    for (auto [lb, ub, step] : llvm::zip(p.getLowerBound(), p.getUpperBound(), p.getStep())) {
      auto f = scf::ForOp::create(b, p.getLoc(), lb, ub, step);
      ivs.push_back(f.getInductionVar());
      body = f.getBody();
      b.setInsertionPoint(body->getTerminator());
    }
    SmallVector<Operation *> ops;
    for (Operation &op : p.getBody()->without_terminator())
      ops.push_back(&op);
    for (Operation *op : ops)
      op->moveBefore(body->getTerminator());
    for (auto [oldIv, newIv] : llvm::zip(p.getInductionVars(), ivs))
      oldIv.replaceAllUsesWith(newIv);
    p.erase();
  }
}

LogicalResult Emulator::run() {
  // The outermost thread loops that hold a barrier, each one block of threads.
  SmallVector<scf::ParallelOp> roots;
  func.walk<WalkOrder::PreOrder>([&](scf::ParallelOp p) {
    if (!isThreadLoop(p))
      return WalkResult::advance();
    if (containsBarrier(p))
      roots.push_back(p);
    return WalkResult::skip();
  });
  for (scf::ParallelOp root : roots)
    if (failed(processRegion(root)))
      return failure();

  // Left: barriers outside thread loops (a block of one thread): no-ops.
  WalkResult left = func.walk([&](gpu::BarrierOp bar) {
    for (Operation *p = bar->getParentOp(); p; p = p->getParentOp())
      if (isThreadLoop(p)) {
        bar.emitOpError("uop-emulate-gpu: a barrier left inside a thread loop");
        return WalkResult::interrupt();
      }
    bar.erase();
    return WalkResult::advance();
  });
  if (left.wasInterrupted())
    return failure();
  serialize();

  // Workgroup memory: one ordinary array, used by one block at a time;
  // the views of it (memref.view of a byte buffer) are views of that array.
  SmallVector<Value> work;
  func.walk([&](memref::AllocaOp a) { work.push_back(a.getResult()); });
  while (!work.empty()) {
    Value v = work.pop_back_val();
    auto t = cast<MemRefType>(v.getType());
    if (!isa_and_nonnull<gpu::AddressSpaceAttr>(t.getMemorySpace()))
      continue;
    v.setType(MemRefType::get(t.getShape(), t.getElementType(), t.getLayout()));
    for (Operation *user : v.getUsers())
      if (auto view = dyn_cast<ViewLikeOpInterface>(user); view && view.getViewSource() == v)
        for (Value r : user->getResults())
          if (isa<MemRefType>(r.getType()))
            work.push_back(r);
  }
  return success();
}

struct UopEmulateGPUPass : mlir::uop::impl::UopEmulateGPUPassBase<UopEmulateGPUPass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(Emulator(getOperation()).run()))
      signalPassFailure();
  }
};

} // namespace
