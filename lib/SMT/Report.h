//===- Report.h - what a proof says, in words (private) ---------*- C++ -*-===//
//
// Shared by the files of UopSMT, not installed: the texts of the checker's
// messages and the diagnostic of a refuted obligation.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_LIB_SMT_REPORT_H
#define UOP_LIB_SMT_REPORT_H

#include "Encoder.h"

#include "Uop/SMT/SMT.h"

#include <string>

namespace mlir::uop::smt {

/// The premises a level assumes ("assuming no i32 overflow"); "" for the
/// others.
std::string premiseText(ProofLevel level);

/// The names of the rules in `fired`, sorted and comma-separated, or "no
/// rules".
std::string firedText(const llvm::StringMap<int64_t> &fired);

/// The error of an obligation of `func` that `solver` did not prove (`r`:
/// sat, with a model, or unknown): at `beforeOp`, with notes giving the
/// counterexample's inputs (`env.named`), the values before and after (`vb`
/// and `va`, where given), and `afterOp` with the rules that fired.
void reportRefuted(z3::solver &solver, func::FuncOp func, const std::string &what,
                   Operation *beforeOp, Operation *afterOp, z3::check_result r, Env &env,
                   const Val *vb, const Val *va, const llvm::StringMap<int64_t> &fired);

} // namespace mlir::uop::smt

#endif // UOP_LIB_SMT_REPORT_H
