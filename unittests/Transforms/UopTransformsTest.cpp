//===- UopTransformsTest.cpp - folding, rules and passes from C++ -*- C++ -*-===//
//
// The seed's test_w01 checks whose point is a C++ API: exec_alu's semantics,
// bounds (vmin/vmax), a user-written rewrite rule (test_custom_pattern_
// matcher), inlining one call (test_inline_call_does_not_enter_nested_
// bodies) and a 20000-deep graph (test_deep_graph_no_recursion_error).
//
//===----------------------------------------------------------------------===//

#include "Uop/IR/UopBounds.h"
#include "Uop/IR/UopOps.h"
#include "Uop/IR/UopSemantics.h"
#include "Uop/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace mlir;
using namespace mlir::uop;

namespace {

class UopTransformsTest : public ::testing::Test {
protected:
  UopTransformsTest() { context.loadDialect<UopDialect, func::FuncDialect>(); }

  OwningOpRef<ModuleOp> parse(StringRef src) { return parseSourceString<ModuleOp>(src, &context); }

  /// The value returned by the first function of `module`.
  static Value returned(ModuleOp module, unsigned i = 0) {
    auto func = *module.getOps<func::FuncOp>().begin();
    return func.getBody().front().getTerminator()->getOperand(i);
  }

  /// The integer a value folded to, if it is a constant.
  static std::optional<int64_t> constValue(Value v) {
    Attribute attr;
    if (!matchPattern(v, m_Constant(&attr)))
      return std::nullopt;
    std::optional<Scalar> s = getSplatValue(attr);
    if (!s || s->isFloat)
      return std::nullopt;
    return s->i;
  }

  LogicalResult runPass(ModuleOp module, std::unique_ptr<Pass> pass) {
    PassManager pm(&context);
    pm.addPass(std::move(pass));
    return pm.run(module);
  }

  MLIRContext context;
};

std::optional<Scalar> i32(AluKind op, MLIRContext &ctx, int64_t a, int64_t b) {
  return execAlu(op, IntegerType::get(&ctx, 32), {Scalar::integer(a), Scalar::integer(b)});
}

// test_const_fold_semantics, test_folding_matches_c_semantics,
// test_cast_inf_to_int_is_not_folded
TEST_F(UopTransformsTest, ExecAluSemantics) {
  Type f32 = Float32Type::get(&context), i32t = IntegerType::get(&context, 32);
  EXPECT_EQ(i32(AluKind::FloorDiv, context, -7, 2)->i, -4); // floor, not truncation
  EXPECT_EQ(i32(AluKind::FloorMod, context, -7, 2)->i, 1);
  EXPECT_EQ(i32(AluKind::Add, context, INT32_MAX, 1)->i, INT32_MIN);    // wraps like int32
  EXPECT_EQ(execAlu(AluKind::Cast, i32t, {Scalar::real(-2.7)})->i, -2); // C truncation
  double sum = execAlu(AluKind::Add, f32, {Scalar::real(0.1f), Scalar::real(0.2f)})->f;
  EXPECT_NEAR(sum, 0.3, 1e-7);
  EXPECT_EQ(execAlu(AluKind::Mul, f32, {Scalar::real(16777216.0), Scalar::real(1.0)})->f,
            16777216.0);
  EXPECT_EQ(execAlu(AluKind::Add, f32, {Scalar::real(16777216.0), Scalar::real(1.0)})->f,
            16777216.0); // f32 rounding
  // The seed rounds an f32 input holding a double (16777217.0) first.
  EXPECT_EQ(execAlu(AluKind::Add, f32, {Scalar::real(16777217.0), Scalar::real(2.0)})->f,
            16777218.0);
  EXPECT_FALSE(i32(AluKind::FloorDiv, context, INT32_MIN, -1)); // traps in C
  EXPECT_FALSE(i32(AluKind::FloorDiv, context, 1, 0));
  EXPECT_FALSE(i32(AluKind::FloorMod, context, 1, 0));
  // Float -> int saturates (uop.cast's rule, which folding, the CPU,
  // emulation and the GPU share): +-inf and values past i32 at its ends,
  // NaN 0.
  EXPECT_EQ(execAlu(AluKind::Cast, i32t, {Scalar::real(INFINITY)})->i, INT32_MAX);
  EXPECT_EQ(execAlu(AluKind::Cast, i32t, {Scalar::real(-INFINITY)})->i, INT32_MIN);
  EXPECT_EQ(execAlu(AluKind::Cast, i32t, {Scalar::real(3e9)})->i, INT32_MAX);
  EXPECT_EQ(execAlu(AluKind::Cast, i32t, {Scalar::real(-2.7)})->i, -2);
  EXPECT_EQ(execAlu(AluKind::Cast, i32t, {Scalar::real(NAN)})->i, 0);
  EXPECT_EQ(execAlu(AluKind::Recip, f32, {Scalar::real(-0.0)})->f, -INFINITY);
  EXPECT_EQ(execAlu(AluKind::Log2, f32, {Scalar::real(0.0)})->f, -INFINITY);
  EXPECT_TRUE(std::isnan(execAlu(AluKind::Sqrt, f32, {Scalar::real(-1.0)})->f));
  EXPECT_EQ(execAlu(AluKind::Exp2, f32, {Scalar::real(200.0)})->f, INFINITY);
  EXPECT_TRUE(
      std::isnan(execAlu(AluKind::Mul, f32, {Scalar::real(INFINITY), Scalar::real(0.0)})->f));
  EXPECT_TRUE(std::isnan(execAlu(AluKind::Max, f32, {Scalar::real(NAN), Scalar::real(1.0)})->f));
  EXPECT_EQ(execAlu(AluKind::Max, f32, {Scalar::real(1.0), Scalar::real(NAN)})->f, 1.0);
}

// test_symbolic_ranges: (vmin(flat), vmax(flat)) == (0, 31)
TEST_F(UopTransformsTest, Bounds) {
  auto module = parse(R"mlir(
    func.func @f() -> i32 {
      %c4 = uop.const 4 : i32
      %c8 = uop.const 8 : i32
      %i = uop.range %c4 idx 0 <loop>
      %j = uop.range %c8 idx 1 <loop>
      %i8 = uop.mul %i, %c8 : i32
      %flat = uop.add %i8, %j : i32
      return %flat : i32
    })mlir");
  ASSERT_TRUE(module);
  IntBounds b = getBounds(returned(*module));
  EXPECT_EQ(b.min, 0);
  EXPECT_EQ(b.max, 31);
  BoundsCache cache;
  IntBounds c = getBounds(returned(*module), &cache);
  EXPECT_EQ(c.min, 0);
  EXPECT_EQ(c.max, 31);
}

/// A user's rule: x * 2 -> x + x for i32 (the seed's
/// test_custom_pattern_matcher). See docs/Patterns.md.
struct MulTwoToAdd : OpRewritePattern<MulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MulOp op, PatternRewriter &rewriter) const override {
    Attribute c;
    if (!matchPattern(op.getRhs(), m_Constant(&c)) || !op.getType().isInteger(32))
      return rewriter.notifyMatchFailure(op, "not x * c of i32");
    std::optional<Scalar> v = getSplatValue(c);
    if (!v || v->i != 2)
      return rewriter.notifyMatchFailure(op, "c is not 2");
    rewriter.replaceOpWithNewOp<AddOp>(op, op.getLhs(), op.getLhs());
    return success();
  }
};

TEST_F(UopTransformsTest, CustomPatternMatcher) {
  auto module = parse(R"mlir(
    func.func @f(%x: i32) -> (i32, i32) {
      %c2 = uop.const 2 : i32
      %c3 = uop.const 3 : i32
      %0 = uop.mul %x, %c2 : i32
      %1 = uop.mul %x, %c3 : i32
      return %0, %1 : i32, i32
    })mlir");
  ASSERT_TRUE(module);
  RewritePatternSet patterns(&context);
  patterns.add<MulTwoToAdd>(&context);
  ASSERT_TRUE(succeeded(applyPatternsGreedily(*module, std::move(patterns))));
  Value x = (*module->getOps<func::FuncOp>().begin()).getArgument(0);
  auto add = returned(*module, 0).getDefiningOp<AddOp>();
  ASSERT_TRUE(add);
  EXPECT_EQ(add.getLhs(), x);
  EXPECT_EQ(add.getRhs(), x);
  EXPECT_TRUE(returned(*module, 1).getDefiningOp<MulOp>()); // c = 3: not rewritten
}

// test_inline_call_does_not_enter_nested_bodies
TEST_F(UopTransformsTest, InlineCallDoesNotEnterNestedBodies) {
  auto module = parse(R"mlir(
    func.func @f() -> i32 {
      %c3 = uop.const 3 : i32
      %0 = uop.call "f"(%c3 : i32) {
      ^bb0(%p: i32):
        %one = uop.const 1 : i32
        %a = uop.add %p, %one : i32
        %s = uop.call "sq"(%a : i32) {
        ^bb0(%q: i32):
          %m = uop.mul %q, %q : i32
          uop.yield %m : i32
        }
        %r = uop.add %s, %p : i32
        uop.yield %r : i32
      }
      return %0 : i32
    })mlir");
  ASSERT_TRUE(module);
  auto outer = cast<CallOp>(returned(*module).getDefiningOp());
  IRRewriter rewriter(&context);
  rewriter.setInsertionPoint(outer);
  Value body = inlineCall(rewriter, outer);
  // The body is inner + p with p := 3; the inner call survives intact.
  auto add = body.getDefiningOp<AddOp>();
  ASSERT_TRUE(add);
  auto inner = add.getLhs().getDefiningOp<CallOp>();
  ASSERT_TRUE(inner);
  Value q = inner.getBody().getArgument(0);
  auto mul = inner.getYield().getValue().getDefiningOp<MulOp>();
  ASSERT_TRUE(mul);
  EXPECT_EQ(mul.getLhs(), q);
  EXPECT_EQ(mul.getRhs(), q);
  EXPECT_EQ(constValue(add.getRhs()), 3);
  ASSERT_TRUE(succeeded(runPass(*module, createUopEvaluatePass())));
  EXPECT_EQ(constValue(returned(*module)), 19);
}

// test_deep_graph_no_recursion_error: a 20000-long add chain folds.
TEST_F(UopTransformsTest, DeepGraphNoRecursion) {
  OpBuilder builder(&context);
  Location loc = builder.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  builder.setInsertionPointToEnd(module->getBody());
  Type i32t = builder.getI32Type();
  auto func = func::FuncOp::create(builder, loc, "chain", builder.getFunctionType({}, {i32t}));
  builder.setInsertionPointToEnd(func.addEntryBlock());
  Value x = ConstOp::create(builder, loc, builder.getI32IntegerAttr(0));
  Value one = ConstOp::create(builder, loc, builder.getI32IntegerAttr(1));
  for (int i = 0; i < 20000; ++i)
    x = AddOp::create(builder, loc, x, one);
  func::ReturnOp::create(builder, loc, x);
  ASSERT_TRUE(succeeded(runPass(*module, createUopEvaluatePass())));
  EXPECT_EQ(constValue(returned(*module)), 20000);
}

// The same chain over a parameter: (((x + 1) + 1) ...) -> x + 20000, and its
// bounds are computed without recursion.
TEST_F(UopTransformsTest, DeepSymbolicChain) {
  OpBuilder builder(&context);
  Location loc = builder.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  builder.setInsertionPointToEnd(module->getBody());
  Type i32t = builder.getI32Type();
  auto func = func::FuncOp::create(builder, loc, "chain", builder.getFunctionType({i32t}, {i32t}));
  builder.setInsertionPointToEnd(func.addEntryBlock());
  Value x = func.getArgument(0);
  Value one = ConstOp::create(builder, loc, builder.getI32IntegerAttr(1));
  for (int i = 0; i < 20000; ++i)
    x = AddOp::create(builder, loc, x, one);
  func::ReturnOp::create(builder, loc, x);
  BoundsCache cache;
  IntBounds b = getBounds(x, &cache);
  EXPECT_EQ(b.min, INT32_MIN);
  ASSERT_TRUE(succeeded(runPass(*module, createUopSymbolicPass())));
  auto add = returned(*module).getDefiningOp<AddOp>();
  ASSERT_TRUE(add);
  EXPECT_EQ(add.getLhs(), func.getArgument(0));
  EXPECT_EQ(constValue(add.getRhs()), 20000);
}

} // namespace
