//===- C.h - C and CUDA C from the EmitC dialect ----------------*- C++ -*-===//
//
// The C path's target: an EmitC module (what `uop-cpu-pipeline{codegen=c}`
// and `uop-cuda-pipeline{codegen=cuda-c}` make) printed by MLIR's C/C++
// emitter, and compiled: C by clang-22 (else the system cc) into a shared
// library of the same shape as the LLVM path's (`uop_entry(void **)`,
// `uop_kernel_NAME`), cached; CUDA C by nvcc into PTX and a cubin. Like the
// CPU target, it only translates and compiles: the execution engine and
// the tools compose the pipeline.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_TARGET_C_H
#define UOP_TARGET_C_H

#include "Uop/IR/UopTarget.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir {
class DialectRegistry;

namespace uop {

/// Prints an EmitC module as C or CUDA C (emitc::translateToCpp), after a
/// `/* ... */` comment holding `header` (e.g. the plan) if it is not empty.
LogicalResult translateToC(ModuleOp module, raw_ostream &os, StringRef header = "");

/// Adds `void entry(void **args)` to an EmitC module: it calls `function`
/// with args[i] as its i-th parameter, the runtime's calling convention
/// (the LLVM path's addPackedEntry).
LogicalResult addPackedCEntry(ModuleOp module, StringRef function, StringRef entry = "uop_entry");

/// The C compiler of the C path: clang-22, else clang, else cc ("" if
/// none).
std::string findCCompiler();

/// The most operations in one block of an EmitC module, those of the
/// expressions in it included: how long the longest straight-line C is.
size_t largestCBlock(ModuleOp module);

/// Compiles the C translation unit `source` into a shared library for the
/// CPU `target` (its CPU and features) at -O`optLevel` (-O0 with
/// `fastCodegen`: a compiler's instruction scheduler is quadratic in the
/// length of a block, as for the LLVM path's kMaxScheduledBlock), with
/// OpenMP where the source uses it, cached under uop::rt::cacheDir() by a
/// hash of the source, the compiler and its flags. Returns the library's
/// path, or failure after a diagnostic at `loc` with the compiler's
/// messages.
FailureOr<std::string> compileCToSharedLibrary(StringRef source, TargetAttr target,
                                               unsigned optLevel, bool fastCodegen, Location loc);

/// The nvcc of `toolkit` ("": $CUDA_ROOT, $CUDA_HOME, $CUDA_PATH, then
/// /usr/local/cuda, then the PATH), "" if none.
std::string findNvcc(StringRef toolkit = "");

/// CUDA C compiled for one chip.
struct CudaBinary {
  std::string ptx;   ///< nvcc -ptx: every kernel's `.entry`
  std::string cubin; ///< ptxas of that PTX for the chip
};

/// Compiles the CUDA C translation unit `source` with nvcc (-arch = the
/// CUDA `target`'s chip, -O3) into PTX and a cubin, cached like C
/// libraries. Failure after a diagnostic at `loc`.
FailureOr<CudaBinary> compileCudaC(StringRef source, TargetAttr target, StringRef toolkit,
                                   Location loc);

/// Registers what printing an EmitC module needs in a context.
void registerCTranslation(DialectRegistry &registry);

} // namespace uop
} // namespace mlir

#endif // UOP_TARGET_C_H
