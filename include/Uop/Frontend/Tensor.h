//===- Tensor.h - the lazy Tensor frontend ------------------------*- C++ -*-===//
//
// The seed's uopc/tensor.py in C++: a uop::Tensor is a handle on a value of
// a uop graph. Every operation appends a few primitive ops (exactly as the
// seed composes them) to one "graph" block owned by a TensorContext; nothing
// runs until realize() / numpy() / item(). Realizing clones the backward
// slice of the requested values into a fresh `func.func @main`, with the
// data buffers renumbered to slots 0..n-1 in order of first use, so the
// program text (the plan cache's key) depends only on the structure: the
// same step over other data compiles once (mlir::uop::PlanCache).
//
//   uop::Tensor x = uop::Tensor::randn({4, 8});
//   uop::Tensor y = (x * 2 + 1).relu().softmax(-1);
//   llvm::Expected<uop::rt::HostBuffer> v = y.numpy();
//
// Errors. Misuse (shapes that do not broadcast, a bad axis, a dtype that an
// op does not take, a file that does not read) never aborts. Operations
// return a Tensor, and a Tensor can be an *error tensor* that carries the
// first error; every operation on an error tensor returns it unchanged, so
// that expressions compose with operators (`(a + b) * c`), which
// llvm::Expected<Tensor> everywhere could not. The error surfaces where a
// value is asked for: realize(), numpy(), item(), toVector(), save() return
// llvm::Expected / llvm::Error; ok() and error() check earlier.
//
// Semantics. Tensors are reference handles, as Python objects are: copies
// share one tensor, and realize() rebinds it (for every copy) to a buffer
// holding its value, keeping the graph it had (graphValue(), the seed's
// `_graph`) for autodiff. Graph ops are immutable and hash-consed (an op
// structurally equal to an existing one is that one, as the seed's UOps),
// so the graph block only holds distinct ops. A realize erases the ops that
// no tensor reaches any more once the graph has grown enough
// (TensorOptions::collectAfterOps). Buffer *data* is reference counted: a
// HostBuffer lives as long as some tensor's graph uses it.
//
// Not thread-safe: one TensorContext per thread (or a lock).
//
//===----------------------------------------------------------------------===//

#ifndef UOP_FRONTEND_TENSOR_H
#define UOP_FRONTEND_TENSOR_H

#include "Uop/ExecutionEngine/PlanCache.h"
#include "Uop/Runtime/Buffer.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace uop {

using rt::DType;
using Shape = std::vector<int64_t>;

class Tensor;
class TensorContext;

namespace detail {
struct TensorNode;
struct TensorHolder;
} // namespace detail

/// A host scalar in an expression (`t + 1`, `2.5 * t`, `t < 0`). Its kind
/// matters as a Python scalar's does in the seed: an int or bool takes the
/// tensor's dtype, and a float promotes an integer or bool tensor to f32
/// (numpy-style: `int_tensor * 0.5` is a float computation).
struct Scalar {
  enum class Kind { Bool, Int, Float };
  Kind kind;
  double value;
  Scalar(bool v) : kind(Kind::Bool), value(v) {}
  Scalar(int v) : kind(Kind::Int), value(v) {}
  Scalar(long v) : kind(Kind::Int), value(static_cast<double>(v)) {}
  Scalar(long long v) : kind(Kind::Int), value(static_cast<double>(v)) {}
  Scalar(unsigned v) : kind(Kind::Int), value(v) {}
  Scalar(unsigned long v) : kind(Kind::Int), value(static_cast<double>(v)) {}
  Scalar(unsigned long long v) : kind(Kind::Int), value(static_cast<double>(v)) {}
  Scalar(float v) : kind(Kind::Float), value(v) {}
  Scalar(double v) : kind(Kind::Float), value(v) {}
  bool isFloat() const { return kind == Kind::Float; }
};

/// The random generator of randn/uniform/kaiming. NOT numpy's stream (the
/// seed uses np.random.default_rng, PCG64 + ziggurat): xoshiro256** seeded
/// through splitmix64; uniform doubles are the top 53 bits / 2^53 (in
/// [0, 1)), normals come from Box-Muller (pairs). Values are drawn in double
/// and rounded to f32, as the seed's `.astype(np.float32)`. Deterministic for
/// a seed on every platform.
class Generator {
public:
  explicit Generator(uint64_t seed = 0) { reseed(seed); }
  void reseed(uint64_t seed);
  uint64_t nextU64();
  /// Uniform in [0, 1).
  double nextDouble();
  /// Standard normal.
  double nextNormal();

private:
  uint64_t s[4];
  std::optional<double> spare;
};

/// How a context compiles. The seed's defaults: target cpu, its hand opts
/// (the seed runs HandOpt unless OPT=0), no fuse-reduce.
struct TensorOptions {
  mlir::uop::CompileOptions compile = [] {
    mlir::uop::CompileOptions o;
    o.opt = mlir::uop::OptMode::Hand;
    return o;
  }();
  uint64_t seed = 0;
  /// Graph ops that no tensor reaches any more (a training loop's earlier
  /// steps) are erased at a realize once the graph has this many ops and
  /// twice as many as after the last collection ($UOP_GC_OPS sets it for
  /// contexts that leave it at this default).
  size_t collectAfterOps = 4096;
};

/// Owns the graph, the realized data and the plan cache. Contexts must
/// outlive their tensors; the global one is never destroyed.
class TensorContext {
public:
  explicit TensorContext(TensorOptions options = {});
  ~TensorContext();
  TensorContext(const TensorContext &) = delete;
  TensorContext &operator=(const TensorContext &) = delete;

  /// The process-wide context that creation functions use by default.
  static TensorContext &global();

  mlir::MLIRContext &mlirContext();
  mlir::uop::PlanCache &planCache();
  const TensorOptions &options() const;
  Generator &generator();
  /// Tensor.manual_seed: reseeds the generator.
  void manualSeed(uint64_t seed);

  /// Ops in the graph block (what the last garbage collection kept, and the
  /// ops built since).
  size_t graphSize() const;
  /// Buffers whose data is alive (some tensor's graph still uses them).
  size_t liveBuffers() const;
  /// Programs realized.
  size_t realizations() const;
  /// Realizations whose plan the frontend found by the program's structure
  /// without asking the plan cache (the others are the plan cache's
  /// compiles and hits).
  size_t planHits() const;
  /// The executable the last realize ran (null before the first): its plan
  /// (kernels, launches, flops), or to time its kernels alone.
  rt::Executable *lastExecutable() const;
  /// The program realize() would compile for `roots`, as printed (the plan
  /// cache key's text), or the first error.
  llvm::Expected<std::string> programText(llvm::ArrayRef<Tensor> roots);
  /// The executable realize() would run for `roots` (from the plan cache:
  /// compiled the first time), without running it: its plan's kernels,
  /// launches, flops.
  llvm::Expected<rt::Executable *> compile(llvm::ArrayRef<Tensor> roots);

  struct Impl;
  Impl &impl() { return *p; }

private:
  std::unique_ptr<Impl> p;
};

/// A lazy tensor: a handle on a value of its context's graph.
class Tensor {
public:
  /// An error tensor ("uninitialized tensor").
  Tensor();

  //===-- creation ------------------------------------------------------===//
  /// `v` of `dtype` broadcast to `shape` (a constant, no data).
  static Tensor full(const Shape &shape, Scalar v, DType dtype = DType::F32,
                     TensorContext &ctx = TensorContext::global());
  static Tensor zeros(const Shape &shape, DType dtype = DType::F32,
                      TensorContext &ctx = TensorContext::global());
  static Tensor ones(const Shape &shape, DType dtype = DType::F32,
                     TensorContext &ctx = TensorContext::global());
  /// 0, 1, ..., n-1 as i32 data.
  static Tensor arange(int64_t n, TensorContext &ctx = TensorContext::global());
  /// Standard normal f32 data from the context's generator.
  static Tensor randn(const Shape &shape, TensorContext &ctx = TensorContext::global());
  /// Uniform in [low, high) f32 data from the context's generator.
  static Tensor uniform(const Shape &shape, double low = -1.0, double high = 1.0,
                        TensorContext &ctx = TensorContext::global());
  /// uniform in +-1/sqrt(fan_in), fan_in = prod(shape[1:]) (or shape[0]).
  static Tensor kaiming(const Shape &shape, TensorContext &ctx = TensorContext::global());
  /// A tensor holding a copy of `data` (its dtype and shape).
  static Tensor fromBuffer(const rt::HostBuffer &data,
                           TensorContext &ctx = TensorContext::global());
  /// Takes `data` without copying.
  static Tensor fromBuffer(std::shared_ptr<rt::HostBuffer> data,
                           TensorContext &ctx = TensorContext::global());
  /// f32 / i32 / bool data of `shape` (numel must match).
  static Tensor fromVector(const std::vector<float> &data, const Shape &shape,
                           TensorContext &ctx = TensorContext::global());
  static Tensor fromInts(const std::vector<int32_t> &data, const Shape &shape,
                         TensorContext &ctx = TensorContext::global());
  static Tensor fromBools(const std::vector<bool> &data, const Shape &shape,
                          TensorContext &ctx = TensorContext::global());
  /// A 1-D f32 tensor.
  static Tensor fromVector(const std::vector<float> &data,
                           TensorContext &ctx = TensorContext::global());
  /// A .npy file (uop::rt::readNpy); an error tensor when it does not read.
  static Tensor load(const std::string &path, TensorContext &ctx = TensorContext::global());
  /// An error tensor carrying `message`.
  static Tensor makeError(std::string message);

  //===-- inspection ----------------------------------------------------===//
  bool ok() const;
  /// The error of an error tensor (empty when ok()).
  std::string error() const;
  /// An llvm::Error for the error (success when ok()).
  llvm::Error takeError() const;
  /// The shape ({} for a scalar and for an error tensor).
  Shape shape() const;
  DType dtype() const;
  int64_t ndim() const { return static_cast<int64_t>(shape().size()); }
  int64_t numel() const;
  /// The context (nullptr for an error tensor).
  TensorContext *context() const;
  /// The graph value this tensor stands for now (a buffer once realized).
  /// Valid while a tensor stands for it: a realize may erase graph ops that
  /// no tensor reaches (TensorOptions::collectAfterOps).
  mlir::Value value() const;
  /// The graph it was realized from (the seed's `_graph`, for autodiff), or
  /// value() when it was never realized.
  mlir::Value graphValue() const;
  /// Whether the value is data (a buffer, or a reshape of a whole buffer).
  bool isRealized() const;
  /// Whether two handles are the same tensor.
  bool sameAs(const Tensor &other) const { return h == other.h; }
  /// "<Tensor (2, 3) f32>" (or "<Tensor error: ...>").
  std::string str() const;

  /// The seed's `requires_grad` flag: kept and printed, as the seed's; the
  /// parameters of backward() are what it differentiates by.
  bool requiresGrad() const;
  Tensor &setRequiresGrad(bool value = true);

  //===-- autodiff ------------------------------------------------------===//
  /// The seed's `backward(params)`: for each p, p.grad = d(self)/dp, added
  /// to p's existing grad (a lazy tensor of p's shape; zeros where self does
  /// not depend on p). self must be a scalar; it differentiates the graph
  /// self was realized from (graphValue()), so `item()` before backward
  /// works. A detach() stops gradients. Errors: an error tensor, a
  /// non-scalar self, tensors of another context, and what
  /// mlir::uop::gradient reports (a data-dependent index).
  llvm::Error backward(llvm::ArrayRef<Tensor> params) const;
  /// The gradient backward() left (the seed's `p.grad`), shared by copies.
  std::optional<Tensor> grad() const;
  /// Sets or clears (std::nullopt: the seed's `p.grad = None`) the gradient.
  void setGrad(std::optional<Tensor> g);

  //===-- running -------------------------------------------------------===//
  /// Computes the value (once) and rebinds this tensor to it.
  llvm::Expected<Tensor> realize() const;
  /// Realizes several tensors as one program (the seed's realize_all).
  static llvm::Error realizeAll(llvm::ArrayRef<Tensor> tensors);
  /// A copy of the value, with the tensor's shape.
  llvm::Expected<rt::HostBuffer> numpy() const;
  /// The buffer holding the value (realized first), shared, not copied:
  /// numel() elements in C order (the buffer's own shape may be flat; the
  /// value's is shape()). It must not be written: other tensors may share
  /// it. What the Python binding's numpy() views.
  llvm::Expected<std::shared_ptr<const rt::HostBuffer>> buffer() const;
  /// The elements in C order, converted to float.
  llvm::Expected<std::vector<float>> toVector() const;
  /// The only element (numel must be 1).
  llvm::Expected<double> item() const;
  /// Writes the value as a .npy file.
  llvm::Error save(const std::string &path) const;
  /// Makes this tensor stand for x's value (same shape and dtype): the
  /// functional update of a parameter.
  llvm::Error assign(const Tensor &x);

  //===-- elementwise ---------------------------------------------------===//
  Tensor add(const Tensor &x) const;
  Tensor add(Scalar x, bool reverse = false) const;
  Tensor mul(const Tensor &x) const;
  Tensor mul(Scalar x, bool reverse = false) const;
  Tensor neg() const;
  Tensor sub(const Tensor &x) const;
  Tensor sub(Scalar x) const;
  Tensor rsub(Scalar x) const;
  Tensor div(const Tensor &x) const;
  Tensor div(Scalar x) const;
  Tensor rdiv(Scalar x) const;
  /// self < x (cmplt), self > x (x < self), >= and <= as logical_not.
  Tensor lt(const Tensor &x) const;
  Tensor lt(Scalar x) const;
  Tensor gt(const Tensor &x) const;
  Tensor gt(Scalar x) const;
  Tensor ge(const Tensor &x) const;
  Tensor ge(Scalar x) const;
  Tensor le(const Tensor &x) const;
  Tensor le(Scalar x) const;
  Tensor eq(const Tensor &x) const;
  Tensor eq(Scalar x) const;
  Tensor ne(const Tensor &x) const;
  Tensor ne(Scalar x) const;
  Tensor logicalNot() const;
  Tensor maximum(const Tensor &x) const;
  Tensor maximum(Scalar x) const;
  Tensor minimum(const Tensor &x) const;
  Tensor minimum(Scalar x) const;
  /// self ? a : b (self is bool), broadcast together. A scalar branch takes
  /// the other branch's dtype (f32 when both are scalars).
  Tensor where(const Tensor &a, const Tensor &b) const;
  Tensor where(const Tensor &a, Scalar b) const;
  Tensor where(Scalar a, const Tensor &b) const;
  Tensor where(Scalar a, Scalar b) const;
  Tensor cast(DType dtype) const;
  Tensor toFloat() const { return cast(DType::F32); }
  Tensor reciprocal() const;
  Tensor exp2() const;
  Tensor log2() const;
  Tensor exp() const;
  Tensor log() const;
  Tensor sqrt() const;
  Tensor rsqrt() const;
  Tensor sin() const;
  Tensor cos() const;
  Tensor square() const;
  Tensor abs() const;
  Tensor relu() const;
  Tensor sigmoid() const;
  Tensor tanh() const;
  Tensor gelu() const;
  Tensor silu() const;

  //===-- movement ------------------------------------------------------===//
  /// Numpy broadcasting to `shape` (prepends 1s, expands 1s).
  Tensor broadcastTo(const Shape &shape) const;
  /// One dimension may be -1.
  Tensor reshape(const Shape &shape) const;
  /// Axes may be negative.
  Tensor permute(const std::vector<int64_t> &order) const;
  Tensor transpose(int64_t a = -1, int64_t b = -2) const;
  Tensor T() const { return transpose(); }
  /// -1 keeps a dimension (aligned from the right, as numpy broadcasting).
  Tensor expand(const Shape &shape) const;
  Tensor flatten(int64_t start = 0) const;
  Tensor unsqueeze(int64_t dim) const;
  /// Removes size-1 dimension `dim`.
  Tensor squeeze(int64_t dim) const;
  /// One [begin, end) per axis.
  Tensor shrink(const std::vector<std::pair<int64_t, int64_t>> &bounds) const;
  /// Step-1 slice of one axis (negative begin/end count from the end, as
  /// Python's; clamped to the axis).
  Tensor slice(int64_t axis, int64_t begin, int64_t end) const;
  /// Element `i` of axis `axis`, which is removed (a negative i counts from the end).
  Tensor select(int64_t axis, int64_t i) const;
  /// Zero padding: one (before, after) per axis.
  Tensor pad(const std::vector<std::pair<int64_t, int64_t>> &pads) const;
  Tensor flip(int64_t axis) const;
  /// Concatenation along `dim` (pad each piece into place, add them).
  static Tensor cat(llvm::ArrayRef<Tensor> tensors, int64_t dim = 0);
  /// A new leading axis (uop.stack); all of one shape and dtype. With
  /// dim != 0 the new axis is moved to `dim`.
  static Tensor stack(llvm::ArrayRef<Tensor> tensors, int64_t dim = 0);

  //===-- reductions ----------------------------------------------------===//
  /// `axes` empty = all axes (the seed's axis=None). Axes may be negative.
  Tensor sum(const std::vector<int64_t> &axes = {}, bool keepdim = false) const;
  Tensor sum(int64_t axis, bool keepdim = false) const;
  Tensor max(const std::vector<int64_t> &axes = {}, bool keepdim = false) const;
  Tensor max(int64_t axis, bool keepdim = false) const;
  Tensor min(const std::vector<int64_t> &axes = {}, bool keepdim = false) const;
  Tensor min(int64_t axis, bool keepdim = false) const;
  Tensor mean(const std::vector<int64_t> &axes = {}, bool keepdim = false) const;
  Tensor mean(int64_t axis, bool keepdim = false) const;
  /// Population variance (ddof 0), as the seed's.
  Tensor var(const std::vector<int64_t> &axes = {}, bool keepdim = false) const;
  Tensor var(int64_t axis, bool keepdim = false) const;
  Tensor softmax(int64_t axis = -1) const;
  Tensor logSoftmax(int64_t axis = -1) const;
  /// Keeps the reduced axis (as the seed's).
  Tensor logsumexp(int64_t axis = -1) const;
  /// Index of the first maximum, i32.
  Tensor argmax(int64_t axis = -1) const;

  //===-- linear algebra, losses ----------------------------------------===//
  /// (..., M, K) @ (..., K, N): broadcast to (..., M, N, K), multiply, reduce.
  /// Two f16 operands are multiplied and summed in f32 and give f32 (the
  /// seed's WMMA contract; on a GPU with tensor cores the GEMM runs on them).
  Tensor matmul(const Tensor &w) const;
  /// matmul; an f16 input gives f16 (summed in f32), as PyTorch's layers.
  Tensor linear(const Tensor &w) const;
  Tensor linear(const Tensor &w, const Tensor &b) const;
  /// x (N, C, H, W) * weight (O, C, KH, KW) (+ bias (O,)) -> (N, O, OH, OW):
  /// the seed's im2col, KH*KW shrinks of the (zero-)padded input (every
  /// stride-th element kept by a pad + reshape + shrink when stride > 1),
  /// stacked, permuted to (N, OH, OW, C*KH*KW) and multiplied by the
  /// reshaped weight.
  Tensor conv2d(const Tensor &weight, const std::optional<Tensor> &bias = std::nullopt,
                int64_t padding = 0, int64_t stride = 1) const;
  /// Max over kernel x kernel windows of x (N, C, H, W), `stride` apart (the
  /// kernel when not given). With stride == kernel this is the seed's
  /// max_pool2d: the trailing rows and columns that fill no window are
  /// dropped, (N, C, H/k, k, W/k, k) is reduced over the two k axes. Other
  /// strides take the windows as conv2d does and reduce over them.
  Tensor maxPool2d(int64_t kernel = 2, std::optional<int64_t> stride = std::nullopt) const;
  Tensor oneHot(int64_t n) const;
  /// self: (B, C) logits, labels: (B,) i32.
  Tensor crossEntropy(const Tensor &labels) const;

  //===-- staging -------------------------------------------------------===//
  /// Same value; gradients stop here (uop.stage detach).
  Tensor detach() const;
  /// A materialization point (uop.stage).
  Tensor contiguous() const;

  /// The internals (for the frontend's own files: autodiff, nn).
  const std::shared_ptr<detail::TensorHolder> &holder() const { return h; }
  explicit Tensor(std::shared_ptr<detail::TensorHolder> holder) : h(std::move(holder)) {}

private:
  std::shared_ptr<detail::TensorHolder> h;
};

Tensor operator+(const Tensor &a, const Tensor &b);
Tensor operator+(const Tensor &a, Scalar b);
Tensor operator+(Scalar a, const Tensor &b);
Tensor operator-(const Tensor &a, const Tensor &b);
Tensor operator-(const Tensor &a, Scalar b);
Tensor operator-(Scalar a, const Tensor &b);
Tensor operator*(const Tensor &a, const Tensor &b);
Tensor operator*(const Tensor &a, Scalar b);
Tensor operator*(Scalar a, const Tensor &b);
Tensor operator/(const Tensor &a, const Tensor &b);
Tensor operator/(const Tensor &a, Scalar b);
Tensor operator/(Scalar a, const Tensor &b);
Tensor operator-(const Tensor &a);
Tensor operator<(const Tensor &a, const Tensor &b);
Tensor operator<(const Tensor &a, Scalar b);
Tensor operator<(Scalar a, const Tensor &b);
Tensor operator>(const Tensor &a, const Tensor &b);
Tensor operator>(const Tensor &a, Scalar b);
Tensor operator>(Scalar a, const Tensor &b);
Tensor operator<=(const Tensor &a, const Tensor &b);
Tensor operator<=(const Tensor &a, Scalar b);
Tensor operator>=(const Tensor &a, const Tensor &b);
Tensor operator>=(const Tensor &a, Scalar b);
/// Elementwise (bool tensors), as torch's: not a test of identity (sameAs).
Tensor operator==(const Tensor &a, const Tensor &b);
Tensor operator==(const Tensor &a, Scalar b);
Tensor operator!=(const Tensor &a, const Tensor &b);
Tensor operator!=(const Tensor &a, Scalar b);
Tensor operator!(const Tensor &a);

/// numpy's broadcast of shapes, or an error ("cannot broadcast (2, 3) with (4,)").
llvm::Expected<Shape> broadcastShapes(llvm::ArrayRef<Shape> shapes);

} // namespace uop

#endif // UOP_FRONTEND_TENSOR_H
