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
// Where it runs. A context's compile target decides where its programs run
// and where realized values live: cpu keeps them in host memory; cuda keeps
// them on the GPU (a device buffer pool; plans run on device buffers with
// no copy), and copies only where data crosses: host data a plan reads
// (fromVector, randn, load: once) and numpy(), item(), toVector(),
// buffer() (back); emulate does the same with host memory standing in for
// the GPU's, the GPU mapping run on the CPU, so a device context's logic
// runs where there is no GPU. Autodiff, nn and TinyJit do not care. A cuda
// context with no GPU fails at its first realize, or at create(), with
// "no CUDA device: ...".
//
// Not thread-safe: one TensorContext per thread (or a lock).
//
//===----------------------------------------------------------------------===//

#ifndef UOP_FRONTEND_TENSOR_H
#define UOP_FRONTEND_TENSOR_H

#include "Uop/ExecutionEngine/PlanCache.h"
#include "Uop/Runtime/Buffer.h"
#include "Uop/Runtime/Device.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <initializer_list>
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

  /// A context, checked: its compile options (checkCompileOptions) and, for
  /// a device context (target cuda or emulate), its device, got now: "no
  /// CUDA device: ..." for cuda where there is no GPU.
  static llvm::Expected<std::unique_ptr<TensorContext>> create(TensorOptions options = {});

  /// The process-wide context that creation functions use by default.
  static TensorContext &global();

  /// Where its values live: "cpu", "emulate, host", "cuda, NVIDIA H200
  /// (sm_90)" (or the error of a device it cannot get).
  std::string deviceName() const;
  /// A device context's copies and allocations so far (Device.h), or null
  /// (a cpu context, or no realize yet).
  const rt::DeviceStats *deviceStats() const;

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

/// An int, or one int per axis (kernel sizes, strides, dilations,
/// paddings): `2` or `{2, 3}`.
struct Ints {
  std::vector<int64_t> v;
  /// Given as a list (`{3}` is one axis; a bare `3` is "3 for each").
  bool list = false;
  Ints(int v) : v{v} {}
  Ints(int64_t v) : v{v} {}
  Ints(std::initializer_list<int64_t> l) : v(l), list(true) {}
  Ints(std::vector<int64_t> l) : v(std::move(l)), list(true) {}
  /// `n` values: the one value repeated, or the list when it has n.
  std::optional<std::vector<int64_t>> expand(size_t n) const {
    if (v.size() == 1)
      return std::vector<int64_t>(n, v[0]);
    if (v.size() == n)
      return v;
    return std::nullopt;
  }
};

/// A Python slice `start:stop:step` of one axis (Tensor::index); an absent
/// bound is the axis' end in the direction of the step.
struct Slice {
  std::optional<int64_t> start, stop;
  int64_t step;
  Slice(std::optional<int64_t> start = std::nullopt, std::optional<int64_t> stop = std::nullopt,
        int64_t step = 1)
      : start(start), stop(stop), step(step) {}
};

struct TensorIndex;

/// A lazy tensor: a handle on a value of its context's graph.
///
/// Names and semantics are tinygrad's (PyTorch's where tinygrad has none),
/// in C++ camelCase (tinygrad's `leaky_relu` is `leakyRelu`); strings name
/// modes as tinygrad's keyword arguments do ("floor", "reflect", "mean").
/// Binary operations broadcast and promote as tinygrad's: two tensors go to
/// the larger of their dtypes (bool < i32 < f16 < f32), a host scalar takes
/// the tensor's dtype unless it is a float with a non-float tensor (then
/// f32) or an int with a bool tensor (then i32). Axes may be negative; a
/// 0-d tensor takes axis 0 and -1 where PyTorch does. A tensor may have a
/// zero-sized axis (its value is an empty buffer; reductions over it give
/// their identity, as PyTorch's).
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
  /// tinygrad's `empty`: zeros (uop has no uninitialized memory to hand out).
  static Tensor empty(const Shape &shape, DType dtype = DType::F32,
                      TensorContext &ctx = TensorContext::global());
  /// 0, 1, ..., n-1 as i32 data.
  static Tensor arange(int64_t n, TensorContext &ctx = TensorContext::global());
  /// tinygrad's `arange(start, stop, step)`: ceil((stop - start) / step)
  /// values start + i * step (computed in double, then rounded), f32 when
  /// any argument is a float, else i32, unless `dtype` says; empty when the
  /// range is.
  static Tensor arange(Scalar start, Scalar stop, Scalar step = 1,
                       std::optional<DType> dtype = std::nullopt,
                       TensorContext &ctx = TensorContext::global());
  /// `steps` values from start to stop inclusive (PyTorch's `linspace`).
  static Tensor linspace(double start, double stop, int64_t steps, DType dtype = DType::F32,
                         TensorContext &ctx = TensorContext::global());
  /// n x m (m = n when absent) with ones on the diagonal.
  static Tensor eye(int64_t n, std::optional<int64_t> m = std::nullopt, DType dtype = DType::F32,
                    TensorContext &ctx = TensorContext::global());
  /// Standard normal f32 data from the context's generator.
  static Tensor randn(const Shape &shape, TensorContext &ctx = TensorContext::global());
  /// Uniform in [low, high) f32 data from the context's generator.
  static Tensor uniform(const Shape &shape, double low = -1.0, double high = 1.0,
                        TensorContext &ctx = TensorContext::global());
  /// Uniform in [0, 1) (tinygrad's `rand`).
  static Tensor rand(const Shape &shape, TensorContext &ctx = TensorContext::global());
  /// Uniform integers in [low, high) as i32 (tinygrad's `randint`).
  static Tensor randint(const Shape &shape, int64_t low, int64_t high,
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
  /// `full_like`, `zeros_like`, `ones_like`, `empty_like`: this shape, this
  /// dtype unless `dtype` says.
  Tensor fullLike(Scalar v, std::optional<DType> dtype = std::nullopt) const;
  Tensor zerosLike(std::optional<DType> dtype = std::nullopt) const;
  Tensor onesLike(std::optional<DType> dtype = std::nullopt) const;
  Tensor emptyLike(std::optional<DType> dtype = std::nullopt) const;
  /// `rand_like`, `randn_like` (f32).
  Tensor randLike() const;
  Tensor randnLike() const;
  /// Coordinate grids of 0-d or 1-D tensors; `indexing` "ij" (matrix) or
  /// "xy" (Cartesian: the first two axes swapped).
  static std::vector<Tensor> meshgrid(llvm::ArrayRef<Tensor> tensors,
                                      const std::string &indexing = "ij");

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
  /// Whether the dtype is f16 or f32.
  bool isFloatingPoint() const;
  /// The context (nullptr for an error tensor).
  TensorContext *context() const;
  /// The graph value this tensor stands for now (a buffer once realized).
  /// Valid while a tensor stands for it: a realize may erase graph ops that
  /// no tensor reaches (TensorOptions::collectAfterOps).
  mlir::Value value() const;
  /// The graph it was realized from (the seed's `_graph`, for autodiff), or
  /// value() when it was never realized.
  mlir::Value graphValue() const;
  /// Whether the value is data (a buffer, or a reshape of a whole buffer;
  /// a tensor with no elements always is).
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
  /// tinygrad's `gradient(*targets)`: d(self)/d(target) for each target, as
  /// lazy tensors (self a scalar), without touching any grad.
  llvm::Expected<std::vector<Tensor>> gradient(llvm::ArrayRef<Tensor> targets) const;
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

  //===-- elementwise: arithmetic ---------------------------------------===//
  Tensor add(const Tensor &x) const;
  Tensor add(Scalar x, bool reverse = false) const;
  Tensor mul(const Tensor &x) const;
  Tensor mul(Scalar x, bool reverse = false) const;
  /// -x (logical not of a bool, as tinygrad's).
  Tensor neg() const;
  Tensor sub(const Tensor &x) const;
  Tensor sub(Scalar x) const;
  Tensor rsub(Scalar x) const;
  /// True division (integers divide as f32), or with `roundingMode`
  /// "trunc" (toward zero) or "floor" (toward -inf): integer division for
  /// two integer tensors (PyTorch's `div(rounding_mode=...)`).
  Tensor div(const Tensor &x, const std::string &roundingMode = "") const;
  Tensor div(Scalar x, const std::string &roundingMode = "") const;
  Tensor rdiv(Scalar x, const std::string &roundingMode = "") const;
  /// Python's `//`: div(x, "floor").
  Tensor floorDiv(const Tensor &x) const;
  Tensor floorDiv(Scalar x) const;
  /// Python's `%` (tinygrad's `mod`): the remainder with the divisor's sign.
  Tensor mod(const Tensor &x) const;
  Tensor mod(Scalar x) const;
  Tensor rmod(Scalar x) const;
  /// C's remainder (`fmod`): the sign of the dividend.
  Tensor fmod(const Tensor &x) const;
  Tensor fmod(Scalar x) const;
  /// self ** x, PyTorch's values and gradients at the edges (0 ** 0 = 1, a
  /// negative base with an integer exponent, the infinite gradients at 0;
  /// no second derivative there, no gradient for an infinite base or
  /// exponent); an integer tensor to an integer power is exact, to a
  /// negative one an error (as tinygrad's).
  Tensor pow(const Tensor &x) const;
  Tensor pow(Scalar x) const;
  /// x ** self.
  Tensor rpow(Scalar x) const;
  Tensor maximum(const Tensor &x) const;
  Tensor maximum(Scalar x) const;
  /// The smaller (floats: -max(-a, -b), ties share the gradient; integers
  /// ~max(~a, ~b); bools a and b): exact for every value of every dtype.
  Tensor minimum(const Tensor &x) const;
  Tensor minimum(Scalar x) const;
  /// tinygrad's `clip`/`clamp`: into [lo, hi] (either may be absent).
  Tensor clip(std::optional<Scalar> lo, std::optional<Scalar> hi) const;
  Tensor clip(const Tensor &lo, const Tensor &hi) const;
  Tensor clamp(std::optional<Scalar> lo, std::optional<Scalar> hi) const { return clip(lo, hi); }
  /// self + (end - self) * weight.
  Tensor lerp(const Tensor &end, const Tensor &weight) const;
  Tensor lerp(const Tensor &end, Scalar weight) const;
  /// |self| with the sign of x (a -0.0 counts as negative).
  Tensor copysign(const Tensor &x) const;
  Tensor copysign(Scalar x) const;
  /// log(exp(self) + exp(x)), stable.
  Tensor logaddexp(const Tensor &x) const;
  Tensor logaddexp(Scalar x) const;

  //===-- elementwise: comparisons, selection, casts --------------------===//
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
  /// x == 0 (for every dtype: a NaN is true, so its not is false).
  Tensor logicalNot() const;
  Tensor logicalAnd(const Tensor &x) const;
  Tensor logicalOr(const Tensor &x) const;
  Tensor logicalXor(const Tensor &x) const;
  /// NaN, +-inf (each may be left out), finite.
  Tensor isnan() const;
  Tensor isinf(bool detectPositive = true, bool detectNegative = true) const;
  Tensor isfinite() const;
  /// |self - x| <= atol + rtol * |x| (and equal infinities; NaNs when
  /// equalNan).
  Tensor isclose(const Tensor &x, double rtol = 1e-5, double atol = 1e-8,
                 bool equalNan = false) const;
  Tensor isclose(Scalar x, double rtol = 1e-5, double atol = 1e-8, bool equalNan = false) const;
  /// Whether every element isclose (a bool scalar).
  Tensor allclose(const Tensor &x, double rtol = 1e-5, double atol = 1e-8,
                  bool equalNan = false) const;
  /// self ? a : b (self must be bool), broadcast together and promoted; a
  /// scalar branch is weak (it takes the other branch's dtype, as a binary
  /// op's), two scalars are i32 (bool if both are) or f32 with a float.
  Tensor where(const Tensor &a, const Tensor &b) const;
  Tensor where(const Tensor &a, Scalar b) const;
  Tensor where(Scalar a, const Tensor &b) const;
  Tensor where(Scalar a, Scalar b) const;
  /// `value` where mask, else self (PyTorch's `masked_fill`).
  Tensor maskedFill(const Tensor &mask, const Tensor &value) const;
  Tensor maskedFill(const Tensor &mask, Scalar value) const;
  /// Converts (C semantics; to bool: x != 0).
  Tensor cast(DType dtype) const;
  Tensor toFloat() const { return cast(DType::F32); }
  Tensor half() const { return cast(DType::F16); }
  Tensor toInt() const { return cast(DType::I32); }
  Tensor toBool() const { return cast(DType::Bool); }

  //===-- elementwise: integers and bits --------------------------------===//
  /// On i32 and bool (two's complement, as PyTorch's int32): and, or, xor,
  /// not (~x; logical not of a bool), and the arithmetic shifts (a shift of
  /// 32 or more, or a negative one, is as C's: not defined; here it gives 0
  /// or the sign).
  Tensor bitwiseAnd(const Tensor &x) const;
  Tensor bitwiseAnd(Scalar x) const;
  Tensor bitwiseOr(const Tensor &x) const;
  Tensor bitwiseOr(Scalar x) const;
  Tensor bitwiseXor(const Tensor &x) const;
  Tensor bitwiseXor(Scalar x) const;
  Tensor bitwiseNot() const;
  Tensor lshift(const Tensor &x) const;
  Tensor lshift(Scalar x) const;
  Tensor rshift(const Tensor &x) const;
  Tensor rshift(Scalar x) const;

  //===-- elementwise: math ---------------------------------------------===//
  Tensor reciprocal() const;
  Tensor exp2() const;
  Tensor log2() const;
  Tensor exp() const;
  Tensor log() const;
  Tensor log10() const;
  Tensor sqrt() const;
  Tensor rsqrt() const;
  Tensor square() const;
  Tensor abs() const;
  /// -1, 0 or 1 (NaN stays NaN); the dtype is kept.
  Tensor sign() const;
  /// Rounding of floats (integers are kept): toward zero, -inf, +inf, and
  /// to nearest with ties to even (tinygrad's `round`).
  Tensor trunc() const;
  Tensor floor() const;
  Tensor ceil() const;
  Tensor round() const;
  /// sin; cos as 1 - 2 sin^2(x/2) (exact at every argument the sine is);
  /// tan as sin/cos.
  Tensor sin() const;
  Tensor cos() const;
  Tensor tan() const;
  /// The inverse trig functions: asin and acos for |x| <= 1 (NaN outside),
  /// atan everywhere (polynomials accurate to f32).
  Tensor asin() const;
  Tensor acos() const;
  Tensor atan() const;
  Tensor sinh() const;
  Tensor cosh() const;
  Tensor tanh() const;
  Tensor asinh() const;
  Tensor acosh() const;
  Tensor atanh() const;
  /// The error function (accurate to f32).
  Tensor erf() const;

  //===-- elementwise: activations --------------------------------------===//
  Tensor relu() const;
  /// 1 / (1 + exp(-x)), stable: its gradient is finite everywhere.
  Tensor sigmoid() const;
  /// "tanh" (the default, the seed's) or "none" (the exact 0.5 x (1 +
  /// erf(x / sqrt 2))).
  Tensor gelu(const std::string &approximate = "tanh") const;
  /// x * sigmoid(x) (tinygrad's `silu` and `swish`).
  Tensor silu() const;
  Tensor swish() const { return silu(); }
  /// x * sigmoid(1.702 x).
  Tensor quickGelu() const;
  /// tinygrad's `leaky_relu`: x, or negSlope * x below 0.
  Tensor leakyRelu(double negSlope = 0.01) const;
  /// min(max(x, 0), 6).
  Tensor relu6() const;
  /// x above 0, alpha (exp(x) - 1) below.
  Tensor elu(double alpha = 1.0) const;
  /// max(0, x) + min(0, alpha (exp(x / alpha) - 1)).
  Tensor celu(double alpha = 1.0) const;
  /// gamma * elu(x, alpha) with PyTorch's constants.
  Tensor selu(double alpha = 1.6732632423543772, double gamma = 1.0507009873554805) const;
  /// max(0, min(1, alpha x + beta)).
  Tensor hardsigmoid(double alpha = 1.0 / 6, double beta = 0.5) const;
  /// x * relu6(x + 3) / 6.
  Tensor hardswish() const;
  /// clip(x, minVal, maxVal).
  Tensor hardtanh(double minVal = -1, double maxVal = 1) const;
  /// log(1 + exp(beta x)) / beta, stable.
  Tensor softplus(double beta = 1.0) const;
  /// x / (1 + |x|).
  Tensor softsign() const;
  /// log(sigmoid(x)), stable.
  Tensor logsigmoid() const;
  /// x * tanh(softplus(x)).
  Tensor mish() const;

  //===-- movement ------------------------------------------------------===//
  /// Numpy broadcasting to `shape` (prepends 1s, expands 1s).
  Tensor broadcastTo(const Shape &shape) const;
  /// One dimension may be -1.
  Tensor reshape(const Shape &shape) const;
  Tensor view(const Shape &shape) const { return reshape(shape); }
  /// Axes may be negative.
  Tensor permute(const std::vector<int64_t> &order) const;
  Tensor transpose(int64_t a = -1, int64_t b = -2) const;
  Tensor T() const { return transpose(); }
  /// -1 keeps a dimension (aligned from the right, as numpy broadcasting).
  Tensor expand(const Shape &shape) const;
  /// Merges axes start..end (inclusive; a 0-d tensor becomes (1,)).
  Tensor flatten(int64_t start = 0, int64_t end = -1) const;
  /// Splits axis `dim` into `sizes` (one may be -1).
  Tensor unflatten(int64_t dim, const Shape &sizes) const;
  Tensor unsqueeze(int64_t dim) const;
  /// Removes axis `dim` if it has size 1 (else the tensor is unchanged).
  Tensor squeeze(int64_t dim) const;
  /// Removes every size-1 axis.
  Tensor squeeze() const;
  /// One [begin, end) per axis.
  Tensor shrink(const std::vector<std::pair<int64_t, int64_t>> &bounds) const;
  /// Step-1 slice of one axis (negative begin/end count from the end, as
  /// Python's; clamped to the axis).
  Tensor slice(int64_t axis, int64_t begin, int64_t end) const;
  /// Python's slice of one axis, with a step (negative: reversed).
  Tensor slice(int64_t axis, const Slice &s) const;
  /// Element `i` of axis `axis`, which is removed (a negative i counts from the end).
  Tensor select(int64_t axis, int64_t i) const;
  /// Python indexing `t[...]` (PyTorch's C++ `index`): ints, Slices,
  /// TensorIndex::newAxis() (None), TensorIndex::ellipsis() (...), and
  /// integer tensors (advanced indexing, broadcast together; bool tensors
  /// are not taken). Indices out of range are an error (a tensor index out
  /// of range selects nothing: zeros).
  Tensor index(llvm::ArrayRef<TensorIndex> indices) const;
  /// Padding: one (before, after) per axis, a negative amount removes
  /// elements. `mode` "constant" (with `value`), "reflect", "replicate" or
  /// "circular".
  Tensor pad(const std::vector<std::pair<int64_t, int64_t>> &pads,
             const std::string &mode = "constant", Scalar value = 0) const;
  /// PyTorch's flat padding (F.pad's `pad`): (left, right) of the last
  /// axis first, then the axis before it, ...
  Tensor padFlat(const std::vector<int64_t> &flat, const std::string &mode = "constant",
                 Scalar value = 0) const;
  Tensor flip(int64_t axis) const;
  Tensor flip(const std::vector<int64_t> &axes) const;
  /// Concatenation along `dim` (pad each piece into place, add them).
  static Tensor cat(llvm::ArrayRef<Tensor> tensors, int64_t dim = 0);
  /// A new leading axis (uop.stack); all of one shape and dtype. With
  /// dim != 0 the new axis is moved to `dim`.
  static Tensor stack(llvm::ArrayRef<Tensor> tensors, int64_t dim = 0);
  /// Pieces of `size` along `dim` (the last may be smaller), or of the given
  /// sizes (which must sum to the axis).
  std::vector<Tensor> split(int64_t size, int64_t dim = 0) const;
  std::vector<Tensor> split(const std::vector<int64_t> &sizes, int64_t dim = 0) const;
  /// `chunks` pieces of ceil(n / chunks) (maybe fewer).
  std::vector<Tensor> chunk(int64_t chunks, int64_t dim = 0) const;
  /// Windows of `size` every `step` along `dim`: dim becomes
  /// (windows, ...) with a new last axis of `size`.
  Tensor unfold(int64_t dim, int64_t size, int64_t step) const;
  /// Rotates along `dims` by `shifts` (of the flattened tensor when `dims`
  /// is empty).
  Tensor roll(const std::vector<int64_t> &shifts, const std::vector<int64_t> &dims = {}) const;
  Tensor roll(int64_t shift, std::optional<int64_t> dim = std::nullopt) const;
  /// Tiles: repeats[i] copies along axis i (more repeats than axes prepend
  /// axes).
  Tensor repeat(const std::vector<int64_t> &repeats) const;
  /// Each element `repeats` times along `dim` (of the flattened tensor when
  /// absent).
  Tensor repeatInterleave(int64_t repeats, std::optional<int64_t> dim = std::nullopt) const;
  /// The lower/upper triangle of the last two axes (others zero).
  Tensor tril(int64_t diagonal = 0) const;
  Tensor triu(int64_t diagonal = 0) const;
  /// A 1-D tensor as the diagonal of a square matrix.
  Tensor diag() const;
  /// The diagonal `offset` of axes dim1, dim2, as a new last axis.
  Tensor diagonal(int64_t offset = 0, int64_t dim1 = 0, int64_t dim2 = 1) const;
  /// out[i][j] = self[i][index[i][j]] along `dim` (index i32, the rank of
  /// self, no larger than self off `dim`).
  Tensor gather(int64_t dim, const Tensor &index) const;
  /// self with src written at `index` along `dim` (the last write wins), or
  /// added / multiplied in with `reduce` "add" / "multiply".
  Tensor scatter(int64_t dim, const Tensor &index, const Tensor &src,
                 const std::string &reduce = "") const;
  Tensor scatter(int64_t dim, const Tensor &index, Scalar src,
                 const std::string &reduce = "") const;
  /// `reduce` "sum", "prod", "mean", "amax" or "amin" of src into self at
  /// index (with self's own values unless includeSelf is false).
  Tensor scatterReduce(int64_t dim, const Tensor &index, const Tensor &src,
                       const std::string &reduce, bool includeSelf = true) const;
  /// The elements where mask (broadcast to self) is true, as a 1-D tensor:
  /// without `size` it realizes the mask (the result's size is the data's);
  /// with one, it is lazy, truncated or filled with `fillValue`.
  Tensor maskedSelect(const Tensor &mask, std::optional<int64_t> size = std::nullopt,
                      Scalar fillValue = 0) const;
  /// The indices of the nonzero elements, (n, ndim) i32 (n realized, or
  /// `size` filled with `fillValue`, as maskedSelect).
  Tensor nonzero(std::optional<int64_t> size = std::nullopt, Scalar fillValue = 0) const;
  /// Resizes the trailing axes to `size` ("nearest", "nearest-exact",
  /// "linear" for 1, 2 or 3 axes: bilinear, trilinear).
  Tensor interpolate(const Shape &size, const std::string &mode = "linear",
                     bool alignCorners = false) const;

  //===-- reductions ----------------------------------------------------===//
  /// `axes` empty = all axes (the seed's axis=None). Axes may be negative.
  /// A bool sum is an i32 count; f16 sums in f32.
  Tensor sum(const std::vector<int64_t> &axes = {}, bool keepdim = false) const;
  Tensor sum(int64_t axis, bool keepdim = false) const;
  Tensor prod(const std::vector<int64_t> &axes = {}, bool keepdim = false) const;
  Tensor prod(int64_t axis, bool keepdim = false) const;
  Tensor max(const std::vector<int64_t> &axes = {}, bool keepdim = false) const;
  Tensor max(int64_t axis, bool keepdim = false) const;
  Tensor min(const std::vector<int64_t> &axes = {}, bool keepdim = false) const;
  Tensor min(int64_t axis, bool keepdim = false) const;
  /// Whether any / all elements are nonzero (bool).
  Tensor any(const std::vector<int64_t> &axes = {}, bool keepdim = false) const;
  Tensor any(int64_t axis, bool keepdim = false) const;
  Tensor all(const std::vector<int64_t> &axes = {}, bool keepdim = false) const;
  Tensor all(int64_t axis, bool keepdim = false) const;
  Tensor mean(const std::vector<int64_t> &axes = {}, bool keepdim = false) const;
  Tensor mean(int64_t axis, bool keepdim = false) const;
  /// Variance with Bessel's `correction` (tinygrad's and PyTorch's default
  /// 1; 0 is the population variance, the seed's).
  Tensor var(const std::vector<int64_t> &axes = {}, bool keepdim = false,
             double correction = 1) const;
  Tensor var(int64_t axis, bool keepdim = false, double correction = 1) const;
  Tensor std(const std::vector<int64_t> &axes = {}, bool keepdim = false,
             double correction = 1) const;
  Tensor std(int64_t axis, bool keepdim = false, double correction = 1) const;
  Tensor softmax(int64_t axis = -1) const;
  Tensor logSoftmax(int64_t axis = -1) const;
  /// softmax(-self).
  Tensor softmin(int64_t axis = -1) const;
  /// log(sum(exp(self))), stable; `axes` empty = all.
  Tensor logsumexp(const std::vector<int64_t> &axes = {}, bool keepdim = false) const;
  Tensor logsumexp(int64_t axis, bool keepdim = false) const;
  /// self / max(||self||_p along dim, eps) (PyTorch's `normalize`).
  Tensor normalize(double p = 2.0, int64_t dim = 1, double eps = 1e-12) const;
  /// Index of the first maximum / minimum along `axis` (of the flattened
  /// tensor when absent), i32.
  Tensor argmax(std::optional<int64_t> axis = std::nullopt, bool keepdim = false) const;
  Tensor argmin(std::optional<int64_t> axis = std::nullopt, bool keepdim = false) const;
  /// Inclusive scans along `axis`.
  Tensor cumsum(int64_t axis = 0) const;
  Tensor cumprod(int64_t axis = 0) const;
  /// Running max / min and the index where it was (last occurrence).
  std::pair<Tensor, Tensor> cummax(int64_t axis = 0) const;
  std::pair<Tensor, Tensor> cummin(int64_t axis = 0) const;
  /// log(cumsum(exp(self))), stable.
  Tensor logcumsumexp(int64_t axis = 0) const;
  /// The values sorted along `dim` and their indices (stable: equal values
  /// keep their order).
  std::pair<Tensor, Tensor> sort(int64_t dim = -1, bool descending = false) const;
  Tensor argsort(int64_t dim = -1, bool descending = false) const;
  /// The k largest (or smallest) along `dim`, sorted, with their indices.
  std::pair<Tensor, Tensor> topk(int64_t k, int64_t dim = -1, bool largest = true) const;

  //===-- linear algebra ------------------------------------------------===//
  /// (..., M, K) @ (..., K, N): broadcast to (..., M, N, K), multiply, reduce.
  /// Two f16 operands are multiplied and summed in f32 and give f32 (the
  /// seed's WMMA contract; on a GPU with tensor cores the GEMM runs on them).
  Tensor matmul(const Tensor &w) const;
  Tensor dot(const Tensor &w) const { return matmul(w); }
  /// Einstein summation ("ij,jk->ik"; "..." broadcasts, a repeated index
  /// of one operand takes its diagonal, no "->" sums the repeated ones).
  static Tensor einsum(const std::string &formula, llvm::ArrayRef<Tensor> operands);
  /// matmul; an f16 input gives f16 (summed in f32), as PyTorch's layers.
  Tensor linear(const Tensor &w) const;
  Tensor linear(const Tensor &w, const Tensor &b) const;

  //===-- nn ------------------------------------------------------------===//
  /// Convolution of x (N, C, *spatial) with weight (O, C / groups,
  /// *kernel) (+ bias (O,)), over 1, 2 or 3 spatial axes: `padding` one int
  /// for all, one per spatial axis, or PyTorch's flat (left, right) pairs
  /// from the last axis (may be negative); `stride`, `dilation` one or one
  /// per axis. The plain 2-D case (no groups, one stride, no dilation) is
  /// the seed's im2col: KH*KW shrinks of the padded input, stacked,
  /// permuted to (N, OH, OW, C*KH*KW) and multiplied by the reshaped
  /// weight; the others are tinygrad's pooling windows times the weight.
  Tensor conv2d(const Tensor &weight, const std::optional<Tensor> &bias = std::nullopt,
                Ints padding = 0, Ints stride = 1, Ints dilation = 1, int64_t groups = 1) const;
  Tensor conv1d(const Tensor &weight, const std::optional<Tensor> &bias = std::nullopt,
                Ints padding = 0, Ints stride = 1, Ints dilation = 1, int64_t groups = 1) const;
  Tensor conv3d(const Tensor &weight, const std::optional<Tensor> &bias = std::nullopt,
                Ints padding = 0, Ints stride = 1, Ints dilation = 1, int64_t groups = 1) const;
  /// The transposed convolution (the gradient of conv by its input): weight
  /// (C, O / groups, *kernel); `outputPadding` adds to the end of each axis.
  Tensor convTranspose2d(const Tensor &weight, const std::optional<Tensor> &bias = std::nullopt,
                         Ints padding = 0, Ints stride = 1, Ints dilation = 1,
                         Ints outputPadding = 0, int64_t groups = 1) const;
  Tensor convTranspose1d(const Tensor &weight, const std::optional<Tensor> &bias = std::nullopt,
                         Ints padding = 0, Ints stride = 1, Ints dilation = 1,
                         Ints outputPadding = 0, int64_t groups = 1) const;
  Tensor convTranspose3d(const Tensor &weight, const std::optional<Tensor> &bias = std::nullopt,
                         Ints padding = 0, Ints stride = 1, Ints dilation = 1,
                         Ints outputPadding = 0, int64_t groups = 1) const;
  /// Max over windows of the trailing len(kernel) axes (two for an int),
  /// `stride` apart (the kernel when absent), with `dilation`, padding by
  /// -inf (one int, one per axis, or flat pairs, at most half the kernel)
  /// and `ceilMode` (PyTorch's: a last, partial window that starts inside
  /// the input or the left padding). The plain 2-D case with stride ==
  /// kernel is the seed's max_pool2d.
  Tensor maxPool2d(Ints kernel = 2, std::optional<Ints> stride = std::nullopt, Ints dilation = 1,
                   Ints padding = 0, bool ceilMode = false) const;
  /// The average over the same windows; padding counts in the average
  /// unless countIncludePad is false.
  Tensor avgPool2d(Ints kernel = 2, std::optional<Ints> stride = std::nullopt, Ints dilation = 1,
                   Ints padding = 0, bool ceilMode = false, bool countIncludePad = true) const;
  /// softmax(q k^T * scale + mask) v over the last two axes (scale
  /// 1/sqrt(d) when absent): a bool mask keeps where true, a float mask
  /// adds; isCausal masks the future (PyTorch's
  /// `scaled_dot_product_attention`; GQA when key/value have fewer heads).
  Tensor scaledDotProductAttention(const Tensor &key, const Tensor &value,
                                   const std::optional<Tensor> &attnMask = std::nullopt,
                                   bool isCausal = false,
                                   std::optional<double> scale = std::nullopt) const;
  /// Integer labels as one-hot vectors of n classes (f32, as the seed's).
  Tensor oneHot(int64_t n) const;
  /// Cross entropy of logits (classes on axis 1, or 0 for a 1-D self)
  /// against class indices (i32, self's shape without the class axis) or
  /// class probabilities (self's shape); `reduction` "mean", "sum" or
  /// "none"; labelSmoothing in [0, 1] (PyTorch's `cross_entropy`).
  Tensor crossEntropy(const Tensor &target, const std::string &reduction = "mean",
                      double labelSmoothing = 0.0) const;
  /// Negative log likelihood of log-probabilities (classes on axis 1) at
  /// i32 targets, with per-class `weight` and an `ignoreIndex`.
  Tensor nllLoss(const Tensor &target, const std::optional<Tensor> &weight = std::nullopt,
                 std::optional<int64_t> ignoreIndex = std::nullopt,
                 const std::string &reduction = "mean") const;
  /// -(y log p + (1 - y) log(1 - p)) of probabilities (PyTorch's
  /// `binary_cross_entropy`, tinygrad's `binary_crossentropy`).
  Tensor binaryCrossEntropy(const Tensor &target, const std::string &reduction = "mean") const;
  /// The same of logits, stable (`binary_cross_entropy_with_logits`;
  /// tinygrad's `binary_crossentropy_logits`), `posWeight` on the positives.
  Tensor binaryCrossEntropyWithLogits(const Tensor &target, const std::string &reduction = "mean",
                                      const std::optional<Tensor> &posWeight = std::nullopt) const;
  /// tinygrad's `sparse_categorical_crossentropy`: classes on the last axis.
  Tensor sparseCategoricalCrossEntropy(const Tensor &target, int64_t ignoreIndex = -1,
                                       double labelSmoothing = 0.0,
                                       const std::string &reduction = "mean") const;
  /// (x - mean) / sqrt(var + eps) over `axes` (tinygrad's `layernorm`).
  Tensor layernorm(const std::vector<int64_t> &axes = {-1}, double eps = 1e-5) const;

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

/// One index of Tensor::index: an int, a Slice, a new axis (None), an
/// ellipsis (...), or an integer tensor.
struct TensorIndex {
  enum class Kind { Int, Slice, NewAxis, Ellipsis, Tensor };
  Kind kind;
  int64_t i = 0;
  uop::Slice slice;
  std::optional<uop::Tensor> tensor;
  TensorIndex(int v) : kind(Kind::Int), i(v) {}
  TensorIndex(int64_t v) : kind(Kind::Int), i(v) {}
  TensorIndex(uop::Slice s) : kind(Kind::Slice), slice(s) {}
  TensorIndex(const uop::Tensor &t) : kind(Kind::Tensor), tensor(t) {}
  static TensorIndex newAxis() { return TensorIndex(Kind::NewAxis); }
  static TensorIndex ellipsis() { return TensorIndex(Kind::Ellipsis); }

private:
  explicit TensorIndex(Kind k) : kind(k) {}
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
/// Python's `//`, `%`, bitwise and shift operators (integers and bools).
Tensor operator%(const Tensor &a, const Tensor &b);
Tensor operator%(const Tensor &a, Scalar b);
Tensor operator%(Scalar a, const Tensor &b);
Tensor operator&(const Tensor &a, const Tensor &b);
Tensor operator&(const Tensor &a, Scalar b);
Tensor operator&(Scalar a, const Tensor &b);
Tensor operator|(const Tensor &a, const Tensor &b);
Tensor operator|(const Tensor &a, Scalar b);
Tensor operator|(Scalar a, const Tensor &b);
Tensor operator^(const Tensor &a, const Tensor &b);
Tensor operator^(const Tensor &a, Scalar b);
Tensor operator^(Scalar a, const Tensor &b);
Tensor operator~(const Tensor &a);
Tensor operator<<(const Tensor &a, const Tensor &b);
Tensor operator<<(const Tensor &a, Scalar b);
Tensor operator>>(const Tensor &a, const Tensor &b);
Tensor operator>>(const Tensor &a, Scalar b);

/// numpy's broadcast of shapes, or an error ("cannot broadcast (2, 3) with (4,)").
llvm::Expected<Shape> broadcastShapes(llvm::ArrayRef<Shape> shapes);

} // namespace uop

#endif // UOP_FRONTEND_TENSOR_H
