//===- LoopAccess.cpp - buffer loads and their indices in loops --*- C++ -*-===//

#include "LoopAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::uop;

void LinearIndex::add(const LinearIndex &o, int64_t scale) {
  for (auto [i, c] : llvm::enumerate(o.coefs))
    coefs[i] += c * scale;
  cst += o.cst * scale;
  for (auto [v, m] : o.terms)
    terms[v] += m * scale;
}

SmallVector<std::pair<const void *, int64_t>> LinearIndex::key() const {
  SmallVector<std::pair<const void *, int64_t>> k;
  for (int64_t c : coefs)
    k.push_back({nullptr, c});
  for (auto [v, m] : terms)
    if (m)
      k.push_back({v, m});
  return k;
}

/// Whether `v` is defined inside `scope` (by an op in it, or as an
/// argument of one of its blocks).
static bool definedInside(Value v, Operation *scope) {
  Operation *owner = isa<BlockArgument>(v) ? cast<BlockArgument>(v).getOwner()->getParentOp()
                                           : v.getDefiningOp();
  return owner && scope->isAncestor(owner) && (owner != scope || isa<BlockArgument>(v));
}

/// Recursion depth is bounded (past it a value is a term if it may be one):
/// index math is a short chain.
static std::optional<LinearIndex> linearIndexIn(Value v, ArrayRef<Value> ivs, Operation *scope,
                                                int depth) {
  LinearIndex f;
  f.coefs.assign(ivs.size(), 0);
  APInt c;
  if (matchPattern(v, m_ConstantInt(&c))) {
    f.cst = c.getSExtValue();
    return f;
  }
  if (auto it = llvm::find(ivs, v); it != ivs.end()) {
    f.coefs[it - ivs.begin()] = 1;
    return f;
  }
  // Index math is decomposed down to its atoms inside the scope and outside
  // it alike, so that the upcast copies of one load, each with its own copy
  // of the invariant math, compare equal.
  Operation *op = v.getDefiningOp();
  bool invariant = !definedInside(v, scope);
  auto atom = [&]() -> std::optional<LinearIndex> {
    if (!invariant)
      return std::nullopt;
    f.terms[v.getAsOpaquePointer()] = 1;
    return f;
  };
  if (!op || depth > 32)
    return atom();
  if (isa<arith::IndexCastOp, arith::ExtSIOp>(op)) {
    if (auto a = linearIndexIn(op->getOperand(0), ivs, scope, depth + 1))
      return a;
    return atom();
  }
  if (isa<arith::AddIOp, arith::SubIOp>(op)) {
    auto a = linearIndexIn(op->getOperand(0), ivs, scope, depth + 1);
    auto b = linearIndexIn(op->getOperand(1), ivs, scope, depth + 1);
    if (!a || !b)
      return atom();
    a->add(*b, isa<arith::SubIOp>(op) ? -1 : 1);
    return a;
  }
  if (isa<arith::MulIOp>(op)) {
    for (unsigned i = 0; i < 2; ++i)
      if (matchPattern(op->getOperand(i), m_ConstantInt(&c))) {
        auto a = linearIndexIn(op->getOperand(1 - i), ivs, scope, depth + 1);
        if (!a)
          return atom();
        f.add(*a, c.getSExtValue());
        return f;
      }
  }
  return atom();
}

std::optional<LinearIndex> mlir::uop::linearIndexIn(Value v, ArrayRef<Value> ivs,
                                                    Operation *scope) {
  return ::linearIndexIn(v, ivs, scope, 0);
}

bool mlir::uop::isInnermost(scf::ForOp loop) {
  return !loop.getBody()
              ->walk([](Operation *op) {
                return isa<scf::ForOp, scf::ParallelOp, scf::WhileOp>(op) ? WalkResult::interrupt()
                                                                          : WalkResult::advance();
              })
              .wasInterrupted();
}

int64_t BufferLoad::elemBytes() const {
  Type elem = cast<MemRefType>(memref.getType()).getElementType();
  return std::max<int64_t>(1, elem.getIntOrFloatBitWidth() / 8);
}

std::optional<BufferLoad> mlir::uop::asBufferLoad(Operation *op) {
  BufferLoad l{op, nullptr, nullptr, 1};
  if (auto load = dyn_cast<memref::LoadOp>(op)) {
    l.memref = load.getMemref();
    if (load.getIndices().size() != 1)
      return std::nullopt;
    l.index = load.getIndices()[0];
  } else if (auto load = dyn_cast<vector::LoadOp>(op)) {
    l.memref = load.getBase();
    if (load.getIndices().size() != 1 || load.getVectorType().getRank() != 1)
      return std::nullopt;
    l.index = load.getIndices()[0];
    l.width = load.getVectorType().getNumElements();
  } else {
    return std::nullopt;
  }
  if (!isa<BlockArgument>(l.memref) ||
      !isa<func::FuncOp>(cast<BlockArgument>(l.memref).getOwner()->getParentOp()))
    return std::nullopt;
  return l;
}
