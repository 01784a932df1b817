//===- UopOps.h - uop operations ---------------------------------*- C++ -*-===//

#ifndef UOP_IR_UOPOPS_H
#define UOP_IR_UOPOPS_H

#include "Uop/IR/UopAttrs.h"
#include "Uop/IR/UopDialect.h"
#include "Uop/IR/UopTypes.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferIntRangeInterface.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::uop {
/// The side-effect resource of uop memory (buffers, allocs, shared memory).
struct UopMemoryResource : public mlir::SideEffects::Resource::Base<UopMemoryResource> {
  llvm::StringRef getName() final { return "uop.memory"; }
};
} // namespace mlir::uop

namespace mlir::uop {
/// The verifier of ShapesFit: an error if a shape among `op`'s operand and
/// result types has more elements than an int64 counts.
LogicalResult verifyShapesFit(Operation *op);

/// Every uop op's: its shapes' element counts fit in an int64.
template <typename ConcreteType>
class ShapesFit : public ::mlir::OpTrait::TraitBase<ConcreteType, ShapesFit> {
public:
  static LogicalResult verifyTrait(Operation *op) { return verifyShapesFit(op); }
};
} // namespace mlir::uop

#define GET_OP_CLASSES
#include "Uop/IR/UopOps.h.inc"

namespace mlir::uop {
/// `OpTy::create(builder, loc, args...)` for hot rewriting loops: ODS's
/// create builds its OperationState from the op's name as a string, which is
/// hashed and looked up on every call; here the registered name is found by
/// TypeID. (Pass the result type where the op can infer it: inference builds
/// an attribute dictionary and an adaptor per op.)
template <typename OpTy, typename... Args>
OpTy createOp(OpBuilder &builder, Location loc, Args &&...args) {
  std::optional<RegisteredOperationName> name =
      RegisteredOperationName::lookup(TypeID::get<OpTy>(), loc.getContext());
  assert(name && "op not registered in this context");
  OperationState state(loc, *name);
  OpTy::build(builder, state, std::forward<Args>(args)...);
  return cast<OpTy>(builder.create(state));
}

/// The seed's ALU set: unary, binary and WHERE (CAST included).
inline bool isALU(Operation *op) {
  return isa<RecipOp, CastOp, Exp2Op, Log2Op, SqrtOp, SinOp, AddOp, MulOp, CmpLtOp, CmpNeOp,
             FloorDivOp, FloorModOp, MaxOp, WhereOp>(op);
}

/// The seed's MOVEMENT set.
inline bool isMovement(Operation *op) { return isa<ReshapeOp, ExpandOp, PermuteOp, ShrinkOp>(op); }

/// The value a chain of movement ops starting at `v` views (`v` itself when
/// it is no movement).
inline Value getMovementBase(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isMovement(def))
      break;
    v = def->getOperand(0);
  }
  return v;
}
} // namespace mlir::uop

#endif // UOP_IR_UOPOPS_H
