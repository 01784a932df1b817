//===- SMT.h - prove uop rewrites with Z3 -----------------------*- C++ -*-===//
//
// Translation validation of uop programs: each function before and after a
// rewrite becomes formulas over the same inputs (Z3 terms, element by
// element), and Z3 proves that the program after is defined where the one
// before is, keeps every range's end, stores the same values at the same
// addresses and returns the same results; or it finds input values for which
// they differ, reported as an error at the op with the counterexample in
// notes. uop-smt-check is a thin tool over this library; tests and other
// tools prove rewrites through it without shelling out.
//
//   SMTChecker checker;
//   checker.checkSymbolic(module);          // uop-symbolic, proven
//   checker.checkFunction(before, after);   // any rewrite of one function
//   if (!checker.ok()) ...                  // errors went to the diagnostics
//
// The semantics is exec_alu's (include/Uop/IR/UopSemantics.h): i32 wraps,
// floordiv/floormod are floor, `x // 0`, `INT_MIN // -1` and casts of inf or
// NaN to i32 are undefined (assumed away before, forbidden after), bool is
// Bool, f32/f16 are IEEE (NaN and signed zeros included), exp2/log2/sin are
// uninterpreted except on constants, a `uop.range` is an i32 in
// [0, max(0, end - 1)] shared by both sides, and any other op is an
// uninterpreted function of its operands. What fails with wrap-around is
// tried again under the seed's two premises (no i32 add or mul overflows, no
// value before is -0.0) and reported as proven only so.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_SMT_SMT_H
#define UOP_SMT_SMT_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringMap.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir {
class MLIRContext;
class ModuleOp;
namespace func {
class FuncOp;
} // namespace func
} // namespace mlir

namespace mlir::uop {

/// What a proof accepts and how long it may try.
struct SMTCheckOptions {
  /// Require proofs with i32 wrap-around and signed zeros: an obligation
  /// proven only under the seed's premises is an error (`--exact`).
  bool exact = false;
  /// Rules that may need the seed's premises: a function proven only under
  /// them that fired none of these is an error (`--premise-rules`; empty:
  /// any rule may).
  std::vector<std::string> premiseRules;
  /// Z3's time limit per query, in ms.
  unsigned timeoutMs = 30000;
  /// Where to print one line per function ("@f: proven (rules...)"), if
  /// anywhere (`-v`).
  llvm::raw_ostream *verboseOut = nullptr;
};

/// How far a function (or one obligation) is proven.
enum class ProofLevel {
  Exact,       ///< with i32 wrap-around and signed zeros
  NoOverflow,  ///< only assuming no i32 add or mul overflows
  NoNegZero,   ///< only assuming no float value before is -0.0
  Both,        ///< only assuming both
  Failed,      ///< refuted (a counterexample) or Z3 gave up
  Unsupported, ///< not translated (an op with regions, a value too large, ...)
};

/// What the checks so far found, counted over all functions.
struct SMTCheckTotals {
  int64_t functions = 0;   ///< functions checked
  int64_t obligations = 0; ///< obligations tried
  int64_t exact = 0;       ///< proven exactly
  int64_t premised = 0;    ///< proven only under the seed's premises
  int64_t failed = 0;      ///< not proven
  int64_t unsupported = 0; ///< functions not translated
};

/// Proves rewrites of uop functions with Z3. Each error (a refuted
/// obligation, a function that cannot be translated, one proven only under
/// premises it may not use) is emitted as a diagnostic at the op concerned,
/// its counterexample in notes, and makes ok() false.
class SMTChecker {
public:
  explicit SMTChecker(SMTCheckOptions options = {});
  ~SMTChecker();
  SMTChecker(const SMTChecker &) = delete;
  SMTChecker &operator=(const SMTChecker &) = delete;

  /// Proves that `after` computes what `before` does (the same arguments,
  /// read as the same inputs). `fired` names the rules that made `after`
  /// (in the messages, and for `premiseRules`). Returns the weakest level
  /// of its obligations.
  ProofLevel checkFunction(func::FuncOp before, func::FuncOp after,
                           const llvm::StringMap<int64_t> &fired = {});

  /// Proves each function of `before` that has a body against the function
  /// of the same name in `after` (an error where `after` has none); `fired`,
  /// where given, names the rules that fired in each function of `after`.
  void checkModules(ModuleOp before, ModuleOp after,
                    const std::map<std::string, llvm::StringMap<int64_t>> *fired = nullptr);

  /// Runs uop-symbolic (applySymbolic) on a copy of each function of
  /// `module` that has a body, counting the rules that fire (ruleCounts()),
  /// and proves each against its original. Failure, with the pass's error
  /// and nothing proven, when the pass fails or its output does not verify.
  LogicalResult checkSymbolic(ModuleOp module);

  /// False once any check reported an error.
  bool ok() const;
  /// What the checks so far found.
  const SMTCheckTotals &totals() const;
  /// How often each rule fired in the checkSymbolic calls so far.
  const llvm::StringMap<int64_t> &ruleCounts() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

/// Prints the line that sums up `totals` ("uop-smt-check: 3 functions, 7
/// obligations: ...").
void printSMTCheckTotals(llvm::raw_ostream &os, const SMTCheckTotals &totals);

/// Prints how often each rule of uop-symbolic fired (getSymbolicRuleNames's
/// order, never-fired ones as 0), then the counted names that are not
/// listed rules.
void printRuleCounts(llvm::raw_ostream &os, MLIRContext *context,
                     const llvm::StringMap<int64_t> &counts);

/// The rules of uop-symbolic (getSymbolicRuleNames's order) that `counts`
/// has never seen fire.
std::vector<std::string> getNeverFiredRules(MLIRContext *context,
                                            const llvm::StringMap<int64_t> &counts);

} // namespace mlir::uop

#endif // UOP_SMT_SMT_H
