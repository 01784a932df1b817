//===- GemmLowering.h - What uop-lower-gemm's kernels share -------*- C++ -*-===//
//
// Private to lib/Conversion: the kernel skeleton
// (signature, grid of blocks, block of threads) that each GEMM lowering of
// uop-lower-gemm (tensor cores in LowerGemm.cpp, CUDA cores in
// LowerGemmSimt.cpp) writes the same way.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_LIB_CONVERSION_GEMMLOWERING_H
#define UOP_LIB_CONVERSION_GEMMLOWERING_H

#include "Uop/Codegen/IndexArith.h"
#include "Uop/IR/UopGemm.h"
#include "Uop/IR/UopOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"

namespace mlir::uop::gemm {

/// Triton's GROUP_M: block rows numbered together.
constexpr int64_t kGroupRows = 8;

/// The value of `axis` in an opts axis map (pairs axis, value), or `dflt`.
inline int64_t lookupAxis(ArrayRef<int64_t> pairs, int64_t axis, int64_t dflt) {
  for (size_t i = 0; i + 1 < pairs.size(); i += 2)
    if (pairs[i] == axis)
      return pairs[i + 1];
  return dflt;
}

/// The frame of a GEMM kernel as uop-linearize{gpu=true} would make it: a
/// buffer argument per slot (in slot order, C in the next one), a GLOBAL
/// loop over blocks numbered in groups of kGroupRows block rows, a LOCAL
/// loop over a block's threads. Use: begin(), allocate shared memory,
/// enterBlocks(), enterThreads(), write the body, finish().
class GemmKernelFrame {
public:
  GemmKernelFrame(func::FuncOp kernel, const GemmMatch &g, OpBuilder &b)
      : kernel(kernel), g(g), b(b), loc(kernel.getLoc()), ix(b, loc) {}

  /// The new entry block with the buffer arguments; the builder is left
  /// before its return.
  void begin();
  /// A buffer of `elems` elements of `type` in workgroup memory, 128-byte
  /// aligned (call between begin() and enterBlocks()).
  Value shared(int64_t elems, Type type);
  /// The loop over gridM x gridN blocks of bm x bn; sets rowA0 and colB0.
  void enterBlocks(int64_t gridM, int64_t gridN, int64_t bm, int64_t bn);
  /// The loop over a block's `threads`; returns the thread index.
  Value enterThreads(int64_t threads);
  /// Drops the shaped graph; the kernel takes its buffers.
  void finish();

  Value memA, memB, memC;
  /// The first row (of A and C) and column (of B and C) of the block's tile.
  Value rowA0, colB0;

private:
  Value gpuLoop(int64_t n, gpu::Processor proc, AxisKind kind);

  func::FuncOp kernel;
  const GemmMatch &g;
  OpBuilder &b;
  Location loc;
  Ix ix;
  Block *old = nullptr;
  SmallVector<Type> argTypes;
  SmallVector<int64_t> slotList;
};

/// Lowers `kernel`, a GEMM with opts `stages` and no `tc`, to the staged
/// CUDA-core kernel (LowerGemmSimt.cpp); an error at the kernel otherwise.
LogicalResult lowerSimtGemm(func::FuncOp kernel, OptsAttr opts);

/// The main loop of a multi-stage GEMM over `steps` steps along K with
/// `stages` shared-memory buffers filled by cp.async: a prologue puts the
/// first `stages - 1` steps in flight; each step issues the copies of the
/// step `stages - 1` ahead into the buffer the last step used (every thread
/// is past it: the barrier ending that step), computes on its own buffer,
/// waits for the next step's group and meets the block at a barrier. Past
/// the last step the copies move no bytes (cp.async's zero fill, `valid`
/// false) from a step that exists, as Triton masks its loads: one commit
/// group every step, so the waits count alike. `issue(step, stage, valid)`
/// returns the copies' tokens (`valid` null: all bytes).
void emitStagedLoop(OpBuilder &b, Location loc, int64_t steps, int64_t stages,
                    function_ref<SmallVector<Value>(Value, Value, Value)> issue,
                    function_ref<void(Value)> compute);

/// uop-lower-gemm for a `tc` with `warpgroup`: Hopper's wgmma fed by TMA
/// (LowerGemmWarpgroup.cpp). An error at the kernel when the opts cannot be
/// applied.
LogicalResult lowerWarpgroupGemm(func::FuncOp kernel, OptsAttr opts);

} // namespace mlir::uop::gemm

#endif // UOP_LIB_CONVERSION_GEMMLOWERING_H
