//===- UopDTypes.h - uop element types and the runtime's dtypes -*- C++ -*-===//
//
// The one mapping between the element types of uop values (i1, i32, f16,
// f32: DESIGN §3) and the runtime's uop::rt::DType, for everything above the
// runtime that crosses it: the host lowering (uop-lower-host), the execution
// engine and the Tensor frontend. The runtime is the bottom layer, so the IR
// may include its MLIR-free dtype header.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_IR_UOPDTYPES_H
#define UOP_IR_UOPDTYPES_H

#include "Uop/Runtime/Buffer.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Types.h"

#include <optional>

namespace mlir::uop {

/// The runtime's dtype of a uop element type (i1, i32, f16, f32); nullopt
/// for any other type.
std::optional<::uop::rt::DType> toRuntimeDType(Type type);

/// The uop element type of a runtime dtype.
Type fromRuntimeDType(::uop::rt::DType dtype, MLIRContext *ctx);

} // namespace mlir::uop

#endif // UOP_IR_UOPDTYPES_H
