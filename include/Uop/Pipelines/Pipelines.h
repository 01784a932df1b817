//===- Pipelines.h - uop pass pipelines -------------------------*- C++ -*-===//
//
// The registered end-to-end pipelines. They live in their own library so
// that UopTransforms and UopConversion need not link each other.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_PIPELINES_PIPELINES_H
#define UOP_PIPELINES_PIPELINES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

#include <optional>
#include <string>

namespace mlir::uop {

/// Who chooses each kernel's `#uop.opts` (a kernel that has them keeps them).
/// Hand and Search also run uop-layout in uop-kernelize (the seed's HandOpt
/// and SearchOpt); None lowers the program as written (the seed's opt=None).
enum class OptMode { None, Hand, Search };

/// "none" / "hand" / "search", and back (nullopt for an unknown name).
StringRef stringifyOptMode(OptMode mode);
std::optional<OptMode> parseOptMode(StringRef name);

/// What the Lower stage makes of the loops (L3): LLVM (the LLVM dialect on
/// the CPU, PTX through NVVM for CUDA), C (the EmitC dialect for C:
/// uop-lanes-to-loops, uop-to-emitc) or CudaC (EmitC for CUDA C). The C
/// paths are the seed's renderers (render_c, CUDARenderer): a second way
/// to the same programs, checked against the first.
enum class CodegenPath { LLVM, C, CudaC };

/// "llvm" / "c" / "cuda-c", and back (nullopt for an unknown name).
StringRef stringifyCodegenPath(CodegenPath path);
std::optional<CodegenPath> parseCodegenPath(StringRef name);

/// The stages every uop pipeline is made of, in order. The registered
/// pipelines run them all; the execution engine runs them one at a time
/// with the same builders, reading the plan, the opts and the launches off
/// the IR between them (and searching opts before the Opts stage).
enum class PipelineStage {
  /// The target is attached (uop-attach-target), calls inlined, the program
  /// cut into kernels and a host (uop-kernelize).
  Kernelize,
  /// Kernels without `#uop.opts` get the strategy's (uop-hand-opt).
  Opts,
  /// Kernels (L1 or L2) -> L3 loops (uop-rangeify, uop-linearize) and the
  /// loop-level codegen passes.
  Linearize,
  /// The host's launches -> calls (uop-lower-host; CUDA: gpu.launch_func).
  Host,
  /// L3 -> LLVM dialect (CPU) or a gpu.binary of PTX (CUDA); with
  /// `codegen=c`/`cuda-c`, L3 -> the EmitC dialect instead.
  Lower,
};

/// The stages in order.
inline constexpr PipelineStage kPipelineStages[] = {
    PipelineStage::Kernelize, PipelineStage::Opts, PipelineStage::Linearize,
    PipelineStage::Host, PipelineStage::Lower};

/// Options of `uop-cpu-pipeline`.
struct UopCpuPipelineOptions : public PassPipelineOptions<UopCpuPipelineOptions> {
  PassOptions::Option<std::string> target{
      *this, "target",
      llvm::cl::desc("The CPU (#uop.target) to compile for: host, a CPU name LLVM knows "
                     "(znver5, skylake-avx512, x86-64-v3) or #uop.target<...>; default: "
                     "the module's own, else the host"),
      llvm::cl::init("")};
  PassOptions::Option<bool> emulateGpu{
      *this, "emulate-gpu",
      llvm::cl::desc("Map kernels as for the GPU (gpu-target's opts, GLOBAL and LOCAL "
                     "ranges) and run them as CPU loops (--target=emulate)"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> gpuTarget{
      *this, "gpu-target",
      llvm::cl::desc("emulate-gpu: the GPU whose mapping is emulated (a chip, sm_90 by "
                     "default, or #uop.target<cuda, ...>)"),
      llvm::cl::init("")};
  PassOptions::Option<bool> openmp{
      *this, "openmp", llvm::cl::desc("Run thread ranges in parallel with OpenMP (else serially)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> fuseReduce{
      *this, "fuse-reduce", llvm::cl::desc("uop-kernelize: fuse reductions into their consumers"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> multiOutput{
      *this, "multi-output",
      llvm::cl::desc("uop-kernelize: elementwise outputs of one shape in one kernel"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> fuseEpilogue{
      *this, "fuse-epilogue",
      llvm::cl::desc("uop-kernelize: a reduce's elementwise epilogue (bias, ReLU) in the "
                     "kernel of the reduce (the CPU only: emulate-gpu leaves it off)"),
      llvm::cl::init(false)};
  PassOptions::Option<OptMode> opt{
      *this, "opt", llvm::cl::desc("How each kernel is mapped onto the CPU"),
      llvm::cl::init(OptMode::None),
      llvm::cl::values(
          clEnumValN(OptMode::None, "none", "as the program says (#uop.opts), no uop-layout"),
          clEnumValN(OptMode::Hand, "hand",
                     "uop-layout, then the seed's hand rules for the target (uop-hand-opt)"),
          clEnumValN(OptMode::Search, "search",
                     "uop-layout; the execution engine times candidate opts (uop-search); "
                     "this pipeline alone, which runs no code, falls back to uop-hand-opt"))};
  PassOptions::Option<bool> hostTempsAsArgs{
      *this, "host-temps-as-args",
      llvm::cl::desc("uop-lower-host: temporaries are host arguments, not allocated in it"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> checks{
      *this, "checks",
      llvm::cl::desc("uop-linearize: check indices and divisors not proven safe at run time "
                     "(in every vector lane)"),
      llvm::cl::init(true)};
  PassOptions::Option<CodegenPath> codegen{
      *this, "codegen", llvm::cl::desc("What the Lower stage makes of the loops"),
      llvm::cl::init(CodegenPath::LLVM),
      llvm::cl::values(
          clEnumValN(CodegenPath::LLVM, "llvm", "the LLVM dialect (default)"),
          clEnumValN(CodegenPath::C, "c",
                     "the EmitC dialect, for C (uop-lanes-to-loops, uop-to-emitc); "
                     "uop-translate --uop-to-c prints it"))};
};

/// Adds `stage` of uop-cpu-pipeline to `pm`.
void buildUopCpuStage(OpPassManager &pm, PipelineStage stage, const UopCpuPipelineOptions &options);

/// Shaped program (L1) -> kernels + host -> kernel graphs (L2) ->
/// scf/memref (L3) -> LLVM dialect (L4): every stage, in order. Kernels (and
/// the host) take their buffers as bare pointers: kernels in slot order, the
/// host as uop-lower-host says.
void buildUopCpuPipeline(OpPassManager &pm, const UopCpuPipelineOptions &options);

/// Options of `uop-cuda-pipeline`.
struct UopCudaPipelineOptions : public PassPipelineOptions<UopCudaPipelineOptions> {
  PassOptions::Option<std::string> target{
      *this, "target",
      llvm::cl::desc("The GPU (#uop.target) to compile for: a chip (sm_80, sm_86, sm_89, "
                     "sm_90, sm_90a) or #uop.target<cuda, ...>; default: the module's own, "
                     "else sm_90"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX features instead of the target's (e.g. +ptx70)"), llvm::cl::init("")};
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level", llvm::cl::desc("LLVM optimization level of the PTX (0-3)"),
      llvm::cl::init(3)};
  PassOptions::Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("The CUDA toolkit whose libdevice provides the math functions "
                     "(exp2, log2, sin, ...); default: $CUDA_ROOT, $CUDA_HOME, $CUDA_PATH "
                     "or /usr/local/cuda, the first that has nvvm/libdevice"),
      llvm::cl::init("")};
  PassOptions::Option<bool> fuseReduce{
      *this, "fuse-reduce", llvm::cl::desc("uop-kernelize: fuse reductions into their consumers"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> multiOutput{
      *this, "multi-output",
      llvm::cl::desc("uop-kernelize: elementwise outputs of one shape in one kernel"),
      llvm::cl::init(false)};
  PassOptions::Option<int64_t> maxThreads{
      *this, "max-threads", llvm::cl::desc("uop-hand-opt: threads per block it fills"),
      llvm::cl::init(256)};
  PassOptions::Option<bool> hostTempsAsArgs{
      *this, "host-temps-as-args",
      llvm::cl::desc("uop-lower-host and uop-to-gpu: temporaries (and global scratch "
                     "buffers) are host arguments (the runtime allocates them), not "
                     "allocated in it"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> checks{
      *this, "checks",
      llvm::cl::desc("uop-linearize: check indices and divisors not proven safe at run time"),
      llvm::cl::init(true)};
  PassOptions::Option<CodegenPath> codegen{
      *this, "codegen", llvm::cl::desc("What the Lower stage makes of the kernels"),
      llvm::cl::init(CodegenPath::LLVM),
      llvm::cl::values(
          clEnumValN(CodegenPath::LLVM, "llvm", "PTX through NVVM, in a gpu.binary (default)"),
          clEnumValN(CodegenPath::CudaC, "cuda-c",
                     "the EmitC dialect, for CUDA C (uop-to-emitc{cuda}); uop-translate "
                     "--uop-to-cuda prints it"))};
};

/// Adds `stage` of uop-cuda-pipeline to `pm`. Host: the launches become
/// gpu.launch_func of gpu.func kernels in gpu.module @uop_kernels
/// (uop-to-gpu), their dimensions constant grid/block operands; Lower: the
/// gpu.module -> NVVM -> a gpu.binary holding PTX (uop-attach-nvvm-target,
/// convert-gpu-to-nvvm with bare pointers, gpu-module-to-binary{format=isa},
/// linking libdevice from the toolkit when there is one); the host stays at
/// gpu.launch_func.
void buildUopCudaStage(OpPassManager &pm, PipelineStage stage,
                       const UopCudaPipelineOptions &options);

/// Shaped program (L1) or kernel graph (L2) -> gpu.func kernels, a host of
/// gpu.launch_func ops, and the kernels' PTX in a gpu.binary: every stage.
/// Each kernel's PTX entry takes its buffers as bare pointers (one
/// `.param .u64` each), in the order of its gpu.launch_func's operands.
void buildUopCudaPipeline(OpPassManager &pm, const UopCudaPipelineOptions &options);

/// The PTX text of the gpu.binary `name` (uop-to-gpu's `uop_kernels`) that
/// uop-cuda-pipeline left in `module`: one `.entry` per kernel. Fails with a
/// diagnostic if there is no such binary, it does not hold PTX, or the PTX
/// calls a libdevice function that was not linked (no CUDA toolkit found).
FailureOr<std::string> getPTX(ModuleOp module, StringRef name = "uop_kernels");

/// Registers what uop-cuda-pipeline needs in a context besides its passes:
/// the gpu and nvvm dialects, the NVVM target (#nvvm.target's serialization,
/// used by gpu-module-to-binary) and the translations to LLVM IR.
void registerUopCudaTarget(DialectRegistry &registry);

/// Registers `uop-cpu-pipeline` and `uop-cuda-pipeline`.
void registerUopPipelines();

} // namespace mlir::uop

#endif // UOP_PIPELINES_PIPELINES_H
