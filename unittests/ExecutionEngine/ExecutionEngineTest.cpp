//===- ExecutionEngineTest.cpp - compile() and the executable ----*- C++ -*-===//
//
// The one path from a module to code that runs: the plan it reads off the IR
// (kernels, launches, work, opts), the targets (cpu vs the seed's GPU
// emulation), in-place kernel graphs, the plan's text form, and the errors
// of programs that cannot run. The plan cache is the same path: what it
// returns equals what compile() returns.
//
//===----------------------------------------------------------------------===//

#include "Uop/ExecutionEngine/ExecutionEngine.h"
#include "Uop/ExecutionEngine/PlanCache.h"

#include "../Runtime/TestUtil.h"
#include "Uop/IR/UopDialect.h"
#include "Uop/Transforms/Passes.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
namespace rt = ::uop::rt;

namespace {

class ExecutionEngineTest : public ::testing::Test {
protected:
  ExecutionEngineTest() : env("UOP_CACHE", dir.path().c_str()) {
    context.loadDialect<mlir::uop::UopDialect, func::FuncDialect>();
  }
  OwningOpRef<ModuleOp> parse(const std::string &text) {
    auto m = parseSourceString<ModuleOp>(text, &context);
    EXPECT_TRUE(m) << text;
    return m;
  }
  static rt::HostBuffer iota(int64_t n, float scale = 1) {
    rt::HostBuffer b(rt::DType::F32, {n});
    for (int64_t i = 0; i < n; ++i)
      b.as<float>()[i] = std::sin(0.37f * i) * scale;
    return b;
  }

  rt::test::TempDir dir;
  rt::test::ScopedEnv env;
  MLIRContext context;
};

/// C = A @ B for 16 x 16 matrices, from movement ops (the seed's Tensor graph).
const char *kGemm = R"mlir(
func.func @main() -> tensor<16x16xf32> {
  %a = uop.buffer 0 : tensor<256xf32>
  %b = uop.buffer 1 : tensor<256xf32>
  %a2 = uop.reshape %a, [16, 1, 16] : tensor<256xf32>
  %ae = uop.expand %a2, [16, 16, 16] : tensor<16x1x16xf32>
  %b2 = uop.reshape %b, [16, 16] : tensor<256xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<16x16xf32>
  %b3 = uop.reshape %bt, [1, 16, 16] : tensor<16x16xf32>
  %be = uop.expand %b3, [16, 16, 16] : tensor<1x16x16xf32>
  %m = uop.mul %ae, %be : tensor<16x16x16xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<16x16x16xf32>
  return %c : tensor<16x16xf32>
}
)mlir";

/// The program as written: no layout, no opts.
mlir::uop::CompileOptions asWritten() {
  mlir::uop::CompileOptions o;
  o.opt = mlir::uop::OptMode::None;
  return o;
}

TEST_F(ExecutionEngineTest, PlanCacheAndCompileShareOnePath) {
  auto m = parse(kGemm);
  ASSERT_TRUE(m);
  auto direct = mlir::uop::compile(*m, asWritten());
  ASSERT_TRUE(succeeded(direct));
  mlir::uop::PlanCache cache(asWritten());
  auto cached = cache.get(*m);
  ASSERT_TRUE(succeeded(cached));
  const rt::HostPlan &p1 = (*direct)->plan(), &p2 = (*cached)->plan();
  EXPECT_EQ(p1.serialize(), p2.serialize()); // the same kernels, launches, work and opts
  ASSERT_EQ(p1.kernels.size(), 1u);
  EXPECT_EQ(p1.kernels[0].name, "r_16_16");
  // 16 x 16 outputs, 16 multiply-adds each.
  EXPECT_EQ(p1.kernels[0].flops, 16.0 * 16 * 16 * 2);
  EXPECT_EQ(p1.kernels[0].bytes, 3.0 * 256 * 4);
  // One launch, binding A, B and the output C (the plan's arguments in order).
  ASSERT_EQ(p1.launches.size(), 1u);
  EXPECT_EQ(p1.launches[0].kernel, 0u);
  EXPECT_EQ(p1.launches[0].args, (std::vector<unsigned>{0, 1, 2}));
  rt::HostBuffer a = iota(256), b = iota(256, 2);
  auto v1 = (*direct)->run({{0, &a}, {1, &b}});
  auto v2 = (*cached)->run({{0, &a}, {1, &b}});
  ASSERT_TRUE(v1.ok() && v2.ok());
  for (int i = 0; i < 256; ++i) {
    float ref = 0;
    for (int k = 0; k < 16; ++k)
      ref += a.as<float>()[(i / 16) * 16 + k] * b.as<float>()[k * 16 + i % 16];
    EXPECT_NEAR((*v1)[0].as<float>()[i], ref, 1e-4);
    EXPECT_EQ((*v1)[0].as<float>()[i], (*v2)[0].as<float>()[i]);
  }
}

TEST_F(ExecutionEngineTest, EmulateMapsKernelsAsForTheGPU) {
  auto m = parse(kGemm);
  ASSERT_TRUE(m);
  mlir::uop::CompileOptions cpu = asWritten(), emulate;
  emulate.target = mlir::uop::CompileTarget::Emulate;
  auto onCpu = mlir::uop::compile(*m, cpu);
  auto emulated = mlir::uop::compile(*m, emulate);
  ASSERT_TRUE(succeeded(onCpu) && succeeded(emulated));
  // The CPU runs the program as written; the emulation maps it with the
  // seed's gpu_opt_choice: 16x16 outputs, 16 threads each way... within a
  // 256-thread block, no upcast (16 < 32); and, 256 outputs being far fewer
  // than the H200 runs threads at once, the 16-term reduce unrolled by 8 and
  // the blocks made a warp (2 x 16 threads: 8 blocks, not 1).
  EXPECT_EQ((*onCpu)->plan().kernels[0].opts, "");
  EXPECT_EQ((*emulated)->plan().kernels[0].opts,
            "#uop.opts<unroll = 8, gpu, local = {0: 2, 1: 16}>");
  rt::HostBuffer a = iota(256), b = iota(256, 2);
  auto v1 = (*onCpu)->run({{0, &a}, {1, &b}});
  auto v2 = (*emulated)->run({{0, &a}, {1, &b}});
  ASSERT_TRUE(v1.ok() && v2.ok());
  for (int i = 0; i < 256; ++i)
    EXPECT_NEAR((*v1)[0].as<float>()[i], (*v2)[0].as<float>()[i], 1e-5);
}

TEST_F(ExecutionEngineTest, HandOptsAndLayoutAreTheDefault) {
  auto m = parse(kGemm);
  mlir::uop::CompileOptions hand;
  EXPECT_EQ(hand.opt, mlir::uop::OptMode::Hand);
  EXPECT_NE(hand.str().find(" opt=hand "), std::string::npos) << hand.str();
  auto exe = mlir::uop::compile(*m, hand);
  ASSERT_TRUE(succeeded(exe));
  // uop-layout: B's 16 columns are one panel of an AVX2 register tile (16
  // lanes), which B as stored already is (K rows of 16): no copy. Where the
  // tile is not 16 lanes wide (AVX-512's 32, or no vector unit it knows),
  // B is staged transposed, the seed's way (a kernel of its own, 256
  // elements: no opts). 16*16*16 = 4096 < 2^16: no threads.
  const rt::HostPlan &plan = (*exe)->plan();
  bool panel = mlir::uop::detectHostTarget(&context).getTileLanes() == 16;
  ASSERT_EQ(plan.kernels.size(), panel ? 1u : 2u);
  if (!panel) {
    EXPECT_EQ(plan.kernels[0].name, "e_1_16_16");
    EXPECT_EQ(plan.kernels[0].opts, "#uop.opts<>");
  }
  const rt::PlanKernel &gemm = plan.kernels.back();
  EXPECT_EQ(gemm.name, "r_16_16");
  // hand_opt_choice sized for this CPU: rows x vector lanes (AVX2 / AVX-512)
  // or the seed's 4x4.
  EXPECT_EQ(gemm.opts.rfind("#uop.opts<upcast = {0: ", 0), 0u) << gemm.opts;
  rt::HostBuffer a = iota(256), b = iota(256, 2);
  auto v = (*exe)->run({{0, &a}, {1, &b}});
  ASSERT_TRUE(v.ok()) << v.error();
  for (int i = 0; i < 256; ++i) {
    float ref = 0;
    for (int k = 0; k < 16; ++k)
      ref += a.as<float>()[(i / 16) * 16 + k] * b.as<float>()[k * 16 + i % 16];
    EXPECT_NEAR((*v)[0].as<float>()[i], ref, 1e-4);
  }
  // The opt level is part of the key: each a different plan.
  mlir::uop::CompileOptions search = hand;
  search.opt = mlir::uop::OptMode::Search;
  mlir::uop::PlanCache none(asWritten()), withHand(hand), withSearch(search);
  EXPECT_NE(none.key(*m), withHand.key(*m));
  EXPECT_NE(withHand.key(*m), withSearch.key(*m));
  EXPECT_NE(none.key(*m), withSearch.key(*m));
}

TEST_F(ExecutionEngineTest, ProfileTimesEachKernelOfThePlan) {
  auto m = parse(kGemm);
  auto exe = mlir::uop::compile(*m, {});
  ASSERT_TRUE(succeeded(exe));
  rt::HostBuffer a = iota(256), b = iota(256, 2), c(rt::DType::F32, {256});
  auto profile = (*exe)->profile({a.data(), b.data(), c.data()}, 2);
  ASSERT_TRUE(profile.ok()) << profile.error();
  const rt::HostPlan &plan = (*exe)->plan();
  ASSERT_EQ(profile->size(), plan.kernels.size());
  for (size_t i = 0; i < plan.kernels.size(); ++i) {
    const rt::KernelProfile &k = (*profile)[i];
    EXPECT_EQ(k.name, plan.kernels[i].name);
    EXPECT_EQ(k.opts, plan.kernels[i].opts);
    EXPECT_EQ(k.launches, 1u);
    EXPECT_EQ(k.flops, plan.kernels[i].flops);
    EXPECT_EQ(k.bytes, plan.kernels[i].bytes);
    EXPECT_GE(k.seconds, 0);
  }
  // The profiled launches computed the program.
  auto v = (*exe)->run({{0, &a}, {1, &b}});
  ASSERT_TRUE(v.ok());
  for (int i = 0; i < 256; ++i)
    EXPECT_EQ(c.as<float>()[i], (*v)[0].as<float>()[i]);
  // One line per kernel, then the total.
  std::string text = rt::formatProfile(*profile);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), (long)plan.kernels.size() + 1);
  EXPECT_NE(text.find("profile: r_16_16 "), std::string::npos) << text;
  // hand_opt_choice's register tile, sized for this CPU's vectors.
  EXPECT_NE(text.find("opts #uop.opts<upcast = {0: "), std::string::npos) << text;
  EXPECT_NE(text.find("profile: total "), std::string::npos) << text;
}

TEST_F(ExecutionEngineTest, SearchChoosesCheckedOptsAndCachesThem) {
  auto m = parse(kGemm);
  mlir::uop::CompileOptions search;
  search.opt = mlir::uop::OptMode::Search;
  search.searchSeconds = 1;
  auto kernelized = [&] {
    OwningOpRef<ModuleOp> k = m->clone();
    PassManager pm(&context);
    mlir::uop::UopCpuPipelineOptions pipeline;
    pipeline.opt = mlir::uop::OptMode::Search;
    mlir::uop::buildUopCpuStage(pm, mlir::uop::PipelineStage::Kernelize, pipeline);
    EXPECT_TRUE(succeeded(pm.run(*k)));
    return k;
  };
  auto optsOf = [](ModuleOp mod, StringRef name) {
    auto f = mod.lookupSymbol<func::FuncOp>(name);
    Attribute a = f ? f->getAttr("uop.opts") : Attribute();
    std::string s;
    llvm::raw_string_ostream os(s);
    if (a)
      a.print(os);
    return s;
  };
  OwningOpRef<ModuleOp> first = kernelized();
  std::string log1;
  llvm::raw_string_ostream os1(log1);
  ASSERT_TRUE(succeeded(mlir::uop::searchOpts(*first, search, os1)));
  // Every kernel (B transposed where B is not one panel already, see
  // above; the gemm) searched: the reference and the hand choice at least,
  // whatever the time bound.
  if (mlir::uop::detectHostTarget(&context).getTileLanes() != 16)
    EXPECT_NE(log1.find("uop-search: e_1_16_16: "), std::string::npos) << log1;
  EXPECT_NE(log1.find("uop-search: r_16_16: "), std::string::npos) << log1;
  EXPECT_EQ(log1.find("cached"), std::string::npos) << log1;
  std::string winner = optsOf(*first, "r_16_16");
  EXPECT_EQ(winner.rfind("#uop.opts<", 0), 0u) << winner;
  // The second search of the same kernels compiles nothing: the winners are
  // on disk.
  OwningOpRef<ModuleOp> second = kernelized();
  std::string log2;
  llvm::raw_string_ostream os2(log2);
  ASSERT_TRUE(succeeded(mlir::uop::searchOpts(*second, search, os2)));
  EXPECT_NE(log2.find("uop-search: r_16_16: cached " + winner), std::string::npos) << log2;
  EXPECT_EQ(log2.find("candidates"), std::string::npos) << log2;
  EXPECT_EQ(optsOf(*second, "r_16_16"), winner);
  // A kernel that names its opts is not searched.
  OwningOpRef<ModuleOp> third = kernelized();
  auto gemm = third->lookupSymbol<func::FuncOp>("r_16_16");
  gemm->setAttr("uop.opts", parseAttribute("#uop.opts<thread = 0>", &context));
  std::string log3;
  llvm::raw_string_ostream os3(log3);
  ASSERT_TRUE(succeeded(mlir::uop::searchOpts(*third, search, os3)));
  EXPECT_EQ(log3.find("r_16_16"), std::string::npos) << log3;
  EXPECT_EQ(optsOf(*third, "r_16_16"), "#uop.opts<thread = 0>");
  // And the engine, end to end: the searched program computes the gemm.
  auto exe = mlir::uop::compile(*m, search);
  ASSERT_TRUE(succeeded(exe));
  rt::HostBuffer a = iota(256), b = iota(256, 2);
  auto v = (*exe)->run({{0, &a}, {1, &b}});
  ASSERT_TRUE(v.ok());
  for (int i = 0; i < 256; ++i) {
    float ref = 0;
    for (int k = 0; k < 16; ++k)
      ref += a.as<float>()[(i / 16) * 16 + k] * b.as<float>()[k * 16 + i % 16];
    EXPECT_NEAR((*v)[0].as<float>()[i], ref, 1e-4);
  }
  EXPECT_EQ((*exe)->plan().kernels.back().opts, winner);
}

TEST_F(ExecutionEngineTest, KernelGraphsRunInPlace) {
  // out[i] = in[i] * 2 over 8 elements (slot 1 written, slot 0 read).
  auto m = parse(R"mlir(
func.func @main() -> !uop.void {
  %out = uop.buffer 1 : memref<8xf32, #uop.addrspace<global>>
  %c8 = uop.const 8 : i32
  %i = uop.range %c8 idx 0 <loop>
  %po = uop.index %out[%i] : memref<8xf32, #uop.addrspace<global>>
  %in = uop.buffer 0 : memref<8xf32, #uop.addrspace<global>>
  %pi = uop.index %in[%i] : memref<8xf32, #uop.addrspace<global>>
  %x = uop.load %pi : !uop.ptr<f32, global>
  %c2 = uop.const 2.0 : f32
  %y = uop.mul %x, %c2 : f32
  %st = uop.store %po, %y : !uop.ptr<f32, global>
  %e = uop.end %st, %i : !uop.void
  %s = uop.sink(%e : !uop.void)
  return %s : !uop.void
}
)mlir");
  ASSERT_TRUE(m);
  auto exe = mlir::uop::compile(*m, {});
  ASSERT_TRUE(succeeded(exe));
  const rt::HostPlan &plan = (*exe)->plan();
  EXPECT_EQ(plan.form, rt::HostPlan::InPlace);
  ASSERT_EQ(plan.args.size(), 2u);
  EXPECT_TRUE(plan.args[0].read && !plan.args[0].written);
  EXPECT_TRUE(!plan.args[1].read && plan.args[1].written);
  EXPECT_EQ(plan.inputSlots(), std::vector<int64_t>{0});
  EXPECT_EQ(plan.flops(), 8.0);
  rt::HostBuffer in = iota(8), out(rt::DType::F32, {8});
  auto ran = (*exe)->runInPlace({{0, &in}, {1, &out}});
  ASSERT_TRUE(ran.ok()) << ran.error();
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(out.as<float>()[i], in.as<float>()[i] * 2);
  // Shaped and in-place runs are not interchangeable.
  EXPECT_FALSE((*exe)->run({{0, &in}}).ok());
  auto missing = (*exe)->runInPlace({{0, &in}});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find("missing buffer for slot 1"), std::string::npos);
}

TEST_F(ExecutionEngineTest, ProgramsThatCannotRunAreDiagnosed) {
  std::vector<std::string> messages;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
    messages.push_back(d.str());
    return success();
  });
  auto noMain = parse("func.func @f() -> f32 {\n %c = uop.const 1.0 : f32\n return %c : f32\n}\n");
  EXPECT_TRUE(failed(mlir::uop::compile(*noMain, {})));
  auto decl = parse("func.func private @main() -> f32\n");
  EXPECT_TRUE(failed(mlir::uop::compile(*decl, {})));
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_EQ(messages[0], "no func.func @main to run");
  EXPECT_EQ(messages[1], "@main is only a declaration: there is no program to run");
}

TEST_F(ExecutionEngineTest, PlanTextRoundTripsAndRejectsDamage) {
  auto m = parse(kGemm);
  auto exe = mlir::uop::compile(*m, {});
  ASSERT_TRUE(succeeded(exe));
  std::string text = (*exe)->plan().serialize();
  auto back = rt::HostPlan::parse(text);
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(back->serialize(), text);
  auto truncated = rt::HostPlan::parse(text.substr(0, text.size() / 2));
  ASSERT_FALSE(truncated.ok());
  auto foreign = rt::HostPlan::parse("P5\n3 2\n255\n");
  ASSERT_FALSE(foreign.ok());
  EXPECT_NE(foreign.error().find("not a uop host plan"), std::string::npos);

  // A launch's dynamic shared memory travels as `shared N` after its block
  // (only where it is not 0, so plans of before read the same).
  rt::HostPlan withShared = *back;
  ASSERT_FALSE(withShared.launches.empty());
  EXPECT_EQ(withShared.launches[0].shared, 0);
  EXPECT_EQ(text.find(" shared "), std::string::npos);
  withShared.launches[0].shared = 65536;
  std::string sharedText = withShared.serialize();
  EXPECT_NE(sharedText.find(" shared 65536\n"), std::string::npos);
  auto sharedBack = rt::HostPlan::parse(sharedText);
  ASSERT_TRUE(sharedBack.ok()) << sharedBack.error();
  EXPECT_EQ(sharedBack->launches[0].shared, 65536);
  EXPECT_EQ(sharedBack->serialize(), sharedText);
  std::string badShared = sharedText;
  badShared.replace(badShared.find(" shared 65536"), 13, " shared -1");
  EXPECT_FALSE(rt::HostPlan::parse(badShared).ok());
}

/// out[i] = table[idx[i]]: a gather by loaded indices, which the bounds
/// analysis cannot prove in bounds.
const char *kGather = R"mlir(
func.func @main() -> !uop.void {
  %n = uop.const 2 : i32
  %table = uop.buffer 0 : memref<4xf32, #uop.addrspace<global>>
  %idx = uop.buffer 1 : memref<2xi32, #uop.addrspace<global>>
  %out = uop.buffer 2 : memref<2xf32, #uop.addrspace<global>>
  %i = uop.range %n idx 0 <loop>
  %pi = uop.index %idx[%i] : memref<2xi32, #uop.addrspace<global>>
  %j = uop.load %pi : !uop.ptr<i32, global>
  %pt = uop.index %table[%j] : memref<4xf32, #uop.addrspace<global>> loc("gather.uir":7:1)
  %x = uop.load %pt : !uop.ptr<f32, global>
  %po = uop.index %out[%i] : memref<2xf32, #uop.addrspace<global>>
  %st = uop.store %po, %x : !uop.ptr<f32, global>
  %e = uop.end %st, %i : !uop.void
  %k = uop.sink(%e : !uop.void)
  return %k : !uop.void
}
)mlir";

TEST_F(ExecutionEngineTest, RunTimeChecksReportTheOpAndAreOptional) {
  auto m = parse(kGather);
  auto exe = mlir::uop::compile(*m, {});
  ASSERT_TRUE(succeeded(exe));
  const rt::HostPlan &plan = (*exe)->plan();
  ASSERT_EQ(plan.kernels.size(), 1u);
  ASSERT_EQ(plan.kernels[0].checks.size(), 1u);
  EXPECT_EQ(plan.kernels[0].checks[0].kind, "index");
  EXPECT_EQ(plan.kernels[0].checks[0].loc, "gather.uir:7:1");
  ASSERT_EQ(plan.args.size(), 4u);
  EXPECT_EQ(plan.args[3].kind, rt::PlanArg::Check);

  rt::HostBuffer table(rt::DType::F32, {4}), idx(rt::DType::I32, {2}), out(rt::DType::F32, {2});
  for (int i = 0; i < 4; ++i)
    table.as<float>()[i] = 10 + i;
  idx.as<int32_t>()[0] = 3;
  idx.as<int32_t>()[1] = 1;
  std::map<int64_t, rt::HostBuffer *> buffers{{0, &table}, {1, &idx}, {2, &out}};
  auto ran = (*exe)->runInPlace(buffers);
  ASSERT_TRUE(ran.ok()) << ran.error();
  EXPECT_EQ(out.as<float>()[0], 13);
  EXPECT_EQ(out.as<float>()[1], 11);
  idx.as<int32_t>()[1] = 9;
  ran = (*exe)->runInPlace(buffers);
  ASSERT_FALSE(ran.ok());
  EXPECT_EQ(ran.error(), "gather.uir:7:1: error: index out of bounds (value 9, bound 4)");
  // The record is reset for every run: a good run after a bad one passes.
  idx.as<int32_t>()[1] = 0;
  ran = (*exe)->runInPlace(buffers);
  EXPECT_TRUE(ran.ok()) << ran.error();

  // The checks travel in the plan's text.
  auto back = rt::HostPlan::parse(plan.serialize());
  ASSERT_TRUE(back.ok()) << back.error();
  ASSERT_EQ(back->kernels[0].checks.size(), 1u);
  EXPECT_EQ(back->kernels[0].checks[0].loc, "gather.uir:7:1");
  EXPECT_EQ(back->serialize(), plan.serialize());

  // Unchecked: no check, no record; and another key in the plan cache.
  mlir::uop::CompileOptions unchecked;
  unchecked.checks = false;
  auto fast = mlir::uop::compile(*m, unchecked);
  ASSERT_TRUE(succeeded(fast));
  EXPECT_TRUE((*fast)->plan().kernels[0].checks.empty());
  EXPECT_EQ((*fast)->plan().args.size(), 3u);
  EXPECT_NE(unchecked.str(), mlir::uop::CompileOptions().str());
}

} // namespace
