//===- Report.cpp - what a proof says, in words -----------------*- C++ -*-===//
//
// The checker's texts: a counterexample's values as uop prints them, the
// diagnostic of a refuted obligation, the summary line and the table of rule
// counts.
//
//===----------------------------------------------------------------------===//

#include "Report.h"

#include "Uop/Transforms/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::uop;
using namespace mlir::uop::smt;

namespace {
/// A term's value in a model, as uop prints it.
std::string show(z3::model &model, const z3::expr &e) {
  z3::expr v = model.eval(e, true);
  std::string out;
  llvm::raw_string_ostream os(out);
  if (v.is_bool()) {
    os << (v.is_true() ? "true" : "false");
  } else if (v.is_int()) {
    int64_t i = 0;
    if (Z3_get_numeral_int64(v.ctx(), v, &i))
      os << i;
    else
      os << v.to_string();
  } else if (v.is_fpa() && model.eval(e.mk_is_nan(), true).is_true()) {
    os << "nan";
  } else if (v.is_fpa()) {
    unsigned sbits = v.get_sort().fpa_sbits();
    z3::expr bv = model.eval(z3::expr(v.ctx(), Z3_mk_fpa_to_ieee_bv(v.ctx(), e)), true);
    uint64_t bits = 0;
    if (Z3_get_numeral_uint64(v.ctx(), bv, &bits)) {
      llvm::APFloat f(sbits == 24 ? llvm::APFloat::IEEEsingle() : llvm::APFloat::IEEEhalf(),
                      llvm::APInt(sbits == 24 ? 32 : 16, bits));
      SmallString<32> s;
      f.toString(s);
      os << s;
    } else {
      os << v.to_string();
    }
  } else {
    os << v.to_string();
  }
  return out;
}
} // namespace

std::string smt::premiseText(ProofLevel level) {
  switch (level) {
  case ProofLevel::NoOverflow:
    return "assuming no i32 overflow";
  case ProofLevel::NoNegZero:
    return "assuming no -0.0";
  case ProofLevel::Both:
    return "assuming no i32 overflow and no -0.0";
  default:
    return "";
  }
}

std::string smt::firedText(const llvm::StringMap<int64_t> &fired) {
  std::vector<std::string> names;
  for (auto &entry : fired)
    names.push_back(entry.getKey().str());
  std::sort(names.begin(), names.end());
  std::string out;
  for (const std::string &n : names)
    out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "no rules" : out;
}

void smt::reportRefuted(z3::solver &solver, func::FuncOp func, const std::string &what,
                        Operation *beforeOp, Operation *afterOp, z3::check_result r, Env &env,
                        const Val *vb, const Val *va, const llvm::StringMap<int64_t> &fired) {
  InFlightDiagnostic diag = beforeOp->emitError();
  diag << "uop-smt-check: in @" << func.getSymName() << ", not proven that " << what;
  if (r == z3::unknown) {
    diag << " (Z3 gave up: " << solver.reason_unknown() << ")";
    return;
  }
  z3::model model = solver.get_model();
  std::string inputsText;
  for (auto &[name, e] : env.named)
    inputsText += (inputsText.empty() ? "" : ", ") + name + " = " + show(model, e);
  diag.attachNote() << "counterexample: " << (inputsText.empty() ? "(no inputs)" : inputsText);
  if (vb && va) {
    std::string b, a;
    for (const z3::expr &e : vb->elems)
      b += (b.empty() ? "" : ", ") + show(model, e);
    for (const z3::expr &e : va->elems)
      a += (a.empty() ? "" : ", ") + show(model, e);
    diag.attachNote() << "before: " << b << "; after: " << a;
  }
  diag.attachNote(afterOp->getLoc())
      << "after uop-symbolic (rules fired: " << firedText(fired) << ")";
}

void uop::printSMTCheckTotals(llvm::raw_ostream &os, const SMTCheckTotals &t) {
  os << "uop-smt-check: " << t.functions << " functions, " << t.obligations
     << " obligations: " << t.exact << " proven, " << t.premised
     << " proven under the seed's premises, " << t.failed << " failed, " << t.unsupported
     << " not translated\n";
}

void uop::printRuleCounts(llvm::raw_ostream &os, MLIRContext *context,
                          const llvm::StringMap<int64_t> &counts) {
  SmallVector<std::string> names = getSymbolicRuleNames(context);
  for (const std::string &name : names)
    os << llvm::format("%8lld  ", static_cast<long long>(counts.lookup(name))) << name << "\n";
  for (auto &entry : counts)
    if (!llvm::is_contained(names, entry.getKey().str()))
      os << llvm::format("%8lld  ", static_cast<long long>(entry.getValue())) << entry.getKey()
         << " (not a listed rule)\n";
}

std::vector<std::string> uop::getNeverFiredRules(MLIRContext *context,
                                                 const llvm::StringMap<int64_t> &counts) {
  std::vector<std::string> never;
  for (const std::string &name : getSymbolicRuleNames(context))
    if (!counts.lookup(name))
      never.push_back(name);
  return never;
}
