//===- UopGemm.cpp - GEMM-shaped kernels (the seed's match_gemm) -*- C++ -*-===//

#include "Uop/IR/UopGemm.h"
#include "Uop/IR/UopViews.h"

#include "Uop/IR/UopDialect.h"
#include "Uop/IR/UopOps.h"
#include "Uop/IR/UopTypes.h"

using namespace mlir;
using namespace mlir::uop;

namespace {

/// A view of a buffer: the movement ops from the viewed value (the first)
/// down to the buffer, and the buffer's element type.
struct View {
  BufferOp buffer;
  SmallVector<Operation *> moves;
};

/// Whether `cast` converts a float to a float at least as wide (f16 -> f32,
/// bf16 -> f32, or to itself).
bool isWideningFloatCast(CastOp cast) {
  auto from = dyn_cast<FloatType>(getDType(cast.getSrc().getType()));
  auto to = dyn_cast<FloatType>(getDType(cast.getType()));
  return from && to && from.getWidth() <= to.getWidth() &&
         (from == to || from.getWidth() < to.getWidth());
}

/// The view under `v`: movement ops and widening float casts down to a
/// uop.buffer of values (a tensor).
FailureOr<View> viewOf(Value v, std::string &why) {
  View view;
  while (Operation *def = v.getDefiningOp()) {
    if (isMovement(def)) {
      view.moves.push_back(def);
      v = def->getOperand(0);
      continue;
    }
    if (auto cast = dyn_cast<CastOp>(def)) {
      if (!isWideningFloatCast(cast)) {
        why = "an operand is cast other than from a float to a wider float";
        return failure();
      }
      v = cast.getSrc();
      continue;
    }
    if (auto buf = dyn_cast<BufferOp>(def)) {
      if (!isa<RankedTensorType>(buf.getType())) {
        why = "an operand is memory, not a buffer's values";
        return failure();
      }
      view.buffer = buf;
      return view;
    }
    why = "an operand of the product is '" + def->getName().getStringRef().str() +
          "', not a view of a buffer";
    return failure();
  }
  why = "an operand of the product is not a view of a buffer";
  return failure();
}

/// The flat element of the buffer that `view` reads at `idx` (an index of
/// the viewed value), through its movement ops.
int64_t flatIndex(const View &view, ArrayRef<int64_t> at) {
  SmallVector<int64_t> idx(at);
  for (Operation *op : view.moves)
    idx = getMovementSourceIndex(op, idx);
  int64_t flat = 0;
  BufferOp buffer = view.buffer;
  for (auto [i, d] : llvm::zip(idx, getShape(buffer.getType())))
    flat = flat * d + i;
  return flat;
}

/// The offset and the strides along (m, n, k) of `view` over a product of
/// `shape` [M, N, K], if it is affine: every index along each axis, with the
/// other axes at 0 and at their last index, is where the strides say.
std::optional<std::array<int64_t, 4>> affineView(const View &view, ArrayRef<int64_t> shape) {
  std::array<int64_t, 4> r{}; // offset, stride m, n, k
  int64_t zero[3] = {0, 0, 0};
  r[0] = flatIndex(view, zero);
  for (int d = 0; d < 3; ++d) {
    int64_t e[3] = {0, 0, 0};
    e[d] = shape[d] > 1 ? 1 : 0;
    r[1 + d] = shape[d] > 1 ? flatIndex(view, e) - r[0] : 0;
  }
  for (int d = 0; d < 3; ++d)
    for (int64_t corner = 0; corner < 2; ++corner)
      for (int64_t i = 0; i < shape[d]; ++i) {
        int64_t idx[3];
        int64_t expect = r[0];
        for (int e = 0; e < 3; ++e) {
          idx[e] = e == d ? i : corner * (shape[e] - 1);
          expect += idx[e] * r[1 + e];
        }
        if (flatIndex(view, idx) != expect)
          return std::nullopt;
      }
  return r;
}

std::optional<GemmMatch> match(func::FuncOp kernel, std::string &why) {
  if (kernel.isExternal() || !llvm::hasSingleElement(kernel.getBody())) {
    why = "not a kernel with a body";
    return std::nullopt;
  }
  auto ret = dyn_cast<func::ReturnOp>(kernel.getBody().front().getTerminator());
  if (!ret || ret.getNumOperands() != 1 || !isa<RankedTensorType>(ret.getOperand(0).getType())) {
    why = "not a shaped kernel (L1) of one tensor value";
    return std::nullopt;
  }
  GemmMatch g;
  Value root = ret.getOperand(0);
  g.outType = getDType(root.getType());
  if (auto cast = root.getDefiningOp<CastOp>()) {
    if (!isa<FloatType>(g.outType) || !isa<FloatType>(getDType(cast.getSrc().getType()))) {
      why = "the value is a cast other than float to float";
      return std::nullopt;
    }
    root = cast.getSrc();
  }
  auto reduce = root.getDefiningOp<ReduceOp>();
  if (!reduce || reduce.getKind() != ReduceKind::Add || reduce.getPop() != 1) {
    why = "the value is not a reduce-add of one axis";
    return std::nullopt;
  }
  ArrayRef<int64_t> shape = getShape(reduce.getSrc().getType());
  if (shape.size() != 3) {
    why = "the reduction's source is not [M, N, K]";
    return std::nullopt;
  }
  g.accType = getDType(reduce.getType());
  if (!isa<FloatType>(g.accType)) {
    why = "the reduction is not of floats";
    return std::nullopt;
  }
  Value prod = reduce.getSrc();
  if (auto cast = prod.getDefiningOp<CastOp>()) {
    if (!isWideningFloatCast(cast)) {
      why = "the reduced value is cast other than to a wider float";
      return std::nullopt;
    }
    prod = cast.getSrc();
  }
  auto mul = prod.getDefiningOp<MulOp>();
  if (!mul) {
    why = "the reduced value is not a product";
    return std::nullopt;
  }
  g.exactProducts = getDType(mul.getType()) == g.accType;
  g.m = shape[0];
  g.n = shape[1];
  g.k = shape[2];
  View views[2];
  std::array<int64_t, 4> affine[2];
  for (int i = 0; i < 2; ++i) {
    FailureOr<View> v = viewOf(mul->getOperand(i), why);
    if (failed(v))
      return std::nullopt;
    views[i] = *v;
    std::optional<std::array<int64_t, 4>> a = affineView(*v, shape);
    if (!a) {
      why = "an operand's view is not affine in (m, n, k)";
      return std::nullopt;
    }
    affine[i] = *a;
  }
  // A is broadcast along N, B along M (the seed: {1} and {0}).
  auto isA = [&](const std::array<int64_t, 4> &s) {
    return s[2] == 0 && (g.m == 1 || s[1] != 0) && (g.k == 1 || s[3] != 0);
  };
  auto isB = [&](const std::array<int64_t, 4> &s) {
    return s[1] == 0 && (g.n == 1 || s[2] != 0) && (g.k == 1 || s[3] != 0);
  };
  int ai = isA(affine[0]) && isB(affine[1]) ? 0 : isA(affine[1]) && isB(affine[0]) ? 1 : -1;
  if (ai < 0) {
    why = "the operands are not broadcast along different output axes (A along N, B along M)";
    return std::nullopt;
  }
  auto operand = [&](int i, int64_t s0, int64_t s1) {
    GemmOperand o;
    o.slot = views[i].buffer.getSlotAttr().getInt();
    o.size = getNumElements(views[i].buffer.getType());
    o.dtype = getDType(views[i].buffer.getType());
    o.offset = affine[i][0];
    o.stride[0] = s0;
    o.stride[1] = s1;
    return o;
  };
  const auto &sa = affine[ai], &sb = affine[1 - ai];
  g.a = operand(ai, sa[1], sa[3]);
  g.b = operand(1 - ai, sb[3], sb[2]);
  if (g.a.dtype != g.b.dtype) {
    why = "the operands' buffers have different dtypes";
    return std::nullopt;
  }
  g.inType = g.a.dtype;
  g.outSlot = 0;
  kernel.walk([&](BufferOp buf) { g.outSlot = std::max(g.outSlot, buf.getSlotAttr().getInt() + 1); });
  return g;
}

} // namespace

std::optional<GemmMatch> mlir::uop::matchGemm(func::FuncOp kernel) {
  std::string why;
  return match(kernel, why);
}

std::string mlir::uop::explainNotGemm(func::FuncOp kernel) {
  std::string why;
  return match(kernel, why) ? std::string() : why;
}

bool mlir::uop::fitsTensorCore(const GemmMatch &g, MmaAttr mma) {
  if (!mma || mma.getWarpgroup() || mma.getA() != g.inType || mma.getC() != g.accType)
    return false;
  if (g.m % mma.getM() || g.n % mma.getN() || g.k % mma.getK())
    return false;
  // 16-byte copies of rows: a row (of the stored layout) is contiguous and
  // every row starts 16 bytes aligned.
  int64_t vec = 16 / std::max<int64_t>(1, g.inType.getIntOrFloatBitWidth() / 8);
  auto aligned = [&](const GemmOperand &o, int64_t rowStride) {
    return o.offset % vec == 0 && rowStride % vec == 0;
  };
  bool aOk = g.a.rowMajor() && aligned(g.a, g.a.stride[0]);
  bool bOk = (g.b.rowMajor() && aligned(g.b, g.b.stride[0])) ||
             (g.b.colMajor() && aligned(g.b, g.b.stride[1]));
  return aOk && bOk;
}

std::string mlir::uop::explainNotStagedGemm(const GemmMatch &g) {
  if (!g.inType.isF32() || !g.accType.isF32() || !g.exactProducts || !isa<FloatType>(g.outType))
    return "f32 operands multiplied and summed in f32";
  auto aligned = [](const GemmOperand &o) {
    return o.rowMajor() && o.offset % 4 == 0 && o.stride[0] % 4 == 0;
  };
  if (!aligned(g.a) || !aligned(g.b))
    return "row-major A (M x K) and B (K x N), rows 16-byte aligned";
  return "";
}

bool mlir::uop::fitsWarpgroupMma(const GemmMatch &g, MmaAttr mma) {
  if (!mma || !mma.getWarpgroup() || mma.getA() != g.inType || mma.getC() != g.accType)
    return false;
  if (g.m % mma.getM() || g.n % mma.getN() || g.k % mma.getK())
    return false;
  int64_t vec = 16 / std::max<int64_t>(1, g.inType.getIntOrFloatBitWidth() / 8);
  auto aligned = [&](const GemmOperand &o, int64_t rowStride) {
    return o.offset % vec == 0 && rowStride % vec == 0;
  };
  return g.a.rowMajor() && aligned(g.a, g.a.stride[0]) &&
         ((g.b.rowMajor() && aligned(g.b, g.b.stride[0])) ||
          (g.b.colMajor() && aligned(g.b, g.b.stride[1])));
}

DictionaryAttr TensorMapSpec::toAttr(Builder &b) const {
  auto i64 = [&](int64_t v) { return b.getI64IntegerAttr(v); };
  return b.getDictionaryAttr({
      b.getNamedAttr("param", i64(param)),
      b.getNamedAttr("type", TypeAttr::get(type)),
      b.getNamedAttr("offset", i64(offset)),
      b.getNamedAttr("dims", b.getDenseI64ArrayAttr(dims)),
      b.getNamedAttr("stride", i64(stride)),
      b.getNamedAttr("box", b.getDenseI64ArrayAttr(box)),
      b.getNamedAttr("swizzle", i64(swizzle)),
  });
}

std::optional<TensorMapSpec> TensorMapSpec::fromAttr(Attribute a) {
  auto d = dyn_cast<DictionaryAttr>(a);
  if (!d)
    return std::nullopt;
  auto i64 = [&](StringRef name, int64_t &out) {
    auto v = d.getAs<IntegerAttr>(name);
    if (v)
      out = v.getInt();
    return bool(v);
  };
  auto pair = [&](StringRef name, std::array<int64_t, 2> &out) {
    auto v = d.getAs<DenseI64ArrayAttr>(name);
    if (!v || v.size() != 2)
      return false;
    llvm::copy(v.asArrayRef(), out.begin());
    return true;
  };
  TensorMapSpec s;
  auto type = d.getAs<TypeAttr>("type");
  if (!type || !i64("param", s.param) || !i64("offset", s.offset) || !i64("stride", s.stride) ||
      !i64("swizzle", s.swizzle) || !pair("dims", s.dims) || !pair("box", s.box))
    return std::nullopt;
  s.type = type.getValue();
  return s;
}
