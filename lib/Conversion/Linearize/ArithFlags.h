//===- ArithFlags.h - fast-math and overflow flags of ALU ops ---*- C++ -*-===//
//
// Which of a scheduled kernel's ALU ops uop-linearize may give arith's
// fast-math or overflow flags: float accumulations may be reassociated (and
// the products they add contracted), and i32 address math has no signed
// wrap. Decided once over the kernel; the elementwise lowerings read it.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_LIB_CONVERSION_LINEARIZE_ARITHFLAGS_H
#define UOP_LIB_CONVERSION_LINEARIZE_ARITHFLAGS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::uop {

/// The flags of a kernel's ALU ops.
class ArithFlags {
public:
  /// The flags of the ALU ops of the scheduled kernel graph `order`.
  static ArithFlags analyze(ArrayRef<Operation *> order);

  /// The fast-math flags of the float op `op`: reassoc and contract for an
  /// accumulation, contract for a product one adds, none else.
  arith::FastMathFlags fastMath(Operation *op) const;
  /// The overflow flags of the i32 add or mul `op`: nsw for address math,
  /// none else (i32 arithmetic wraps, as the seed's semantics say).
  arith::IntegerOverflowFlags overflow(Operation *op) const;

private:
  /// Finds the float adds, maxes and muls that accumulate into an alloc.
  void findReductions(ArrayRef<Operation *> order);
  /// Finds the i32 adds and muls that only compute memory indices.
  void findAddressMath(ArrayRef<Operation *> order);

  /// Float ops that accumulate.
  llvm::SmallPtrSet<Operation *, 8> reductions;
  /// Muls feeding an accumulating add.
  llvm::SmallPtrSet<Operation *, 8> contracted;
  /// i32 adds and muls only feeding indices.
  llvm::SmallPtrSet<Operation *, 16> addressMath;
};

} // namespace mlir::uop

#endif // UOP_LIB_CONVERSION_LINEARIZE_ARITHFLAGS_H
