//===- uop-smt-check.cpp - prove uop-symbolic's rewrites with Z3 ----------===//
//
// Translation validation of uop-symbolic: each function of a program before
// and after the pass becomes formulas over the same inputs, and Z3 proves the
// results equal, or prints input values for which they differ.
//
//   uop-smt-check PROG...                  run uop-symbolic on each PROG itself
//   uop-smt-check BEFORE --after=AFTER     compare two given programs
//
// A thin tool over the UopSMT library (include/Uop/SMT/SMT.h, which says
// what the formulas are and what is proven): it reads the programs, runs
// the checker, and prints its totals and, if asked, the rule counts.
//
//===----------------------------------------------------------------------===//

#include "Uop/IR/UopDialect.h"
#include "Uop/SMT/SMT.h"
#include "Uop/Support/CrashWatchdog.h"
#include "Uop/Support/LargeStack.h"
#include "Uop/Target/Program.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::uop;

namespace {

/// The options uop-smt-check --help lists (LLVM's own stay usable, unlisted).
static llvm::cl::OptionCategory toolOptions("uop-smt-check options");
llvm::cl::list<std::string> inputs(llvm::cl::cat(toolOptions), llvm::cl::Positional,
                                   llvm::cl::desc("PROG..."), llvm::cl::OneOrMore);
llvm::cl::opt<std::string> afterFile(llvm::cl::cat(toolOptions), "after",
                                     llvm::cl::desc("The program after uop-symbolic (one PROG): "
                                                    "compare instead of running the pass"),
                                     llvm::cl::value_desc("file"));
llvm::cl::opt<bool> exact(llvm::cl::cat(toolOptions), "exact",
                          llvm::cl::desc("Require proofs with i32 wrap-around and signed "
                                         "zeros, without the seed's premises"));
llvm::cl::opt<bool> printCounts(llvm::cl::cat(toolOptions), "rule-counts",
                                llvm::cl::desc("Print how often each rule of uop-symbolic fired"));
llvm::cl::opt<bool> requireAll(llvm::cl::cat(toolOptions), "require-all-rules",
                               llvm::cl::desc("Fail if a rule of uop-symbolic never fired"));
llvm::cl::list<std::string>
    premiseRules(llvm::cl::cat(toolOptions), "premise-rules", llvm::cl::CommaSeparated,
                 llvm::cl::desc("Rules that may need the seed's premises: a function that "
                                "needs them and fired none of these is an error"));
llvm::cl::opt<unsigned> timeoutMs(llvm::cl::cat(toolOptions), "timeout", llvm::cl::init(30000),
                                  llvm::cl::desc("Z3 time limit per query, in ms"));
llvm::cl::opt<bool> verbose(llvm::cl::cat(toolOptions), "v",
                            llvm::cl::desc("Print one line per function"));

/// Parses a program (.uir or .mlir).
OwningOpRef<ModuleOp> load(const std::string &path, MLIRContext &context,
                           llvm::SourceMgr &sourceMgr) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(path);
  if (!buffer) {
    llvm::errs() << "uop-smt-check: cannot read " << path << ": " << buffer.getError().message()
                 << "\n";
    return nullptr;
  }
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  return parseProgram(sourceMgr, &context);
}

int run(int argc, char **argv) {
  mlir::uop::installCrashWatchdog();
  llvm::InitLLVM init(argc, argv);
  llvm::cl::HideUnrelatedOptions(toolOptions);
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "uop-smt-check: prove with Z3 that uop-symbolic keeps every function's results\n");
  DialectRegistry registry;
  registry.insert<UopDialect, func::FuncDialect>();
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  if (!afterFile.empty() && inputs.size() != 1) {
    llvm::errs() << "uop-smt-check: --after takes one program before\n";
    return 1;
  }
  SMTCheckOptions options;
  options.exact = exact;
  options.premiseRules.assign(premiseRules.begin(), premiseRules.end());
  options.timeoutMs = timeoutMs;
  options.verboseOut = verbose ? &llvm::outs() : nullptr;
  // Not freed: Z3 frees its context in time superlinear in the depth of the
  // terms it made (10 s after the 1 s check of a 5,000-add chain, 40 s at
  // 10,000), and the tool ends here; the OS takes the memory back at once.
  SMTChecker &checker = *new SMTChecker(options);
  for (const std::string &path : inputs) {
    llvm::SourceMgr sourceMgr;
    SourceMgrDiagnosticHandler handler(sourceMgr, &context);
    OwningOpRef<ModuleOp> before = load(path, context, sourceMgr);
    if (!before)
      return 1;
    if (afterFile.empty()) {
      if (failed(checker.checkSymbolic(*before)))
        return 1;
      continue;
    }
    // parseProgram reads a SourceMgr's main buffer: one of its own (its
    // locations still print as file:line:col).
    llvm::SourceMgr afterMgr;
    OwningOpRef<ModuleOp> after = load(afterFile, context, afterMgr);
    if (!after)
      return 1;
    checker.checkModules(*before, *after);
  }
  printSMTCheckTotals(llvm::outs(), checker.totals());
  bool ok = checker.ok();
  if (afterFile.empty() && (printCounts || requireAll)) {
    if (printCounts)
      printRuleCounts(llvm::outs(), &context, checker.ruleCounts());
    std::vector<std::string> never = getNeverFiredRules(&context, checker.ruleCounts());
    if (requireAll && !never.empty()) {
      llvm::errs() << "uop-smt-check: " << never.size() << " rules never fired:\n";
      for (const std::string &name : never)
        llvm::errs() << "  " << name << "\n";
      ok = false;
    }
  }
  return ok ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  return mlir::uop::runWithLargeStack([&] { return run(argc, argv); });
}
