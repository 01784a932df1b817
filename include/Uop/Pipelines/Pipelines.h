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

/// Options of `uop-cpu-pipeline`.
struct UopCpuPipelineOptions : public PassPipelineOptions<UopCpuPipelineOptions> {
  PassOptions::Option<bool> openmp{
      *this, "openmp", llvm::cl::desc("Run thread ranges in parallel with OpenMP (else serially)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> fuseReduce{
      *this, "fuse-reduce", llvm::cl::desc("uop-kernelize: fuse reductions into their consumers"),
      llvm::cl::init(false)};
  PassOptions::Option<OptMode> opt{
      *this, "opt", llvm::cl::desc("How each kernel is mapped onto the CPU"),
      llvm::cl::init(OptMode::None),
      llvm::cl::values(
          clEnumValN(OptMode::None, "none", "as the program says (#uop.opts), no uop-layout"),
          clEnumValN(OptMode::Hand, "hand",
                     "uop-layout, then the seed's hand rules (uop-hand-opt target=cpu)"),
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
};

/// The stages of the CPU pipeline, for a driver that works between them
/// (the execution engine reads the kernels' opts and work after linearizing):
/// L1 -> kernels + host (uop-kernelize, with uop-layout unless opt=none,
/// then uop-hand-opt for opt=hand; for opt=search the caller chooses the
/// opts: the execution engine runs uop-search here);
void buildUopKernelizeStage(OpPassManager &pm, const UopCpuPipelineOptions &options);
/// kernels (L1 or L2) -> L3 (uop-rangeify, uop-linearize on each function,
/// with run-time checks of what the bounds analysis does not prove);
void buildUopLinearizeStage(OpPassManager &pm, bool checks = true);

/// The linearize stage of --target=emulate: kernels with barriers are
/// linearized as for the GPU and run as CPU loops split at their barriers
/// (uop-emulate-gpu); the others as on the CPU.
void buildUopEmulateLinearizeStage(OpPassManager &pm, bool checks = true);
/// the host's launches -> calls of the L3 kernels (uop-lower-host);
void buildUopHostStage(OpPassManager &pm, const UopCpuPipelineOptions &options);
/// the host and the L3 kernels -> LLVM dialect (cleanup, OpenMP, the
/// upstream conversions).
void buildUopLLVMStage(OpPassManager &pm, const UopCpuPipelineOptions &options);

/// Shaped program (L1) -> kernels + host -> kernel graphs (L2) ->
/// scf/memref (L3) -> LLVM dialect (L4): uop-kernelize, uop-rangeify,
/// uop-linearize, uop-lower-host, cleanup, scf.parallel -> OpenMP, then the
/// upstream conversions to LLVM. Kernels (and the host) take their buffers as
/// bare pointers: kernels in slot order, the host as uop-lower-host says.
void buildUopCpuPipeline(OpPassManager &pm, const UopCpuPipelineOptions &options);

/// Options of `uop-cuda-pipeline`.
struct UopCudaPipelineOptions : public PassPipelineOptions<UopCudaPipelineOptions> {
  PassOptions::Option<std::string> chip{*this, "chip",
                                        llvm::cl::desc("nvvm-attach-target: the GPU architecture"),
                                        llvm::cl::init("sm_90")};
  PassOptions::Option<std::string> features{
      *this, "features", llvm::cl::desc("nvvm-attach-target: target features (PTX version)"),
      llvm::cl::init("+ptx80")};
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level", llvm::cl::desc("nvvm-attach-target: LLVM optimization level (0-3)"),
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
  PassOptions::Option<int64_t> maxThreads{
      *this, "max-threads", llvm::cl::desc("uop-hand-opt target=gpu: threads per block"),
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
};

/// The stages of the CUDA pipeline, for a driver that works between them
/// (the execution engine reads the plan, then the launches, then the PTX):
/// L1 -> kernels + host (uop-kernelize, uop-hand-opt target=gpu for kernels
/// without opts);
void buildUopCudaKernelizeStage(OpPassManager &pm, const UopCudaPipelineOptions &options);
/// kernels (L1 or L2) -> L3 with GPU-mapped parallel loops, workgroup memory
/// and gpu.barrier (uop-rangeify, uop-linearize{gpu=true} on each function);
void buildUopCudaLinearizeStage(OpPassManager &pm, bool checks = true);
/// the host's launches -> calls (uop-lower-host) -> gpu.launch_func of
/// gpu.func kernels in gpu.module @uop_kernels (uop-to-gpu); the launch
/// dimensions are the launch_func's constant grid/block operands;
void buildUopCudaHostStage(OpPassManager &pm, const UopCudaPipelineOptions &options);
/// the gpu.module -> NVVM -> a gpu.binary holding PTX (nvvm-attach-target,
/// convert-gpu-to-nvvm with bare pointers, gpu-module-to-binary{format=isa},
/// linking libdevice from the toolkit when there is one); the host stays at
/// gpu.launch_func.
void buildUopNVVMStage(OpPassManager &pm, const UopCudaPipelineOptions &options);

/// Shaped program (L1) or kernel graph (L2) -> gpu.func kernels, a host of
/// gpu.launch_func ops, and the kernels' PTX in a gpu.binary: the four stages
/// above. Each kernel's PTX entry takes its buffers as bare pointers (one
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
