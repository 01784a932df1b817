//===- Checker.cpp - the proof of a rewrite ---------------------*- C++ -*-===//
//
// The proof driver: both programs encoded over one Env, the obligations (the
// program after is defined where the one before is, range ends are kept,
// stores are the same, results are equal) each refuted by Z3 or not, first
// with i32 wrap-around and signed zeros, then under the seed's two premises:
// no i32 add or mul of either program overflows (the seed's rules are for
// index arithmetic, which the seed renders as C's int, where overflow is
// undefined) and no float value before is -0.0 (the seed accepts
// x + 0.0 -> x). Results are compared with SMT-LIB equality (NaNs equal,
// +0.0 and -0.0 not).
//
//===----------------------------------------------------------------------===//

#include "Encoder.h"
#include "Report.h"

#include "Uop/SMT/SMT.h"
#include "Uop/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <set>

using namespace mlir;
using namespace mlir::uop;
using namespace mlir::uop::smt;

struct SMTChecker::Impl {
  explicit Impl(SMTCheckOptions opts) : options(std::move(opts)) {
    for (const std::string &r : options.premiseRules)
      allowedPremise.insert(r);
  }

  SMTCheckOptions options;
  z3::context ctx;
  SMTCheckTotals totals;
  llvm::StringMap<int64_t> counts;
  std::set<std::string> allowedPremise;
  bool ok = true;

  ProofLevel check(func::FuncOp before, func::FuncOp after, const llvm::StringMap<int64_t> &fired);
};

ProofLevel SMTChecker::Impl::check(func::FuncOp before, func::FuncOp after,
                                   const llvm::StringMap<int64_t> &fired) {
  ++totals.functions;
  Env env(ctx);
  Encoder eb(env, true), ea(env, false);
  std::optional<Unsupported> error;
  FailureOr<std::vector<Val>> rb = eb.run(before, error);
  FailureOr<std::vector<Val>> ra = failure();
  if (succeeded(rb))
    ra = ea.run(after, error);
  if (failed(rb) || failed(ra)) {
    ++totals.unsupported;
    ok = false;
    error->op->emitError() << "uop-smt-check: cannot translate @" << before.getSymName() << ": "
                           << error->why;
    return ProofLevel::Unsupported;
  }
  if (rb->size() != ra->size()) {
    ++totals.failed;
    ok = false;
    after.emitError() << "uop-smt-check: @" << before.getSymName() << " returns " << ra->size()
                      << " values after uop-symbolic, " << rb->size() << " before";
    return ProofLevel::Failed;
  }
  // The obligations: the program after is defined where the one before
  // is, range ends are kept, stores are the same, results are equal.
  struct Obligation {
    std::string what;
    Operation *beforeOp, *afterOp;
    z3::expr holds;
    const Val *vb, *va;
  };
  std::vector<Obligation> obligations;
  Operation *retB = before.getBody().front().getTerminator();
  Operation *retA = after.getBody().front().getTerminator();
  obligations.push_back({"the program after uop-symbolic is defined (no division by zero, "
                         "INT_MIN // -1 or cast of inf/NaN to i32) where the program before is",
                         retB, retA, ea.defined(), nullptr, nullptr});
  for (auto &[op, holds] : ea.rangeEnds())
    obligations.push_back({"the range keeps its end", op, op, holds, nullptr, nullptr});
  auto equal = [&](const Val &a, const Val &b) {
    z3::expr r = ctx.bool_val(a.elems.size() == b.elems.size());
    for (size_t i = 0; i < std::min(a.elems.size(), b.elems.size()); ++i)
      r = r && a.elems[i] == b.elems[i];
    return r;
  };
  if (eb.stores().size() == ea.stores().size())
    for (size_t i = 0; i < eb.stores().size(); ++i) {
      auto &[ob, vb] = eb.stores()[i];
      auto &[oa, va] = ea.stores()[i];
      obligations.push_back(
          {"the store's address is the same", ob, oa, equal(vb.first, va.first), nullptr, nullptr});
      obligations.push_back({"the stored value is the same", ob, oa, equal(vb.second, va.second),
                             &vb.second, &va.second});
    }
  for (size_t i = 0; i < rb->size(); ++i) {
    Value vB = retB->getOperand(i), vA = retA->getOperand(i);
    Operation *defB = vB.getDefiningOp() ? vB.getDefiningOp() : retB;
    Operation *defA = vA.getDefiningOp() ? vA.getDefiningOp() : retA;
    obligations.push_back({"result #" + std::to_string(i) + " is the same", defB, defA,
                           equal((*rb)[i], (*ra)[i]), &(*rb)[i], &(*ra)[i]});
  }

  z3::expr hypothesis = eb.defined();
  for (const z3::expr &a : env.assumptions)
    hypothesis = hypothesis && a;
  // No overflow before or after: the seed's rules are integer identities.
  z3::expr noOverflow = eb.noOverflow() && ea.noOverflow(), noNegZero = eb.noNegZero();
  ProofLevel worst = ProofLevel::Exact;
  // A fresh solver per query: without push/pop Z3 bit-blasts the whole
  // problem (its QF_BV/QF_FPBV tactics), much faster than its incremental
  // core on these.
  std::unique_ptr<z3::solver> solver;
  auto refuted = [&](const z3::expr &claim, std::optional<z3::expr> premise) {
    solver = std::make_unique<z3::solver>(ctx);
    z3::params p(ctx);
    p.set("timeout", options.timeoutMs);
    solver->set(p);
    solver->add(hypothesis);
    if (premise)
      solver->add(*premise);
    solver->add(!claim);
    return solver->check();
  };
  for (Obligation &o : obligations) {
    ++totals.obligations;
    // Simplified first where that is cheap (a claim that simplifies to true
    // needs no solver); Z3's simplify flattens the sums of a long i32 chain
    // into terms quadratic in its length (a 2,000-add chain: 14 s before the
    // solver saw it), which the solver's own preprocessing does better.
    z3::expr claim = isSmallTerm(o.holds, 20000) ? o.holds.simplify() : o.holds;
    ProofLevel level = ProofLevel::Exact;
    if (!claim.is_true() && refuted(claim, std::nullopt) != z3::unsat) {
      z3::check_result both = refuted(claim, noOverflow && noNegZero);
      if (both == z3::unsat) {
        bool overflowEnough = refuted(claim, noOverflow) == z3::unsat;
        bool negZeroEnough = !overflowEnough && refuted(claim, noNegZero) == z3::unsat;
        level = overflowEnough  ? ProofLevel::NoOverflow
                : negZeroEnough ? ProofLevel::NoNegZero
                                : ProofLevel::Both;
      } else {
        level = ProofLevel::Failed;
        refuted(claim, noOverflow && noNegZero);
        reportRefuted(*solver, before, o.what, o.beforeOp, o.afterOp, both, env, o.vb, o.va, fired);
      }
    }
    // A proven obligation is a lemma for the next ones (the sink after the
    // stores).
    if (level == ProofLevel::Exact)
      hypothesis = hypothesis && claim;
    if (level == ProofLevel::Exact) {
      ++totals.exact;
    } else if (level == ProofLevel::Failed) {
      ++totals.failed;
      ok = false;
    } else {
      ++totals.premised;
      if (options.exact) {
        ok = false;
        o.beforeOp->emitError() << "uop-smt-check: in @" << before.getSymName() << ", " << o.what
                                << " only " << premiseText(level);
      }
    }
    if (level != ProofLevel::Failed && (worst == ProofLevel::Exact || level == ProofLevel::Both))
      worst = level == ProofLevel::Exact ? worst : level;
    if (level == ProofLevel::Failed)
      worst = ProofLevel::Failed;
  }
  if (worst != ProofLevel::Exact && worst != ProofLevel::Failed && !allowedPremise.empty()) {
    bool allowed = false;
    for (auto &entry : fired)
      allowed |= allowedPremise.count(entry.getKey().str()) > 0;
    if (!allowed) {
      ok = false;
      before.emitError() << "uop-smt-check: @" << before.getSymName() << " is proven only "
                         << premiseText(worst) << ", but none of the rules allowed to need that "
                         << "fired (it fired: " << firedText(fired) << ")";
    }
  }
  if (options.verboseOut)
    *options.verboseOut << "@" << before.getSymName() << ": "
                        << (worst == ProofLevel::Exact    ? "proven"
                            : worst == ProofLevel::Failed ? "FAILED"
                                                          : "proven " + premiseText(worst))
                        << " (" << firedText(fired) << ")\n";
  return worst;
}

//===----------------------------------------------------------------------===//
// SMTChecker
//===----------------------------------------------------------------------===//

SMTChecker::SMTChecker(SMTCheckOptions options)
    : impl(std::make_unique<Impl>(std::move(options))) {}

SMTChecker::~SMTChecker() = default;

ProofLevel SMTChecker::checkFunction(func::FuncOp before, func::FuncOp after,
                                     const llvm::StringMap<int64_t> &fired) {
  return impl->check(before, after, fired);
}

void SMTChecker::checkModules(ModuleOp before, ModuleOp after,
                              const std::map<std::string, llvm::StringMap<int64_t>> *fired) {
  const llvm::StringMap<int64_t> none;
  for (auto func : before.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    auto other = after.lookupSymbol<func::FuncOp>(func.getSymName());
    if (!other) {
      func.emitError() << "uop-smt-check: no @" << func.getSymName() << " after";
      impl->ok = false;
      continue;
    }
    const llvm::StringMap<int64_t> *rules = &none;
    if (fired)
      if (auto it = fired->find(func.getSymName().str()); it != fired->end())
        rules = &it->second;
    impl->check(func, other, *rules);
  }
}

LogicalResult SMTChecker::checkSymbolic(ModuleOp module) {
  OwningOpRef<ModuleOp> after = module.clone();
  std::map<std::string, llvm::StringMap<int64_t>> fired;
  for (auto func : after->getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    llvm::StringMap<int64_t> &counts = fired[func.getSymName().str()];
    if (failed(applySymbolic(func, 10, nullptr, &counts)))
      return failure();
    for (auto &entry : counts)
      impl->counts[entry.getKey()] += entry.getValue();
  }
  if (failed(verify(*after)))
    return failure();
  checkModules(module, *after, &fired);
  return success();
}

bool SMTChecker::ok() const { return impl->ok; }

const SMTCheckTotals &SMTChecker::totals() const { return impl->totals; }

const llvm::StringMap<int64_t> &SMTChecker::ruleCounts() const { return impl->counts; }
