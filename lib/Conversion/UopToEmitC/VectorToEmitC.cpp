//===- VectorToEmitC.cpp - tensor-core fragments as CUDA C ------*- C++ -*-===//
//
// The only vectors that reach uop-to-emitc are uop-lower-gemm's: the
// register fragments of its nvgpu ops (NVGPUToEmitC.cpp), the pairs of
// accumulators its epilogue stores, and the staged CUDA-core GEMM's 16-byte
// shared loads and stores. Upstream has no conversion from the
// vector dialect to EmitC; in CUDA C a vector is the prelude's
// `uop_vec<T, N>` (CTypeConverter), its elements row-major, and:
//
// * vector.extract of an element -> `v[k]` (k the row-major position);
//   of a row -> `uop_slice<M>(v, k)`;
// * vector.to_elements -> `v[0]`, `v[1]`, ...; a to_elements of a row that
//   vector.extract took out of a fragment is first the elements of the
//   fragment itself (simplifyVectorFragments), so that the B tiles the
//   GEMM takes out of an ldmatrix.x4 are one `uop_slice<4>(frag, 4)` each,
//   not a temporary row and its elements;
// * vector.from_elements -> `uop_vec_of<float>(a, b, c, d)`, or, where the
//   elements are a run of one vector's, that vector or `uop_slice<M>(v, k)`;
// * vector.store -> `uop_vec_store(&p[i], v)`: the elements one by one (the
//   PTX path's store has the element's alignment only);
// * vector.load -> `uop_vec_load<N>(&p[i])`, the elements one by one, or
//   with an `alignment` of the whole vector (up to 16 bytes) one access,
//   `uop_vec_load_aligned<N>(&p[i])`.
//
// Other vector ops (and dynamic positions) are an error at the op.
//
//===----------------------------------------------------------------------===//

#include "Uop/Conversion/Passes.h"

using namespace mlir;
using namespace mlir::uop;

/// The row-major position in `type` of the element or row at `position`.
static int64_t linearPosition(VectorType type, ArrayRef<int64_t> position) {
  int64_t k = 0;
  ArrayRef<int64_t> shape = type.getShape();
  for (size_t d = 0; d < shape.size(); ++d)
    k = k * shape[d] + (d < position.size() ? position[d] : 0);
  return k;
}

/// Whether every position of `op` is a constant.
static bool hasStaticPosition(vector::ExtractOp op) { return op.getDynamicPosition().empty(); }

void mlir::uop::simplifyVectorFragments(ModuleOp module) {
  SmallVector<vector::ToElementsOp> work;
  module.walk([&](vector::ToElementsOp op) { work.push_back(op); });
  for (vector::ToElementsOp op : work) {
    auto row = op.getSource().getDefiningOp<vector::ExtractOp>();
    if (!row || !hasStaticPosition(row))
      continue;
    OpBuilder b(op);
    SmallVector<int64_t> position(row.getStaticPosition());
    position.push_back(0);
    for (auto [i, result] : llvm::enumerate(op.getResults())) {
      position.back() = static_cast<int64_t>(i);
      result.replaceAllUsesWith(
          vector::ExtractOp::create(b, op.getLoc(), row.getSource(), position).getResult());
    }
    op.erase();
    if (row->use_empty())
      row.erase();
  }
}

/// `v[k]`, an element of the C vector `v`.
static Value element(Location loc, Value v, int64_t k, Type elem,
                     ConversionPatternRewriter &rewriter) {
  Value at = emitc::LiteralOp::create(rewriter, loc, rewriter.getI32Type(), std::to_string(k));
  Value lv =
      emitc::SubscriptOp::create(rewriter, loc, emitc::LValueType::get(elem), v, ValueRange{at});
  return emitc::LoadOp::create(rewriter, loc, elem, lv);
}

/// `uop_slice<m>(v, k)`: elements k .. k + m - 1 of `v`, a vector of type `type`.
static Value slice(Location loc, Type type, Value v, int64_t k, int64_t m,
                   ConversionPatternRewriter &rewriter) {
  Value at = emitc::LiteralOp::create(rewriter, loc, rewriter.getI32Type(), std::to_string(k));
  return emitc::CallOpaqueOp::create(rewriter, loc, type, "uop_slice<" + std::to_string(m) + ">",
                                     ValueRange{v, at})
      .getResult(0);
}

namespace {

/// vector.extract (static position) -> `v[k]` or `uop_slice<m>(v, k)`.
struct ExtractLowering : OpConversionPattern<vector::ExtractOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(vector::ExtractOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (!hasStaticPosition(op) || !type || !isa<emitc::OpaqueType>(adaptor.getSource().getType()))
      return rewriter.notifyMatchFailure(op, "only a static position in a C vector");
    VectorType source = op.getSourceVectorType();
    int64_t k = linearPosition(source, op.getStaticPosition());
    if (auto row = dyn_cast<VectorType>(op.getType()))
      rewriter.replaceOp(
          op, slice(op.getLoc(), type, adaptor.getSource(), k, row.getNumElements(), rewriter));
    else
      rewriter.replaceOp(op, element(op.getLoc(), adaptor.getSource(), k, type, rewriter));
    return success();
  }
};

/// vector.to_elements -> `v[0]`, `v[1]`, ...
struct ToElementsLowering : OpConversionPattern<vector::ToElementsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(vector::ToElementsOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type elem = getTypeConverter()->convertType(op.getSource().getType().getElementType());
    if (!elem || !isa<emitc::OpaqueType>(adaptor.getSource().getType()))
      return rewriter.notifyMatchFailure(op, "not a C vector");
    SmallVector<Value> elements;
    for (int64_t k = 0, e = op.getNumResults(); k < e; ++k)
      elements.push_back(element(op.getLoc(), adaptor.getSource(), k, elem, rewriter));
    rewriter.replaceOp(op, elements);
    return success();
  }
};

/// vector.from_elements -> the vector its elements are a run of, or
/// `uop_vec_of<T>(a, b, ...)`.
struct FromElementsLowering : OpConversionPattern<vector::FromElementsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(vector::FromElementsOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    VectorType vectorType = op.getDest().getType();
    Type type = getTypeConverter()->convertType(vectorType);
    std::string elem = CTypeConverter::getCTypeName(vectorType.getElementType());
    if (!type || elem.empty())
      return rewriter.notifyMatchFailure(op, "not a C vector");
    Location loc = op.getLoc();
    // Elements k, k + 1, ... of one vector (of the same element type).
    Value source;
    int64_t first = -1;
    for (auto [i, v] : llvm::enumerate(op.getElements())) {
      auto e = v.getDefiningOp<vector::ExtractOp>();
      if (!e || !hasStaticPosition(e) || isa<VectorType>(e.getType()) ||
          (source && e.getSource() != source)) {
        source = nullptr;
        break;
      }
      int64_t k = linearPosition(e.getSourceVectorType(), e.getStaticPosition());
      if (!source) {
        source = e.getSource();
        first = k;
      } else if (k != first + static_cast<int64_t>(i)) {
        source = nullptr;
        break;
      }
    }
    int64_t n = vectorType.getNumElements();
    if (source) {
      Value converted = rewriter.getRemappedValue(source);
      if (converted && isa<emitc::OpaqueType>(converted.getType())) {
        if (first == 0 && cast<VectorType>(source.getType()).getNumElements() == n &&
            converted.getType() == type)
          rewriter.replaceOp(op, converted);
        else
          rewriter.replaceOp(op, slice(loc, type, converted, first, n, rewriter));
        return success();
      }
    }
    rewriter.replaceOpWithNewOp<emitc::CallOpaqueOp>(op, type, "uop_vec_of<" + elem + ">",
                                                     adaptor.getElements());
    return success();
  }
};

/// vector.store -> `uop_vec_store(&p[i], v)`.
struct StoreLowering : OpConversionPattern<vector::StoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(vector::StoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elem = getTypeConverter()->convertType(op.getMemRefType().getElementType());
    if (!elem || !isa<emitc::OpaqueType>(adaptor.getValueToStore().getType()) ||
        op.getVectorType().getRank() != 1)
      return rewriter.notifyMatchFailure(op, "not a C vector");
    FailureOr<Value> lv =
        getCElement(loc, adaptor.getBase(), op.getIndices(), adaptor.getIndices(), elem, rewriter);
    if (failed(lv) || !isa<emitc::LValueType>(lv->getType()))
      return rewriter.notifyMatchFailure(op, "not a buffer C can address");
    Value ptr = emitc::AddressOfOp::create(rewriter, loc, emitc::PointerType::get(elem), *lv);
    rewriter.replaceOpWithNewOp<emitc::CallOpaqueOp>(op, TypeRange{}, "uop_vec_store",
                                                     ValueRange{ptr, adaptor.getValueToStore()});
    return success();
  }
};

/// vector.load -> `uop_vec_load<N>(&p[i])`, or, where the op says the
/// address is aligned to the whole vector, `uop_vec_load_aligned<N>(&p[i])`
/// (one access of N elements: the staged CUDA-core GEMM's 16-byte shared
/// loads).
struct LoadLowering : OpConversionPattern<vector::LoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(vector::LoadOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    VectorType vectorType = op.getVectorType();
    Type type = getTypeConverter()->convertType(vectorType);
    Type elem = getTypeConverter()->convertType(op.getMemRefType().getElementType());
    if (!type || !elem || !isa<emitc::OpaqueType>(type) || vectorType.getRank() != 1)
      return rewriter.notifyMatchFailure(op, "not a C vector");
    FailureOr<Value> lv =
        getCElement(loc, adaptor.getBase(), op.getIndices(), adaptor.getIndices(), elem, rewriter);
    if (failed(lv) || !isa<emitc::LValueType>(lv->getType()))
      return rewriter.notifyMatchFailure(op, "not a buffer C can address");
    Value ptr = emitc::AddressOfOp::create(rewriter, loc, emitc::PointerType::get(elem), *lv);
    int64_t n = vectorType.getNumElements();
    int64_t bytes = n * vectorType.getElementTypeBitWidth() / 8;
    bool aligned = op.getAlignment() && *op.getAlignment() >= (uint64_t)bytes &&
                   llvm::isPowerOf2_64(bytes) && bytes <= 16;
    std::string callee =
        (aligned ? "uop_vec_load_aligned<" : "uop_vec_load<") + std::to_string(n) + ">";
    rewriter.replaceOpWithNewOp<emitc::CallOpaqueOp>(op, type, callee, ValueRange{ptr});
    return success();
  }
};

} // namespace

void mlir::uop::populateUopVectorToEmitCPatterns(const CTypeConverter &converter,
                                                 RewritePatternSet &patterns) {
  patterns.add<ExtractLowering, ToElementsLowering, FromElementsLowering, LoadLowering,
               StoreLowering>(
      converter, patterns.getContext());
}
