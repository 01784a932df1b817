//===- TensorImpl.h - the frontend's internals --------------------*- C++ -*-===//
//
// Private to lib/Frontend (Tensor.cpp now; autodiff and nn later): the
// nodes behind a Tensor handle and the context's state.
//
// A TensorNode is immutable: a graph value plus what keeps that value's data
// alive (the nodes it was built from, or the buffer it owns). A
// TensorHolder is what a Tensor handle (and its copies) points at: the node
// it stands for now, and the node it was realized from (the seed's
// `_graph`). Realizing or assigning rebinds the holder; nodes are shared by
// the holders that were built from them, so a graph keeps its buffers alive
// exactly as long as something can still reach it.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_LIB_FRONTEND_TENSORIMPL_H
#define UOP_LIB_FRONTEND_TENSORIMPL_H

#include "Uop/Frontend/Tensor.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/DenseMap.h"

#include <map>

namespace uop {
namespace detail {

struct TensorNode {
  TensorContext *ctx = nullptr;
  mlir::Value value;
  /// Nodes whose values this one's graph uses (they keep their data alive).
  std::vector<std::shared_ptr<const TensorNode>> srcs;
  /// The data of the buffer this node's graph is (or reshapes), if it owns one.
  std::shared_ptr<rt::HostBuffer> data;
  int64_t bufferId = -1;
  /// Set for an error tensor (then value is null).
  std::string error;

  ~TensorNode();
};

struct TensorHolder {
  std::shared_ptr<const TensorNode> node;
  /// The node this tensor was realized from (null when never realized).
  std::shared_ptr<const TensorNode> graph;
  bool requiresGrad = false;
  /// The seed's `grad` (set by backward).
  std::optional<Tensor> grad;
};

} // namespace detail

struct TensorContext::Impl {
  explicit Impl(TensorOptions options);

  TensorOptions options;
  mlir::MLIRContext mlir;
  /// The graph: a module whose body block gets every op, in build order.
  mlir::OwningOpRef<mlir::ModuleOp> graphModule;
  mlir::Block *graph = nullptr;
  mlir::uop::PlanCache cache;
  Generator gen;
  /// Hash consing: (op name, properties, attributes, result type, operands)
  /// of each op in the graph -> its value.
  std::map<std::vector<const void *>, mlir::Value> consed;
  /// Global buffer id -> data (alive while a node owns it).
  llvm::DenseMap<int64_t, std::weak_ptr<rt::HostBuffer>> buffers;
  int64_t nextBufferId = 0;
  size_t realizations = 0;
  /// Diagnostics emitted since the last take (verifier, compiler).
  std::string diagnostics;
  std::unique_ptr<mlir::ScopedDiagnosticHandler> handler;

  std::string takeDiagnostics() { return std::exchange(diagnostics, std::string()); }
};

} // namespace uop

#endif // UOP_LIB_FRONTEND_TENSORIMPL_H
