//===- UopDTypes.cpp - uop element types and the runtime's dtypes -*- C++ -*-===//

#include "Uop/IR/UopDTypes.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mlir;
using ::uop::rt::DType;

std::optional<DType> mlir::uop::toRuntimeDType(Type t) {
  if (t.isInteger(1))
    return DType::Bool;
  if (t.isInteger(32))
    return DType::I32;
  if (t.isF16())
    return DType::F16;
  if (t.isF32())
    return DType::F32;
  return std::nullopt;
}

Type mlir::uop::fromRuntimeDType(DType dtype, MLIRContext *ctx) {
  switch (dtype) {
  case DType::Bool:
    return IntegerType::get(ctx, 1);
  case DType::I32:
    return IntegerType::get(ctx, 32);
  case DType::F16:
    return Float16Type::get(ctx);
  case DType::F32:
    return Float32Type::get(ctx);
  }
  llvm_unreachable("unknown dtype");
}
