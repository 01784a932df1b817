//===- TensorImpl.h - the frontend's internals --------------------*- C++ -*-===//
//
// Private to lib/Frontend: the nodes behind a Tensor handle, the context's
// state, and the internals its files share (GraphBuilder.h has what the op
// families build graph ops with). Who defines what:
//   Tensor.cpp    the handle: inspection, assign, error tensors, fromNode
//   Context.cpp   TensorContext and Impl, node bookkeeping, garbage collection
//   GraphBuilder.cpp  building, verifying and hash-consing graph ops (consKey)
//   Realize.cpp   plans, the plan cache, runPlan, realize
//   Storage.cpp   the data of realized buffers on the host and the device,
//                 the buffer pools, the copies between them
//   Random.cpp    the Generator and the random creation functions
//   Creation.cpp  data tensors (dataTensor, fromBuffer, ...), full, arange
//   Elementwise.cpp  binary ops, promotion, comparisons, where, casts,
//                 division modes, mod, pow, the integer bit operations
//   Math.cpp      unary math, rounding, trig, erf, the activations
//   Movement.cpp  views, slices, pads, flip, cat, stack, split, repeat, ...
//   Indexing.cpp  Python indexing, gather, scatter, masks, interpolate,
//                 triangles and diagonals
//   Reduce.cpp    reductions (sum, prod, max, mean, var, softmax, argmax, ...)
//   Scan.cpp      cumulative scans, sort, topk
//   Functional.cpp  matmul, convolutions, pooling, attention, losses
//   Autograd.cpp  requiresGrad, grad, backward
//   Jit.cpp, NN.cpp   TinyJit; layers and optimizers
//
// A TensorNode is immutable: a graph value plus what keeps that value's data
// alive (the nodes it was built from, or the buffer it owns). A
// TensorHolder is what a Tensor handle (and its copies) points at: the node
// it stands for now, and the node it was realized from (the seed's
// `_graph`). Realizing or assigning rebinds the holder; nodes are shared by
// the holders that were built from them, so a graph keeps its buffers alive
// exactly as long as something can still reach it.
//
// A buffer's data is a Storage: host memory (a cpu context's, and data made
// on the host: fromVector, randn, load), the context's device memory (a
// device context's realized values: cuda on the GPU, emulate on the host
// standing in for it), or both once one is copied to the other. Data never
// changes once made, so a copy stays valid as long as the storage lives.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_LIB_FRONTEND_TENSORIMPL_H
#define UOP_LIB_FRONTEND_TENSORIMPL_H

#include "Uop/Frontend/Tensor.h"
#include "Uop/IR/UopTypes.h"
#include "Uop/Runtime/Buffer.h"
#include "Uop/Runtime/Device.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <numeric>
#include <unordered_map>

namespace uop {
namespace detail {

/// The data of a realized buffer: `numel` elements of `dtype`, in host
/// memory, in the context's device memory (an array at least that large),
/// or both. The copies are made on demand (hostData, deviceData) and kept.
struct Storage {
  DType dtype = DType::F32;
  int64_t numel = 0;
  std::shared_ptr<rt::HostBuffer> host;
  std::shared_ptr<rt::DeviceArray> device;
  size_t bytes() const { return static_cast<size_t>(numel) * rt::dtypeSize(dtype); }
};

/// A storage holding `host` (its dtype and element count).
std::shared_ptr<Storage> hostStorage(std::shared_ptr<rt::HostBuffer> host);

struct TensorNode {
  TensorContext *ctx = nullptr;
  mlir::Value value;
  /// Nodes whose values this one's graph uses (they keep their data alive).
  std::vector<std::shared_ptr<const TensorNode>> srcs;
  /// The data of the buffer this node's graph is (or reshapes), if it owns one.
  std::shared_ptr<Storage> data;
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

/// What one realize ran, for a TinyJit capturing it (Jit.cpp): enough to
/// run the same plan again on the buffers that take these ones' places.
struct RealizeRecord {
  rt::Executable *exe = nullptr;
  /// The program it ran (a TinyJit's exportStep compiles it for a target).
  std::shared_ptr<mlir::OwningOpRef<mlir::ModuleOp>> program;
  /// Program slot -> the global id of the buffer it read.
  std::vector<int64_t> slotIds;
  /// Per plan value (root): its shape, and the id of the buffer it went to.
  std::vector<Shape> shapes;
  std::vector<int64_t> valueIds;
  /// The holders the realize rebound, with the value each now stands for.
  std::vector<std::pair<std::shared_ptr<TensorHolder>, size_t>> rebound;
};

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

/// "(2, 3)".
inline std::string shapeStr(llvm::ArrayRef<int64_t> shape) {
  return rt::shapeString(std::vector<int64_t>(shape.begin(), shape.end()));
}

/// The number of elements of `shape`.
inline int64_t prod(llvm::ArrayRef<int64_t> shape) {
  return std::accumulate(shape.begin(), shape.end(), int64_t(1), std::multiplies<>());
}

/// The shape of a graph value.
inline Shape shapeOfValue(mlir::Value v) {
  llvm::ArrayRef<int64_t> s = mlir::uop::getShape(v.getType());
  return Shape(s.begin(), s.end());
}

/// An error tensor carrying `message`.
inline Tensor err(const std::string &message) { return Tensor::makeError(message); }

/// A tensor standing for `node` (Tensor.cpp).
Tensor fromNode(std::shared_ptr<const TensorNode> node);

/// The hash-consing key of a consed op whose properties (as an attribute)
/// are `props` (GraphBuilder.cpp; the context's garbage collection erases
/// an op's entry with it).
std::vector<const void *> consKey(mlir::Operation *op, const void *props);

/// A node owning `data` (a `uop.buffer` with a fresh id, reshaped to `shape`;
/// Creation.cpp).
Tensor dataTensor(TensorContext &ctx, std::shared_ptr<Storage> data, const Shape &shape);
Tensor dataTensor(TensorContext &ctx, std::shared_ptr<rt::HostBuffer> data, const Shape &shape);

/// The data program slot `slot` reads, or why there is none.
using SlotData = llvm::function_ref<llvm::Expected<std::shared_ptr<Storage>>(int64_t slot)>;

/// Binds `exe`'s arguments (program slot s reads `input(s)`; outputs come
/// from the context's buffer pool), runs it where the context keeps its data
/// (the host, or its device), and returns one data tensor per plan value,
/// shaped `shapes`. Shared by realize and a TinyJit's replay (Realize.cpp).
llvm::Expected<std::vector<Tensor>> runPlan(TensorContext &ctx, rt::Executable *exe,
                                            const SlotData &input, llvm::ArrayRef<Shape> shapes);

/// The global id of the buffer `t` is the whole of (-1 if not realized).
int64_t bufferIdOf(const Tensor &t);
/// The data of buffer `id`, if it is alive.
std::shared_ptr<Storage> bufferData(TensorContext &ctx, int64_t id);
/// The data of the buffer `t` is the whole of (null if not realized).
std::shared_ptr<Storage> bufferData(const Tensor &t);

//===----------------------------------------------------------------------===//
// Storage (Storage.cpp)
//===----------------------------------------------------------------------===//

/// The host copy of `s` (made from its device copy the first time).
llvm::Expected<std::shared_ptr<rt::HostBuffer>> hostData(TensorContext &ctx, Storage &s);
/// Copies the `n` first elements of `s` to `dst` (from the host copy if it
/// has one, else straight from the device: no host copy is kept).
llvm::Error copyToHost(TensorContext &ctx, const Storage &s, void *dst, int64_t n);
/// The device copy of `s` (made from its host copy the first time), in a
/// device context.
llvm::Expected<std::shared_ptr<rt::DeviceArray>> deviceData(TensorContext &ctx, Storage &s);
/// A flat host buffer of `n` elements from the host pool (its contents
/// undefined), returned to the pool when the last user goes.
rt::Result<std::shared_ptr<rt::HostBuffer>> poolBuffer(TensorContext::Impl &c, DType dtype,
                                                       int64_t n);
/// `bytes` of the context's device memory from the device pool (contents
/// undefined), returned to the pool when the last user goes.
llvm::Expected<std::shared_ptr<rt::DeviceArray>> poolDeviceArray(TensorContext::Impl &c,
                                                                 size_t bytes);

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
  struct KeyHash {
    size_t operator()(const std::vector<const void *> &k) const {
      return llvm::hash_combine_range(k.begin(), k.end());
    }
  };
  std::unordered_map<std::vector<const void *>, mlir::Value, KeyHash> consed;
  /// Each consed op's properties as an attribute (the key's second word),
  /// for the structural plan key of a realize (GraphSlice in Realize.cpp).
  llvm::DenseMap<mlir::Operation *, const void *> props;
  /// Graph ops that nodes stand for, with how many nodes do: the roots of
  /// collectGarbage(), which erases every op they do not reach (a training
  /// loop's old steps), so the graph stays as large as what is alive.
  llvm::DenseMap<mlir::Operation *, unsigned> nodeRefs;
  /// GraphBuilders alive (ops being built, not yet any node's): no garbage
  /// collection then.
  unsigned building = 0;
  /// The graph's size after the last collection, and the ops added since
  /// (the graph grows only through GraphBuilder::consFresh and dataTensor).
  size_t collectedSize = 0, built = 0;
  void retain(mlir::Value v) { ++nodeRefs[v.getDefiningOp()]; }
  void release(mlir::Value v) {
    auto it = nodeRefs.find(v.getDefiningOp());
    if (it != nodeRefs.end() && --it->second == 0)
      nodeRefs.erase(it);
  }
  /// Erases the graph ops no node reaches, when the graph has grown to
  /// twice its size after the last collection (and options.collectAfterOps).
  void collectGarbage();
  /// Global buffer id -> data (alive while a node owns it).
  llvm::DenseMap<int64_t, std::weak_ptr<detail::Storage>> buffers;
  int64_t nextBufferId = 0;
  /// Buffers whose data depends on nothing but how they were made (arange's):
  /// a TinyJit's capture reads them as they are, even when the call made them.
  llvm::DenseSet<int64_t> constantBuffers;
  size_t realizations = 0;
  /// The frontend's plans by structure (GraphSlice::key in Realize.cpp): a
  /// realize that finds its structure here skips building, printing and
  /// hashing the program. The executables are the plan cache's.
  std::unordered_map<std::string, rt::Executable *> plans;
  size_t planHits = 0;
  rt::Executable *last = nullptr;
  /// Set while a TinyJit watches or captures a call: each realize appends
  /// what it ran.
  std::vector<detail::RealizeRecord> *recording = nullptr;
  /// $UOP_DEBUG (the seed's DEBUG): 1 prints a line per realize (ops,
  /// kernels, the plan lookup, binding and run times) to stderr, 2 also the
  /// kernels of each new plan, 3 also each new program.
  int debug = 0;
  /// Freed output buffers for the next runs (Storage.cpp; made by the
  /// first run that needs an output).
  struct BufferPool;
  std::shared_ptr<BufferPool> pool;
  /// Device contexts (target cuda: the GPU; emulate: host memory standing
  /// in for it) keep realized values in `device`'s memory, got at the first
  /// realize (or by TensorContext::create); host contexts (target cpu) have
  /// none. Freed device arrays wait in the device pool.
  bool deviceResident = false;
  std::shared_ptr<rt::Device> device;
  struct DevicePool;
  std::shared_ptr<DevicePool> devicePool;
  /// The context's device (got the first time), or "no CUDA device: ...".
  llvm::Expected<rt::Device *> getDevice();
  /// Diagnostics emitted since the last take (verifier, compiler).
  std::string diagnostics;
  std::unique_ptr<mlir::ScopedDiagnosticHandler> handler;

  std::string takeDiagnostics() { return std::exchange(diagnostics, std::string()); }
};

} // namespace uop

#endif // UOP_LIB_FRONTEND_TENSORIMPL_H
