//===- UopTarget.h - the machine a module is compiled for -------*- C++ -*-===//
//
// `#uop.target` (UopAttrs.td) describes the machine; this header finds it on
// a module and makes one: by name (a CPU LLVM knows, a CUDA chip), from its
// printed form, or by detecting the host. Strategy passes and lowerings only
// read the attached attribute (getTarget); detectHostTarget is the one place
// that asks the machine uop runs on, and only drivers call it (the execution
// engine, the tools and uop-attach-target when the user names no target).
//
//===----------------------------------------------------------------------===//

#ifndef UOP_IR_UOPTARGET_H
#define UOP_IR_UOPTARGET_H

#include "Uop/IR/UopAttrs.h"

#include "mlir/IR/Operation.h"

#include <string>

namespace mlir::uop {

/// The module attribute that holds a `#uop.target`.
inline constexpr llvm::StringLiteral kTargetAttrName = "uop.target";

/// The target `op` is compiled for: the `uop.target` of `op` or of its
/// nearest ancestor that has one; null if none does.
TargetAttr getTarget(Operation *op);

/// getTarget(op) if it is a target of `kind`, else the default of `kind`
/// (getDefaultTarget): what a pass run on its own, with no target attached,
/// compiles for.
TargetAttr getTargetOrDefault(Operation *op, TargetKind kind);

/// Attaches `target` to `op` (a module) as `uop.target`.
void setTarget(Operation *op, TargetAttr target);

/// The target a pass assumes when none is attached. CPU: a portable x86-64
/// (SSE2) for which no register tiles are sized (vector_bits = 0); CUDA:
/// sm_90 (an H100/H200).
TargetAttr getDefaultTarget(MLIRContext *ctx, TargetKind kind);

/// An x86 CPU by LLVM's name (`znver5`, `skylake-avx512`, `x86-64-v3`):
/// its features from LLVM's table, so it needs no such machine. Cache sizes
/// and threads are unknown (0) but the 64-byte line. Fails with `error` on
/// a name LLVM does not know.
FailureOr<TargetAttr> getCpuTarget(MLIRContext *ctx, StringRef cpu, std::string &error);

/// A CUDA chip (`sm_80`, `sm_86`, `sm_89`, `sm_90`, `sm_90a`) with its
/// limits and tensor-core shapes. Fails with `error` on another name.
FailureOr<TargetAttr> getCudaTarget(MLIRContext *ctx, StringRef chip, std::string &error);

/// A target as a tool or pipeline option spells it: "" or "host" (the
/// host's CPU for `kind` cpu, the default chip for cuda), a CPU name, a chip
/// name (`sm_*`) or a printed `#uop.target<...>`. Fails with `error`.
FailureOr<TargetAttr> parseTarget(MLIRContext *ctx, StringRef spec, TargetKind kind,
                                  std::string &error);

/// The CPU this process runs on: LLVM's triple, CPU name and features, the
/// vector unit the features imply, the caches (Linux sysfs) and the hardware
/// threads. The only function in uop that reads the host. The environment
/// variable UOP_HOST_CPU=NAME replaces the host by the named CPU
/// (getCpuTarget), which tests use to play another machine.
TargetAttr detectHostTarget(MLIRContext *ctx);

/// A short name of `target` for tables and logs: "cpu znver5 (512-bit
/// vectors, 2 threads)" or "cuda sm_90".
std::string describeTarget(TargetAttr target);

} // namespace mlir::uop

#endif // UOP_IR_UOPTARGET_H
