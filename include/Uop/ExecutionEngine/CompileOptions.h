//===- CompileOptions.h - what a program is compiled with -------*- C++ -*-===//
//
// The one set of compile options: the struct the execution engine takes,
// the targets it names (resolved to #uop.target once, where the host is
// detected), the pipeline options it becomes, and its command line,
// registered once for every tool (uop-run, uop-compile, uop-translate),
// as MLIR registers its pass manager's options.
//
//   mlir::uop::registerCompileCLOptions();              // before cl::Parse...
//   auto options = mlir::uop::getCompileOptionsFromCL(); // after
//
//===----------------------------------------------------------------------===//

#ifndef UOP_EXECUTIONENGINE_COMPILEOPTIONS_H
#define UOP_EXECUTIONENGINE_COMPILEOPTIONS_H

#include "Uop/IR/UopTarget.h"
#include "Uop/Pipelines/Pipelines.h"
#include "Uop/Target/CPU.h"

#include "llvm/Support/CommandLine.h"

#include <optional>
#include <string>

namespace mlir::uop {

/// Where the program runs.
enum class CompileTarget {
  /// Native code for a CPU (the host unless `cpu` names another); thread
  /// ranges run with OpenMP.
  CPU,
  /// The seed's emulation of the GPU path: kernels are mapped as for the GPU
  /// `chip` (gpu_opt_choice where the program names no opts: GLOBAL and
  /// LOCAL ranges), and run on the CPU with block and thread ids as loops.
  Emulate,
  /// NVIDIA GPUs: the same mapping, lowered through the gpu and nvvm
  /// dialects to PTX; the runtime loads it with the CUDA driver and launches
  /// the kernels in plan order.
  CUDA,
};

/// "cpu" / "emulate" / "cuda", and back (nullopt for an unknown name).
StringRef stringifyCompileTarget(CompileTarget target);
std::optional<CompileTarget> parseCompileTarget(StringRef name);

/// Everything that changes the compiled code (all of it is part of the plan
/// cache's key, with the targets resolved: cacheKey).
struct CompileOptions {
  CompileTarget target = CompileTarget::CPU;
  /// The CPU the code is for (cpu and emulate): "" or "host" (this
  /// machine), a CPU LLVM knows (znver5, skylake-avx512) or a printed
  /// #uop.target<cpu, ...>.
  std::string cpu;
  /// The GPU (cuda, and the one emulate maps for): "" (sm_90), a chip or a
  /// printed #uop.target<cuda, ...>.
  std::string chip;
  /// CUDA: PTX features instead of the chip's (e.g. "+ptx70"), the LLVM
  /// level of the PTX, and the toolkit whose libdevice is linked ("": found).
  std::string ptxFeatures;
  unsigned ptxOptLevel = 3;
  std::string cudaToolkit;
  /// Who chooses CPU kernels' opts: the seed's hand rules with uop-layout
  /// (the default, as the seed's Tensor defaults to HandOpt), none (the
  /// program as written), or uop-search (timed candidates, see searchOpts).
  /// The emulated GPU and CUDA always use gpu_opt_choice for kernels
  /// without opts.
  OptMode opt = OptMode::Hand;
  /// opt=search: the time bound of one kernel's search, in seconds (the
  /// reference and the hand choice are always timed). Not part of the key.
  double searchSeconds = 60;
  /// opt=search on cuda (GpuSearch.cpp): the directory the candidates of
  /// each kernel without a cached winner are written to as bundles, for
  /// tools/uop-gpu-search.py to time on a GPU machine ("": none). Not part of
  /// the key.
  std::string searchExport;
  /// opt=search on cuda: a results file of that tool, whose winners are
  /// cached (by kernel and target) before the kernels look theirs up ("":
  /// none). Not part of the key.
  std::string searchResults;
  /// uop-kernelize's fuse-reduce: reductions fused into their consumers.
  bool fuseReduce = false;
  /// uop-kernelize's multi-output: elementwise roots of one shape share a
  /// kernel (an optimizer's parameter and moments in one launch).
  bool multiOutput = true;
  /// uop-kernelize's fuse-epilogue: a reduce's elementwise epilogue (a
  /// GEMM's bias and ReLU) in the reduce's kernel. The CPU only: the GPU
  /// targets (cuda, emulate) keep their GEMMs pure for the tensor cores.
  bool fuseEpilogue = true;
  /// Thread ranges run with OpenMP (else serially).
  bool openmp = true;
  /// Run-time checks of the indices and divisors the bounds analysis does
  /// not prove safe (uop-linearize's `checks`); a failed one is the run's
  /// error, at the op's location. Off: `uop-run --unchecked`.
  bool checks = true;
  /// Which code the kernels become: LLVM (the LLVM dialect, PTX through
  /// NVVM for cuda), or the C path: C compiled by clang-22 into the same
  /// shared library (cpu, emulate), CUDA C compiled by nvcc (cuda).
  CodegenPath codegenPath = CodegenPath::LLVM;
  /// Also produce the program's C when compiling by the LLVM path
  /// (CompiledProgram::source; `uop-run --print-c`). Not part of the key.
  bool printC = false;
  CpuCodegenOptions codegen;

  /// A one-line description of the options as given, e.g. "target=cpu
  /// opt=hand fuse-reduce=0 openmp=1 checks=1 O3 cpu=host" (" codegen=c"
  /// after it for the C path).
  std::string str() const;
};

/// Checks what the options allow together: opt=search needs the cpu target
/// and this machine's CPU, or the cuda target (the GPU search through
/// bundles); search-export and search-results need opt=search on cuda;
/// search seconds >= 0, a PTX level of 0-3. Fails
/// with `error`, which names the option as the command line spells it.
/// getCompileOptionsFromCL checks with it; so does any other front end
/// (the Python binding's keywords).
LogicalResult checkCompileOptions(const CompileOptions &options, std::string &error);

/// The machines `options` name, as #uop.target: `cpu` for CPU code (cpu and
/// emulate targets; the host detected where it names none), `gpu` for GPU
/// mapping (cuda and emulate; null for cpu).
struct CompileTargets {
  TargetAttr cpu, gpu;
};

/// Resolves the targets of `options` in `ctx` (the only place the engine
/// detects the host). Fails with `error` on a name no table knows.
FailureOr<CompileTargets> resolveTargets(const CompileOptions &options, MLIRContext *ctx,
                                         std::string &error);

/// str() with the resolved targets printed in full: what caches key by
/// (a plan compiled for one CPU is not another's). "" if they do not resolve.
std::string cacheKey(const CompileOptions &options, MLIRContext *ctx);

/// Sets `pipeline` to the pipeline options `options` stand for, with the
/// resolved `targets` (printed, so the pipeline attaches exactly them).
void setPipelineOptions(const CompileOptions &options, const CompileTargets &targets,
                        UopCpuPipelineOptions &pipeline);
void setPipelineOptions(const CompileOptions &options, const CompileTargets &targets,
                        UopCudaPipelineOptions &pipeline);

/// Registers the compile options on the command line, in the category
/// getCompileOptionsCategory() (a tool shows it with HideUnrelatedOptions):
/// --target (with `withTarget`), --mcpu, --chip, --ptx-features,
/// --ptx-opt-level, --cuda-toolkit, --opt, --search-seconds, --fuse-reduce,
/// --unchecked, --codegen. Call once, before parsing the command line.
void registerCompileCLOptions(bool withTarget = true);
llvm::cl::OptionCategory &getCompileOptionsCategory();

/// The options the command line gave, checked; fails with a message that
/// names the option ("unknown --target 'x' (expected cpu, emulate or
/// cuda)").
FailureOr<CompileOptions> getCompileOptionsFromCL(std::string &error);

} // namespace mlir::uop

#endif // UOP_EXECUTIONENGINE_COMPILEOPTIONS_H
