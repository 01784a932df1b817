//===- uop-bundle.cpp - make and inspect .uopx bundles ----------*- C++ -*-===//
//
//   uop-bundle create OUT.uopx --target=cpu|cuda --plan=PLAN.txt
//              [--so=LIB.so] [--ptx=K.ptx] [--cubin=K.cubin] [--arch=ARCH]
//   uop-bundle info FILE.uopx
//
// Packs a host plan (HostPlan::serialize()'s text) with a CPU shared library
// or CUDA kernels into a bundle (Bundle.h) that uop-runner runs, and shows
// what a bundle holds. The execution engine writes bundles itself
// (uop::rt::writeBundle); this tool is for hand-made programs and tests.
// MLIR-free, like uop-runner.
//
//===----------------------------------------------------------------------===//

#include "Uop/Runtime/Runtime.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
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
                     "       uop-bundle info FILE.uopx\n";
} // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fputs(kUsage, stderr);
    return 1;
  }
  std::string cmd = argv[1], file = argv[2];
  if (cmd == "info") {
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
