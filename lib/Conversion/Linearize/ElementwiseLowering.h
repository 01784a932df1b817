//===- ElementwiseLowering.h - uop ALU ops to arith/math --------*- C++ -*-===//
//
// The lowerings of uop's elementwise (ALU) ops, one per op in a table keyed
// by op, the way upstream's *ToLLVM patterns and Triton's
// ElementwiseOpConversion<SrcOp, DstOp> are written: a new op family is a
// new row of populateElementwiseLowerings, not a new branch.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_LIB_CONVERSION_LINEARIZE_ELEMENTWISELOWERING_H
#define UOP_LIB_CONVERSION_LINEARIZE_ELEMENTWISELOWERING_H

#include "mlir/IR/Builders.h"
#include "mlir/Support/TypeID.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>

namespace mlir::uop {

class ArithFlags;
class RuntimeChecks;

/// What a lowering reads besides its op: the kernel-wide decisions.
struct ElementwiseContext {
  /// The builder, at the op's place.
  OpBuilder &b;
  /// The fast-math and overflow flags of the kernel's ALU ops.
  const ArithFlags &flags;
  /// The run-time checks (of divisors), and the bounds analysis behind them.
  RuntimeChecks &checks;
};

/// The operands of one op to lower, already lowered: all scalars, or
/// (inside vector lanes, for an op with a lane-variant operand) all vectors
/// of `lanes` elements, lane-invariant ones broadcast.
struct ElementwiseOperands {
  /// The operands' values.
  SmallVector<Value, 3> values;
  /// The uop type of the first operand (the result's for an op with none).
  Type in;
  /// The vector width of `values`; 0 when they are scalars.
  int64_t lanes = 0;

  /// Operand `i`'s value.
  Value operator[](unsigned i) const { return values[i]; }
  /// Whether the operands are floats.
  bool isFloat() const;
  /// Whether the operands are bools (i1).
  bool isBool() const;
  /// The scalar type `t` shaped like the operands (a vector across lanes).
  Type shaped(Type t) const;
};

/// The lowering of one uop op to arith/math ops: a row of the table.
class ElementwiseLowering {
public:
  virtual ~ElementwiseLowering();
  /// The op this lowers (TypeID::get<OpTy>()).
  TypeID getRoot() const { return root; }
  /// Emits `op`'s computation on its lowered operands `xs` at ctx.b's
  /// insertion point and returns its value; null after a diagnostic.
  virtual Value lower(Operation *op, const ElementwiseOperands &xs,
                      ElementwiseContext &ctx) const = 0;

protected:
  /// A lowering of the ops of TypeID `root`.
  explicit ElementwiseLowering(TypeID root) : root(root) {}

private:
  TypeID root;
};

/// An ElementwiseLowering of `SrcOp` (the base of the table's rows).
template <typename SrcOp> class ElementwiseOpLowering : public ElementwiseLowering {
protected:
  ElementwiseOpLowering() : ElementwiseLowering(TypeID::get<SrcOp>()) {}
};

/// The table: each uop ALU op's lowering.
class ElementwiseLowerings {
public:
  /// Adds the rows `Ts...` (default-constructible ElementwiseLowerings).
  template <typename... Ts> ElementwiseLowerings &add() {
    (insert(std::make_unique<Ts>()), ...);
    return *this;
  }
  /// `op`'s lowering, or null when the table has none.
  const ElementwiseLowering *lookup(Operation *op) const;

private:
  /// Adds one row; a second row for one op is a programming error.
  void insert(std::unique_ptr<ElementwiseLowering> lowering);

  DenseMap<TypeID, std::unique_ptr<ElementwiseLowering>> table;
};

/// Fills `table` with the lowerings of uop's ALU ops: add, mul, max,
/// cmplt, cmpne, floordiv, floormod, where, cast, recip, exp2, log2, sqrt,
/// sin.
void populateElementwiseLowerings(ElementwiseLowerings &table);

} // namespace mlir::uop

#endif // UOP_LIB_CONVERSION_LINEARIZE_ELEMENTWISELOWERING_H
