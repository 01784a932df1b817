//===- GradientTest.cpp - mlir::uop::gradient from C++ -----------*- C++ -*-===//
//
// The autodiff entry point itself: the seed's toposort order, only values on
// a path to a target get rules, zeros and ones at the edges, values (by
// uop-evaluate on closed programs), and the data-dependent index error as a
// diagnostic at the index.
//
//===----------------------------------------------------------------------===//

#include "Uop/IR/UopOps.h"
#include "Uop/Transforms/Autodiff.h"
#include "Uop/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::uop;

namespace {

class GradientTest : public ::testing::Test {
protected:
  GradientTest() { context.loadDialect<UopDialect, func::FuncDialect>(); }

  OwningOpRef<ModuleOp> parse(StringRef src) { return parseSourceString<ModuleOp>(src, &context); }

  static func::FuncOp mainOf(ModuleOp m) { return *m.getOps<func::FuncOp>().begin(); }
  static Operation *ret(ModuleOp m) { return mainOf(m).getBody().front().getTerminator(); }
  /// The result of @main's i-th op (MLIR text has no value names to look up).
  static Value nth(ModuleOp m, unsigned i) {
    return std::next(mainOf(m).getBody().front().begin(), i)->getResult(0);
  }
  /// Appends `grads` to @main's results.
  static void returnAlso(ModuleOp m, ArrayRef<Value> grads) {
    Operation *r = ret(m);
    SmallVector<Value> vals(r->getOperands());
    vals.append(grads.begin(), grads.end());
    OpBuilder b(r);
    func::ReturnOp::create(b, r->getLoc(), vals);
    r->erase();
    SmallVector<Type> types;
    for (Value v : vals)
      types.push_back(v.getType());
    mainOf(m).setFunctionType(b.getFunctionType({}, types));
  }
  static size_t numOps(ModuleOp m) { return mainOf(m).getBody().front().getOperations().size(); }

  MLIRContext context;
};

/// Depth first from the root, operands in order (the seed's toposort).
TEST_F(GradientTest, SeedToposortOrder) {
  auto m = parse(R"mlir(
    func.func @main(%a: f32, %b: f32) -> f32 {
      %0 = uop.mul %b, %a : f32
      %1 = uop.add %a, %0 : f32
      return %1 : f32
    })mlir");
  ASSERT_TRUE(m);
  func::FuncOp f = mainOf(*m);
  Value a = f.getArgument(0), b = f.getArgument(1);
  Value mul = nth(*m, 0), add = nth(*m, 1);
  EXPECT_EQ(seedToposort(add), (SmallVector<Value>{a, b, mul, add}));
}

/// Only values on a path from a target to the root get rules: with target
/// %x alone, the exp2 branch (which depends only on %z) builds nothing.
TEST_F(GradientTest, OnlyValuesOnAPathGetRules) {
  auto m = parse(R"mlir(
    func.func @main(%x: f32, %y: f32, %z: f32) -> f32 {
      %0 = uop.mul %x, %y : f32
      %1 = uop.exp2 %z : f32
      %2 = uop.add %0, %1 : f32
      return %2 : f32
    })mlir");
  ASSERT_TRUE(m);
  func::FuncOp f = mainOf(*m);
  size_t before = numOps(*m);
  OpBuilder b(ret(*m));
  auto g = gradient(b, nth(*m, 2), {f.getArgument(0)});
  ASSERT_TRUE(succeeded(g));
  // The seed (a const 1.0) and the mul's two rules (g * y for x, g * x for y:
  // the seed builds both); nothing for exp2 (no mul by ln 2).
  EXPECT_EQ(numOps(*m) - before, 3u);
  auto mul = (*g)[0].getDefiningOp<MulOp>();
  ASSERT_TRUE(mul);
  EXPECT_EQ(mul.getRhs(), f.getArgument(1));
  f.walk([&](Operation *op) {
    if (auto c = dyn_cast<ConstOp>(op))
      if (auto fa = dyn_cast<FloatAttr>(c.getValue()))
        EXPECT_EQ(fa.getValueAsDouble(), 1.0) << "a constant other than the seed's 1.0";
  });
}

/// A target the root does not depend on gets zeros like it; the root as its
/// own target gets ones.
TEST_F(GradientTest, ZerosOffThePathOnesAtTheRoot) {
  auto m = parse(R"mlir(
    func.func @main() -> tensor<2xf32> {
      %x = uop.buffer 0 : tensor<2xf32>
      %y = uop.buffer 1 : tensor<3xf32>
      %0 = uop.sqrt %x : tensor<2xf32>
      return %0 : tensor<2xf32>
    })mlir");
  ASSERT_TRUE(m);
  Value y = nth(*m, 1), root = nth(*m, 2);
  OpBuilder b(ret(*m));
  auto g = gradient(b, root, {y, root});
  ASSERT_TRUE(succeeded(g));
  for (Value v : *g) {
    auto e = v.getDefiningOp<ExpandOp>();
    ASSERT_TRUE(e);
    auto c = e.getSrc().getDefiningOp<ReshapeOp>().getSrc().getDefiningOp<ConstOp>();
    ASSERT_TRUE(c);
    EXPECT_EQ(cast<FloatAttr>(c.getValue()).getValueAsDouble(), v == (*g)[0] ? 0.0 : 1.0);
  }
  EXPECT_EQ((*g)[0].getType(), y.getType());
  EXPECT_EQ((*g)[1].getType(), root.getType());
}

/// Values, on a closed program that uop-evaluate runs: d/dx (x * x + max(x,
/// x)) at x = 3 is 2x + (1/2 + 1/2) (a tie splits the gradient) = 7; d/dx of
/// reduce-max over [3, 1, 3] shares it between the two maxima.
TEST_F(GradientTest, ValuesByEvaluation) {
  auto m = parse(R"mlir(
    func.func @main() -> f32 {
      %x = uop.const 3.0 : f32
      %0 = uop.mul %x, %x : f32
      %1 = uop.max %x, %x : f32
      %2 = uop.add %0, %1 : f32
      return %2 : f32
    })mlir");
  ASSERT_TRUE(m);
  {
    OpBuilder b(ret(*m));
    auto g = gradient(b, nth(*m, 3), {nth(*m, 0)});
    ASSERT_TRUE(succeeded(g));
    returnAlso(*m, *g);
  }
  PassManager pm(&context);
  pm.addPass(createUopEvaluatePass());
  ASSERT_TRUE(succeeded(pm.run(*m)));
  FloatAttr v;
  ASSERT_TRUE(matchPattern(ret(*m)->getOperand(1), m_Constant(&v)));
  EXPECT_EQ(v.getValueAsDouble(), 7.0);

  auto r = parse(R"mlir(
    func.func @main() -> f32 {
      %a = uop.const 3.0 : f32
      %b = uop.const 1.0 : f32
      %s = uop.stack %a, %b, %a : f32
      %0 = uop.reduce %s <max> pop 1 : tensor<3xf32>
      return %0 : f32
    })mlir");
  ASSERT_TRUE(r);
  {
    OpBuilder b(ret(*r));
    auto g = gradient(b, nth(*r, 3), {nth(*r, 2)});
    ASSERT_TRUE(succeeded(g));
    returnAlso(*r, *g);
  }
  PassManager pm2(&context);
  pm2.addPass(createUopEvaluatePass());
  ASSERT_TRUE(succeeded(pm2.run(*r)));
  DenseElementsAttr d;
  ASSERT_TRUE(matchPattern(ret(*r)->getOperand(1), m_Constant(&d)));
  SmallVector<float> got(d.getValues<float>());
  EXPECT_EQ(got, (SmallVector<float>{0.5f, 0.0f, 0.5f}));
}

/// A data-dependent uop.index on the path is an error at the index (the
/// seed's NotImplementedError), not an abort; off the path it is no error.
TEST_F(GradientTest, DataDependentIndexIsADiagnostic) {
  auto m = parse(R"mlir(
    func.func @main() -> f32 {
      %x = uop.buffer 0 : tensor<4xf32>
      %i = uop.buffer 1 : tensor<1xi32>
      %y = uop.buffer 2 : tensor<1xf32>
      %c0 = uop.const 0 : i32
      %k = uop.index %i[%c0] : tensor<1xi32>
      %0 = uop.index %x[%k] : tensor<4xf32>
      %1 = uop.index %y[%c0] : tensor<1xf32>
      %2 = uop.add %0, %1 : f32
      return %2 : f32
    })mlir");
  ASSERT_TRUE(m);
  Value x = nth(*m, 0), y = nth(*m, 2), root = nth(*m, 7);
  std::string diag;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
    auto loc = dyn_cast<FileLineColLoc>(d.getLocation());
    diag = (loc ? std::to_string(loc.getLine()) + ":" + std::to_string(loc.getColumn()) + ": "
                : std::string()) +
           d.str();
    return success();
  });
  OpBuilder b(ret(*m));
  auto ok = gradient(b, root, {y});
  EXPECT_TRUE(succeeded(ok));
  EXPECT_EQ(diag, "");
  auto bad = gradient(b, root, {x, y});
  EXPECT_TRUE(failed(bad));
  EXPECT_EQ(diag, "8:12: no gradient of a data-dependent uop.index (its indices must be "
                  "uop.const; use a one-hot matmul)");
}

/// An op without a rule (a load) on the path is a diagnostic too.
TEST_F(GradientTest, NoRuleIsADiagnostic) {
  auto m = parse(R"mlir(
    func.func @main(%i: i32) -> f32 {
      %b = uop.buffer 0 : memref<4xf32, #uop.addrspace<global>>
      %p = uop.index %b[%i] : memref<4xf32, #uop.addrspace<global>>
      %v = uop.load %p : !uop.ptr<f32, global>
      %0 = uop.mul %v, %v : f32
      return %0 : f32
    })mlir");
  ASSERT_TRUE(m);
  std::string diag;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
    diag = d.str();
    return success();
  });
  OpBuilder b(ret(*m));
  EXPECT_TRUE(failed(gradient(b, nth(*m, 3), {nth(*m, 0)})));
  EXPECT_EQ(diag, "no gradient rule for 'uop.load' (autodiff works on pure shaped graphs)");
}

} // namespace
