//===- UopBounds.h - vmin/vmax of integer and bool values -------*- C++ -*-===//
//
// The seed's bounds analysis (`vmin`/`vmax`, uopc/symbolic.py) through
// MLIR's InferIntRangeInterface: every uop integer and bool op implements the
// interface with the seed's rules, and `getBounds` combines them over the
// graph with an iterative, memoized walk (never recursing on graph depth).
//
//===----------------------------------------------------------------------===//

#ifndef UOP_IR_UOPBOUNDS_H
#define UOP_IR_UOPBOUNDS_H

#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Value.h"
#include "mlir/Interfaces/InferIntRangeInterface.h"
#include "llvm/ADT/DenseMap.h"

#include <cstdint>

namespace mlir::uop {

/// Conservative bounds of an integer (i32: signed) or bool (0/1) value: the
/// true value is always in [min, max].
struct IntBounds {
  int64_t min;
  int64_t max;
  /// Whether the bounds pin the value to one constant.
  bool isConstant() const { return min == max; }
};

/// The bounds of any value of `dtype` (i1: [0, 1], i32: the full range).
IntBounds getFullBounds(Type dtype);

/// The seed's bounds of the uop op `op`'s result given its operands' bounds
/// (bounds of non-integer operands are ignored). Anything that may wrap gives
/// the full i32 range.
IntBounds inferUopBounds(Operation *op, llvm::ArrayRef<IntBounds> operands);

/// A memo of computed bounds, valid for the lifetime of a rewrite: rewrites
/// preserve values, so bounds once computed stay valid. Attach it as the
/// rewrite's listener so that erased values are forgotten (an erased value's
/// storage may be reused by a new value, which must not inherit its bounds).
///
/// It also remembers the integer constants that the symbolic rules made at
/// the start of a block, so that a rule asking for the same constant in that
/// block again reuses it instead of making one more (which the driver would
/// then have to deduplicate); erased constants are forgotten the same way.
class BoundsCache : public RewriterBase::Listener {
public:
  void notifyOperationErased(Operation *op) override;
  /// Values hashed by a multiplicative mix of their address: the default
  /// hash ((p >> 4) ^ (p >> 9)) clusters the addresses of ops allocated
  /// together, and with a million entries the probe sequences get long.
  struct ValueInfo : llvm::DenseMapInfo<Value> {
    static unsigned getHashValue(Value v) {
      uint64_t p = reinterpret_cast<uintptr_t>(v.getAsOpaquePointer());
      return static_cast<unsigned>((p * 0x9E3779B97F4A7C15ull) >> 32);
    }
  };
  /// The memoized bounds.
  llvm::DenseMap<Value, IntBounds, ValueInfo> ranges;
  /// Constants at the start of a block, by block and value.
  llvm::DenseMap<std::pair<Block *, Attribute>, Operation *> constants;
  /// The integer ones among them that the rules asked for, by block, type
  /// and value (as the constant holds it: a bool is 0 or 1, an i32 wrapped),
  /// so that a rule finds its constant without making the attribute first.
  llvm::DenseMap<std::tuple<Block *, Type, int64_t>, Operation *> intConstants;
};

/// vmin/vmax of `value` (an integer or bool value, scalar or tensor). With a
/// cache, every value is computed once; without one, the walk stops after a
/// bounded number of ops and takes the full range beyond.
IntBounds getBounds(Value value, BoundsCache *cache = nullptr);

} // namespace mlir::uop

#endif // UOP_IR_UOPBOUNDS_H
