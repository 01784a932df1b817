//===- UopComposite.cpp - composite movement ops ---------------*- C++ -*-===//
//
// A line-by-line port of uopc/composite.py.
//
//===----------------------------------------------------------------------===//

#include "Uop/IR/UopComposite.h"
#include "Uop/IR/UopOps.h"

using namespace mlir;
using namespace mlir::uop;

static Value reshape(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> shape) {
  return ReshapeOp::create(b, loc, x, b.getDenseI64ArrayAttr(shape));
}
static Value expand(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> shape) {
  return ExpandOp::create(b, loc, x, b.getDenseI64ArrayAttr(shape));
}
static Value permute(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> perm) {
  return PermuteOp::create(b, loc, x, b.getDenseI64ArrayAttr(perm));
}
static Value shrink(OpBuilder &b, Location loc, Value x,
                    ArrayRef<std::pair<int64_t, int64_t>> bounds) {
  SmallVector<int64_t> flat;
  for (auto [lo, hi] : bounds) {
    flat.push_back(lo);
    flat.push_back(hi);
  }
  return ShrinkOp::create(b, loc, x, b.getDenseI64ArrayAttr(flat));
}

/// UOp.const(v, dtype): a scalar literal of a uop dtype.
static Value constOf(OpBuilder &b, Location loc, double v, Type dtype) {
  if (isFloatDType(dtype))
    return ConstOp::create(b, loc, b.getFloatAttr(dtype, v));
  if (dtype.isInteger(1))
    return ConstOp::create(b, loc, b.getBoolAttr(v != 0));
  return ConstOp::create(b, loc, b.getIntegerAttr(dtype, static_cast<int64_t>(v)));
}

Value mlir::uop::zerosLike(OpBuilder &b, Location loc, Value x) {
  ArrayRef<int64_t> shape = getShape(x.getType());
  Value z = constOf(b, loc, 0, getDType(x.getType()));
  if (shape.empty())
    return z;
  SmallVector<int64_t> ones(shape.size(), 1);
  return expand(b, loc, reshape(b, loc, z, ones), shape);
}

Value mlir::uop::moveAxis(OpBuilder &b, Location loc, Value x, int64_t src, int64_t dst) {
  int64_t rank = getShape(x.getType()).size();
  SmallVector<int64_t> order;
  for (int64_t i = 0; i < rank; ++i)
    if (i != src)
      order.push_back(i);
  order.insert(order.begin() + dst, src);
  for (int64_t i = 0; i < rank; ++i)
    if (order[i] != i)
      return permute(b, loc, x, order);
  return x;
}

Value mlir::uop::concat2(OpBuilder &b, Location loc, Value a, Value c, int64_t axis) {
  SmallVector<int64_t> shape(getShape(a.getType()));
  Value s = StackOp::create(b, loc, ValueRange{a, c}); // (2, *shape)
  s = moveAxis(b, loc, s, 0, axis);                    // (..., 2, n, ...)
  shape[axis] *= 2;
  return reshape(b, loc, s, shape);
}

static Value shrinkAxis(OpBuilder &b, Location loc, Value x, int64_t axis, int64_t lo, int64_t hi) {
  ArrayRef<int64_t> shape = getShape(x.getType());
  if (lo == 0 && hi == shape[axis])
    return x;
  SmallVector<std::pair<int64_t, int64_t>> bounds;
  for (int64_t s : shape)
    bounds.push_back({0, s});
  bounds[axis] = {lo, hi};
  return shrink(b, loc, x, bounds);
}

Value mlir::uop::padAxis(OpBuilder &b, Location loc, Value x, int64_t axis, int64_t before,
                         int64_t after) {
  while (after > 0) {
    int64_t n = getShape(x.getType())[axis];
    x = shrinkAxis(b, loc, concat2(b, loc, x, zerosLike(b, loc, x), axis), axis, 0,
                   n + std::min(after, n));
    after -= std::min(after, n);
  }
  while (before > 0) {
    int64_t n = getShape(x.getType())[axis];
    x = shrinkAxis(b, loc, concat2(b, loc, zerosLike(b, loc, x), x, axis), axis,
                   n - std::min(before, n), 2 * n);
    before -= std::min(before, n);
  }
  return x;
}

Value mlir::uop::pad(OpBuilder &b, Location loc, Value x,
                     ArrayRef<std::pair<int64_t, int64_t>> pads) {
  for (auto [axis, p] : llvm::enumerate(pads))
    x = padAxis(b, loc, x, axis, p.first, p.second);
  return x;
}

Value mlir::uop::antiEye(OpBuilder &b, Location loc, int64_t n, Type dtype) {
  if (n == 1)
    return reshape(b, loc, constOf(b, loc, 1, dtype), {1, 1});
  Value one = reshape(b, loc, constOf(b, loc, 1, dtype), {1});
  Value u = padAxis(b, loc, one, 0, n - 1, n - 1); // (2n-1,)
  Value m = reshape(b, loc, u, {1, 2 * n - 1});
  m = expand(b, loc, m, {n + 1, 2 * n - 1});
  m = reshape(b, loc, m, {(n + 1) * (2 * n - 1)});
  m = reshape(b, loc, shrink(b, loc, m, {{0, n * 2 * n}}), {n, 2 * n});
  return shrink(b, loc, m, {{0, n}, {0, n}});
}

Value mlir::uop::flipAxis(OpBuilder &b, Location loc, Value x, int64_t axis) {
  ArrayRef<int64_t> shape = getShape(x.getType());
  int64_t n = shape[axis], rank = shape.size();
  if (n == 1)
    return x;
  Value xl = moveAxis(b, loc, x, axis, rank - 1); // (..., n)
  SmallVector<int64_t> lead(getShape(xl.getType()).drop_back());
  SmallVector<int64_t> lead1n(lead), leadnn(lead), ones(lead.size(), 1);
  lead1n.append({1, n});
  leadnn.append({n, n});
  ones.append({n, n});
  Value xe = expand(b, loc, reshape(b, loc, xl, lead1n), leadnn);
  Value m =
      expand(b, loc, reshape(b, loc, antiEye(b, loc, n, getDType(x.getType())), ones), leadnn);
  Value y = ReduceOp::create(b, loc, MulOp::create(b, loc, xe, m),
                             ReduceKindAttr::get(b.getContext(), ReduceKind::Add),
                             b.getI64IntegerAttr(1)); // (..., n)
  return moveAxis(b, loc, y, rank - 1, axis);
}

Value mlir::uop::sumTo(OpBuilder &b, Location loc, Value g, ArrayRef<int64_t> shape) {
  ArrayRef<int64_t> gs = getShape(g.getType());
  SmallVector<int64_t> axes, keep;
  for (size_t i = 0; i < gs.size() && i < shape.size(); ++i)
    (gs[i] != shape[i] ? axes : keep).push_back(i);
  if (axes.empty())
    return g;
  SmallVector<int64_t> perm(keep);
  perm.append(axes);
  Value r = ReduceOp::create(b, loc, permute(b, loc, g, perm),
                             ReduceKindAttr::get(b.getContext(), ReduceKind::Add),
                             b.getI64IntegerAttr(axes.size()));
  return reshape(b, loc, r, shape);
}
