//===- Lanes.cpp - values across uop-linearize's vector lanes ---*- C++ -*-===//

#include "Lanes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

Value mlir::uop::lanesOf(OpBuilder &b, Value v, int64_t width) {
  if (isa<VectorType>(v.getType()))
    return v;
  return vector::BroadcastOp::create(b, v.getLoc(), VectorType::get({width}, v.getType()), v);
}

Value mlir::uop::lanesLike(OpBuilder &b, Value like, Value v) {
  auto lanes = dyn_cast<VectorType>(like.getType());
  return lanes ? lanesOf(b, v, lanes.getNumElements()) : v;
}

Value mlir::uop::laneOf(OpBuilder &b, Location loc, Value v, int64_t l) {
  if (!isa<VectorType>(v.getType()))
    return v;
  return vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{l});
}

Value mlir::uop::constLike(OpBuilder &b, Value like, TypedAttr attr) {
  if (auto lanes = dyn_cast<VectorType>(like.getType()))
    return arith::ConstantOp::create(
        b, b.getUnknownLoc(),
        DenseElementsAttr::get(VectorType::get(lanes.getShape(), attr.getType()), attr));
  return arith::ConstantOp::create(b, b.getUnknownLoc(), attr);
}
