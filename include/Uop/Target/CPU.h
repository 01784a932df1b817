//===- CPU.h - native code for a CPU target -----------------------*- C++ -*-===//
//
// From an LLVM-dialect module (what uop-cpu-pipeline produces) to a shared
// library the runtime loads: translate to LLVM IR, optimize at -O3 for the
// module's CPU #uop.target (its triple, CPU and features), emit an object,
// link it, and cache the result on disk. This
// library only translates, as mlir-translate --mlir-to-llvmir does: it runs
// no uop pass (the execution engine and the tools compose the pipeline).
//
//===----------------------------------------------------------------------===//

#ifndef UOP_TARGET_CPU_H
#define UOP_TARGET_CPU_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::uop {

/// How CPU code is generated; everything here is part of the cache key.
struct CpuCodegenOptions {
  /// LLVM optimization level (the seed compiles with -O3).
  unsigned optLevel = 3;
  /// Machine code at LLVM's codegen level None (no machine scheduler, fast
  /// register allocation). compileToSharedLibrary sets it for a module with
  /// a block of more than kMaxScheduledBlock ops.
  bool fastCodegen = false;
};

/// The most LLVM-dialect ops in one block that compileToSharedLibrary lets
/// LLVM's machine scheduler at (it is quadratic in a block's length: a
/// 10^6-op block never finished; 20,000 ops take a second).
constexpr size_t kMaxScheduledBlock = 50000;

/// Adds `void uop_entry(void **args)` to an LLVM-dialect module: it calls
/// `kernel` with args[i] as its i-th pointer argument, so the runtime can
/// call any kernel through one signature.
/// `entry` names the wrapper (uop_kernel_NAME for a kernel's own entry).
LogicalResult addPackedEntry(ModuleOp module, StringRef kernel, StringRef entry = "uop_entry");

/// Adds `const char SYMBOL[]` holding `signature` (the plan the library is
/// compiled for: uop::rt::HostPlan::codeSignature) to an LLVM-dialect
/// module; the runtime checks a plan against it on load.
LogicalResult addPlanSignature(ModuleOp module, StringRef symbol, StringRef signature);

/// Translates an LLVM-dialect module to LLVM IR and optimizes it for the
/// target. Returns null after emitting a diagnostic on `module`.
std::unique_ptr<llvm::Module> translateToOptimizedLLVMIR(ModuleOp module, llvm::LLVMContext &ctx,
                                                         const CpuCodegenOptions &options);

/// Compiles an LLVM-dialect module into a shared library, cached under
/// uop::rt::cacheDir() by a hash of the IR, target and flags. Returns the
/// library's path, or failure after a diagnostic.
FailureOr<std::string> compileToSharedLibrary(ModuleOp module, const CpuCodegenOptions &options);

/// The dialect translations an LLVM-dialect module from uop needs (builtin,
/// llvm, omp), for a tool that translates one itself.
void registerCpuTranslations(DialectRegistry &registry);

} // namespace mlir::uop

#endif // UOP_TARGET_CPU_H
