//===- UopIRTest.cpp - the uop dialect through its C++ API -----*- C++ -*-===//
//
// The seed's test_w01 checks on UOp construction, mapped to MLIR: builders
// infer shapes and dtypes, the verifier rejects what `_infer` rejects, and
// hash consing becomes CSE (structurally equal ops merge; 1, 1.0, true, 0.0
// and -0.0 stay distinct constants).
//
//===----------------------------------------------------------------------===//

#include "Uop/IR/UopOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/ScopedPrinter.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::uop;

namespace {

class UopIRTest : public ::testing::Test {
protected:
  UopIRTest() : builder(&context) {
    context.loadDialect<UopDialect, func::FuncDialect>();
    module = ModuleOp::create(builder.getUnknownLoc());
    builder.setInsertionPointToEnd(module->getBody());
    // Diagnostics go to a string so that tests can look at them.
    handler.emplace(&context, [this](Diagnostic &diag) {
      diagnostics += diag.str() + "\n";
      return success();
    });
  }

  Value i32(int64_t v) { return ConstOp::create(builder, loc(), builder.getI32IntegerAttr(v)); }
  Value f32(double v) { return ConstOp::create(builder, loc(), builder.getF32FloatAttr(v)); }
  Value boolean(bool v) { return ConstOp::create(builder, loc(), builder.getBoolAttr(v)); }
  Value stack(ArrayRef<Value> xs) { return StackOp::create(builder, loc(), xs); }
  Location loc() { return builder.getUnknownLoc(); }

  /// Verifies `op` alone and returns whether it verified.
  bool verifies(Operation *op) {
    diagnostics.clear();
    return succeeded(mlir::verify(op));
  }

  MLIRContext context;
  OpBuilder builder;
  OwningOpRef<ModuleOp> module;
  std::optional<ScopedDiagnosticHandler> handler;
  std::string diagnostics;
};

// test_shape_dtype_inference
TEST_F(UopIRTest, ShapeDtypeInference) {
  Value s = stack({stack({i32(1), i32(2), i32(3)}), stack({i32(4), i32(5), i32(6)})});
  EXPECT_EQ(s.getType(), RankedTensorType::get({2, 3}, builder.getI32Type()));
  Value row = IndexOp::create(builder, loc(), s, ValueRange{i32(1)});
  EXPECT_EQ(row.getType(), RankedTensorType::get({3}, builder.getI32Type()));
  Value elt = IndexOp::create(builder, loc(), s, ValueRange{i32(1), i32(2)});
  EXPECT_EQ(elt.getType(), builder.getI32Type());
  Value lt = CmpLtOp::create(builder, loc(), i32(1), i32(2));
  EXPECT_TRUE(lt.getType().isInteger(1));

  auto bad = AddOp::create(builder, loc(), i32(1), f32(1.0));
  EXPECT_FALSE(verifies(bad));
  EXPECT_NE(diagnostics.find("dtype mismatch: i32 vs f32"), std::string::npos) << diagnostics;

  auto badShape =
      AddOp::create(builder, loc(), stack({i32(1), i32(2)}), stack({i32(1), i32(2), i32(3)}));
  EXPECT_FALSE(verifies(badShape));
  EXPECT_NE(diagnostics.find("shape mismatch"), std::string::npos) << diagnostics;

  auto badStack = StackOp::create(builder, loc(), ValueRange{i32(1), f32(2.0)});
  EXPECT_FALSE(verifies(badStack));
  EXPECT_NE(diagnostics.find("sources must agree"), std::string::npos) << diagnostics;
}

// test_call_type_checks: a body with params 0 and 1 called with one argument.
TEST_F(UopIRTest, CallTypeChecks) {
  Type i32Type = builder.getI32Type();
  auto call =
      CallOp::create(builder, loc(), i32Type, builder.getStringAttr("f"), ValueRange{i32(1)});
  Block *body = builder.createBlock(&call.getBody(), {}, {i32Type, i32Type}, {loc(), loc()});
  Value sum = AddOp::create(builder, loc(), body->getArgument(0), body->getArgument(1));
  YieldOp::create(builder, loc(), sum);
  builder.setInsertionPointAfter(call);
  EXPECT_FALSE(verifies(call));
  EXPECT_NE(diagnostics.find("needs params 0..0, body has [0, 1]"), std::string::npos)
      << diagnostics;
}

// test_hash_consing: in MLIR, CSE gives the sharing that hash consing gave.
TEST_F(UopIRTest, HashConsingIsCSE) {
  const char *src = R"mlir(
    func.func @f() -> (i32, i32, i32, f32, i1, f32, f32) {
      %a1 = uop.const 1 : i32
      %a2 = uop.const 2 : i32
      %a = uop.add %a1, %a2 : i32
      %b1 = uop.const 1 : i32
      %b2 = uop.const 2 : i32
      %b = uop.add %b1, %b2 : i32
      %one = uop.const 1 : i32
      %onef = uop.const 1.0 : f32
      %t = uop.const true
      %z = uop.const 0.0 : f32
      %nz = uop.const -0.0 : f32
      return %a, %b, %one, %onef, %t, %z, %nz : i32, i32, i32, f32, i1, f32, f32
    })mlir";
  OwningOpRef<ModuleOp> m = parseSourceString<ModuleOp>(src, &context);
  ASSERT_TRUE(m) << diagnostics;
  PassManager pm(&context);
  pm.addPass(createCSEPass());
  ASSERT_TRUE(succeeded(pm.run(*m)));
  auto func = cast<func::FuncOp>(m->getBody()->front());
  Operation *ret = func.getBody().front().getTerminator();
  // a and b are the same op now.
  EXPECT_EQ(ret->getOperand(0), ret->getOperand(1));
  // 1, 1.0, true, 0.0 and -0.0 stay distinct.
  llvm::SmallPtrSet<Value, 8> distinct;
  for (unsigned i = 2; i < 7; ++i)
    distinct.insert(ret->getOperand(i));
  EXPECT_EQ(distinct.size(), 5u);
  // The first 1 : i32 and the later one merged.
  int consts = 0;
  func.walk([&](ConstOp) { ++consts; });
  EXPECT_EQ(consts, 2 /*1, 2*/ + 4 /*1.0, true, 0.0, -0.0*/);
}

// Movement ops infer their result types as the seed's _infer does.
TEST_F(UopIRTest, MovementInference) {
  Type f32Type = builder.getF32Type();
  Value buf = BufferOp::create(builder, loc(), RankedTensorType::get({6}, f32Type),
                               builder.getI64IntegerAttr(0));
  Value r = ReshapeOp::create(builder, loc(), buf, builder.getDenseI64ArrayAttr({2, 3}));
  EXPECT_EQ(r.getType(), RankedTensorType::get({2, 3}, f32Type));
  Value p = PermuteOp::create(builder, loc(), r, builder.getDenseI64ArrayAttr({1, 0}));
  EXPECT_EQ(p.getType(), RankedTensorType::get({3, 2}, f32Type));
  Value s = ShrinkOp::create(builder, loc(), p, builder.getDenseI64ArrayAttr({1, 3, 0, 1}));
  EXPECT_EQ(s.getType(), RankedTensorType::get({2, 1}, f32Type));
  Value e = ExpandOp::create(builder, loc(), s, builder.getDenseI64ArrayAttr({2, 5}));
  EXPECT_EQ(e.getType(), RankedTensorType::get({2, 5}, f32Type));
  Value red = ReduceOp::create(builder, loc(), e, ReduceKindAttr::get(&context, ReduceKind::Add),
                               builder.getI64IntegerAttr(1));
  EXPECT_EQ(red.getType(), RankedTensorType::get({2}, f32Type));
  Value all = ReduceOp::create(builder, loc(), e, ReduceKindAttr::get(&context, ReduceKind::Max),
                               builder.getI64IntegerAttr(2));
  EXPECT_EQ(all.getType(), f32Type);
  for (Value v : {r, p, s, e, red, all})
    EXPECT_TRUE(verifies(v.getDefiningOp())) << diagnostics;
}

// Memory: index of a memref is a pointer; load gives the element.
TEST_F(UopIRTest, MemoryInference) {
  Type f32Type = builder.getF32Type();
  auto global = AddressSpaceAttr::get(&context, AddressSpace::Global);
  auto memType = MemRefType::get({16}, f32Type, MemRefLayoutAttrInterface(), global);
  Value buf = BufferOp::create(builder, loc(), memType, builder.getI64IntegerAttr(0));
  Value ptr = IndexOp::create(builder, loc(), buf, ValueRange{i32(3)});
  EXPECT_EQ(ptr.getType(), PtrType::get(&context, f32Type, AddressSpace::Global));
  Value v = LoadOp::create(builder, loc(), ptr);
  EXPECT_EQ(v.getType(), f32Type);
  auto st = StoreOp::create(builder, loc(), ptr, v);
  EXPECT_TRUE(isa<VoidType>(st.getType()));
  EXPECT_TRUE(verifies(st));
  auto badStore = StoreOp::create(builder, loc(), ptr, i32(1));
  EXPECT_FALSE(verifies(badStore));
  EXPECT_NE(diagnostics.find("stores i32 into f32 memory"), std::string::npos) << diagnostics;
}

// Builders take no result type wherever the seed infers it.
TEST_F(UopIRTest, BuildersInferResultTypes) {
  Type f32Type = builder.getF32Type();
  auto t3 = RankedTensorType::get({3}, f32Type);
  Value x = stack({f32(1.0), f32(2.0), f32(4.0)});
  EXPECT_EQ(x.getType(), t3);
  EXPECT_EQ(Exp2Op::create(builder, loc(), x).getType(), t3);
  EXPECT_EQ(RecipOp::create(builder, loc(), x).getType(), t3);
  EXPECT_EQ(StageOp::create(builder, loc(), x).getType(), t3);
  EXPECT_EQ(CastOp::create(builder, loc(), x, TypeAttr::get(builder.getI32Type())).getType(),
            RankedTensorType::get({3}, builder.getI32Type()));
  Value c = CmpNeOp::create(builder, loc(), x, x);
  EXPECT_EQ(c.getType(), RankedTensorType::get({3}, builder.getI1Type()));
  EXPECT_EQ(WhereOp::create(builder, loc(), c, x, x).getType(), t3);
  EXPECT_EQ(MaxOp::create(builder, loc(), x, x).getType(), t3);
  Value r = RangeOp::create(builder, loc(), i32(4), builder.getI64IntegerAttr(0),
                            AxisKindAttr::get(&context, AxisKind::Loop));
  EXPECT_TRUE(r.getType().isInteger(32));
  auto local = AddressSpaceAttr::get(&context, AddressSpace::Local);
  auto accType = MemRefType::get({1}, f32Type, MemRefLayoutAttrInterface(), local);
  Value acc = AllocOp::create(builder, loc(), accType, builder.getI64IntegerAttr(0));
  Value after = AfterOp::create(builder, loc(), acc, ValueRange{r});
  EXPECT_EQ(after.getType(), accType);
  Value ptr = IndexOp::create(builder, loc(), after, ValueRange{i32(0)});
  EXPECT_EQ(ptr.getType(), PtrType::get(&context, f32Type, AddressSpace::Local));
  Value st = StoreOp::create(builder, loc(), ptr, f32(0.0));
  Value end = EndOp::create(builder, loc(), st, ValueRange{r});
  Value sink = SinkOp::create(builder, loc(), ValueRange{end});
  EXPECT_TRUE(isa<VoidType>(end.getType()) && isa<VoidType>(sink.getType()));
  for (Operation &op : module->getBody()->getOperations())
    EXPECT_TRUE(verifies(&op)) << diagnostics;
}

} // namespace

// OptsBuilder, the axis-map form of #uop.opts that the strategies (hand
// rules, search) build: get() then from() is the identity, every field
// included, and an empty builder is `#uop.opts<>`.
TEST_F(UopIRTest, OptsBuilderRoundTrips) {
  EXPECT_EQ(llvm::to_string(OptsBuilder().get(&context)), "#uop.opts<>");
  OptsBuilder o;
  o.upcast = {{1, 4}, {0, 8}};
  o.tile = {{0, 256}, {1, 16}, {2, 512}};
  o.thread = 0;
  o.unroll = 2;
  o.vector = 16;
  o.prefetch = 8;
  o.stash = true;
  OptsAttr a = o.get(&context);
  // Axis maps print sorted by axis.
  EXPECT_EQ(llvm::to_string(a),
            "#uop.opts<upcast = {0: 8, 1: 4}, thread = 0, unroll = 2, tile = {0: 256, "
            "1: 16, 2: 512}, vector = 16, prefetch = 8, stash>");
  OptsBuilder back = OptsBuilder::from(a);
  EXPECT_EQ(back.upcast, o.upcast);
  EXPECT_EQ(back.tile, o.tile);
  EXPECT_EQ(back.thread, 0);
  EXPECT_EQ(back.unroll, 2);
  EXPECT_EQ(back.vector, 16);
  EXPECT_EQ(back.prefetch, 8);
  EXPECT_TRUE(back.stash);
  EXPECT_EQ(back.upcastOf(0), 8);
  EXPECT_EQ(back.upcastOf(2), 1);
  EXPECT_EQ(back.get(&context), a);
  OptsBuilder gpu;
  gpu.gpu = true;
  gpu.local = {{0, 8}, {1, 16}};
  gpu.upcast = {{0, 16}, {1, 8}};
  OptsAttr g = gpu.get(&context);
  EXPECT_EQ(llvm::to_string(g), "#uop.opts<upcast = {0: 16, 1: 8}, gpu, local = {0: 8, 1: 16}>");
  EXPECT_EQ(OptsBuilder::from(g).get(&context), g);
}
