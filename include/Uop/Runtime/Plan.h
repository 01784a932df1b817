//===- Plan.h - a compiled program's host plan, as data ----------*- C++ -*-===//
//
// What a runtime needs to run a compiled uop program, with no MLIR: the
// buffers the program's entry point takes (input slots, outputs,
// temporaries), which of them hold the program's values and with what shape,
// and the kernels it launches with their work. The execution engine fills it
// in when it compiles a program; the plan cache and bundles keep it as text
// (serialize/parse), so that a process with no compiler can run the program.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_RUNTIME_PLAN_H
#define UOP_RUNTIME_PLAN_H

#include "Uop/Runtime/Buffer.h"
#include "Uop/Runtime/Result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace uop::rt {

/// One buffer argument of a compiled program's entry point.
struct PlanArg {
  /// Check: the run-time check record of one kernel (kCheckRecordSize i32:
  /// failures, check id + 1, value, bound), which the runtime owns as it owns
  /// temporaries, zeroes before each run and reads after it.
  enum Kind : int { Input = 0, Output = 1, Temp = 2, Check = 3 };
  Kind kind;
  /// The buffer slot it binds: inputs of a shaped program and every argument
  /// of an in-place program; -1 for outputs and temporaries; the kernel
  /// (index into HostPlan::kernels) of a check record.
  int64_t slot;
  DType dtype;
  int64_t numel; ///< elements (at least 1)
  /// In-place programs: whether the program loads from / stores to the slot.
  bool read = true, written = false;
  /// Whether the runtime allocates it (temporaries and check records), rather
  /// than the caller passing it.
  bool owned() const { return kind == Temp || kind == Check; }
};

/// The i32 words of a kernel's check record: [0] how many checks failed
/// (atomically incremented; the first one writes the rest), [1] the failing
/// check's id + 1 (0: none), [2] the value, [3] the bound it broke.
constexpr int64_t kCheckRecordSize = 4;

/// One run-time check of a kernel (uop-linearize inserts one where the bounds
/// analysis cannot prove an index or divisor safe): what it checks ("index",
/// "div-zero", "mod-zero", "div-overflow", "mod-overflow") and the source
/// location of the op it guards ("file:line:col").
struct PlanCheck {
  std::string kind;
  std::string loc;
};

/// The diagnostic of a failed check: "LOC: error: WHAT (value V, bound B)".
std::string formatCheckFailure(const PlanCheck &check, int64_t value, int64_t bound);

/// Whether an error message is already a located diagnostic ("LOC: error:
/// ...", a failed check), which a tool prints as it is, without its prefix.
inline bool isLocatedError(const std::string &msg) {
  return msg.find(": error: ") != std::string::npos;
}

/// One value of a shaped program: the argument that holds it (an input when
/// the value is a contiguous input buffer, aliased) and its shape.
struct PlanValue {
  unsigned arg;
  std::vector<int64_t> shape;
};

/// A tensor map (CUtensorMap) a kernel takes after its launch's buffers:
/// uop-lower-gemm's warpgroup kernels read their operands through TMA. The
/// runtime encodes it (cuTensorMapEncodeTiled) for the buffer bound to
/// kernel parameter `param`, once per binding, and passes device memory
/// holding it. A 2-D tiled map: `dims` and `box` innermost first, `stride`
/// the bytes between rows, the map starting `offset` elements into the
/// buffer, `swizzle` bytes (0, 32, 64 or 128), out-of-bounds elements zero.
struct PlanTensorMap {
  unsigned param = 0;
  DType dtype = DType::F16;
  int64_t offset = 0;
  int64_t dims[2] = {1, 1};
  int64_t stride = 0;
  int64_t box[2] = {1, 1};
  int64_t swizzle = 0;
};

/// One distinct kernel: how often a run launches it and what one launch does.
struct PlanKernel {
  std::string name;
  unsigned launches = 1;
  double flops = 0; ///< floating-point ops of one launch (+ - * / of floats, by trip count)
  double bytes = 0; ///< bytes of the buffers one launch reads and writes
  std::string opts; ///< the #uop.opts it was lowered with, as printed ("" for none)
  /// Its run-time checks, by id (the kernel's check record says which failed).
  std::vector<PlanCheck> checks;
  /// The tensor maps it takes after its launch's buffers, in order.
  std::vector<PlanTensorMap> tensorMaps;
};

/// One kernel launch of a run, in order: which kernel, the plan arguments
/// bound to its parameters (in the kernel's parameter order), and its launch
/// dimensions (x, y, z; all 1 for a CPU kernel). A runtime that launches
/// kernels itself (CUDA) follows these; a CPU host function does the same
/// calls in compiled code.
struct PlanLaunch {
  unsigned kernel; ///< index into HostPlan::kernels
  std::vector<unsigned> args;
  int64_t grid[3] = {1, 1, 1};
  int64_t block[3] = {1, 1, 1};
  /// Bytes of dynamic shared memory a block gets (0: none; the plan's text
  /// says `shared N` after the block only when it is not 0).
  int64_t shared = 0;
};

/// The calling convention and contents of a compiled program.
struct HostPlan {
  /// Shaped: the entry takes inputs, outputs then temporaries (args order)
  /// and computes values. InPlace: a kernel-level program; the entry takes
  /// every slot's buffer in slot order and reads and writes them in place.
  enum Form : int { Shaped = 0, InPlace = 1 } form = Shaped;
  std::vector<PlanArg> args;
  std::vector<PlanValue> values;
  std::vector<PlanKernel> kernels;
  std::vector<PlanLaunch> launches;
  unsigned numLaunches = 0;

  /// The slots an input must be given for: a shaped program's input slots,
  /// an in-place program's slots it reads.
  std::vector<int64_t> inputSlots() const;
  /// The argument binding `slot`, or -1.
  int64_t argOfSlot(int64_t slot) const;
  /// Work of one run: every kernel's flops/bytes times its launches.
  double flops() const;
  double bytes() const;

  /// After a run: the diagnostic of the first failed check, reading each
  /// check record argument `i` through `record(i)` (kCheckRecordSize words),
  /// or "" when every check passed.
  template <typename F> std::string checkFailure(F &&record) const {
    for (size_t i = 0; i < args.size(); ++i) {
      if (args[i].kind != PlanArg::Check)
        continue;
      const int32_t *r = record(i);
      if (std::string msg = checkFailure(static_cast<size_t>(args[i].slot), r); !msg.empty())
        return msg;
    }
    return "";
  }
  /// The diagnostic of kernel `kernel`'s check record `r`, or "".
  std::string checkFailure(size_t kernel, const int32_t *r) const;

  /// The plan as text, and back. parse() checks every line (a truncated or
  /// foreign text is an error naming the line).
  std::string serialize() const;
  static Result<HostPlan> parse(const std::string &text);

  /// What the compiled code takes for granted of its plan, on one line: the
  /// form, each argument's kind, dtype and elements, each launch's kernel,
  /// arguments, grid, block and shared memory. The compiler puts it into
  /// the code it makes (kPlanSignatureSymbol in a CPU library, a
  /// kPlanSignatureComment line in PTX); a plan that says otherwise (a
  /// bundle whose plan was edited: an output smaller than its kernel
  /// writes, another grid) would let the code run past its buffers.
  std::string codeSignature() const;
  /// Checks the plan against `code`, the signature its code carries: an
  /// error naming the first difference ("" is no signature: code uop did
  /// not make, taken as it is).
  Result<bool> checkCodeSignature(const std::string &code) const;
};

/// The CPU library's symbol that holds its plan's signature (a C string).
constexpr const char *kPlanSignatureSymbol = "uop_plan_signature";
/// The PTX comment that holds its plan's signature, to the end of its line.
constexpr const char *kPlanSignatureComment = "// uop-plan: ";
/// The signature a PTX text carries ("" if none).
std::string ptxPlanSignature(const std::string &ptx);

} // namespace uop::rt

#endif // UOP_RUNTIME_PLAN_H
