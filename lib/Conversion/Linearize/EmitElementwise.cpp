//===- EmitElementwise.cpp - uop-linearize's ALU ops ------------*- C++ -*-===//
//
// The one place where an ALU op meets the vector lanes: inside a jammed
// loop an op of a lane-variant operand is a vector op (its lane-invariant
// operands broadcast), a lane-invariant one stays scalar; and a
// lane-variant i32 add or mul affine in the lane keeps its lane-0 value and
// stride, so that memory it indexes is read with vector loads. What the op
// computes is its row of the elementwise table (ElementwiseLowering.cpp).
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::uop;

LogicalResult Emitter::emitElementwise(Operation *op) {
  if (op->getNumResults() == 1 && isa<ShapedType>(op->getResult(0).getType()))
    return op->emitOpError("uop-linearize: expects scalar values in a kernel graph, got ")
           << op->getResult(0).getType();
  for (unsigned i = 0; i < op->getNumOperands(); ++i)
    if (!val(op, i))
      return op->emitOpError("uop-linearize: operand ") << i << " is not a value";
  const ElementwiseLowering *lowering = elementwise.lookup(op);
  if (!lowering)
    return op->emitOpError("uop-linearize: no lowering for this op");

  // Inside vector lanes an op of a lane-variant operand is a vector op (its
  // lane-invariant operands broadcast); a lane-invariant one stays scalar.
  bool vec = inJam(op) && llvm::any_of(op->getOperands(), [&](Value v) {
               return isa<VectorType>(vals.lookup(v.getDefiningOp()).getType());
             });
  ElementwiseOperands xs;
  xs.in = op->getNumOperands() ? op->getOperand(0).getType() : op->getResult(0).getType();
  xs.lanes = vec ? jamWidth : 0;
  for (unsigned i = 0; i < op->getNumOperands(); ++i)
    xs.values.push_back(vec ? lanesOf(val(op, i)) : val(op, i));
  ElementwiseContext ctx{b, flags, checks};
  Value r = lowering->lower(op, xs, ctx);
  if (!r)
    return failure();
  vals[op] = r;
  if (vec && !xs.isFloat() && !xs.isBool())
    trackAffine(op);
  return success();
}

void Emitter::trackAffine(Operation *op) {
  if (!isa<AddOp, MulOp>(op))
    return;
  Location loc = op->getLoc();
  auto form = [&](unsigned i) -> std::optional<std::pair<Value, int64_t>> {
    auto it = affine.find(srcOp(op, i));
    if (it != affine.end())
      return it->second;
    Value v = val(op, i);
    if (isa<VectorType>(v.getType()))
      return std::nullopt;
    return std::pair<Value, int64_t>{v, 0};
  };
  auto fx = form(0), fy = form(1);
  if (!fx || !fy)
    return;
  arith::IntegerOverflowFlags overflow = flags.overflow(op);
  if (isa<AddOp>(op)) {
    affine[op] = {arith::AddIOp::create(b, loc, fx->first, fy->first, overflow),
                  fx->second + fy->second};
    return;
  }
  // A product is affine when one side is a lane-invariant constant.
  APInt c;
  for (auto [f, g] : {std::pair{fx, fy}, std::pair{fy, fx}})
    if (g->second == 0 && matchPattern(g->first, m_ConstantInt(&c))) {
      affine[op] = {arith::MulIOp::create(b, loc, f->first, g->first, overflow),
                    f->second * c.getSExtValue()};
      return;
    }
}
