//===- PlanCache.cpp - compile a program once per structure -----*- C++ -*-===//

#include "Uop/ExecutionEngine/PlanCache.h"

#include "Uop/Runtime/Cache.h"
#include "Uop/Runtime/File.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/raw_ostream.h"

#include <dlfcn.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

using namespace mlir;
using namespace mlir::uop;
namespace rt = ::uop::rt;

/// Bumped whenever what a program compiles to may change for the same
/// options, or the on-disk entry's form changes.
static constexpr const char *kPlanFormat = "uop-plan 3";

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
  os << kPlanFormat << "\ncompiler=" << compilerIdentity() << "\n"
     << cacheKey(options, program.getContext()) << "\n";
  program.print(os, OpPrintingFlags().useLocalScope());
  return rt::hashKey(text);
}

/// The on-disk entry: the code (a CPU library's path, or the path of a CUDA
/// program's PTX, KEY.ptx in the cache), then the host plan.
static std::string serializeEntry(const rt::Executable &exe, const std::string &code) {
  return std::string(kPlanFormat) + "\n" +
         (exe.backend() == rt::Backend::CUDA ? "ptx " : "library ") + code + "\n" +
         exe.plan().serialize();
}

static rt::Result<std::unique_ptr<rt::Executable>> loadEntry(const std::string &text) {
  std::istringstream in(text);
  std::string header, code;
  if (!std::getline(in, header) || header != kPlanFormat)
    return rt::Error{"not a uop plan (or another version)"};
  if (!std::getline(in, code) || (code.rfind("library ", 0) != 0 && code.rfind("ptx ", 0) != 0))
    return rt::Error{"the plan names no code"};
  bool ptx = code.rfind("ptx ", 0) == 0;
  code = code.substr(ptx ? 4 : 8);
  std::string rest((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto plan = rt::HostPlan::parse(rest);
  if (!plan.ok())
    return rt::Error{plan.error()};
  if (!ptx)
    return rt::Executable::load(plan.take(), code);
  // The PTX, checked against its checksum.
  if (auto ok = rt::cacheVerify(code); !ok)
    return rt::Error{ok.error()};
  std::ifstream f(code, std::ios::binary);
  std::stringstream bytes;
  bytes << f.rdbuf();
  if (!f)
    return rt::Error{code + ": cannot read"};
  return rt::Executable::loadCuda(plan.take(), bytes.str());
}

FailureOr<rt::Executable *> PlanCache::get(ModuleOp program) {
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
    auto exe = loadEntry(text.str());
    if (exe.ok()) {
      ++counts.diskHits;
      return (plans[k] = exe.take()).get();
    }
    // Stale (its code was pruned), or CUDA where there is no GPU now: the
    // compile below says why.
    if (!rt::isNoCudaDevice(exe.error()))
      rt::cacheRemove(k, ".plan");
  }

  FailureOr<std::unique_ptr<rt::Executable>> exe = compile(program, options);
  if (failed(exe))
    return failure();
  // Publish the plan for other processes (atomically; a failure only costs
  // them a compile). A CUDA program's PTX goes beside it.
  std::string code = (*exe)->library();
  bool publish = true;
  if ((*exe)->backend() == rt::Backend::CUDA) {
    // Installed only when written whole (a full disk must not publish a
    // truncated file with its own checksum).
    std::string ptxTmp = rt::cacheTempPath(".ptx");
    publish = bool(rt::writeNewFile(ptxTmp, (*exe)->ptx(), 0644, /*durable=*/false));
    if (publish) {
      rt::Result<std::string> installed = rt::cacheInstall(ptxTmp, k, ".ptx");
      publish = installed.ok();
      if (publish)
        code = *installed;
    }
  }
  if (publish) {
    std::string tmp = rt::cacheTempPath(".plan");
    if (rt::writeNewFile(tmp, serializeEntry(**exe, code), 0644, /*durable=*/false))
      (void)rt::cacheInstall(tmp, k, ".plan");
  }
  ++counts.compiled;
  return (plans[k] = std::move(*exe)).get();
}
