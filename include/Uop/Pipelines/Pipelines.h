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
  PassOptions::Option<bool> hostTempsAsArgs{
      *this, "host-temps-as-args",
      llvm::cl::desc("uop-lower-host: temporaries are host arguments, not allocated in it"),
      llvm::cl::init(false)};
};

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
