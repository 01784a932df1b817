//===- LoopAccess.h - buffer loads and their indices in loops ----*- C++ -*-===//
//
// What uop-prefetch and uop-prefetch-next ask of a linearized kernel's
// loads: which kernel buffer a load reads, and its index as an affine
// function of some loops' induction variables.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_LIB_CODEGEN_LOOPACCESS_H
#define UOP_LIB_CODEGEN_LOOPACCESS_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <map>
#include <optional>

namespace mlir::uop {

/// An index as `sum(coefs[i] * ivs[i]) + sum(terms) + cst`, the terms
/// values defined outside the analysed scope (by their opaque pointers, so
/// that equal forms compare equal) with their multipliers.
struct LinearIndex {
  SmallVector<int64_t> coefs;
  std::map<const void *, int64_t> terms;
  int64_t cst = 0;

  void add(const LinearIndex &o, int64_t scale);
  /// Everything but the constant: what tells the rows of a buffer apart.
  SmallVector<std::pair<const void *, int64_t>> key() const;
};

/// The linear form of `v` in `ivs` (induction variables of `scope` or of
/// loops inside it), or nullopt when `v` is not an affine function of them
/// (a load, a division, ...). Values defined outside `scope` are terms;
/// index math inside it is decomposed through casts, adds, subs and
/// multiplications by constants (linearize's index math has nsw flags, so
/// widening keeps the form).
std::optional<LinearIndex> linearIndexIn(Value v, ArrayRef<Value> ivs, Operation *scope);

/// Whether `loop`'s body holds no loop (scf.for, scf.parallel, scf.while).
bool isInnermost(scf::ForOp loop);

/// A load of a kernel buffer (a function argument): its buffer, its single
/// index, how many elements it reads.
struct BufferLoad {
  Operation *op;
  Value memref, index;
  int64_t width;
  /// Bytes of one element.
  int64_t elemBytes() const;
};

/// `op` as a BufferLoad: a memref.load or 1-D vector.load with one index
/// of a kernel buffer (workgroup and private memory is near already).
std::optional<BufferLoad> asBufferLoad(Operation *op);

} // namespace mlir::uop

#endif // UOP_LIB_CODEGEN_LOOPACCESS_H
