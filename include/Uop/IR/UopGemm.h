//===- UopGemm.h - GEMM-shaped kernels (the seed's match_gemm) --*- C++ -*-===//
//
// Which shaped kernels (L1) are a matrix product: C[m, n] = sum_k A(m, k) *
// B(k, n), a reduce-add over the last axis of the product of two views of
// buffers, the seed's `match_gemm` (uopc/gpu.py). The strategy (uop-hand-opt)
// asks it before choosing tensor cores or staged tiles, and uop-lower-gemm
// asks it again for the buffers and strides it lowers with. It lives in
// UopIR because both sides (UopTransforms, UopConversion) read it.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_IR_UOPGEMM_H
#define UOP_IR_UOPGEMM_H

#include "Uop/IR/UopAttrs.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <array>
#include <optional>

namespace mlir::uop {

/// One operand of a GEMM: element (i, j) of it (A: i = m, j = k; B: i = k,
/// j = n) is element `offset + i * stride[0] + j * stride[1]` of the buffer
/// of `slot`, a buffer of `size` elements of `dtype`.
struct GemmOperand {
  int64_t slot = 0;
  int64_t size = 0;
  Type dtype;
  int64_t offset = 0;
  int64_t stride[2] = {0, 0};
  /// Whether the operand's second index moves by one element (A row-major
  /// M x K, B row-major K x N).
  bool rowMajor() const { return stride[1] == 1; }
  /// Whether its first index moves by one element (A stored K x M, B stored
  /// N x K: B^T row-major).
  bool colMajor() const { return stride[0] == 1; }
};

/// A GEMM-shaped kernel: C[m, n] = sum over k of A(m, k) * B(k, n), the
/// products of `inType` (the operands' type after their casts: f16 or f32),
/// summed in `accType` and the sum cast to `outType`. `exactProducts` says
/// whether each product is computed in `accType` (the operands cast up before
/// the multiply, as a tensor core does) rather than rounded to `inType`
/// first (a multiply in f16 whose product is cast to f32).
struct GemmMatch {
  int64_t m = 0, n = 0, k = 0;
  GemmOperand a, b;
  Type inType, accType, outType;
  bool exactProducts = true;
  /// The buffer slot the kernel's value goes to (the next free one, as
  /// uop-rangeify stores it).
  int64_t outSlot = 0;
};

/// The GEMM `kernel` computes (a shaped kernel, L1, returning one value), if
/// its value is [cast] reduce<add> pop 1 of a product of shape [M, N, K]
/// whose two operands are views of buffers (movement ops, and float casts
/// that only widen) broadcast along different output axes: A along N, B
/// along M (the seed's check that x * x summed over its last axis is no
/// GEMM). The views must be affine in (m, n, k) over the whole product.
std::optional<GemmMatch> matchGemm(func::FuncOp kernel);

/// Why `kernel` is not a GEMM (for diagnostics), "" when matchGemm matches.
std::string explainNotGemm(func::FuncOp kernel);

/// Whether the tensor-core instruction `mma` (of a cuda target's `mma`
/// list; a warp's mma.sync, not the warpgroup's) computes `g`: its operand
/// type is the GEMM's inType and its accumulator the accType (a tensor core
/// computes each product exactly, so a program that rounds its products to
/// f16 before summing them in f32 gets a result more accurate than written,
/// as reassociating the sum gets a different one), the operands'
/// rows contiguous (A row-major; B row-major or B^T row-major), their
/// offsets and row strides multiples of 8 elements (16-byte copies), and
/// M, N, K multiples of the instruction's m, n, k.
bool fitsTensorCore(const GemmMatch &g, MmaAttr mma);

/// Why uop-lower-gemm's staged CUDA-core GEMM (opts `stages` without `tc`)
/// does not take `g`; empty if it does: f32 operands, products and sums,
/// A (M x K) and B (K x N) row-major with rows 16-byte aligned (cp.async
/// copies 16 bytes).
std::string explainNotStagedGemm(const GemmMatch &g);

/// Whether Hopper's warpgroup MMA `mma` (`warpgroup`) fed by TMA computes
/// `g`: its types, M, N, K multiples of the instruction's, A row-major and B
/// row-major K x N (wgmma reads it MN-major) or N x K (B^T, K-major), each
/// operand's start and row stride 16-byte aligned (TMA's global address and
/// strides).
bool fitsWarpgroupMma(const GemmMatch &g, MmaAttr mma);

/// One tensor map of a warpgroup kernel, as its `uop.tma` entry says it
/// (kTensorMapAttrName; a dictionary) and the runtime encodes it
/// (cuTensorMapEncodeTiled): uop-lower-gemm writes it, the execution engine
/// copies it into the plan, uop-emulate-mma copies its boxes.
struct TensorMapSpec {
  int64_t param = 0;                ///< the kernel parameter of the buffer
  Type type;                        ///< its element type
  int64_t offset = 0;               ///< elements before the tensor
  std::array<int64_t, 2> dims = {}; ///< columns, rows (innermost first)
  int64_t stride = 0;               ///< bytes from row to row
  std::array<int64_t, 2> box = {};  ///< a load's columns, rows
  int64_t swizzle = 0;              ///< bytes (128: the 128-byte swizzle)

  DictionaryAttr toAttr(Builder &b) const;
  /// The spec an entry says; nullopt if `a` is not a well-formed one.
  static std::optional<TensorMapSpec> fromAttr(Attribute a);
};

} // namespace mlir::uop

#endif // UOP_IR_UOPGEMM_H
