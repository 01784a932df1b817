//===- UopSemantics.h - the reference semantics of uop ALU ops --*- C++ -*-===//
//
// The seed's `exec_alu` and `truncate` (uopc/symbolic.py, uopc/dtype.py): what
// every ALU op computes on one element. Folders, `uop-evaluate` and the
// symbolic rules use it, so that a folded program computes bit for bit what
// the seed computes and what the generated code computes at run time.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_IR_UOPSEMANTICS_H
#define UOP_IR_UOPSEMANTICS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Types.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace mlir::uop {

/// Two's complement wrap of an integer into i32 (the seed's i32 arithmetic).
inline int64_t wrapI32(int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(v)); }

/// Python's `a // b` on integers (floor, not C's truncation); b != 0.
inline int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/// Python's `a % b` on integers (the sign of b); b != 0.
inline int64_t floorMod(int64_t a, int64_t b) {
  int64_t r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

/// One element of a uop dtype as `exec_alu` sees it: an integer for bool
/// (0 or 1) and i32 (sign-extended), a double for f16 and f32 (whose value is
/// exactly representable in the dtype).
struct Scalar {
  bool isFloat = false;
  int64_t i = 0;
  double f = 0.0;

  static Scalar integer(int64_t v) { return {false, v, 0.0}; }
  static Scalar real(double v) { return {true, 0, v}; }
  /// The value as a double (exact for every uop integer).
  double asDouble() const { return isFloat ? f : static_cast<double>(i); }
  /// Python's `bool(v)`: nonzero, and NaN is true.
  bool truthy() const { return isFloat ? f != 0.0 : i != 0; }
  /// Python's `==` between two values of one dtype.
  bool operator==(const Scalar &o) const {
    return isFloat == o.isFloat && (isFloat ? f == o.f : i == o.i);
  }
};

/// The ALU ops of the seed (`uopc.uop.ALU`).
enum class AluKind {
  Add,
  Mul,
  Max,
  CmpLt,
  CmpNe,
  FloorDiv,
  FloorMod,
  Where,
  Recip,
  Exp2,
  Log2,
  Sqrt,
  Sin,
  Cast
};

/// The ALU kind of a uop operation, or nothing when `op` is not an ALU op.
std::optional<AluKind> getAluKind(Operation *op);

/// A float as an i32, as every uop cast gives it: truncated toward zero,
/// NaN 0, values past the i32 range (+-inf included) INT32_MAX / INT32_MIN.
int64_t saturateToI32(double x);

/// `truncate(dtype, v)`: brings `v` into the value set of `dtype` (bool:
/// nonzero; i32: an integer wraps (two's complement), a float saturates
/// (saturateToI32); f32/f16: round to nearest even).
/// Nothing when the seed's value is not representable in the dtype: a finite
/// value of magnitude at least 65520 for f16 (the seed keeps such a value as
/// a double; C makes it inf), which is then left for run time.
std::optional<Scalar> truncate(Type dtype, Scalar v);

/// `exec_alu(op, dtype, vals)`: the value of `op` on scalar operands, as a
/// value of `dtype` (the result dtype; bool for comparisons, the target for
/// a cast). Nothing when C leaves the operation undefined (x/0, x%0,
/// INT_MIN/-1, a cast of inf or NaN to i32) or the result is not
/// representable: such operations are left for run time.
std::optional<Scalar> execAlu(AluKind op, Type dtype, llvm::ArrayRef<Scalar> vals);

/// The element `i` of a constant: a scalar IntegerAttr/FloatAttr (any `i`)
/// or a DenseIntOrFPElementsAttr (element `i` in row-major order).
Scalar getElement(Attribute attr, int64_t i);

/// Every element of a constant of type `type`, in row-major order (a splat
/// is repeated).
llvm::SmallVector<Scalar> getAllElements(Attribute attr, Type type);

/// The scalar value of a scalar constant or of a splat dense constant.
std::optional<Scalar> getSplatValue(Attribute attr);

/// The attribute of `type` (a dtype or a tensor of one) holding `values`: a
/// scalar attribute for a dtype, a dense one (a splat when there is one value)
/// for a tensor.
TypedAttr makeAttr(Type type, llvm::ArrayRef<Scalar> values);

/// Folds the elementwise ALU op `op` on constant operands: one `execAlu` per
/// element (once when all operands are splats). Null when an operand is not
/// constant or any element refuses to fold.
Attribute foldElementwise(Operation *op, AluKind kind, llvm::ArrayRef<Attribute> operands);

} // namespace mlir::uop

#endif // UOP_IR_UOPSEMANTICS_H
