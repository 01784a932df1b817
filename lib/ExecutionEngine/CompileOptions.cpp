//===- CompileOptions.cpp - what a program is compiled with ----*- C++ -*-===//

#include "Uop/ExecutionEngine/CompileOptions.h"

#include "llvm/Support/ManagedStatic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::uop;
namespace cl = llvm::cl;

StringRef mlir::uop::stringifyCompileTarget(CompileTarget target) {
  switch (target) {
  case CompileTarget::CPU:
    return "cpu";
  case CompileTarget::Emulate:
    return "emulate";
  case CompileTarget::CUDA:
    return "cuda";
  }
  llvm_unreachable("unknown target");
}

std::optional<CompileTarget> mlir::uop::parseCompileTarget(StringRef name) {
  if (name == "cpu")
    return CompileTarget::CPU;
  if (name == "emulate")
    return CompileTarget::Emulate;
  if (name == "cuda")
    return CompileTarget::CUDA;
  return std::nullopt;
}

std::string CompileOptions::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "target=" << stringifyCompileTarget(target) << " opt=" << stringifyOptMode(opt)
     << " fuse-reduce=" << fuseReduce << " multi-output=" << multiOutput;
  // (The GPU targets leave it off, whatever it says.)
  if (target == CompileTarget::CPU)
    os << " fuse-epilogue=" << fuseEpilogue;
  os << " openmp=" << openmp << " checks=" << checks << " O"
     << codegen.optLevel;
  if (target != CompileTarget::CUDA)
    os << " cpu=" << (cpu.empty() ? "host" : cpu);
  if (target != CompileTarget::CPU)
    os << " chip=" << (chip.empty() ? "sm_90" : chip);
  if (target == CompileTarget::CUDA) {
    if (!ptxFeatures.empty())
      os << " ptx-features=" << ptxFeatures;
    os << " ptx-O" << ptxOptLevel;
  }
  if (codegenPath != CodegenPath::LLVM)
    os << " codegen=" << stringifyCodegenPath(codegenPath);
  return s;
}

FailureOr<CompileTargets> mlir::uop::resolveTargets(const CompileOptions &options,
                                                    MLIRContext *ctx, std::string &error) {
  CompileTargets targets;
  // A target given is checked even where this compile does not use it:
  // --chip=garbage for a CPU run was silently ignored (issue 32).
  if (options.target != CompileTarget::CUDA || !StringRef(options.cpu).trim().empty()) {
    FailureOr<TargetAttr> cpu = parseTarget(ctx, options.cpu, TargetKind::CPU, error);
    if (failed(cpu))
      return failure();
    if (!cpu->isCPU()) {
      error = "the CPU target '" + options.cpu + "' is not a cpu target";
      return failure();
    }
    targets.cpu = *cpu;
  }
  if (options.target != CompileTarget::CPU || !StringRef(options.chip).trim().empty()) {
    StringRef chip = StringRef(options.chip).trim();
    if (!chip.empty() && chip != "host" && !chip.starts_with("sm_") && !chip.starts_with("#")) {
      error = "the GPU target '" + options.chip +
              "' is not a cuda target (sm_80, sm_86, sm_89, sm_90, sm_90a or "
              "#uop.target<cuda, ...>)";
      return failure();
    }
    FailureOr<TargetAttr> gpu = parseTarget(ctx, options.chip, TargetKind::CUDA, error);
    if (failed(gpu))
      return failure();
    if (!gpu->isCUDA()) {
      error = "the GPU target '" + options.chip + "' is not a cuda target";
      return failure();
    }
    targets.gpu = *gpu;
  }
  return targets;
}

std::string mlir::uop::cacheKey(const CompileOptions &options, MLIRContext *ctx) {
  std::string error;
  FailureOr<CompileTargets> targets = resolveTargets(options, ctx, error);
  if (failed(targets))
    return "";
  std::string s = options.str();
  llvm::raw_string_ostream os(s);
  if (targets->cpu)
    os << "\ncpu-target=" << targets->cpu;
  if (targets->gpu)
    os << "\ngpu-target=" << targets->gpu;
  return s;
}

static std::string printed(TargetAttr target) {
  std::string s;
  if (target)
    llvm::raw_string_ostream(s) << target;
  return s;
}

void mlir::uop::setPipelineOptions(const CompileOptions &options, const CompileTargets &targets,
                                   UopCpuPipelineOptions &pipeline) {
  pipeline.target = printed(targets.cpu);
  bool emulate = options.target == CompileTarget::Emulate;
  pipeline.emulateGpu = emulate;
  pipeline.gpuTarget = printed(targets.gpu);
  pipeline.openmp = options.openmp;
  pipeline.fuseReduce = options.fuseReduce;
  pipeline.multiOutput = options.multiOutput;
  pipeline.fuseEpilogue = options.fuseEpilogue && !emulate;
  // The emulated GPU maps kernels as the GPU does (no CPU opts, no layout).
  pipeline.opt = emulate ? OptMode::None : options.opt;
  pipeline.hostTempsAsArgs = true; // the executable allocates them once
  pipeline.checks = options.checks;
  pipeline.codegen = options.codegenPath == CodegenPath::C ? CodegenPath::C : CodegenPath::LLVM;
}

void mlir::uop::setPipelineOptions(const CompileOptions &options, const CompileTargets &targets,
                                   UopCudaPipelineOptions &pipeline) {
  pipeline.target = printed(targets.gpu);
  pipeline.features = options.ptxFeatures;
  pipeline.optLevel = options.ptxOptLevel;
  pipeline.toolkit = options.cudaToolkit;
  pipeline.fuseReduce = options.fuseReduce;
  pipeline.multiOutput = options.multiOutput;
  pipeline.hostTempsAsArgs = true;
  pipeline.checks = options.checks;
  pipeline.codegen =
      options.codegenPath == CodegenPath::CudaC ? CodegenPath::CudaC : CodegenPath::LLVM;
}

//===----------------------------------------------------------------------===//
// The command line
//===----------------------------------------------------------------------===//

llvm::cl::OptionCategory &mlir::uop::getCompileOptionsCategory() {
  static cl::OptionCategory category("uop compile options");
  return category;
}

namespace {
/// The options every compiling tool takes.
struct CompileCLOptions {
  cl::opt<std::string> cpu{"mcpu", cl::cat(getCompileOptionsCategory()),
                           cl::desc("The CPU to compile for (cpu and emulate): host (default), "
                                    "a CPU LLVM knows (znver5, skylake-avx512, x86-64-v3) or "
                                    "#uop.target<cpu, ...>"),
                           cl::value_desc("cpu"), cl::init("")};
  cl::opt<std::string> chip{"chip", cl::cat(getCompileOptionsCategory()),
                            cl::desc("The GPU to compile for (cuda, and the one emulate maps "
                                     "for): sm_90 (default), sm_80, sm_86, sm_89, sm_90a or "
                                     "#uop.target<cuda, ...>"),
                            cl::init("")};
  cl::opt<std::string> ptxFeatures{"ptx-features", cl::cat(getCompileOptionsCategory()),
                                   cl::desc("PTX features instead of the chip's (e.g. +ptx70)"),
                                   cl::init("")};
  cl::opt<unsigned> ptxOptLevel{"ptx-opt-level", cl::cat(getCompileOptionsCategory()),
                                cl::desc("LLVM optimization level of the PTX (0-3)"),
                                cl::init(3)};
  cl::opt<std::string> cudaToolkit{
      "cuda-toolkit", cl::cat(getCompileOptionsCategory()),
      cl::desc("The CUDA toolkit whose libdevice provides the GPU's math functions "
               "(default: $CUDA_ROOT, $CUDA_HOME, $CUDA_PATH or /usr/local/cuda)"),
      cl::init("")};
  cl::opt<std::string> opt{"opt", cl::cat(getCompileOptionsCategory()),
                           cl::desc("Who chooses the kernels' opts: hand (default: uop-layout "
                                    "and the seed's hand rules for the target), none (the "
                                    "program as written) or search (uop-search: timed "
                                    "candidates, the winners cached)"),
                           cl::init("hand")};
  cl::opt<double> searchSeconds{"search-seconds", cl::cat(getCompileOptionsCategory()),
                                cl::desc("--opt=search: the time bound of one kernel's search "
                                         "(default 60)"),
                                cl::init(60)};
  cl::opt<std::string> searchExport{
      "search-export", cl::cat(getCompileOptionsCategory()),
      cl::desc("--opt=search --target=cuda: write the candidate opts of each kernel without a "
               "cached winner as bundles into this directory, for tools/uop-gpu-search.py to "
               "time on the GPU machine")};
  cl::opt<std::string> searchResults{
      "search-results", cl::cat(getCompileOptionsCategory()),
      cl::desc("--opt=search --target=cuda: cache the winners of this results file of "
               "tools/uop-gpu-search.py (keyed by kernel and target) before compiling")};
  cl::opt<bool> fuseReduce{"fuse-reduce", cl::cat(getCompileOptionsCategory()),
                           cl::desc("Kernelize with reductions fused into their consumers")};
  cl::opt<bool> multiOutput{"multi-output", cl::cat(getCompileOptionsCategory()),
                            cl::desc("Kernelize elementwise outputs of one shape into one "
                                     "multi-output kernel (default; =false: one kernel per "
                                     "output, as the seed)"),
                            cl::init(true)};
  cl::opt<bool> fuseEpilogue{"fuse-epilogue", cl::cat(getCompileOptionsCategory()),
                             cl::desc("Kernelize a reduction's elementwise epilogue (a GEMM's "
                                      "bias and ReLU) into the reduction's kernel (default, "
                                      "the cpu target; =false: the reduction's own kernel, "
                                      "as the seed)"),
                             cl::init(true)};
  cl::opt<bool> unchecked{"unchecked", cl::cat(getCompileOptionsCategory()),
                          cl::desc("No run-time checks of the indices and divisors the bounds "
                                   "analysis does not prove safe (out of bounds and division "
                                   "by zero are then undefined)")};
  cl::opt<std::string> codegen{
      "codegen", cl::cat(getCompileOptionsCategory()),
      cl::desc("How the kernels become code: llvm (default: LLVM, PTX for cuda), c (the "
               "seed's C, compiled by clang-22 into the same shared library; cpu and "
               "emulate) or cuda-c (CUDA C, compiled by nvcc; cuda)"),
      cl::init("llvm")};
};

/// --target, for the tools that run or bundle a program (a translation
/// names its own).
struct TargetCLOption {
  cl::opt<std::string> target{"target", cl::cat(getCompileOptionsCategory()),
                              cl::desc("cpu (default), emulate (the GPU mapping, with block "
                                       "and thread ids as loops) or cuda"),
                              cl::init("cpu")};
};
} // namespace

static llvm::ManagedStatic<CompileCLOptions> clOptions;
static llvm::ManagedStatic<TargetCLOption> clTarget;
static bool clTargetRegistered = false;

void mlir::uop::registerCompileCLOptions(bool withTarget) {
  *clOptions; // construct: registers the options
  if (withTarget) {
    *clTarget;
    clTargetRegistered = true;
  }
}

FailureOr<CompileOptions> mlir::uop::getCompileOptionsFromCL(std::string &error) {
  CompileOptions options;
  if (!clOptions.isConstructed()) {
    error = "the compile options were not registered (registerCompileCLOptions)";
    return failure();
  }
  if (clTargetRegistered) {
    std::optional<CompileTarget> t = parseCompileTarget(clTarget->target);
    if (!t) {
      error = "unknown --target '" + clTarget->target + "' (expected cpu, emulate or cuda)";
      return failure();
    }
    options.target = *t;
  }
  std::optional<OptMode> m = parseOptMode(clOptions->opt);
  if (!m) {
    error = "unknown --opt '" + clOptions->opt + "' (expected none, hand or search)";
    return failure();
  }
  options.opt = *m;
  // `--chip=` or `--mcpu=` with nothing after it is a mistake, not the
  // default (issue 32: it was accepted silently).
  if (clOptions->chip.getNumOccurrences() && StringRef(clOptions->chip).trim().empty()) {
    error = "--chip needs a GPU (sm_80, sm_86, sm_89, sm_90, sm_90a or #uop.target<cuda, ...>)";
    return failure();
  }
  if (clOptions->cpu.getNumOccurrences() && StringRef(clOptions->cpu).trim().empty()) {
    error = "--mcpu needs a CPU (host, a CPU LLVM knows or #uop.target<cpu, ...>)";
    return failure();
  }
  options.cpu = clOptions->cpu;
  options.chip = clOptions->chip;
  options.ptxFeatures = clOptions->ptxFeatures;
  options.ptxOptLevel = clOptions->ptxOptLevel;
  options.cudaToolkit = clOptions->cudaToolkit;
  options.searchSeconds = clOptions->searchSeconds;
  options.searchExport = clOptions->searchExport;
  options.searchResults = clOptions->searchResults;
  options.fuseReduce = clOptions->fuseReduce;
  options.multiOutput = clOptions->multiOutput;
  options.fuseEpilogue = clOptions->fuseEpilogue;
  options.checks = !clOptions->unchecked;
  std::optional<CodegenPath> path = parseCodegenPath(clOptions->codegen);
  if (!path) {
    error = "unknown --codegen '" + clOptions->codegen + "' (expected llvm, c or cuda-c)";
    return failure();
  }
  options.codegenPath = *path;
  if (clTargetRegistered) {
    if (*path == CodegenPath::C && options.target == CompileTarget::CUDA) {
      error = "--codegen=c is C for the CPU: use --codegen=cuda-c with --target=cuda";
      return failure();
    }
    if (*path == CodegenPath::CudaC && options.target != CompileTarget::CUDA) {
      error = "--codegen=cuda-c is CUDA C: use it with --target=cuda (--codegen=c for the CPU)";
      return failure();
    }
  }
  if (failed(checkCompileOptions(options, error)))
    return failure();
  return options;
}

LogicalResult mlir::uop::checkCompileOptions(const CompileOptions &options, std::string &error) {
  if (options.opt == OptMode::Search && options.target == CompileTarget::Emulate) {
    error = "--opt=search times kernels on the CPU (--target=cpu) or, through bundles, on a GPU "
            "(--target=cuda); not emulated";
    return failure();
  }
  if ((!options.searchExport.empty() || !options.searchResults.empty()) &&
      (options.opt != OptMode::Search || options.target != CompileTarget::CUDA)) {
    error = std::string(options.searchExport.empty() ? "--search-results" : "--search-export") +
            " is for the GPU search: use it with --opt=search --target=cuda";
    return failure();
  }
  if (options.opt == OptMode::Search && options.target == CompileTarget::CPU &&
      !options.cpu.empty() && options.cpu != "host") {
    error = "--opt=search times kernels on this machine: it cannot search for --mcpu=" +
            options.cpu;
    return failure();
  }
  if (!(options.searchSeconds >= 0)) {
    error = "--search-seconds must be >= 0";
    return failure();
  }
  if (options.ptxOptLevel > 3) {
    error = "--ptx-opt-level must be 0-3";
    return failure();
  }
  return success();
}
