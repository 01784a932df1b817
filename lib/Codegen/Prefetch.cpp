//===- Prefetch.cpp - prefetch strided loads of innermost loops --*- C++ -*-===//
//
// uop-prefetch applies `#uop.opts<prefetch = d>` to a linearized kernel:
// the loads of its innermost loops that touch a new cache line every
// iteration are prefetched d iterations ahead (on the GPU,
// uop-prefetch-to-nvvm gives them an instruction).
//
//===----------------------------------------------------------------------===//

#include "Uop/Codegen/Passes.h"

#include "Uop/IR/UopTarget.h"

#include "LoopAccess.h"
#include "Uop/IR/UopOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

#include <map>

namespace mlir::uop {
#define GEN_PASS_DEF_UOPPREFETCHPASS
#include "Uop/Codegen/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {

/// Prefetches the strided buffer loads of `loop` `distance` iterations
/// ahead.
void prefetchLoop(scf::ForOp loop, int64_t distance, int64_t lineBytes) {
  Type ivType = loop.getInductionVar().getType();
  if (!ivType.isSignlessIntOrIndex())
    return;
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!step || *step <= 0)
    return;

  // Groups of loads of one buffer whose indices differ by a constant, in
  // the order of their first load.
  struct Group {
    int64_t coef, elemBytes;
    SmallVector<std::pair<int64_t, BufferLoad>> loads; // by constant offset
  };
  SmallVector<Group> groups;
  std::map<std::pair<const void *, SmallVector<std::pair<const void *, int64_t>>>, unsigned>
      groupOf;
  for (Operation &op : *loop.getBody()) {
    std::optional<BufferLoad> l = asBufferLoad(&op);
    if (!l)
      continue;
    std::optional<LinearIndex> f = linearIndexIn(l->index, loop.getInductionVar(), loop);
    int64_t elemBytes = l->elemBytes();
    if (!f || std::abs(f->coefs[0]) * *step * elemBytes < lineBytes)
      continue;
    auto key = std::make_pair(l->memref.getAsOpaquePointer(), f->key());
    auto [it, inserted] = groupOf.try_emplace(key, groups.size());
    if (inserted)
      groups.push_back({f->coefs[0], elemBytes, {}});
    groups[it->second].loads.push_back({f->cst, *l});
  }
  if (groups.empty())
    return;

  // How far ahead this iteration prefetches: d steps, but no further than
  // the last iteration (ub - 1 - iv >= 0 inside the loop; no overflow).
  OpBuilder b(loop.getBody(), loop.getBody()->begin());
  Location loc = loop.getLoc();
  auto cst = [&](int64_t v) -> Value {
    if (ivType.isIndex())
      return arith::ConstantIndexOp::create(b, loc, v);
    return arith::ConstantIntOp::create(b, loc, ivType, v);
  };
  Value left = arith::SubIOp::create(
      b, loc, arith::SubIOp::create(b, loc, loop.getUpperBound(), cst(1)),
      loop.getInductionVar());
  Value ahead = arith::MinSIOp::create(b, loc, cst(distance * *step), left);
  if (!ivType.isIndex())
    ahead = arith::IndexCastOp::create(b, loc, b.getIndexType(), ahead);

  for (Group &g : groups) {
    llvm::stable_sort(g.loads, [](auto &x, auto &y) { return x.first < y.first; });
    int64_t lineElems = std::max<int64_t>(1, lineBytes / g.elemBytes);
    int64_t covered = INT64_MIN;
    for (auto &[offset, l] : g.loads) {
      if (covered != INT64_MIN && offset + l.width <= covered)
        continue;
      // One prefetch for the line at `offset`; the next needed is a line on.
      covered = offset + lineElems;
      b.setInsertionPoint(l.op);
      Value delta = arith::MulIOp::create(b, loc, ahead,
                                          arith::ConstantIndexOp::create(b, loc, g.coef));
      Value index = arith::AddIOp::create(b, loc, l.index, delta);
      memref::PrefetchOp::create(b, loc, l.memref, ValueRange{index}, /*isWrite=*/false,
                                 /*localityHint=*/3, /*isDataCache=*/true);
    }
  }
}

struct UopPrefetchPass : mlir::uop::impl::UopPrefetchPassBase<UopPrefetchPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    auto opts = func->getAttrOfType<OptsAttr>(kOptsAttrName);
    if (!opts || opts.getPrefetch() == 0)
      return;
    // The cache line of the target (a GPU's L1 and L2: 128 bytes; a CPU's
    // 64): a load is prefetched when it moves to a new line every iteration,
    // one prefetch per line.
    TargetAttr target = getTarget(func);
    int64_t lineBytes = target && target.getCacheLine() ? target.getCacheLine() : 64;
    SmallVector<scf::ForOp> innermost;
    func.walk([&](scf::ForOp loop) {
      if (isInnermost(loop))
        innermost.push_back(loop);
    });
    for (scf::ForOp loop : innermost)
      prefetchLoop(loop, opts.getPrefetch(), lineBytes);
  }
};

} // namespace
