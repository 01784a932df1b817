//===- PlanCache.cpp - compile a shaped graph once per structure -*- C++ -*-===//

#include "Uop/Frontend/PlanCache.h"

#include "Uop/Conversion/Passes.h"
#include "Uop/IR/UopOps.h"
#include "Uop/Pipelines/Pipelines.h"
#include "Uop/Runtime/Cache.h"
#include "Uop/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

using namespace mlir;
using namespace mlir::uop;
namespace rt = ::uop::rt;

/// Bumped whenever what a plan compiles to may change for the same program.
static constexpr const char *kPlanFormat = "uop-plan 1";

std::optional<rt::DType> mlir::uop::toRuntimeDType(Type t) {
  if (t.isInteger(1))
    return rt::DType::Bool;
  if (t.isInteger(32))
    return rt::DType::I32;
  if (t.isF16())
    return rt::DType::F16;
  if (t.isF32())
    return rt::DType::F32;
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// CompiledPlan
//===----------------------------------------------------------------------===//

std::vector<int64_t> CompiledPlan::inputSlots() const {
  std::vector<int64_t> slots;
  for (const Arg &a : argList)
    if (a.kind == Arg::Input)
      slots.push_back(a.slot);
  return slots;
}

void CompiledPlan::runRaw(std::vector<void *> ptrs) {
  // Temporaries are allocated once and reused: no page faults on every run.
  if (temps.empty())
    for (const Arg &a : argList)
      if (a.kind == Arg::Temp)
        temps.emplace_back(a.dtype, std::vector<int64_t>{a.numel});
  std::vector<void *> args;
  args.reserve(argList.size());
  size_t next = 0, temp = 0;
  for (const Arg &a : argList)
    args.push_back(a.kind == Arg::Temp ? temps[temp++].data() : ptrs[next++]);
  (*kernel)(args.data());
}

rt::Result<std::vector<rt::HostBuffer>>
CompiledPlan::run(const std::map<int64_t, const rt::HostBuffer *> &inputs) {
  std::vector<rt::HostBuffer> outputs;
  std::vector<void *> ptrs;
  std::vector<size_t> outputOf(argList.size(), SIZE_MAX);
  for (auto [i, a] : llvm::enumerate(argList)) {
    if (a.kind == Arg::Input) {
      auto it = inputs.find(a.slot);
      if (it == inputs.end() || !it->second)
        return rt::Error{"missing input for buffer slot " + std::to_string(a.slot)};
      const rt::HostBuffer &b = *it->second;
      if (b.dtype() != a.dtype || b.numel() != a.numel)
        return rt::Error{"buffer slot " + std::to_string(a.slot) + " is " +
                         std::to_string(a.numel) + " x " + rt::dtypeName(a.dtype) +
                         ", but the input holds " + std::to_string(b.numel()) + " x " +
                         rt::dtypeName(b.dtype())};
      // The host only reads inputs.
      ptrs.push_back(const_cast<void *>(b.data()));
    } else if (a.kind == Arg::Output) {
      outputOf[i] = outputs.size();
      outputs.emplace_back(a.dtype, std::vector<int64_t>{a.numel});
      ptrs.push_back(outputs.back().data());
    }
  }
  runRaw(ptrs);
  std::vector<rt::HostBuffer> values;
  for (const ValueInfo &v : valueList) {
    const Arg &a = argList[v.arg];
    const void *src = a.kind == Arg::Input ? inputs.at(a.slot)->data()
                                           : outputs[outputOf[v.arg]].data();
    rt::HostBuffer value(a.dtype, v.shape);
    std::memcpy(value.data(), src, value.bytes());
    values.push_back(std::move(value));
  }
  return values;
}

std::string CompiledPlan::serialize() const {
  std::ostringstream os;
  os << kPlanFormat << "\n";
  os << "library " << library << "\n";
  os << "launches " << launches << "\n";
  for (const Arg &a : argList)
    os << "arg " << static_cast<int>(a.kind) << " " << a.slot << " " << rt::dtypeName(a.dtype)
       << " " << a.numel << "\n";
  for (const ValueInfo &v : valueList) {
    os << "value " << v.arg << " " << v.shape.size();
    for (int64_t d : v.shape)
      os << " " << d;
    os << "\n";
  }
  return os.str();
}

rt::Result<std::unique_ptr<CompiledPlan>> CompiledPlan::load(const std::string &text) {
  auto plan = std::make_unique<CompiledPlan>();
  std::istringstream in(text);
  std::string line;
  if (!std::getline(in, line) || line != kPlanFormat)
    return rt::Error{"not a uop plan (or another version)"};
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string word;
    ls >> word;
    if (word == "library") {
      ls >> std::ws;
      std::getline(ls, plan->library);
    } else if (word == "launches") {
      ls >> plan->launches;
    } else if (word == "arg") {
      int kind;
      std::string dtype;
      Arg a{};
      ls >> kind >> a.slot >> dtype >> a.numel;
      auto dt = rt::dtypeFromName(dtype);
      if (!ls || !dt || kind < 0 || kind > 2 || a.numel < 1)
        return rt::Error{"bad plan line: " + line};
      a.kind = static_cast<Arg::Kind>(kind);
      a.dtype = *dt;
      plan->argList.push_back(a);
    } else if (word == "value") {
      ValueInfo v{};
      size_t rank = 0;
      ls >> v.arg >> rank;
      v.shape.resize(rank);
      for (int64_t &d : v.shape)
        ls >> d;
      if (!ls || v.arg >= plan->argList.size())
        return rt::Error{"bad plan line: " + line};
      plan->valueList.push_back(std::move(v));
    } else if (!word.empty()) {
      return rt::Error{"bad plan line: " + line};
    }
  }
  auto kernel = rt::CpuKernel::load(plan->library);
  if (!kernel.ok())
    return rt::Error{kernel.error()};
  plan->kernel = std::make_unique<rt::CpuKernel>(kernel.take());
  return plan;
}

//===----------------------------------------------------------------------===//
// PlanCache
//===----------------------------------------------------------------------===//

/// Which build of uop compiled a plan: the binary that holds this code (its
/// path, size and modification time). A plan on disk maps a program to a
/// library without running a pass, so a rebuilt compiler must not reuse the
/// plans of the old one.
static const std::string &compilerIdentity() {
  static const std::string id = [] {
    Dl_info info;
    struct stat st;
    if (!dladdr(reinterpret_cast<void *>(&compilerIdentity), &info) || !info.dli_fname ||
        stat(info.dli_fname, &st) != 0)
      return std::string("unknown");
    return std::string(info.dli_fname) + ":" + std::to_string(st.st_size) + ":" +
           std::to_string(st.st_mtime);
  }();
  return id;
}

std::string PlanCache::key(ModuleOp program) const {
  // The structure: the program as printed (buffer contents are not in it;
  // constants, shapes, dtypes and slots are), the options and the target.
  std::string text;
  llvm::raw_string_ostream os(text);
  os << kPlanFormat << "\ncompiler=" << compilerIdentity()
     << "\nfuse-reduce=" << options.fuseReduce << " openmp=" << options.openmp
     << " O" << options.codegen.optLevel << " cpu="
     << (options.codegen.cpu.empty() ? llvm::sys::getHostCPUName().str() : options.codegen.cpu)
     << "\n";
  program.print(os, OpPrintingFlags().useLocalScope());
  return rt::hashKey(text);
}

FailureOr<CompiledPlan *> PlanCache::get(ModuleOp program) {
  std::string k = key(program);
  if (auto it = plans.find(k); it != plans.end()) {
    ++counts.memoryHits;
    return it->second.get();
  }
  // Another process may have compiled this structure already.
  if (std::string path = rt::cacheLookup(k, ".plan"); !path.empty()) {
    std::ifstream f(path);
    std::stringstream text;
    text << f.rdbuf();
    auto plan = CompiledPlan::load(text.str());
    if (plan.ok()) {
      ++counts.diskHits;
      return (plans[k] = plan.take()).get();
    }
    rt::cacheRemove(k, ".plan"); // stale (e.g. its library was pruned): recompile
  }

  OwningOpRef<ModuleOp> module = program.clone();
  auto fail = [&](const Twine &msg) -> FailureOr<CompiledPlan *> {
    emitError(program.getLoc(), "plan cache: ") << msg;
    return failure();
  };
  if (failed(kernelizeModule(*module, options.fuseReduce)))
    return failure();
  auto main = module->lookupSymbol<func::FuncOp>("main");
  if (!main || !main->hasAttr("uop.host"))
    return fail("@main is not a shaped program (a function returning values)");
  FailureOr<HostPlan> hostPlan = getHostPlan(main);
  if (failed(hostPlan))
    return failure();

  PassManager pm(module->getContext());
  UopCpuPipelineOptions pipeline;
  pipeline.openmp = options.openmp;
  pipeline.fuseReduce = options.fuseReduce;
  pipeline.hostTempsAsArgs = true; // allocated once, reused across runs
  buildUopCpuPipeline(pm, pipeline);
  if (failed(pm.run(*module)) || failed(addPackedEntry(*module, "main")))
    return failure();
  FailureOr<std::string> so = compileToSharedLibrary(*module, options.codegen);
  if (failed(so))
    return failure();

  auto plan = std::make_unique<CompiledPlan>();
  plan->library = *so;
  plan->launches = hostPlan->numLaunches;
  for (const HostArg &a : hostPlan->args) {
    auto dtype = toRuntimeDType(a.dtype);
    if (!dtype)
      return fail("unsupported buffer dtype");
    plan->argList.push_back(
        {static_cast<CompiledPlan::Arg::Kind>(a.kind), a.slot, *dtype, a.numel});
  }
  for (auto [arg, shape] : llvm::zip(hostPlan->results, hostPlan->resultShapes))
    plan->valueList.push_back({arg, std::vector<int64_t>(shape.begin(), shape.end())});
  auto kernel = rt::CpuKernel::load(*so);
  if (!kernel.ok())
    return fail(kernel.error());
  plan->kernel = std::make_unique<rt::CpuKernel>(kernel.take());

  // Publish the plan for other processes (atomically; a failure only costs
  // them a compile).
  std::string tmp = rt::cacheTempPath(".plan");
  {
    std::ofstream f(tmp);
    f << plan->serialize();
  }
  (void)rt::cacheInstall(tmp, k, ".plan");
  ++counts.compiled;
  return (plans[k] = std::move(plan)).get();
}
