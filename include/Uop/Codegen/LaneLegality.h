//===- LaneLegality.h - which loops may become vector lanes -----*- C++ -*-===//
//
// The analysis behind `#uop.opts<vector = W>`: which serial loops of a
// scheduled kernel graph uop-linearize may unroll by W and jam into their
// inner loops as W vector lanes, keeping what every iteration reads and
// writes. It reads only the uop graph, the schedule's order and the loops
// each op sits in (no emitter state), so that it can live beside the other
// loop-access analyses.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_CODEGEN_LANELEGALITY_H
#define UOP_CODEGEN_LANELEGALITY_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::uop {

/// The loops (`uop.range` ops) an op of a scheduled kernel graph sits in,
/// outermost first.
using LoopsOfFn = function_ref<ArrayRef<Operation *>(Operation *)>;

/// The loops of the scheduled kernel graph `order` (each op's loops given by
/// `loopsOf`) that become `width` vector lanes, each mapped to `width`:
/// serial loops directly around an innermost loop with a float load inside
/// that has stride 1 in the outer loop and another stride in the inner one,
/// whose trip count is a multiple of `width`, and whose stores and loads
/// stay correct when the lanes run side by side. Empty when `width` <= 1.
DenseMap<Operation *, int64_t> findOuterVectorization(ArrayRef<Operation *> order,
                                                      LoopsOfFn loopsOf, int64_t width);

/// The `uop.buffer` or `uop.alloc` that the memory op `op` (a buffer, an
/// alloc, or an `uop.after` or `uop.index` of one) names; null if none.
Operation *rootMemory(Operation *op);

} // namespace mlir::uop

#endif // UOP_CODEGEN_LANELEGALITY_H
