//===- StepTest.cpp - Tests of step bundles and their replay --------------===//
//
// Part of the uop project. The toy step of ToyStep.h, its programs compiled
// from C: the text form and the bundle format (round trips, and every kind
// of bad or corrupted bundle refused with one line), and the replay on the
// CPU against the step computed by hand. CudaTest.cpp replays it on the fake
// CUDA driver (graphs); test/Runtime/uop-runner-train.test through uop-runner.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"
#include "ToyStep.h"
#include "Uop/Runtime/Runtime.h"

#include "gtest/gtest.h"

#include <array>

using namespace uop::rt;
using uop::rt::test::TempDir;

namespace {

const char *kSgdSource = R"(
void uop_entry(void **args) {
  const float *w = (const float *)args[0], *x = (const float *)args[1];
  float *loss = (float *)args[2], *nw = (float *)args[3];
  float l = 0;
  for (int i = 0; i < 4; ++i) {
    float d = w[i] - x[i];
    l += d * d;
    nw[i] = w[i] - 0.2f * d;
  }
  *loss = l;
}
)";

const char *kScaleSource = R"(
void uop_entry(void **args) {
  const float *loss = (const float *)args[0], *scale = (const float *)args[1],
              *count = (const float *)args[2];
  float *scaled = (float *)args[3], *next = (float *)args[4];
  *scaled = *loss * *scale;
  *next = *count + 1.0f;
}
)";

/// A shared library of `source`, as bytes ("" without a compiler).
std::string compileC(const char *source) {
  TempDir tmp;
  std::string src = tmp.file("k.c"), so = tmp.file("k.so");
  if (!test::writeFile(src, source) ||
      std::system(("cc -O1 -shared -fPIC -o '" + so + "' '" + src + "'").c_str()) != 0)
    return "";
  return test::readFile(so);
}

StepBundle cpuToy() {
  static std::array<std::string, 2> libs = {compileC(kSgdSource), compileC(kScaleSource)};
  return test::toyStepBundle(Backend::CPU, libs[0], libs[1], "");
}

#define REQUIRE_COMPILER()                                                                         \
  if (compileC("int f(void) { return 0; }").empty())                                               \
  GTEST_SKIP() << "no C compiler (cc)"

/// Re-checksums a container whose body was edited.
std::string resum(std::string bytes) {
  std::string body = bytes.substr(0, bytes.size() - 32);
  std::array<uint8_t, 32> d = Sha256().update(body).final();
  return body + std::string(reinterpret_cast<const char *>(d.data()), 32);
}

TEST(StepTest, TextRoundTrip) {
  Result<StepProgram> step = StepProgram::parse(test::kToyStepText);
  ASSERT_TRUE(step.ok()) << step.error();
  EXPECT_EQ(step->numPrograms, 2u);
  ASSERT_EQ(step->tensors.size(), 4u);
  EXPECT_EQ(step->tensors[3].name, "prev");
  EXPECT_EQ(step->tensors[3].next.kind, StepSource::Produced);
  EXPECT_FALSE(step->tensors[1].state);
  EXPECT_EQ(step->realizes[1].slots[0], (StepSource{StepSource::Produced, 0, 0}));
  EXPECT_EQ(step->outputShapes[2], (std::vector<int64_t>{4}));
  EXPECT_EQ(step->serialize(), test::kToyStepText);
}

TEST(StepTest, BadText) {
  auto errorOf = [](const std::string &body) {
    Result<StepProgram> s = StepProgram::parse(body);
    EXPECT_FALSE(s.ok()) << body;
    return s.error();
  };
  std::string head = "uop-step 1\nprograms 1\ninput f32 4\n";
  EXPECT_EQ(errorOf(""), "not a uop step (or another version of it)");
  EXPECT_EQ(errorOf("uop-step 9\n"), "not a uop step (or another version of it)");
  EXPECT_EQ(errorOf(head), "the step is truncated (no 'end' line)");
  EXPECT_EQ(errorOf("uop-step 1\nend\n"), "the step names no programs");
  EXPECT_EQ(errorOf(head + "input f64 4\nend\n"), "bad step line: 'input f64 4'");
  EXPECT_EQ(errorOf(head + "input f32 4x0\nend\n"), "bad step line: 'input f32 4x0'");
  EXPECT_EQ(errorOf(head + "tensor state f32 4 ../w\nend\n"),
            "bad step line: 'tensor state f32 4 ../w' (a name of letters, digits, '.', '_' and "
            "'-')");
  EXPECT_EQ(errorOf(head + "tensor state f32 4 w\ntensor fixed f32 4 w\nend\n"),
            "bad step line: 'tensor fixed f32 4 w' (the name 'w' twice)");
  EXPECT_EQ(errorOf(head + "realize 1 slots in:0 values 4\nend\n"),
            "bad step line: 'realize 1 slots in:0 values 4'");
  EXPECT_EQ(errorOf(head + "realize 0 slots in:1 values 4\nend\n"),
            "bad step line: 'realize 0 slots in:1 values 4' (no input 1)");
  EXPECT_EQ(errorOf(head + "realize 0 slots val:0:0 values 4\nend\n"),
            "bad step line: 'realize 0 slots val:0:0 values 4' (no earlier realize 0)");
  EXPECT_EQ(errorOf(head + "realize 0 slots in:0 values 4\noutput val:0:1 4\nend\n"),
            "bad step line: 'output val:0:1 4' (realize 0 has no value 1)");
  EXPECT_EQ(errorOf(head + "tensor fixed f32 4 c\nrealize 0 slots in:0 values 4\nnext 0 val:0:0\n"
                           "end\n"),
            "bad step line: 'next 0 val:0:0'");
  EXPECT_EQ(errorOf(head + "end\nend\n"), "bad step line: 'end' (after 'end')");
  EXPECT_EQ(errorOf(head + "realize 0 slots t:7 values 4\nend\n"),
            "bad step line: 'realize 0 slots t:7 values 4' (no tensor 7)");
}

TEST(StepTest, BundleRoundTripAndBadBundles) {
  REQUIRE_COMPILER();
  TempDir tmp;
  StepBundle b = cpuToy();
  b.features = "+sse2";
  std::string path = tmp.file("toy.uopx");
  ASSERT_TRUE(writeStepBundle(path, b).ok());
  Result<StepBundle> r = readStepBundle(path);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->target, Backend::CPU);
  EXPECT_EQ(r->features, "+sse2");
  EXPECT_EQ(r->step.serialize(), b.step.serialize());
  ASSERT_EQ(r->programs.size(), 2u);
  EXPECT_EQ(r->programs[1].code, b.programs[1].code);
  EXPECT_EQ(r->programs[0].plan.serialize(), b.programs[0].plan.serialize());
  ASSERT_EQ(r->tensors.size(), 4u);
  EXPECT_EQ(r->tensors[0].as<float>()[3], 4.0f);

  auto errorOf = [&](const std::string &bytes) {
    std::string p = tmp.file("bad.uopx");
    EXPECT_TRUE(test::writeFile(p, bytes));
    Result<StepBundle> s = readStepBundle(p);
    EXPECT_FALSE(s.ok());
    EXPECT_EQ(s.error().rfind(p + ": ", 0), 0u) << s.error();
    EXPECT_EQ(s.error().find('\n'), std::string::npos) << s.error();
    return s.error().substr(p.size() + 2);
  };
  std::string good = encodeStepBundle(b);
  // The container's checks, as a program bundle's.
  EXPECT_EQ(errorOf(good.substr(0, 30)), "truncated uop bundle (30 bytes; its header says " +
                                             std::to_string(good.size()) + ")");
  std::string flipped = good;
  flipped[good.size() / 3] ^= 1;
  EXPECT_EQ(errorOf(flipped), "corrupted uop bundle (checksum mismatch)");
  EXPECT_EQ(errorOf("\x89UOPX\r\n\x1a" + std::string(16, '\0')),
            "a uop bundle of format version 0 (this uop reads versions 1 and 2)");
  // A program bundle is not a step, and a step is not a program.
  HostPlan one = test::toySgdPlan();
  EXPECT_EQ(errorOf(encodeBundle(Bundle::cpu(one, b.programs[0].code))),
            "a program bundle, not a training step (uop-runner runs it without --steps)");
  Result<Bundle> asProgram = decodeBundle(good, "toy.uopx");
  ASSERT_FALSE(asProgram.ok());
  EXPECT_EQ(asProgram.error(), "toy.uopx: a training-step bundle, not a program (uop-runner "
                               "toy.uopx --steps=N trains with it)");
  // Inside a well-formed container.
  auto edit = [&](const std::string &from, const std::string &to) {
    std::string bytes = good;
    size_t at = bytes.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    EXPECT_EQ(from.size(), to.size());
    bytes.replace(at, from.size(), to);
    return resum(bytes);
  };
  EXPECT_EQ(errorOf(edit("uop-step 1", "uop-step 7")),
            "the bundle's step: not a uop step (or another version of it)");
  EXPECT_EQ(errorOf(edit("realize 1 slots val:0:0", "realize 1 slots val:1:0")),
            "the bundle's step: bad step line: 'realize 1 slots val:1:0 t:1 t:2 values () 1 1' "
            "(no earlier realize 1)");
  EXPECT_EQ(errorOf(edit("program.1.plan", "program.7.plan")),
            "malformed step bundle (no 'program.1.plan' entry)");
  EXPECT_EQ(errorOf(edit("program.0.cpu.so", "program.0.cpu.sx")),
            "malformed step bundle (no 'program.0.cpu.so' entry)");
  EXPECT_EQ(errorOf(edit("tensor.2", "tensor.9")), "malformed step bundle (no 'tensor.2' entry)");
  EXPECT_EQ(errorOf(edit("uop-host-plan 4", "uop-host-plan 0")),
            "the plan of program 0: not a uop host plan (or another version of it)");
  // A tensor that is not what the step declares.
  StepBundle wrong = b;
  wrong.tensors[2] = HostBuffer(DType::I32, {1});
  EXPECT_EQ(errorOf(encodeStepBundle(wrong)),
            "tensor 2 (count) is i32 of shape (1,), but the step declares f32 of shape (1,)");
  EXPECT_EQ(errorOf(edit("kind", "kinx")), "malformed step bundle (no 'kind' entry)");
}

TEST(StepTest, ReplaysOnTheCpu) {
  REQUIRE_COMPILER();
  TempDir tmp;
  test::ScopedEnv cache("UOP_CACHE", tmp.file("cache").c_str());
  StepBundle b = cpuToy();
  Result<std::unique_ptr<StepRunner>> runner = StepRunner::load(b, "toy.uopx");
  ASSERT_TRUE(runner.ok()) << runner.error();
  EXPECT_EQ((*runner)->description(), "cpu, host");
  EXPECT_EQ((*runner)->launchesPerStep(), 2u);
  ASSERT_TRUE((*runner)->setData(0, test::toyBatches()).ok());
  // 7 steps, reported every 3: at 3, 6 and 7.
  std::vector<int64_t> at;
  std::vector<double> losses;
  Result<bool> ran = (*runner)->run(7, 3, 0, [&](const StepReport &r) -> Result<bool> {
    at.push_back(r.step);
    losses.insert(losses.end(), r.values.begin(), r.values.end());
    EXPECT_GE(r.seconds, 0.0);
    return true;
  });
  ASSERT_TRUE(ran.ok()) << ran.error();
  EXPECT_EQ(at, (std::vector<int64_t>{3, 6, 7}));
  test::ToyResult ref = test::toyReference(7);
  ASSERT_EQ(losses.size(), 7u);
  for (int s = 0; s < 7; ++s)
    EXPECT_EQ(float(losses[s]), ref.losses[s]) << s;
  Result<HostBuffer> w = (*runner)->tensor(0);
  ASSERT_TRUE(w.ok()) << w.error();
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(w->as<float>()[i], ref.w[i]);
  EXPECT_EQ((*runner)->tensor(2)->as<float>()[0], ref.count);
  EXPECT_EQ((*runner)->tensor(3)->as<float>()[0], ref.prev); // copied, not in place
  EXPECT_EQ((*runner)->tensor(1)->as<float>()[0], 0.5f);     // fixed
  EXPECT_EQ((*runner)->output(1)->as<float>()[0], ref.scaled[6]);
  Result<HostBuffer> outW = (*runner)->output(2);
  ASSERT_TRUE(outW.ok()) << outW.error();
  EXPECT_EQ(outW->shape(), (std::vector<int64_t>{4}));
  EXPECT_EQ(outW->as<float>()[2], ref.w[2]);
  // Runs continue where the last stopped; setTensor replaces the state.
  ASSERT_TRUE((*runner)->run(1, 0, -1, [](const StepReport &) { return Result<bool>(true); }).ok());
  EXPECT_EQ((*runner)->steps(), 8);
  EXPECT_EQ((*runner)->tensor(2)->as<float>()[0], ref.count + 1);
  HostBuffer zero(DType::F32, {1});
  ASSERT_TRUE((*runner)->setTensor(2, zero).ok());
  EXPECT_EQ((*runner)->tensor(2)->as<float>()[0], 0.0f);
  // A report's error stops the run.
  Result<bool> stopped =
      (*runner)->run(5, 1, 0, [](const StepReport &) -> Result<bool> { return Error{"stop"}; });
  ASSERT_FALSE(stopped.ok());
  EXPECT_EQ(stopped.error(), "stop");
  EXPECT_EQ((*runner)->steps(), 9);
}

TEST(StepTest, RunnerErrors) {
  REQUIRE_COMPILER();
  TempDir tmp;
  test::ScopedEnv cache("UOP_CACHE", tmp.file("cache").c_str());
  StepBundle b = cpuToy();
  Result<std::unique_ptr<StepRunner>> runner = StepRunner::load(b, "toy.uopx");
  ASSERT_TRUE(runner.ok()) << runner.error();
  HostBuffer bad(DType::F32, {3, 5});
  EXPECT_EQ((*runner)->setData(0, bad).error(),
            "input 0 is f32 of shape (4,): data of f32 of shape (3, 5) does not hold whole "
            "batches of it");
  EXPECT_TRUE((*runner)->setData(0, HostBuffer(DType::F32, {8})).ok()); // (2 * 4,): 2 batches
  EXPECT_EQ((*runner)->setData(1, bad).error(), "the step has 1 input(s), not 2");
  EXPECT_EQ((*runner)->setTensor(0, HostBuffer(DType::F32, {3})).error(),
            "tensor w is f32 of shape (4,), not f32 of shape (3,)");
  auto none = [](const StepReport &) { return Result<bool>(true); };
  EXPECT_EQ((*runner)->run(1, 0, 2, none).error(),
            "output 2 has 4 elements: the recorded output (the loss) must have one");
  EXPECT_EQ((*runner)->run(1, 0, 5, none).error(), "the step has 3 output(s), not 6");
  EXPECT_EQ((*runner)->output(0).error(), "no step has run");

  // A program that does not take what the step gives it.
  StepBundle wrong = b;
  wrong.step.tensors[1].dtype = DType::I32;
  wrong.tensors[1] = HostBuffer(DType::I32, {1});
  Result<std::unique_ptr<StepRunner>> w = StepRunner::load(wrong, "toy.uopx");
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error(), "toy.uopx: realize 1: slot 1 is 1 x f32, but its source (t:1) holds 1 x i32");
  StepBundle fewer = b;
  fewer.programs.pop_back();
  EXPECT_EQ(StepRunner::load(fewer, "toy.uopx").error(),
            "toy.uopx: the bundle has 1 programs and 4 tensors, but its step names 2 and 4");
  // The program loader's checks, with the bundle's name.
  StepBundle foreign = b;
  foreign.arch = "AArch64";
  if (hostMachine() == "AArch64")
    foreign.arch = "x86-64";
  EXPECT_EQ(StepRunner::load(foreign, "toy.uopx").error(),
            "toy.uopx: a CPU bundle for " + foreign.arch + ", not this machine (" +
                hostMachine() + ")");
  // CUDA without a GPU: the one line.
  test::ScopedEnv noGpu("UOP_LIBCUDA", "/nonexistent/libcuda.so.1");
  StepBundle gpu = test::toyStepBundle(Backend::CUDA, ".entry sgd(", ".entry scale(", "sm_90");
  Result<std::unique_ptr<StepRunner>> g = StepRunner::load(gpu, "toy.uopx");
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.error().rfind("no CUDA device: ", 0), 0u) << g.error();
}

} // namespace
