//===- SeedOrderRewriteTest.cpp - the seed-order rewrite driver -*- C++ -*-===//
//
// Direct tests of applySeedOrderRewrite and its pieces: the sharing (the
// seed's hash consing: operands in order), constant sharing and hoisting,
// the op-kind trait cache, non-convergence reporting and the statistics.
//
//===----------------------------------------------------------------------===//

#include "Uop/Transforms/SeedOrderRewrite.h"
#include "SeedOrderRewriteInternal.h"
#include "Uop/IR/UopBounds.h"
#include "Uop/IR/UopOps.h"
#include "Uop/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::uop;

namespace {

class SeedOrderRewriteTest : public ::testing::Test {
protected:
  SeedOrderRewriteTest() { context.loadDialect<UopDialect, func::FuncDialect>(); }

  OwningOpRef<ModuleOp> parse(StringRef src) {
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(src, &context);
    EXPECT_TRUE(module) << "could not parse:\n" << src.str();
    return module;
  }

  static func::FuncOp firstFunc(ModuleOp module) { return *module.getOps<func::FuncOp>().begin(); }

  /// The value returned by the first function of `module`.
  static Value returned(ModuleOp module, unsigned i = 0) {
    return firstFunc(module).getBody().front().getTerminator()->getOperand(i);
  }

  /// The ops of kind OpTy in `module`.
  template <typename OpTy> static int count(ModuleOp module) {
    int n = 0;
    module->walk([&](OpTy) { ++n; });
    return n;
  }

  /// The symbolic rules and folders, as uop-symbolic runs them.
  FrozenRewritePatternSet symbolicPatterns(BoundsCache &cache) {
    RewritePatternSet patterns(&context);
    populateSymbolicPatterns(patterns, &cache);
    return FrozenRewritePatternSet(std::move(patterns));
  }

  MLIRContext context;
};

//===----------------------------------------------------------------------===//
// Sharing (hash consing)
//===----------------------------------------------------------------------===//

// Two equal subgraphs merge, their users with them; `y + x` is not `x + y`
// (the seed hash-conses operands in order).
TEST_F(SeedOrderRewriteTest, SharingMergesEqualSubgraphsInOrder) {
  auto module = parse(R"mlir(
    func.func @f(%x: i32, %y: i32) -> (i32, i32, i32, i32) {
      %a = uop.add %x, %y : i32
      %b = uop.add %x, %y : i32
      %c = uop.add %y, %x : i32
      %m = uop.mul %a, %x : i32
      %n = uop.mul %b, %x : i32
      return %m, %n, %a, %c : i32, i32, i32, i32
    })mlir");
  ASSERT_TRUE(module);
  Operation *a = returned(*module, 2).getDefiningOp();
  Operation *c = returned(*module, 3).getDefiningOp();
  Operation *b = a->getNextNode();
  EXPECT_TRUE(equivalentForSharing(a, b));
  EXPECT_EQ(hashForSharing(a), hashForSharing(b));
  EXPECT_FALSE(equivalentForSharing(a, c));
  EXPECT_NE(hashForSharing(a), hashForSharing(c));

  IRRewriter rewriter(&context);
  EXPECT_TRUE(shareSubgraphs(*module, rewriter));
  EXPECT_EQ(returned(*module, 0), returned(*module, 1)); // m and n: one value
  EXPECT_NE(returned(*module, 2), returned(*module, 3)); // x + y and y + x: two
  EXPECT_EQ(count<AddOp>(*module), 2);
  EXPECT_EQ(count<MulOp>(*module), 1);
  // At its fixed point: nothing more to share.
  EXPECT_FALSE(shareSubgraphs(*module, rewriter));
}

// Attributes and result types take part: casts to two types stay two.
TEST_F(SeedOrderRewriteTest, SharingComparesTypes) {
  auto module = parse(R"mlir(
    func.func @f(%x: i32) -> (f32, f16, f32) {
      %a = uop.cast %x : i32 to f32
      %b = uop.cast %x : i32 to f16
      %c = uop.cast %x : i32 to f32
      return %a, %b, %c : f32, f16, f32
    })mlir");
  ASSERT_TRUE(module);
  IRRewriter rewriter(&context);
  EXPECT_TRUE(shareSubgraphs(*module, rewriter));
  EXPECT_EQ(returned(*module, 0), returned(*module, 2));
  EXPECT_EQ(count<CastOp>(*module), 2);
}

// Through the driver: after sharing, max(m, m2) of two equal products is one
// of them, whichever driver rewrites.
TEST_F(SeedOrderRewriteTest, DriverSharesThenRewrites) {
  for (bool seedOrder : {true, false}) {
    auto module = parse(R"mlir(
      func.func @f(%x: i32, %y: i32) -> i32 {
        %c2 = uop.const 2 : i32
        %p = uop.add %x, %y : i32
        %p2 = uop.add %x, %y : i32
        %m = uop.mul %p, %c2 : i32
        %m2 = uop.mul %p2, %c2 : i32
        %s = uop.max %m, %m2 : i32
        return %s : i32
      })mlir");
    ASSERT_TRUE(module);
    BoundsCache cache;
    FrozenRewritePatternSet patterns = symbolicPatterns(cache);
    SeedOrderRewriteConfig config;
    config.seedOrder = seedOrder;
    config.cache = &cache;
    ASSERT_TRUE(succeeded(applySeedOrderRewrite(*module, patterns, config))) << seedOrder;
    EXPECT_EQ(count<MaxOp>(*module), 0) << seedOrder;
    EXPECT_EQ(count<AddOp>(*module), 1) << seedOrder;
  }
}

// A fixed point certified by the second in-order pass leaves the IR (the
// place and location of constants included) as the greedy driver run after
// the seed-order pass (certify = false) leaves it.
TEST_F(SeedOrderRewriteTest, CertifiedAsGreedy) {
  const char *src = R"mlir(
    func.func @f(%x: i32, %y: i32) -> (i32, i32, i32) {
      %c4 = uop.const 4 : i32
      %c2 = uop.const 2 : i32
      %a = uop.mul %x, %c4 : i32
      %b = uop.add %a, %c4 : i32
      %q = uop.floordiv %b, %c4 : i32
      %p = uop.add %x, %y : i32
      %p2 = uop.add %x, %y : i32
      %m = uop.mul %p, %c2 : i32
      %m2 = uop.mul %p2, %c2 : i32
      %s = uop.max %m, %m2 : i32
      %t = uop.add %q, %s : i32
      return %t, %m, %m2 : i32, i32, i32
    })mlir";
  std::string printed[2];
  for (bool certify : {true, false}) {
    auto module = parse(src);
    ASSERT_TRUE(module);
    BoundsCache cache;
    FrozenRewritePatternSet patterns = symbolicPatterns(cache);
    SeedOrderRewriteConfig config;
    config.cache = &cache;
    config.certify = certify;
    ASSERT_TRUE(succeeded(applySeedOrderRewrite(*module, patterns, config)));
    llvm::raw_string_ostream os(printed[certify]);
    module->print(os, OpPrintingFlags().enableDebugInfo());
  }
  EXPECT_EQ(printed[true], printed[false]);
  EXPECT_EQ(printed[true].find("uop.max"), std::string::npos);
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

// Equal constants share; 1, 1.0, true, 0.0 and -0.0 are five constants. With
// a cache, the ones kept move to the start of their block in program order
// and are remembered there.
TEST_F(SeedOrderRewriteTest, ConstantsShareDistinctValuesAndHoist) {
  for (bool withCache : {false, true}) {
    auto module = parse(R"mlir(
      func.func @f(%x: i32, %f: f32, %b: i1) -> (i32, i32, f32, i1, f32, f32, f32) {
        %a = uop.add %x, %x : i32
        %c1 = uop.const 1 : i32
        %u = uop.add %a, %c1 : i32
        %d1 = uop.const 1 : i32
        %v = uop.mul %a, %d1 : i32
        %f1 = uop.const 1.0 : f32
        %t = uop.const true
        %z = uop.const 0.0 : f32
        %nz = uop.const -0.0 : f32
        %z2 = uop.const 0.0 : f32
        %g = uop.add %f, %f1 : f32
        %bt = uop.add %b, %t : i1
        %fz = uop.add %f, %z : f32
        %fnz = uop.add %f, %nz : f32
        %fz2 = uop.add %f, %z2 : f32
        return %u, %v, %g, %bt, %fz, %fnz, %fz2 : i32, i32, f32, i1, f32, f32, f32
      })mlir");
    ASSERT_TRUE(module);
    BoundsCache cache;
    IRRewriter rewriter(&context);
    int64_t ops = shareConstants(*module, rewriter, withCache ? &cache : nullptr);
    // module, func, 15 ops and the return, counted before any was replaced.
    EXPECT_EQ(ops, 18) << withCache;
    EXPECT_EQ(count<ConstOp>(*module), 5) << withCache; // 1, 1.0, true, 0.0, -0.0

    // The constant operand of the op that makes result `i`.
    auto constOf = [&](unsigned i) {
      return returned(*module, i).getDefiningOp()->getOperand(1).getDefiningOp();
    };
    EXPECT_EQ(constOf(0), constOf(1)) << withCache; // 1 and 1: one
    EXPECT_EQ(constOf(4), constOf(6)) << withCache; // 0.0 and 0.0: one
    EXPECT_NE(constOf(4), constOf(5)) << withCache; // 0.0 and -0.0: two
    EXPECT_NE(constOf(0), constOf(2)) << withCache; // 1 and 1.0
    EXPECT_NE(constOf(0), constOf(3)) << withCache; // 1 and true

    Block &body = firstFunc(*module).getBody().front();
    if (!withCache) {
      // Left where they were: the first op is still the add.
      EXPECT_TRUE(isa<AddOp>(body.front())) << withCache;
      EXPECT_TRUE(cache.constants.empty());
      continue;
    }
    // The five constants first, in program order, remembered by the cache.
    SmallVector<Attribute> values;
    for (Operation &op : body) {
      auto c = dyn_cast<ConstOp>(op);
      if (!c)
        break;
      values.push_back(c.getValue());
      EXPECT_EQ(cache.constants.lookup({&body, c.getValue()}), &op);
    }
    ASSERT_EQ(values.size(), 5u);
    EXPECT_EQ(values[0], rewriter.getI32IntegerAttr(1));
    EXPECT_EQ(values[1], rewriter.getF32FloatAttr(1.0));
    EXPECT_EQ(values[2], rewriter.getBoolAttr(true));
    EXPECT_EQ(values[3], rewriter.getF32FloatAttr(0.0));
    EXPECT_EQ(values[4], rewriter.getF32FloatAttr(-0.0));
    EXPECT_EQ(cache.constants.size(), 5u);
  }
}

// Constants already at the fixed point: moved to the front as the greedy
// driver's folder would move them; equal ones or constants outside an
// isolated op's entry block are left to the greedy driver.
TEST_F(SeedOrderRewriteTest, HoistConstantsAsGreedy) {
  auto module = parse(R"mlir(
    func.func @f(%x: i32) -> i32 {
      %a = uop.add %x, %x : i32
      %c1 = uop.const 1 : i32
      %b = uop.add %a, %c1 : i32
      return %b : i32
    })mlir");
  ASSERT_TRUE(module);
  EXPECT_TRUE(hoistConstantsAsGreedy(*module));
  Block &body = firstFunc(*module).getBody().front();
  ASSERT_TRUE(isa<ConstOp>(body.front()));
  EXPECT_TRUE(isa<UnknownLoc>(body.front().getLoc()));

  auto twice = parse(R"mlir(
    func.func @f(%x: i32) -> i32 {
      %a = uop.add %x, %x : i32
      %c1 = uop.const 1 : i32
      %d1 = uop.const 1 : i32
      %b = uop.add %a, %c1 : i32
      %c = uop.add %b, %d1 : i32
      return %c : i32
    })mlir");
  ASSERT_TRUE(twice);
  EXPECT_FALSE(hoistConstantsAsGreedy(*twice));
  EXPECT_TRUE(isa<AddOp>(firstFunc(*twice).getBody().front().front())); // unchanged
}

//===----------------------------------------------------------------------===//
// The op-kind trait cache
//===----------------------------------------------------------------------===//

TEST_F(SeedOrderRewriteTest, TraitCacheAnswers) {
  auto module = parse(R"mlir(
    func.func @f(%x: i32, %y: i32) -> (i32, i32, i32, i1, i1, i32, !uop.void) {
      %c = uop.const 3 : i32
      %a = uop.add %x, %y : i32
      %m = uop.mul %x, %y : i32
      %mx = uop.max %x, %y : i32
      %ne = uop.cmpne %x, %y : i32
      %lt = uop.cmplt %x, %y : i32
      %d = uop.floordiv %x, %c : i32
      %b = uop.buffer 0 : memref<4xi32, #uop.addrspace<global>>
      %p = uop.index %b[%x] : memref<4xi32, #uop.addrspace<global>>
      %s = uop.store %p, %a : !uop.ptr<i32, global>
      return %a, %m, %mx, %ne, %lt, %d, %s : i32, i32, i32, i1, i1, i32, !uop.void
    })mlir");
  ASSERT_TRUE(module);
  OpKindTraits traits;
  llvm::DenseMap<StringRef, Operation *> byName;
  // Asked twice each (the second answer from the cache), always what the op
  // itself says.
  for (int pass = 0; pass < 2; ++pass)
    module->walk([&](Operation *op) {
      byName[op->getName().getStringRef()] = op;
      EXPECT_EQ(traits.isCommutative(op), op->hasTrait<OpTrait::IsCommutative>())
          << op->getName().getStringRef().str();
      EXPECT_EQ(traits.isConstantLike(op), op->hasTrait<OpTrait::ConstantLike>());
      EXPECT_EQ(traits.isTerminator(op), op->hasTrait<OpTrait::IsTerminator>());
      EXPECT_EQ(traits.deadIfUnused(op), wouldOpBeTriviallyDead(op));
      EXPECT_EQ(traits.isOpTriviallyDead(op), isOpTriviallyDead(op));
      EXPECT_EQ(traits.isMemoryEffectFree(op), isMemoryEffectFree(op));
    });
  // The ops the seed treats as commutative carry ODS's Commutative.
  // (uop.max is not: a float max with a NaN or a signed zero depends on the
  // operand order; its folder moves an integer constant right, as the seed.)
  for (StringRef name : {"uop.add", "uop.mul", "uop.cmpne"}) {
    EXPECT_TRUE(traits.isCommutative(byName[name])) << name.str();
    EXPECT_NE(traits.commutativeFolder(byName[name]), nullptr) << name.str();
  }
  for (StringRef name : {"uop.cmplt", "uop.floordiv", "uop.max", "uop.const", "func.return"}) {
    EXPECT_FALSE(traits.isCommutative(byName[name])) << name.str();
    EXPECT_EQ(traits.commutativeFolder(byName[name]), nullptr) << name.str();
  }
  EXPECT_TRUE(traits.isConstantLike(byName["uop.const"]));
  EXPECT_FALSE(traits.isConstantLike(byName["uop.add"]));
  EXPECT_TRUE(traits.isTerminator(byName["func.return"]));
  EXPECT_FALSE(traits.isTerminator(byName["uop.add"]));
  EXPECT_TRUE(traits.deadIfUnused(byName["uop.add"]));
  EXPECT_FALSE(traits.deadIfUnused(byName["uop.store"])); // it writes memory
  EXPECT_FALSE(traits.isMemoryEffectFree(byName["uop.store"]));
  EXPECT_FALSE(traits.deadIfUnused(byName["func.return"]));
  EXPECT_FALSE(traits.isOpTriviallyDead(byName["uop.add"])); // it has uses
}

// The cached fold hook of a commutative op gives what Operation::fold gives:
// a constant lhs moved to the right in place, `x + 0` folded to `x`.
TEST_F(SeedOrderRewriteTest, CommutativeFolderMatchesFold) {
  auto module = parse(R"mlir(
    func.func @f(%x: i32) -> (i32, i32, i32, i32) {
      %c0 = uop.const 0 : i32
      %c3 = uop.const 3 : i32
      %a = uop.add %c3, %x : i32
      %b = uop.add %x, %c0 : i32
      %c = uop.add %x, %c3 : i32
      %d = uop.mul %c3, %c3 : i32
      return %a, %b, %c, %d : i32, i32, i32, i32
    })mlir");
  ASSERT_TRUE(module);
  OpKindTraits traits;
  for (unsigned i = 0; i < 4; ++i) {
    Operation *op = returned(*module, i).getDefiningOp();
    Operation *clone = op->clone();
    SmallVector<Attribute> constants;
    for (Value v : op->getOperands()) {
      Attribute attr;
      constants.push_back(matchPattern(v, m_Constant(&attr)) ? attr : Attribute());
    }
    FoldFn hook = traits.commutativeFolder(op);
    ASSERT_NE(hook, nullptr);
    SmallVector<OpFoldResult> viaHook, viaFold;
    LogicalResult hooked = hook(op, constants, viaHook);
    LogicalResult folded = clone->fold(constants, viaFold);
    EXPECT_EQ(succeeded(hooked), succeeded(folded)) << i;
    EXPECT_EQ(viaHook, viaFold) << i;
    EXPECT_EQ(SmallVector<Value>(op->getOperands()), SmallVector<Value>(clone->getOperands())) << i;
    clone->destroy();
  }
  // %a became x + 3, in place.
  Operation *a = returned(*module, 0).getDefiningOp();
  EXPECT_EQ(a->getOperand(0), firstFunc(*module).getArgument(0));
}

//===----------------------------------------------------------------------===//
// Non-convergence and statistics
//===----------------------------------------------------------------------===//

/// A rule that never stops: swaps the operands of every max.
struct SwapMaxOperands : OpRewritePattern<MaxOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MaxOp op, PatternRewriter &rewriter) const override {
    rewriter.modifyOpInPlace(op, [&] {
      Value lhs = op.getLhs(), rhs = op.getRhs();
      op->setOperands({rhs, lhs});
    });
    return success();
  }
};

TEST_F(SeedOrderRewriteTest, NonConvergenceIsAnError) {
  for (bool seedOrder : {true, false}) {
    auto module = parse(R"mlir(
      func.func @f(%x: i32, %y: i32) -> i32 {
        %m = uop.max %x, %y : i32
        return %m : i32
      })mlir");
    ASSERT_TRUE(module);
    RewritePatternSet set(&context);
    set.add<SwapMaxOperands>(&context);
    FrozenRewritePatternSet patterns(std::move(set));
    std::string errors;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      EXPECT_EQ(diag.getSeverity(), DiagnosticSeverity::Error);
      errors += diag.str();
      return success();
    });
    SeedOrderRewriteConfig config;
    config.seedOrder = seedOrder;
    config.maxIterations = 3;
    config.name = "test-rewrite";
    EXPECT_TRUE(failed(applySeedOrderRewrite(*module, patterns, config))) << seedOrder;
    // The budget: (3 + 1) * (4 * 4 ops + 64) rewrites (module, function,
    // max, return).
    EXPECT_EQ(errors, "test-rewrite did not converge: the greedy driver reached its limit of 3 "
                      "iterations or 320 rewrites")
        << seedOrder;
  }
}

// The rounds of sharing have a limit too: when sharing still changes
// operands after it, that is reported, not taken for the fixed point.
TEST_F(SeedOrderRewriteTest, SharingRoundLimitIsAnError) {
  const char *src = R"mlir(
    func.func @f(%x: i32, %y: i32) -> i32 {
      %c2 = uop.const 2 : i32
      %p = uop.add %x, %y : i32
      %p2 = uop.add %x, %y : i32
      %m = uop.mul %p, %c2 : i32
      %m2 = uop.mul %p2, %c2 : i32
      %s = uop.max %m, %m2 : i32
      return %s : i32
    })mlir";
  for (int64_t rounds : {0, 1}) {
    auto module = parse(src);
    ASSERT_TRUE(module);
    BoundsCache cache;
    FrozenRewritePatternSet patterns = symbolicPatterns(cache);
    std::string errors;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      errors += diag.str();
      return success();
    });
    SeedOrderRewriteConfig config;
    config.seedOrder = false; // the greedy driver does not share as it goes
    config.cache = &cache;
    config.maxSharingRounds = rounds;
    config.name = "test-rewrite";
    LogicalResult result = applySeedOrderRewrite(*module, patterns, config);
    if (rounds == 0) {
      EXPECT_TRUE(failed(result));
      EXPECT_EQ(errors, "test-rewrite did not converge: values were still shared after 0 rounds "
                        "of sharing and rewriting");
    } else {
      EXPECT_TRUE(succeeded(result)) << errors;
      EXPECT_EQ(errors, "");
      EXPECT_EQ(count<MaxOp>(*module), 0);
    }
  }
}

// What the driver did, counted: `x + 0` folds to `x` (one fold, the add and
// then the unused constant erased); `x * 3` and the return are visited and
// left. The certifying pass visits what is left once more.
TEST_F(SeedOrderRewriteTest, Stats) {
  auto module = parse(R"mlir(
    func.func @f(%x: i32) -> i32 {
      %c0 = uop.const 0 : i32
      %c3 = uop.const 3 : i32
      %a = uop.add %x, %c0 : i32
      %b = uop.mul %a, %c3 : i32
      return %b : i32
    })mlir");
  ASSERT_TRUE(module);
  BoundsCache cache;
  FrozenRewritePatternSet patterns = symbolicPatterns(cache);
  RewriteStats stats;
  SeedOrderRewriteConfig config;
  config.cache = &cache;
  config.stats = &stats;
  ASSERT_TRUE(succeeded(applySeedOrderRewrite(*module, patterns, config)));
  EXPECT_EQ(stats.folds, 1);
  EXPECT_EQ(stats.rewrites, 0);
  EXPECT_EQ(stats.made, 0);
  EXPECT_EQ(stats.erased, 2); // the add, then the constant 0
  // First pass: the two constants, the add, the mul, the return and the
  // function; the certifying pass: the constant 3, the mul, the return and
  // the function.
  EXPECT_EQ(stats.visits, 10);
  EXPECT_GE(stats.tries, 1);
  Operation *mul = returned(*module).getDefiningOp();
  ASSERT_TRUE(isa<MulOp>(mul));
  EXPECT_EQ(mul->getOperand(0), firstFunc(*module).getArgument(0));

  // Stats add up over runs (the pass adds each run's to its statistics).
  RewriteStats total;
  total.add(stats);
  total.add(stats);
  EXPECT_EQ(total.visits, 2 * stats.visits);
  EXPECT_EQ(total.erased, 4);
}

} // namespace
