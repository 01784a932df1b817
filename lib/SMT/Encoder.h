//===- Encoder.h - uop functions as Z3 formulas (private) -------*- C++ -*-===//
//
// Shared by the files of UopSMT, not installed: a function's values as Z3
// terms (Val), what the programs before and after share (Env), and the
// Encoder that translates one function's body.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_LIB_SMT_ENCODER_H
#define UOP_LIB_SMT_ENCODER_H

#include "Uop/IR/UopSemantics.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <z3++.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlir::uop::smt {

/// Elements of a value at most: larger tensors are not checked.
constexpr int64_t kMaxElements = 4096;

/// Whether the term `e` has at most `limit` distinct subterms (a walk of at
/// most `limit` of them).
bool isSmallTerm(const z3::expr &e, size_t limit);

/// Why a function could not be translated.
struct Unsupported {
  Operation *op;
  std::string why;
};

/// A value: its shape and one term per element (row-major); for an opaque
/// type (memory, pointers, effects), one term of an uninterpreted sort. `k`
/// holds the element's constant where it is known (for the functions that
/// have no SMT theory).
struct Val {
  SmallVector<int64_t> shape;
  std::vector<z3::expr> elems;
  std::vector<std::optional<Scalar>> k;
};

/// What before and after share: the inputs, the range variables and the
/// uninterpreted functions.
struct Env {
  explicit Env(z3::context &ctx) : ctx(ctx) {}
  z3::context &ctx;
  /// Function arguments by index, each a Val of fresh constants.
  std::vector<std::optional<Val>> args;
  struct Range {
    z3::expr var;
    z3::expr end; // in the program before
  };
  std::map<std::string, Range> ranges;
  std::vector<std::pair<std::string, z3::expr>> named; // for counterexamples
  std::map<std::string, z3::func_decl> functions;
  std::vector<z3::expr> assumptions;
  /// Bounds of i32 terms (by AST id), where narrower than i32.
  std::map<unsigned, std::pair<int64_t, int64_t>> intervals;
  /// The unwrapped sum under each wrapped i32 sum (by the wrapped term's AST
  /// id), with its bounds: an add of a wrapped sum adds to the sum under it,
  /// as wrap(wrap(a) + b) == wrap(a + b). An add chain is then one sum and
  /// one wrap, not one wrap (a division by 2^32) per add, whose terms nest
  /// and grow quadratically under Z3's simplify and solver.
  struct Unwrapped {
    z3::expr wrapped, sum;
    int64_t lo, hi;
  };
  std::map<unsigned, Unwrapped> unwrapped;

  /// The uninterpreted sort of values of `type`.
  z3::sort opaque(Type type);
  /// The uninterpreted function `name` (made on first use).
  z3::func_decl function(const std::string &name, const z3::sort_vector &domain,
                         const z3::sort &range);
};

/// A program's formulas: translates one function of the program before (or
/// after) over `env`. The terms it makes stay alive as long as it does.
class Encoder {
public:
  Encoder(Env &env, bool before);
  ~Encoder();

  /// Translates `func`'s body; the results of its return.
  FailureOr<std::vector<Val>> run(func::FuncOp func, std::optional<Unsupported> &error);

  /// That the program is defined (no division by zero, INT_MIN // -1, cast
  /// of inf or NaN to i32, index out of bounds).
  z3::expr defined();
  /// That no i32 add or mul overflows (before or after alike: the seed's
  /// rules are identities of unbounded integers).
  z3::expr noOverflow();
  /// That no float value (of the program before) is -0.0.
  z3::expr noNegZero();
  /// Obligations of the program after (its range ends equal those before).
  const std::vector<std::pair<Operation *, z3::expr>> &rangeEnds() const;
  /// The stores (address, value), in program order.
  const std::vector<std::pair<Operation *, std::pair<Val, Val>>> &stores() const;

private:
  class Impl;
  std::unique_ptr<Impl> impl;
};

} // namespace mlir::uop::smt

#endif // UOP_LIB_SMT_ENCODER_H
