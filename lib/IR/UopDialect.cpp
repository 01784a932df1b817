//===- UopDialect.cpp - uop dialect registration ---------------*- C++ -*-===//

#include "Uop/IR/UopDialect.h"
#include "Uop/IR/UopOps.h"
#include "Uop/IR/UopTarget.h"

#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::uop;

#include "Uop/IR/UopOpsDialect.cpp.inc"

void UopDialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "Uop/IR/UopOps.cpp.inc"
      >();
}

/// Folded values become `uop.const`: scalars of a uop dtype and dense tensors.
Operation *UopDialect::materializeConstant(OpBuilder &builder, Attribute value, Type type,
                                           Location loc) {
  auto typed = dyn_cast<TypedAttr>(value);
  if (!typed || typed.getType() != type)
    return nullptr;
  if (!isa<IntegerAttr, FloatAttr, DenseIntOrFPElementsAttr>(value))
    return nullptr;
  return ConstOp::create(builder, loc, typed);
}

/// The dialect's discardable attributes that have a fixed kind: `uop.target`
/// is a #uop.target, on a module.
LogicalResult UopDialect::verifyOperationAttribute(Operation *op, NamedAttribute attr) {
  if (attr.getName() != kTargetAttrName)
    return success();
  if (!isa<TargetAttr>(attr.getValue()))
    return op->emitError("'") << kTargetAttrName << "' must be a #uop.target<...>, got "
                              << attr.getValue();
  if (!isa<ModuleOp>(op))
    return op->emitError("'") << kTargetAttrName
                              << "' belongs on a builtin.module (the machine it is compiled for)";
  return success();
}
