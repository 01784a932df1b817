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

/// The graph's element type of a dtype, and back (the IR layer's mapping,
/// UopDTypes.h, which uop-lower-host uses too).
inline mlir::Type mlirDType(mlir::MLIRContext &ctx, DType d) {
  return mlir::uop::fromRuntimeDType(d, &ctx);
}
inline DType rtDType(mlir::Type t) { return mlir::uop::toRuntimeDType(t).value_or(DType::F32); }

} // namespace detail
} // namespace uop

#endif // UOP_LIB_FRONTEND_GRAPHBUILDER_H
