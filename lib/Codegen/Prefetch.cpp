//===- Prefetch.cpp - prefetch strided loads of innermost loops --*- C++ -*-===//
//
// uop-prefetch applies `#uop.opts<prefetch = d>` to a linearized kernel:
// the loads of its innermost loops that touch a new cache line every
// iteration are prefetched d iterations ahead. uop-prefetch-to-nvvm gives
// those prefetches an instruction on the GPU, where NVPTX drops
// llvm.prefetch.
//
//===----------------------------------------------------------------------===//

#include "Uop/Conversion/Passes.h"

#include "LoopAccess.h"
#include "Uop/IR/UopOps.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

#include <map>

namespace mlir::uop {
#define GEN_PASS_DEF_UOPPREFETCHPASS
#define GEN_PASS_DEF_UOPPREFETCHTONVVMPASS
#include "Uop/Conversion/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {

/// The bytes of a cache line: of the GPU's L1 and L2 (128), a multiple of
/// the CPU's (64).
constexpr int64_t kLineBytes = 128;

/// Prefetches the strided buffer loads of `loop` `distance` iterations
/// ahead.
void prefetchLoop(scf::ForOp loop, int64_t distance) {
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
    if (!f || std::abs(f->coefs[0]) * *step * elemBytes < kLineBytes)
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
    int64_t lineElems = std::max<int64_t>(1, kLineBytes / g.elemBytes);
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
    SmallVector<scf::ForOp> innermost;
    func.walk([&](scf::ForOp loop) {
      if (isInnermost(loop))
        innermost.push_back(loop);
    });
    for (scf::ForOp loop : innermost)
      prefetchLoop(loop, opts.getPrefetch());
  }
};

struct UopPrefetchToNVVMPass : mlir::uop::impl::UopPrefetchToNVVMPassBase<UopPrefetchToNVVMPass> {
  void runOnOperation() override {
    SmallVector<LLVM::Prefetch> prefetches;
    getOperation().walk([&](LLVM::Prefetch p) { prefetches.push_back(p); });
    for (LLVM::Prefetch p : prefetches) {
      OpBuilder b(p);
      // A read of data: PTX's prefetch has no write or instruction hint.
      if (p.getRw() == 0 && p.getCache() == 1) {
        Value ptr = p.getAddr();
        auto global = LLVM::LLVMPointerType::get(b.getContext(), /*addressSpace=*/1);
        if (cast<LLVM::LLVMPointerType>(ptr.getType()).getAddressSpace() == 0)
          ptr = LLVM::AddrSpaceCastOp::create(b, p.getLoc(), global, ptr);
        NVVM::PrefetchOp::create(
            b, p.getLoc(), NVVM::PrefetchCacheLevelAttr::get(b.getContext(),
                                                             NVVM::PrefetchCacheLevel::L1),
            /*evictPriority=*/nullptr, ptr, /*predicate=*/nullptr);
      }
      p.erase();
    }
  }
};

} // namespace
