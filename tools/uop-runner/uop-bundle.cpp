//===- uop-bundle.cpp - make and inspect .uopx bundles ----------*- C++ -*-===//
//
//   uop-bundle create OUT.uopx --target=cpu|cuda --plan=PLAN.txt
//              [--so=LIB.so] [--ptx=K.ptx] [--cubin=K.cubin] [--arch=ARCH]
//   uop-bundle create-step OUT.uopx --target=cpu|cuda --step=STEP.txt
//              --program=PLAN.txt,CODE... [--tensor=FILE.npy]... [--arch=ARCH]
//   uop-bundle info FILE.uopx
//
// Packs a host plan (HostPlan::serialize()'s text) with a CPU shared library
// or CUDA kernels into a bundle (Bundle.h) that uop-runner runs, packs a
// training step (a StepProgram's text, each program's plan and code, each
// tensor's initial value; Step.h) into a step bundle that uop-runner --steps
// trains with, and shows what a bundle holds. The execution engine writes bundles itself
// (uop::rt::writeBundle); this tool is for hand-made programs and tests.
// MLIR-free, like uop-runner.
//
//===----------------------------------------------------------------------===//

#include "Uop/Runtime/Runtime.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

namespace rt = ::uop::rt;

namespace {
[[noreturn]] void fail(const std::string &msg) {
  std::fprintf(stderr, "uop-bundle: error: %s\n", msg.c_str());
  std::exit(1);
}

std::string slurp(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    fail(path + ": cannot read");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const char *kUsage = "usage: uop-bundle create OUT.uopx --target=cpu|cuda --plan=PLAN.txt "
                     "[--so=LIB.so] [--ptx=K.ptx] [--cubin=K.cubin] [--arch=ARCH]\n"
                     "       uop-bundle create-step OUT.uopx --target=cpu|cuda --step=STEP.txt "
                     "--program=PLAN.txt,CODE... [--tensor=FILE.npy]... [--arch=ARCH]\n"
                     "       uop-bundle info FILE.uopx\n";

/// `info` of a step bundle.
int stepInfo(const std::string &file) {
  rt::Result<rt::StepBundle> b = rt::readStepBundle(file);
  if (!b)
    fail(b.error());
  const rt::StepProgram &s = b->step;
  size_t states = 0;
  for (const rt::StepTensor &t : s.tensors)
    states += t.state;
  std::printf("bundle: format %u (training step), target %s, arch %s, producer %s\n",
              rt::kStepBundleVersion, rt::backendName(b->target), b->arch.c_str(),
              b->producer.c_str());
  std::printf("step: %zu program(s), %zu realize(s), %zu input(s), %zu state tensor(s), %zu "
              "fixed, %zu output(s)\n",
              b->programs.size(), s.realizes.size(), s.inputs.size(), states,
              s.tensors.size() - states, s.outputs.size());
  if (!b->machine.empty())
    std::printf("machine: %s\n", b->machine.c_str());
  for (size_t j = 0; j < b->programs.size(); ++j)
    std::printf("program %zu: %zu arg(s), %zu kernel(s), %zu launch(es), %s: %zu bytes\n", j,
                b->programs[j].plan.args.size(), b->programs[j].plan.kernels.size(),
                b->programs[j].plan.launches.size(),
                b->target == rt::Backend::CPU ? "cpu.so" : "cuda.ptx", b->programs[j].code.size());
  for (size_t k = 0; k < s.inputs.size(); ++k)
    std::printf("input %zu: %s %s\n", k, rt::shapeString(s.inputs[k].shape).c_str(),
                rt::dtypeName(s.inputs[k].dtype));
  for (size_t k = 0; k < s.tensors.size(); ++k)
    std::printf("tensor %zu: %s %s %s %s\n", k, s.tensors[k].state ? "state" : "fixed",
                s.tensors[k].name.c_str(), rt::shapeString(s.tensors[k].shape).c_str(),
                rt::dtypeName(s.tensors[k].dtype));
  return 0;
}
} // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fputs(kUsage, stderr);
    return 1;
  }
  std::string cmd = argv[1], file = argv[2];
  if (cmd == "info") {
    if (rt::Result<uint32_t> format = rt::bundleFormat(file);
        format && *format == rt::kStepBundleVersion)
      return stepInfo(file);
    rt::Result<rt::Bundle> b = rt::readBundle(file);
    if (!b)
      fail(b.error());
    std::printf("bundle: format %u, target %s, arch %s, producer %s\n", rt::kBundleVersion,
                rt::backendName(b->target), b->arch.c_str(), b->producer.c_str());
    size_t checks = 0;
    for (const rt::PlanKernel &k : b->plan.kernels)
      checks += k.checks.size();
    std::printf("plan: %zu arg(s), %zu kernel(s), %zu launch(es), %zu run-time check(s)\n",
                b->plan.args.size(), b->plan.kernels.size(), b->plan.launches.size(), checks);
    // What the runtime encodes for the warpgroup GEMMs (cuTensorMapEncodeTiled).
    for (const rt::PlanKernel &k : b->plan.kernels)
      for (const rt::PlanTensorMap &t : k.tensorMaps)
        std::printf("tensor map: %s parameter %u, %s from element %lld, %lld x %lld (rows of %lld "
                    "bytes), box %lld x %lld, swizzle %lld\n",
                    k.name.c_str(), t.param, rt::dtypeName(t.dtype), (long long)t.offset,
                    (long long)t.dims[0], (long long)t.dims[1], (long long)t.stride,
                    (long long)t.box[0], (long long)t.box[1], (long long)t.swizzle);
    if (!b->machine.empty())
      std::printf("machine: %s\n", b->machine.c_str());
    if (b->target == rt::Backend::CPU)
      std::printf("cpu.so: %zu bytes\n", b->library.size());
    if (!b->ptx.empty())
      std::printf("cuda.ptx: %zu bytes\n", b->ptx.size());
    if (!b->cubin.empty())
      std::printf("cuda.cubin: %zu bytes\n", b->cubin.size());
    return 0;
  }
  if (cmd == "create-step") {
    std::string target, stepPath, arch;
    std::vector<std::string> programs, tensors;
    for (int i = 3; i < argc; ++i) {
      std::string arg = argv[i];
      auto value = [&](const char *flag) -> std::optional<std::string> {
        std::string prefix = std::string("--") + flag + "=";
        if (arg.rfind(prefix, 0) != 0)
          return std::nullopt;
        return arg.substr(prefix.size());
      };
      if (auto v = value("target"))
        target = *v;
      else if (auto v = value("step"))
        stepPath = *v;
      else if (auto v = value("arch"))
        arch = *v;
      else if (auto v = value("program"))
        programs.push_back(*v);
      else if (auto v = value("tensor"))
        tensors.push_back(*v);
      else
        fail("unknown option '" + arg + "'");
    }
    rt::StepBundle b;
    if (target != "cpu" && target != "cuda")
      fail("--target must be cpu or cuda, got '" + target + "'");
    b.target = target == "cpu" ? rt::Backend::CPU : rt::Backend::CUDA;
    if (stepPath.empty())
      fail("create-step needs --step=STEP.txt");
    rt::Result<rt::StepProgram> step = rt::StepProgram::parse(slurp(stepPath));
    if (!step)
      fail(stepPath + ": " + step.error());
    b.step = step.take();
    for (const std::string &p : programs) {
      size_t comma = p.find(',');
      if (comma == std::string::npos)
        fail("--program expects PLAN.txt,CODE, got '" + p + "'");
      std::string planPath = p.substr(0, comma);
      rt::Result<rt::HostPlan> plan = rt::HostPlan::parse(slurp(planPath));
      if (!plan)
        fail(planPath + ": " + plan.error());
      b.programs.push_back({plan.take(), slurp(p.substr(comma + 1))});
    }
    for (const std::string &t : tensors) {
      rt::Result<rt::HostBuffer> v = rt::readNpy(t);
      if (!v)
        fail(v.error());
      b.tensors.push_back(v.take());
    }
    if (b.programs.size() != b.step.numPrograms || b.tensors.size() != b.step.tensors.size())
      fail("the step names " + std::to_string(b.step.numPrograms) + " program(s) and " +
           std::to_string(b.step.tensors.size()) + " tensor(s); given " +
           std::to_string(b.programs.size()) + " and " + std::to_string(b.tensors.size()));
    for (size_t k = 0; k < b.tensors.size(); ++k)
      if (b.tensors[k].dtype() != b.step.tensors[k].dtype ||
          b.tensors[k].shape() != b.step.tensors[k].shape)
        fail(tensors[k] + ": " + b.tensors[k].describe() + ", but tensor " + std::to_string(k) +
             " of the step is " + rt::dtypeName(b.step.tensors[k].dtype) + " of shape " +
             rt::shapeString(b.step.tensors[k].shape));
    b.arch = !arch.empty() ? arch
             : b.target == rt::Backend::CPU
                 ? rt::hostMachine()
                 : (b.programs.empty() ? "" : rt::ptxTarget(b.programs[0].code));
    b.producer = "uop-bundle";
    rt::Result<bool> ok = rt::writeStepBundle(file, b);
    if (!ok)
      fail(ok.error());
    return 0;
  }
  if (cmd != "create")
    fail("unknown command '" + cmd + "'\n" + kUsage);
  std::string target, planPath, so, ptx, cubin, arch;
  for (int i = 3; i < argc; ++i) {
    std::string arg = argv[i];
    auto take = [&](const char *flag, std::string &dst) {
      std::string prefix = std::string("--") + flag + "=";
      if (arg.rfind(prefix, 0) != 0)
        return false;
      dst = arg.substr(prefix.size());
      return true;
    };
    if (!take("target", target) && !take("plan", planPath) && !take("so", so) &&
        !take("ptx", ptx) && !take("cubin", cubin) && !take("arch", arch))
      fail("unknown option '" + arg + "'");
  }
  if (planPath.empty())
    fail("create needs --plan=PLAN.txt");
  rt::Result<rt::HostPlan> plan = rt::HostPlan::parse(slurp(planPath));
  if (!plan)
    fail(planPath + ": " + plan.error());
  rt::Bundle b;
  if (target == "cpu") {
    if (so.empty())
      fail("a CPU bundle needs --so=LIB.so");
    b = rt::Bundle::cpu(plan.take(), slurp(so), arch);
  } else if (target == "cuda") {
    if (ptx.empty() && cubin.empty())
      fail("a CUDA bundle needs --ptx=K.ptx or --cubin=K.cubin");
    b = rt::Bundle::cuda(plan.take(), ptx.empty() ? "" : slurp(ptx), arch,
                         cubin.empty() ? "" : slurp(cubin));
  } else {
    fail("--target must be cpu or cuda, got '" + target + "'");
  }
  b.producer = "uop-bundle";
  rt::Result<bool> ok = rt::writeBundle(file, b);
  if (!ok)
    fail(ok.error());
  return 0;
}
