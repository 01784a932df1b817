//===- UopTypes.h - uop types and type helpers -------------------*- C++ -*-===//

#ifndef UOP_IR_UOPTYPES_H
#define UOP_IR_UOPTYPES_H

#include "Uop/IR/UopAttrs.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"

#define GET_TYPEDEF_CLASSES
#include "Uop/IR/UopOpsTypes.h.inc"

namespace mlir::uop {

/// The shape of a uop value or memory type: `()` for a scalar or a pointer,
/// the dims of a tensor or memref.
llvm::ArrayRef<int64_t> getShape(mlir::Type type);

/// The number of elements of `getShape(type)`: 1 for a scalar or a pointer;
/// INT64_MAX if the count overflows (no verified uop op has such a type).
int64_t getNumElements(mlir::Type type);

/// getDType for the types that are not an integer scalar.
mlir::Type getNonIntegerDType(mlir::Type type);

/// The dtype of a uop type: the element type of a tensor/memref, the pointee
/// of a pointer, the type itself for a scalar. (Inline for the integer
/// scalars that the rewrite rules ask about most.)
inline mlir::Type getDType(mlir::Type type) {
  return llvm::isa<mlir::IntegerType>(type) ? type : getNonIntegerDType(type);
}

/// The width of an integer type, 0 for any other type (one out-of-line call
/// where `isInteger(1) || isInteger(32)` makes four).
inline unsigned getIntegerWidth(mlir::Type type) {
  auto integer = llvm::dyn_cast<mlir::IntegerType>(type);
  return integer ? integer.getWidth() : 0;
}

/// The value type of `shape` and `dtype`: the bare dtype for shape `()`, a
/// ranked tensor otherwise (the seed's shape tuple as an MLIR type).
mlir::Type getValueType(llvm::ArrayRef<int64_t> shape, mlir::Type dtype);

/// The address space of a memref or pointer type; null for values.
std::optional<AddressSpace> getAddressSpace(mlir::Type type);

/// Whether a type is uop memory (a memref in a uop address space, or a
/// `!uop.ptr`): what `uop.load` and `uop.store` take.
bool isMemory(mlir::Type type);

/// Whether the dtype is f16 or f32.
bool isFloatDType(mlir::Type dtype);

/// `[2, 3]` for printing shapes in diagnostics.
std::string shapeToString(llvm::ArrayRef<int64_t> shape);

} // namespace mlir::uop

#endif // UOP_IR_UOPTYPES_H
