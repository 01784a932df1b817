//===- Pipelines.h - uop pass pipelines -------------------------*- C++ -*-===//
//
// The registered end-to-end pipelines. They live in their own library so
// that UopTransforms and UopConversion need not link each other.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_PIPELINES_PIPELINES_H
#define UOP_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::uop {

/// Who chooses each kernel's `#uop.opts` (a kernel that has them keeps them).
enum class OptMode { None, Hand };

/// Options of `uop-cpu-pipeline`.
struct UopCpuPipelineOptions : public PassPipelineOptions<UopCpuPipelineOptions> {
  PassOptions::Option<bool> openmp{
      *this, "openmp",
      llvm::cl::desc("Run thread ranges in parallel with OpenMP (else serially)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> fuseReduce{
      *this, "fuse-reduce",
      llvm::cl::desc("uop-kernelize: fuse reductions into their consumers"),
      llvm::cl::init(false)};
  PassOptions::Option<OptMode> opt{
      *this, "opt", llvm::cl::desc("How each kernel is mapped onto the CPU"),
      llvm::cl::init(OptMode::None),
      llvm::cl::values(clEnumValN(OptMode::None, "none", "as the program says (#uop.opts)"),
                       clEnumValN(OptMode::Hand, "hand",
                                  "the seed's hand rules (uop-hand-opt target=cpu)"))};
  PassOptions::Option<bool> hostTempsAsArgs{
      *this, "host-temps-as-args",
      llvm::cl::desc("uop-lower-host: temporaries are host arguments, not allocated in it"),
      llvm::cl::init(false)};
};

/// The stages of the CPU pipeline, for a driver that works between them
/// (the execution engine reads the kernels' opts and work after linearizing):
/// L1 -> kernels + host (uop-kernelize, then uop-hand-opt for opt=hand);
void buildUopKernelizeStage(OpPassManager &pm, const UopCpuPipelineOptions &options);
/// kernels (L1 or L2) -> L3 (uop-rangeify, uop-linearize on each function);
void buildUopLinearizeStage(OpPassManager &pm);
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

/// Registers `uop-cpu-pipeline` (and, with their issues, the other pipelines).
void registerUopPipelines();

} // namespace mlir::uop

#endif // UOP_PIPELINES_PIPELINES_H
