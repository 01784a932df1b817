//===- Stash.cpp - read back what a reduce loop computed ---------*- C++ -*-===//
//
// uop-stash applies `#uop.opts<stash>` to a linearized kernel: a value the
// store loop recomputes from what an earlier reduce loop computed in the
// same iteration (fused softmax's exp2) is stored into the output by the
// reduce loop and loaded back by the store loop. See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "Uop/Codegen/Passes.h"
#include "Uop/IR/UopOps.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPSTASHPASS
#include "Uop/Codegen/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {

/// Whether the loops run the same iterations: equal bounds and step (the
/// same values, or equal constants).
bool sameIterations(scf::ForOp a, scf::ForOp b) {
  auto same = [](Value x, Value y) {
    if (x == y)
      return true;
    APInt cx, cy;
    return matchPattern(x, m_ConstantInt(&cx)) && matchPattern(y, m_ConstantInt(&cy)) && cx == cy;
  };
  return same(a.getLowerBound(), b.getLowerBound()) && same(a.getUpperBound(), b.getUpperBound()) &&
         same(a.getStep(), b.getStep());
}

/// Decides whether a value of the later loop `late` equals, in every
/// iteration, a value of the earlier loop `early` (the same op tree over
/// the induction variables, reading only `readOnly` buffers).
class Equivalence {
public:
  Equivalence(scf::ForOp early, scf::ForOp late, const llvm::DenseSet<Value> &readOnly)
      : early(early), late(late), readOnly(readOnly) {}

  bool equal(Value l, Value e) {
    if (l == e)
      return true;
    if (l == late.getInductionVar() || e == early.getInductionVar())
      return l == late.getInductionVar() && e == early.getInductionVar();
    auto key = std::make_pair(l, e);
    if (auto it = memo.find(key); it != memo.end())
      return it->second;
    memo[key] = false; // (an op tree has no cycles; this only guards)
    bool eq = equalOps(l, e);
    memo[key] = eq;
    return eq;
  }

private:
  bool equalOps(Value l, Value e) {
    Operation *lo = l.getDefiningOp(), *eo = e.getDefiningOp();
    if (!lo || !eo || lo->getName() != eo->getName() || lo->getNumRegions() ||
        eo->getNumRegions() || lo->getAttrDictionary() != eo->getAttrDictionary() ||
        lo->getResultTypes() != eo->getResultTypes() ||
        lo->getNumOperands() != eo->getNumOperands() ||
        cast<OpResult>(l).getResultNumber() != cast<OpResult>(e).getResultNumber())
      return false;
    if (auto load = dyn_cast<memref::LoadOp>(lo)) {
      // A load gives the same value in both loops only from a buffer that
      // nothing in the kernel writes.
      if (!readOnly.contains(load.getMemRef()))
        return false;
    } else if (!isMemoryEffectFree(lo)) {
      return false;
    }
    for (auto [lv, ev] : llvm::zip(lo->getOperands(), eo->getOperands()))
      if (!equal(lv, ev))
        return false;
    return true;
  }

  scf::ForOp early, late;
  const llvm::DenseSet<Value> &readOnly;
  llvm::DenseMap<std::pair<Value, Value>, bool> memo;
};

/// The ops of `late`'s body that compute `v` from its induction variable and
/// values defined outside it, in order; failure where any is not pure.
FailureOr<SmallVector<Operation *>> indexChain(Value v, scf::ForOp late) {
  llvm::SetVector<Operation *> chain;
  SmallVector<Value> work{v};
  while (!work.empty()) {
    Value x = work.pop_back_val();
    Operation *def = x.getDefiningOp();
    if (!def || !late->isProperAncestor(def))
      continue; // the induction variable, or from outside the loop
    if (def->getBlock() != late.getBody() || !isMemoryEffectFree(def) || def->getNumRegions())
      return failure();
    if (chain.insert(def))
      llvm::append_range(work, def->getOperands());
  }
  SmallVector<Operation *> ops = chain.takeVector();
  llvm::sort(ops, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return ops;
}

/// `index` computed again at the builder's point, in the loop `to` (the
/// induction variable of `from` replaced by that of `to`).
Value cloneIndex(OpBuilder &b, Value index, ArrayRef<Operation *> chain, scf::ForOp from,
                 scf::ForOp to) {
  IRMapping map;
  map.map(from.getInductionVar(), to.getInductionVar());
  for (Operation *op : chain)
    b.clone(*op, map);
  return map.lookupOrDefault(index);
}

struct UopStashPass : mlir::uop::impl::UopStashPassBase<UopStashPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    auto opts = func->getAttrOfType<OptsAttr>(kOptsAttrName);
    if (!opts || !opts.getStash() || func.isDeclaration())
      return;
    // Buffers the kernel never writes (their loads are the same in every
    // loop), and outputs written only by plain stores and never read.
    llvm::DenseSet<Value> readOnly;
    SmallVector<Value> outputs;
    for (BlockArgument arg : func.getArguments()) {
      if (!isa<MemRefType>(arg.getType()))
        continue;
      bool loads = false, stores = false, other = false;
      for (Operation *user : arg.getUsers()) {
        if (isa<memref::LoadOp>(user))
          loads = true;
        else if (auto st = dyn_cast<memref::StoreOp>(user); st && st.getMemRef() == arg)
          stores = true;
        else
          other = true;
      }
      if (!stores && !other)
        readOnly.insert(arg);
      else if (stores && !loads && !other)
        outputs.push_back(arg);
    }
    for (Value out : outputs)
      stashInto(out, readOnly);
  }

  void stashInto(Value out, const llvm::DenseSet<Value> &readOnly) {
    // The output's stores, by loop; all of them must be in loops' bodies.
    llvm::MapVector<scf::ForOp, SmallVector<memref::StoreOp>> byLoop;
    for (Operation *user : out.getUsers()) {
      auto store = cast<memref::StoreOp>(user);
      auto loop = dyn_cast<scf::ForOp>(store->getParentOp());
      if (!loop || store.getIndices().size() != 1)
        return;
      byLoop[loop].push_back(store);
    }
    Type elem = cast<MemRefType>(out.getType()).getElementType();
    for (auto &[late, stores] : byLoop) {
      for (memref::StoreOp store : stores) {
        FailureOr<SmallVector<Operation *>> chain = indexChain(store.getIndices()[0], late);
        if (failed(chain))
          continue;
        // Earlier sibling loops that run the same iterations.
        for (Operation *prev = late->getPrevNode(); prev; prev = prev->getPrevNode()) {
          auto early = dyn_cast<scf::ForOp>(prev);
          if (!early || !sameIterations(early, late))
            continue;
          if (stash(store, *chain, early, late, elem, readOnly))
            break;
        }
      }
    }
  }

  /// Finds the largest part of `store`'s value that `early` computes in the
  /// same iteration, stores it from `early` into the element `store` writes
  /// and loads it back in `late`. False when there is none.
  bool stash(memref::StoreOp store, ArrayRef<Operation *> chain, scf::ForOp early, scf::ForOp late,
             Type elem, const llvm::DenseSet<Value> &readOnly) {
    Equivalence eq(early, late, readOnly);
    // Breadth first from the stored value: the first match is the largest.
    SmallVector<Value> work{store.getValue()};
    llvm::SmallPtrSet<Operation *, 16> seen;
    for (size_t i = 0; i < work.size(); ++i) {
      Value v = work[i];
      Operation *def = v.getDefiningOp();
      if (!def || def->getBlock() != late.getBody() || !seen.insert(def).second)
        continue;
      if (isa<memref::LoadOp>(def) || !isMemoryEffectFree(def) || def->getNumRegions())
        continue; // nothing to save in re-reading a load
      if (v.getType() == elem) {
        for (Operation &op : early.getBody()->without_terminator()) {
          if (op.getName() != def->getName() || op.getNumResults() != def->getNumResults())
            continue;
          Value match = op.getResult(cast<OpResult>(v).getResultNumber());
          if (!eq.equal(v, match))
            continue;
          OpBuilder b(&op);
          b.setInsertionPointAfter(&op);
          Value idx = cloneIndex(b, store.getIndices()[0], chain, late, early);
          memref::StoreOp::create(b, store.getLoc(), match, store.getMemRef(), idx);
          b.setInsertionPoint(def);
          Value back = cloneIndex(b, store.getIndices()[0], chain, late, late);
          Value load = memref::LoadOp::create(b, def->getLoc(), store.getMemRef(), back);
          v.replaceAllUsesWith(load);
          eraseDead(late);
          ++numStashed;
          return true;
        }
      }
      llvm::append_range(work, def->getOperands());
    }
    return false;
  }

  /// Erases the ops of `loop`'s body left without uses: one pass from the
  /// end, as an op's users come after it in the block.
  static void eraseDead(scf::ForOp loop) {
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(loop.getBody()->getOperations())))
      if (isOpTriviallyDead(&op))
        op.erase();
  }
};
} // namespace
