//===- Passes.h - uop transformation passes ----------------------*- C++ -*-===//

#ifndef UOP_TRANSFORMS_PASSES_H
#define UOP_TRANSFORMS_PASSES_H

#include "Uop/IR/UopOps.h"
#include "Uop/IR/UopSymbolic.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/StringMap.h"

#include <string>

namespace mlir::uop {
struct RewriteStats;

/// uop-layout's default unpacked-rows: B rows of contiguous columns at most
/// 256 f32 (1 KiB) apart are read as they are.
constexpr int64_t kDefaultUnpackedRows = 256;

#define GEN_PASS_DECL
#include "Uop/Transforms/Passes.h.inc"

/// Adds the rule that inlines `uop.call`s (the seed's `inline_call`).
void populateInlineCallsPatterns(RewritePatternSet &patterns);

/// Adds the seed's `evaluate` rules: ALU through STACK, INDEX of STACK and of
/// dense constants, movement ops and REDUCE on literals, call inlining. With
/// `symbolic`, `populateSymbolicPatterns` makes the seed's `run`.
void populateEvaluatePatterns(RewritePatternSet &patterns);

/// Inlines one call: its body replaces it, the body's parameters replaced by
/// the call's arguments. Nested calls are moved out unchanged (they are
/// their own scope). Returns the value that replaced the call.
Value inlineCall(RewriterBase &rewriter, CallOp call);

/// Inlines every call in `root`'s regions, outermost first, in one sweep:
/// linear in the number of ops however deep the calls nest (what
/// uop-inline-calls does).
void inlineAllCalls(Operation *root);

/// What the uop-symbolic pass does to `root` (its regions): the symbolic
/// patterns with a bounds cache, through applySeedOrderRewrite. Adds what the
/// driver did to `stats` and how often each rule fired to `ruleCounts` (by
/// getSymbolicRuleNames's names), where given. Failure (with an error on
/// `root`) when it does not converge.
LogicalResult applySymbolic(Operation *root, int64_t maxIterations = 10,
                            RewriteStats *stats = nullptr,
                            llvm::StringMap<int64_t> *ruleCounts = nullptr);

/// Every rule uop-symbolic can fire, under the names applySymbolic counts
/// them by: its patterns (getRuleName), then the folder rules
/// (getFoldRuleNames).
SmallVector<std::string> getSymbolicRuleNames(MLIRContext *context);

/// The distance in memory between view[..., axis] and view[..., axis+1],
/// where the chain of reshape, expand, permute and shrink ops from `view`
/// ends at `base` (exclusive), read as a contiguous row-major buffer; 0 on
/// an axis of size 1 (uop-layout's probe, the seed's `_last_axis_stride`).
int64_t getViewAxisStride(Value view, Value base, int64_t axis);

/// Merges the reduced axes of every reduce in `func` whose operands read them
/// as one strided run of memory into one axis (a reshape of the source):
/// see MergeReduceAxes.cpp. Returns how many reduces were rewritten.
unsigned mergeReducedAxes(func::FuncOp func);

/// Kernelizes every shaped program in `module` (the seed's make_plan): see
/// the uop-kernelize pass.
/// With `layout`, uop-layout runs on each program after detach stripping
/// and stage_broadcast_compute, before the materialization points are
/// chosen (where the seed's HandOpt runs it), packing panels `panel` wide
/// (0: the seed's staging; see layoutProgram).
/// With `multiOutput`, roots computed elementwise share a kernel with the
/// other such roots of their shape (an optimizer's parameter and moments,
/// the updates of same-shaped parameters): one launch stores them all.
/// With `fuseEpilogue`, a reduce read only by elementwise ops of its shape
/// (and reshape chains of unit axes back to it) that end in one point of
/// its shape, in at most 8 ALU ops, is computed in that point's kernel (a
/// GEMM with its bias and ReLU), one reduce a kernel.
struct KernelizeOptions {
  bool fuseReduce = false;
  bool layout = false;
  int64_t panel = 0;
  bool multiOutput = false;
  bool fuseEpilogue = false;
};
LogicalResult kernelizeModule(ModuleOp module, const KernelizeOptions &options = {});

/// The seed's `layout_pass` on one shaped program (see uop-layout): movement
/// ops pushed to the leaves, strided operands broadcast into a reduce staged.
/// With `panel` = W > 1, the broadcast operand of a matmul-shaped reduce
/// (B of A @ B) is staged as panels of W columns ([J/W][K][W]) for the
/// register tile's W lanes instead of being transposed, unless its columns
/// are contiguous and its rows a multiple of W and at most `unpackedRows`
/// elements apart (see uop-layout's unpacked-rows).
/// Returns the number of values staged.
FailureOr<unsigned> layoutProgram(func::FuncOp func, int64_t panel = 0,
                                  int64_t unpackedRows = kDefaultUnpackedRows);

/// The seed's `_reduce_size`: the largest number of elements one reduction
/// of `kernel` folds into one (1 when it reduces nothing).
int64_t getReduceSize(func::FuncOp kernel);

#define GEN_PASS_REGISTRATION
#include "Uop/Transforms/Passes.h.inc"

} // namespace mlir::uop

#endif // UOP_TRANSFORMS_PASSES_H
