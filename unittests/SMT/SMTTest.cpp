//===- SMTTest.cpp - proofs of rewrites through the UopSMT API --*- C++ -*-===//
//
// The library uop-smt-check is built on, called directly: a right rewrite
// is proven, a wrong one refuted with a counterexample that really tells the
// two programs apart, one that holds only without i32 overflow is proven
// under that premise (an error with `exact`), and uop-symbolic is proven on
// a module with its rules counted.
//
//===----------------------------------------------------------------------===//

#include "Uop/SMT/SMT.h"
#include "Uop/IR/UopDialect.h"
#include "Uop/IR/UopOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::uop;

namespace {

class SMTTest : public ::testing::Test {
protected:
  SMTTest() : handler(&context, [this](Diagnostic &diag) { record(diag); }) {
    context.loadDialect<UopDialect, func::FuncDialect>();
  }

  OwningOpRef<ModuleOp> parse(StringRef src) {
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(src, &context);
    EXPECT_TRUE(module) << src.str();
    return module;
  }

  /// The function @`name` of `module`.
  static func::FuncOp function(ModuleOp module, StringRef name) {
    return module.lookupSymbol<func::FuncOp>(name);
  }

  /// The diagnostics emitted so far, each with its notes, one per line.
  void record(Diagnostic &diag) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << diag;
    for (Diagnostic &note : diag.getNotes())
      os << "\n  note: " << note;
    diagnostics.push_back(text);
  }

  MLIRContext context;
  ScopedDiagnosticHandler handler;
  std::vector<std::string> diagnostics;
};

/// Python's a // b and a % b on i32 (the divisors here are small and
/// nonzero).
int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}
int64_t floorMod(int64_t a, int64_t b) { return a - b * floorDiv(a, b); }

TEST_F(SMTTest, ProvesARightRewrite) {
  // (x // 2) // 3 -> x // 6.
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @before(%x: i32) -> i32 {
      %c2 = uop.const 2 : i32
      %c3 = uop.const 3 : i32
      %d = uop.floordiv %x, %c2 : i32
      %0 = uop.floordiv %d, %c3 : i32
      return %0 : i32
    }
    func.func @after(%x: i32) -> i32 {
      %c6 = uop.const 6 : i32
      %0 = uop.floordiv %x, %c6 : i32
      return %0 : i32
    }
  )mlir");
  ASSERT_TRUE(module);
  SMTChecker checker;
  EXPECT_EQ(checker.checkFunction(function(*module, "before"), function(*module, "after")),
            ProofLevel::Exact);
  EXPECT_TRUE(checker.ok());
  EXPECT_TRUE(diagnostics.empty()) << diagnostics.front();
  EXPECT_EQ(checker.totals().functions, 1);
  EXPECT_GT(checker.totals().exact, 0);
  EXPECT_EQ(checker.totals().exact, checker.totals().obligations);
}

TEST_F(SMTTest, RefutesAWrongRewriteWithACounterexample) {
  // The seed's unguarded (x % c1) // c2 -> (x // c2) % (c1 // c2), for a
  // negative c1: wrong.
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @before(%x: i32) -> i32 {
      %cm4 = uop.const -4 : i32
      %c2 = uop.const 2 : i32
      %m = uop.floormod %x, %cm4 : i32
      %0 = uop.floordiv %m, %c2 : i32
      return %0 : i32
    }
    func.func @after(%x: i32) -> i32 {
      %c2 = uop.const 2 : i32
      %cm2 = uop.const -2 : i32
      %d = uop.floordiv %x, %c2 : i32
      %0 = uop.floormod %d, %cm2 : i32
      return %0 : i32
    }
  )mlir");
  ASSERT_TRUE(module);
  SMTChecker checker;
  EXPECT_EQ(checker.checkFunction(function(*module, "before"), function(*module, "after")),
            ProofLevel::Failed);
  EXPECT_FALSE(checker.ok());
  EXPECT_EQ(checker.totals().failed, 1);
  ASSERT_EQ(diagnostics.size(), 1u);
  const std::string &d = diagnostics.front();
  EXPECT_NE(d.find("in @before, not proven that result #0 is the same"), std::string::npos) << d;
  // The counterexample's x makes the two programs differ.
  size_t at = d.find("counterexample: %arg0 = ");
  ASSERT_NE(at, std::string::npos) << d;
  int64_t x =
      std::strtoll(d.c_str() + at + std::string("counterexample: %arg0 = ").size(), nullptr, 10);
  EXPECT_NE(floorDiv(floorMod(x, -4), 2), floorMod(floorDiv(x, 2), -2)) << "x = " << x;
}

TEST_F(SMTTest, ProvesUnderThePremiseWhatNeedsNoOverflow) {
  // (x * 4) // 4 -> x holds only if x * 4 does not wrap.
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @before(%x: i32) -> i32 {
      %c4 = uop.const 4 : i32
      %m = uop.mul %x, %c4 : i32
      %0 = uop.floordiv %m, %c4 : i32
      return %0 : i32
    }
    func.func @after(%x: i32) -> i32 {
      return %x : i32
    }
  )mlir");
  ASSERT_TRUE(module);
  func::FuncOp before = function(*module, "before"), after = function(*module, "after");
  SMTChecker checker;
  EXPECT_EQ(checker.checkFunction(before, after), ProofLevel::NoOverflow);
  EXPECT_TRUE(checker.ok());
  EXPECT_EQ(checker.totals().premised, 1);

  SMTCheckOptions options;
  options.exact = true;
  SMTChecker exact(options);
  EXPECT_EQ(exact.checkFunction(before, after), ProofLevel::NoOverflow);
  EXPECT_FALSE(exact.ok());
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_NE(diagnostics.front().find("result #0 is the same only assuming no i32 overflow"),
            std::string::npos)
      << diagnostics.front();
}

TEST_F(SMTTest, RefutesAFloatMaxSwapWithNaN) {
  // max(1.0, nan) is 1.0, max(nan, 1.0) is nan: the operands keep their
  // order.
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @before(%f: f32) -> f32 {
      %c1 = uop.const 1.0 : f32
      %0 = uop.max %c1, %f : f32
      return %0 : f32
    }
    func.func @after(%f: f32) -> f32 {
      %c1 = uop.const 1.0 : f32
      %0 = uop.max %f, %c1 : f32
      return %0 : f32
    }
  )mlir");
  ASSERT_TRUE(module);
  SMTChecker checker;
  EXPECT_EQ(checker.checkFunction(function(*module, "before"), function(*module, "after")),
            ProofLevel::Failed);
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_NE(diagnostics.front().find("counterexample: %arg0 = nan"), std::string::npos)
      << diagnostics.front();
}

TEST_F(SMTTest, ProvesUopSymbolicOnAModule) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @div_div(%x: i32) -> i32 {
      %c2 = uop.const 2 : i32
      %c3 = uop.const 3 : i32
      %d = uop.floordiv %x, %c2 : i32
      %0 = uop.floordiv %d, %c3 : i32
      return %0 : i32
    }
    func.func @mul_one(%f: f32) -> f32 {
      %c1 = uop.const 1.0 : f32
      %0 = uop.mul %f, %c1 : f32
      return %0 : f32
    }
  )mlir");
  ASSERT_TRUE(module);
  std::string log;
  llvm::raw_string_ostream os(log);
  SMTCheckOptions options;
  options.verboseOut = &os;
  SMTChecker checker(options);
  ASSERT_TRUE(succeeded(checker.checkSymbolic(*module)));
  EXPECT_TRUE(checker.ok()) << (diagnostics.empty() ? "" : diagnostics.front());
  EXPECT_EQ(checker.totals().functions, 2);
  EXPECT_EQ(checker.totals().failed, 0);
  EXPECT_FALSE(checker.ruleCounts().empty()); // uop-symbolic rewrote something
  EXPECT_NE(log.find("@div_div: proven ("), std::string::npos) << log;
  EXPECT_NE(log.find("@mul_one: proven ("), std::string::npos) << log;
  // The input is unchanged: the pass ran on a copy.
  int divisions = 0;
  function(*module, "div_div").walk([&](FloorDivOp) { ++divisions; });
  EXPECT_EQ(divisions, 2);
}

TEST_F(SMTTest, AFunctionMissingAfterIsAnError) {
  OwningOpRef<ModuleOp> before = parse(R"mlir(
    func.func @f(%x: i32) -> i32 {
      return %x : i32
    }
  )mlir");
  OwningOpRef<ModuleOp> after = parse("");
  ASSERT_TRUE(before && after);
  SMTChecker checker;
  checker.checkModules(*before, *after);
  EXPECT_FALSE(checker.ok());
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_NE(diagnostics.front().find("no @f after"), std::string::npos) << diagnostics.front();
}

} // namespace
