//===- GraphBuilder.h - how the op families build graph ops ------*- C++ -*-===//
//
// Private to lib/Frontend: the GraphBuilder every operation appends its ops
// with (verified and hash-consed when it finishes), and the argument checks
// and dtype conversions the op families share.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_LIB_FRONTEND_GRAPHBUILDER_H
#define UOP_LIB_FRONTEND_GRAPHBUILDER_H

#include "TensorImpl.h"

#include "Uop/IR/UopDTypes.h"
#include "Uop/IR/UopOps.h"

#include "mlir/IR/Builders.h"

#include <initializer_list>

namespace uop {
namespace detail {

/// Builds ops at the end of a context's graph block, then checks each new op
/// with its verifier and hash-conses it.
struct GraphBuilder {
  TensorContext *ctx;
  TensorContext::Impl &c;
  /// Inserts at the end of the graph block.
  mlir::OpBuilder b;
  mlir::Location loc;
  /// The graph's last op when this builder started (null: none), after
  /// which its fresh ops begin.
  mlir::Operation *before;

  explicit GraphBuilder(TensorContext *ctx)
      : ctx(ctx), c(ctx->impl()), b(&c.mlir), loc(mlir::UnknownLoc::get(&c.mlir)) {
    b.setInsertionPointToEnd(c.graph);
    before = c.graph->empty() ? nullptr : &c.graph->back();
    c.takeDiagnostics();
    ++c.building;
  }
  ~GraphBuilder() { --c.building; }
  GraphBuilder(const GraphBuilder &) = delete;
  GraphBuilder &operator=(const GraphBuilder &) = delete;

  /// The ops built since construction, in build order.
  llvm::SmallVector<mlir::Operation *> freshOps() const;

  /// Verifies and hash-conses the ops built since construction, updating
  /// `results` to the consed values; on an op that does not verify, erases
  /// them all and returns the error.
  std::optional<std::string> consFresh(llvm::MutableArrayRef<mlir::Value> results);

  /// Erases the ops built since construction (a failed build).
  void eraseFresh();

  /// A node standing for `v`, keeping `srcs` alive.
  std::shared_ptr<TensorNode> node(mlir::Value v,
                                   std::vector<std::shared_ptr<const TensorNode>> srcs);

  /// Verifies and hash-conses the ops built since construction; `result`
  /// becomes a node over `srcs`, or the error tensor of the first op that
  /// does not verify.
  Tensor finish(mlir::Value result, std::vector<std::shared_ptr<const TensorNode>> srcs);

  /// UOp.const(v, dtype).
  mlir::Value constant(Scalar v, mlir::Type dtype);
  mlir::Value reshape(mlir::Value x, llvm::ArrayRef<int64_t> shape) {
    return mlir::uop::ReshapeOp::create(b, loc, x, b.getDenseI64ArrayAttr(shape));
  }
  mlir::Value expand(mlir::Value x, llvm::ArrayRef<int64_t> shape) {
    return mlir::uop::ExpandOp::create(b, loc, x, b.getDenseI64ArrayAttr(shape));
  }
};

/// The node an operation on `t` keeps alive (`t` must be ok).
inline std::shared_ptr<const TensorNode> sharedNode(const Tensor &t) { return t.holder()->node; }

/// The first error among `ts`, or the error of mixing contexts; nullopt when
/// all are ok tensors of one context.
std::optional<Tensor> firstError(std::initializer_list<const Tensor *> ts);

/// Normalizes axis `a` of a rank-`n` tensor (Python's negative indexing);
/// nullopt when out of range.
inline std::optional<int64_t> normAxis(int64_t a, int64_t n) {
  if (a < -n || a >= n)
    return std::nullopt;
  return a < 0 ? a + n : a;
}

/// "<op>: axis <a> is out of range for shape <shape>".
inline std::string axisError(const char *op, int64_t a, const Shape &shape) {
  return std::string(op) + ": axis " + std::to_string(a) + " is out of range for shape " +
         shapeStr(shape);
}

inline bool isFloat(DType d) { return d == DType::F16 || d == DType::F32; }

/// tinygrad's least_upper_dtype of two tensors: bool < i32 < f16 < f32.
inline DType promoteTypes(DType a, DType b) {
  auto rank = [](DType d) {
    switch (d) {
    case DType::Bool:
      return 0;
    case DType::I32:
      return 1;
    case DType::F16:
      return 2;
    case DType::F32:
      return 3;
    }
    return 3;
  };
  return rank(a) >= rank(b) ? a : b;
}

/// The dtype of a tensor of dtype `t` in an operation with the host scalar
/// `x` (tinygrad's weak scalars): a float makes a non-float tensor f32, an
/// int makes a bool tensor i32, otherwise the tensor's dtype.
inline DType scalarPromote(DType t, Scalar x) {
  if (x.isFloat() && !isFloat(t))
    return DType::F32;
  if (x.kind == Scalar::Kind::Int && t == DType::Bool)
    return DType::I32;
  return t;
}

/// The dtype two host scalars make together (a where of two scalars):
/// f32 with a float, else i32, or bool when both are.
inline DType scalarsDType(Scalar a, Scalar b) {
  if (a.isFloat() || b.isFloat())
    return DType::F32;
  if (a.kind == Scalar::Kind::Bool && b.kind == Scalar::Kind::Bool)
    return DType::Bool;
  return DType::I32;
}

/// A 0-d constant `x` of dtype `d` in t's context (t must be ok).
inline Tensor scalarOf(const Tensor &t, Scalar x, DType d) {
  return Tensor::full({}, x, d, *t.context());
}

/// Normalizes axis `a` of a rank-`n` tensor, taking 0 and -1 for a 0-d
/// tensor as PyTorch does (then 0); nullopt when out of range.
inline std::optional<int64_t> normAxis0(int64_t a, int64_t n) {
  if (n == 0)
    return a == 0 || a == -1 ? std::optional<int64_t>(0) : std::nullopt;
  return normAxis(a, n);
}

/// i32 data in t's context that depends on nothing but `values` (a TinyJit
/// may replay it as captured, as arange's).
Tensor constantInts(TensorContext &ctx, const std::vector<int32_t> &values, const Shape &shape);

/// where(c, f(where(c, x, safe)), 0 ...): `f` applied to x where `c` holds
/// and to `safe` elsewhere, so that a branch a where does not take computes
/// (and differentiates) no inf or NaN.
inline Tensor onlyWhere(const Tensor &c, const Tensor &x, Scalar safe) {
  return c.where(x, safe);
}

/// The graph's element type of a dtype, and back (the IR layer's mapping,
/// UopDTypes.h, which uop-lower-host uses too).
inline mlir::Type mlirDType(mlir::MLIRContext &ctx, DType d) {
  return mlir::uop::fromRuntimeDType(d, &ctx);
}
inline DType rtDType(mlir::Type t) { return mlir::uop::toRuntimeDType(t).value_or(DType::F32); }

} // namespace detail
} // namespace uop

#endif // UOP_LIB_FRONTEND_GRAPHBUILDER_H
