//===- UopTypes.cpp - uop types --------------------------------*- C++ -*-===//

#include "Uop/IR/UopTypes.h"
#include "Uop/IR/UopDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::uop;

#define GET_TYPEDEF_CLASSES
#include "Uop/IR/UopOpsTypes.cpp.inc"

void UopDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "Uop/IR/UopOpsTypes.cpp.inc"
      >();
}

ArrayRef<int64_t> mlir::uop::getShape(Type type) {
  // Fast paths first: the ShapedType interface lookup is slow, and the
  // rewrite rules ask for shapes and dtypes of every operand.
  if (isa<IntegerType, Float32Type, Float16Type>(type))
    return {};
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getShape();
  if (auto shaped = dyn_cast<ShapedType>(type))
    if (shaped.hasRank())
      return shaped.getShape();
  return {};
}

int64_t mlir::uop::getNumElements(Type type) {
  // Verified uop ops have counts that fit (ShapesFit); on anything else the
  // count saturates rather than overflow.
  int64_t n = 1;
  for (int64_t s : getShape(type))
    if (__builtin_mul_overflow(n, s, &n))
      return INT64_MAX;
  return n;
}

Type mlir::uop::getNonIntegerDType(Type type) {
  if (isa<IntegerType, Float32Type, Float16Type>(type))
    return type;
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getElementType();
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.getElementType();
  if (auto ptr = dyn_cast<PtrType>(type))
    return ptr.getPointee();
  return type;
}

Type mlir::uop::getValueType(ArrayRef<int64_t> shape, Type dtype) {
  if (shape.empty())
    return dtype;
  return RankedTensorType::get(shape, dtype);
}

std::optional<AddressSpace> mlir::uop::getAddressSpace(Type type) {
  if (auto ptr = dyn_cast<PtrType>(type))
    return ptr.getSpace();
  if (auto memref = dyn_cast<MemRefType>(type))
    if (auto space = dyn_cast_or_null<AddressSpaceAttr>(memref.getMemorySpace()))
      return space.getValue();
  return std::nullopt;
}

bool mlir::uop::isMemory(Type type) { return getAddressSpace(type).has_value(); }

bool mlir::uop::isFloatDType(Type dtype) { return dtype.isF16() || dtype.isF32(); }

std::string mlir::uop::shapeToString(ArrayRef<int64_t> shape) {
  std::string out = "[";
  llvm::raw_string_ostream os(out);
  llvm::interleaveComma(shape, os);
  os << "]";
  return out;
}
