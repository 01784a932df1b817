//===- UopCompositeTest.cpp - composite movement ops -----------*- C++ -*-===//
//
// test_w04's pad/flip/anti_eye checks: the composites are built from
// primitives only, then evaluated by rewriting (uop-evaluate) and compared
// with what numpy's pad/flip give.
//
//===----------------------------------------------------------------------===//

#include "Uop/IR/UopComposite.h"
#include "Uop/IR/UopOps.h"
#include "Uop/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::uop;

namespace {

class CompositeTest : public ::testing::Test {
protected:
  CompositeTest() : b(&ctx) {
    ctx.loadDialect<UopDialect, func::FuncDialect>();
    loc = b.getUnknownLoc();
  }

  /// A (rows, cols) f32 constant holding 0, 1, 2, ... (np.arange).
  Value arange(int64_t rows, int64_t cols) {
    SmallVector<float> v;
    for (int64_t i = 0; i < rows * cols; ++i)
      v.push_back(i);
    auto t = RankedTensorType::get({rows, cols}, b.getF32Type());
    return ConstOp::create(b, loc, DenseElementsAttr::get(t, ArrayRef<float>(v)));
  }

  /// Builds `func @main` returning build(), evaluates it, returns the values.
  std::vector<float> evaluate(function_ref<Value()> build, SmallVector<int64_t> &shape) {
    module = ModuleOp::create(loc);
    b.setInsertionPointToEnd(module->getBody());
    auto func = func::FuncOp::create(b, loc, "main", b.getFunctionType({}, {}));
    b.setInsertionPointToStart(func.addEntryBlock());
    Value v = build();
    func::ReturnOp::create(b, loc, v);
    func.setType(b.getFunctionType({}, {v.getType()}));
    EXPECT_TRUE(succeeded(verify(*module)));
    PassManager pm(&ctx);
    pm.addPass(createUopEvaluatePass());
    EXPECT_TRUE(succeeded(pm.run(*module)));
    auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
    auto c = ret.getOperand(0).getDefiningOp<ConstOp>();
    EXPECT_TRUE(c) << "did not evaluate to a constant";
    std::vector<float> out;
    if (!c)
      return out;
    shape.assign(getShape(c.getType()).begin(), getShape(c.getType()).end());
    if (auto dense = dyn_cast<DenseElementsAttr>(c.getValue())) {
      for (APFloat f : dense.getValues<APFloat>())
        out.push_back(f.convertToFloat());
    } else {
      out.push_back(cast<FloatAttr>(c.getValue()).getValueAsDouble());
    }
    return out;
  }

  MLIRContext ctx;
  OpBuilder b;
  Location loc = UnknownLoc::get(&ctx);
  OwningOpRef<ModuleOp> module;
};

TEST_F(CompositeTest, AntiEye) {
  SmallVector<int64_t> shape;
  auto v = evaluate([&] { return antiEye(b, loc, 3, b.getF32Type()); }, shape);
  EXPECT_EQ(shape, (SmallVector<int64_t>{3, 3}));
  EXPECT_EQ(v, (std::vector<float>{0, 0, 1, 0, 1, 0, 1, 0, 0}));
}

TEST_F(CompositeTest, Pad) {
  // np.pad(arange(2x3), ((1, 2), (2, 0)))
  SmallVector<int64_t> shape;
  auto v = evaluate([&] { return pad(b, loc, arange(2, 3), {{1, 2}, {2, 0}}); }, shape);
  EXPECT_EQ(shape, (SmallVector<int64_t>{5, 5}));
  std::vector<float> want = {0, 0, 0, 0, 0, //
                             0, 0, 0, 1, 2, //
                             0, 0, 3, 4, 5, //
                             0, 0, 0, 0, 0, //
                             0, 0, 0, 0, 0};
  EXPECT_EQ(v, want);
}

TEST_F(CompositeTest, PadMoreThanTheAxis) {
  // Padding by more than the axis's length doubles repeatedly.
  SmallVector<int64_t> shape;
  auto v = evaluate([&] { return padAxis(b, loc, arange(1, 2), 1, 3, 4); }, shape);
  EXPECT_EQ(shape, (SmallVector<int64_t>{1, 9}));
  EXPECT_EQ(v, (std::vector<float>{0, 0, 0, 0, 1, 0, 0, 0, 0}));
}

TEST_F(CompositeTest, Flip) {
  SmallVector<int64_t> shape;
  auto cols = evaluate([&] { return flipAxis(b, loc, arange(2, 3), 1); }, shape);
  EXPECT_EQ(cols, (std::vector<float>{2, 1, 0, 5, 4, 3}));
  auto rows = evaluate([&] { return flipAxis(b, loc, arange(2, 3), 0); }, shape);
  EXPECT_EQ(rows, (std::vector<float>{3, 4, 5, 0, 1, 2}));
  EXPECT_EQ(shape, (SmallVector<int64_t>{2, 3}));
}

TEST_F(CompositeTest, Concat2MoveAxisSumTo) {
  SmallVector<int64_t> shape;
  auto c = evaluate([&] { return concat2(b, loc, arange(2, 2), arange(2, 2), 1); }, shape);
  EXPECT_EQ(shape, (SmallVector<int64_t>{2, 4}));
  EXPECT_EQ(c, (std::vector<float>{0, 1, 0, 1, 2, 3, 2, 3}));
  auto m = evaluate([&] { return moveAxis(b, loc, arange(2, 3), 0, 1); }, shape);
  EXPECT_EQ(shape, (SmallVector<int64_t>{3, 2}));
  EXPECT_EQ(m, (std::vector<float>{0, 3, 1, 4, 2, 5}));
  auto s = evaluate([&] { return sumTo(b, loc, arange(2, 3), {2, 1}); }, shape);
  EXPECT_EQ(shape, (SmallVector<int64_t>{2, 1}));
  EXPECT_EQ(s, (std::vector<float>{3, 12}));
  auto z = evaluate([&] { return zerosLike(b, loc, arange(2, 3)); }, shape);
  EXPECT_EQ(z, (std::vector<float>(6, 0.0f)));
}

} // namespace
