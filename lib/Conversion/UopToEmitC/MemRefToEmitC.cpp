//===- MemRefToEmitC.cpp - uop's memref patterns for the C path -*- C++ -*-===//
//
// Upstream's convert-memref-to-emitc makes every memref a C array and
// indexes it with `size_t`; uop keeps its allocas (a private memref, see
// CTypeConverter: `float v7[16];`, `float v8;` for one element), but a
// buffer is the seed's restrict pointer, which upstream's load and store do
// not take, and the seed indexes with the int the kernel computed. So
// these are uop's:
//
// * memref.load/store on a pointer, an array or a scalar variable:
//   `data[i]` with the i32 `i` where the index was an index_cast of it
//   (the seed's `data0[((ridx0*64)+ridx1)]`, not `data0[(size_t)(...)]`),
//   a scalar variable read and assigned as itself;
// * memref.alloc/dealloc (large per-thread arrays, a standalone host's
//   temporaries): `(float*) malloc(n * sizeof(float))`, `free(p)`; upstream's
//   alloc yields an emitc.ptr, not uop's restrict pointer;
// * memref.atomic_rmw addi (a run-time check's failure count):
//   `__atomic_fetch_add(&p[i], v, __ATOMIC_SEQ_CST)`, CUDA `atomicAdd(&p[i], v)`;
// * memref.prefetch: `__builtin_prefetch(&p[i], rw, locality)`, CUDA
//   PTX's `prefetch.global.L1` (what uop-prefetch-to-nvvm emits).
// * memref.view of the block's dynamic shared memory (CUDA, uop-to-gpu's
//   workgroup memory past 48 KiB): `(half*) &smem_dynamic[32768]`.
//
// Upstream's alloca pattern makes the private memrefs (emitc.variable of
// the converted array or scalar type).
//
//===----------------------------------------------------------------------===//

#include "Uop/Conversion/Passes.h"

using namespace mlir;
using namespace mlir::uop;

/// The C index of `original` (a memref index), given its converted value:
/// the integer it was cast from, if it was.
static Value cIndex(Value original, Value converted, ConversionPatternRewriter &rewriter) {
  if (auto cast = original.getDefiningOp<arith::IndexCastOp>())
    if (isa<IntegerType>(cast.getIn().getType()))
      return rewriter.getRemappedValue(cast.getIn());
  return converted;
}

FailureOr<Value> mlir::uop::getCElement(Location loc, Value memref, ValueRange indices,
                                        ValueRange convertedIndices, Type elementType,
                                        ConversionPatternRewriter &rewriter) {
  if (isa<emitc::LValueType>(memref.getType()))
    return memref;
  SmallVector<Value> idx;
  for (auto [o, c] : llvm::zip(indices, convertedIndices))
    idx.push_back(cIndex(o, c, rewriter));
  if (!isa<emitc::ArrayType>(memref.getType()) && idx.size() != 1)
    return failure();
  return emitc::SubscriptOp::create(rewriter, loc, emitc::LValueType::get(elementType), memref, idx)
      .getResult();
}

namespace {

struct LoadLowering : OpConversionPattern<memref::LoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(memref::LoadOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "element type has no C form");
    FailureOr<Value> lv = getCElement(op.getLoc(), adaptor.getMemref(), op.getIndices(),
                                      adaptor.getIndices(), type, rewriter);
    if (failed(lv))
      return rewriter.notifyMatchFailure(op, "a buffer is indexed by one index");
    rewriter.replaceOpWithNewOp<emitc::LoadOp>(op, type, *lv);
    return success();
  }
};

struct StoreLowering : OpConversionPattern<memref::StoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(memref::StoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getValueToStore().getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "element type has no C form");
    FailureOr<Value> lv = getCElement(op.getLoc(), adaptor.getMemref(), op.getIndices(),
                                      adaptor.getIndices(), type, rewriter);
    if (failed(lv))
      return rewriter.notifyMatchFailure(op, "a buffer is indexed by one index");
    rewriter.replaceOpWithNewOp<emitc::AssignOp>(op, *lv, adaptor.getValue());
    return success();
  }
};

/// memref.alloc -> `(float*) malloc(n * sizeof(float))`.
struct AllocLowering : OpConversionPattern<memref::AllocOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(memref::AllocOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    std::string elem = CTypeConverter::getCTypeName(op.getType().getElementType());
    if (!type || !isa<emitc::OpaqueType>(type) || elem.empty())
      return rewriter.notifyMatchFailure(op, "not a buffer C can allocate");
    MLIRContext *ctx = op.getContext();
    auto size = emitc::OpaqueAttr::get(ctx, std::to_string(op.getType().getNumElements()) +
                                                " * sizeof(" + elem + ")");
    // The cast, which C++ (CUDA) needs, is part of the callee's text.
    rewriter.replaceOpWithNewOp<emitc::CallOpaqueOp>(op, type, "(" + elem + "*) malloc",
                                                     ValueRange{}, rewriter.getArrayAttr({size}));
    return success();
  }
};

/// memref.dealloc -> `free(p)`.
/// The address of a buffer as an integer (the run-time check that a heap
/// allocation did not fail compares it with 0): a cast of the pointer.
struct ExtractPointerLowering : OpConversionPattern<memref::ExtractAlignedPointerAsIndexOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(memref::ExtractAlignedPointerAsIndexOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type || !isa<emitc::OpaqueType>(adaptor.getSource().getType()))
      return rewriter.notifyMatchFailure(op, "not a buffer pointer");
    rewriter.replaceOpWithNewOp<emitc::CastOp>(op, type, adaptor.getSource());
    return success();
  }
};

struct DeallocLowering : OpConversionPattern<memref::DeallocOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(memref::DeallocOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    emitc::CallOpaqueOp::create(rewriter, op.getLoc(), TypeRange{}, "free",
                                ValueRange{adaptor.getMemref()});
    rewriter.eraseOp(op);
    return success();
  }
};

/// memref.atomic_rmw addi -> an atomic add that returns the old value.
struct AtomicAddLowering : OpConversionPattern<memref::AtomicRMWOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(memref::AtomicRMWOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (op.getKind() != arith::AtomicRMWKind::addi && op.getKind() != arith::AtomicRMWKind::addf)
      return rewriter.notifyMatchFailure(op, "only atomic adds have a C form here");
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "element type has no C form");
    Location loc = op.getLoc();
    FailureOr<Value> lv = getCElement(loc, adaptor.getMemref(), op.getIndices(),
                                      adaptor.getIndices(), type, rewriter);
    if (failed(lv))
      return rewriter.notifyMatchFailure(op, "a buffer is indexed by one index");
    bool cuda = static_cast<const CTypeConverter *>(getTypeConverter())->isCuda();
    if (!cuda && op.getKind() != arith::AtomicRMWKind::addi)
      return rewriter.notifyMatchFailure(op, "C's __atomic_fetch_add takes integers");
    Value ptr = emitc::AddressOfOp::create(rewriter, loc, emitc::PointerType::get(type), *lv);
    // The old value, where it is used (else no variable: -Wunused-variable).
    SmallVector<Type> results;
    if (!op->use_empty())
      results.push_back(type);
    emitc::CallOpaqueOp call;
    if (cuda) {
      call = emitc::CallOpaqueOp::create(rewriter, loc, results, "atomicAdd",
                                         ValueRange{ptr, adaptor.getValue()});
    } else {
      MLIRContext *ctx = op.getContext();
      Type indexType = rewriter.getIndexType();
      auto args =
          rewriter.getArrayAttr({IntegerAttr::get(indexType, 0), IntegerAttr::get(indexType, 1),
                                 emitc::OpaqueAttr::get(ctx, "__ATOMIC_SEQ_CST")});
      call = emitc::CallOpaqueOp::create(rewriter, loc, results, "__atomic_fetch_add",
                                         ValueRange{ptr, adaptor.getValue()}, args);
    }
    if (op->use_empty())
      rewriter.eraseOp(op);
    else
      rewriter.replaceOp(op, call.getResults());
    return success();
  }
};

/// memref.prefetch -> `__builtin_prefetch(&p[i], rw, locality)`; CUDA
/// PTX's prefetch.global.L1, as uop-prefetch-to-nvvm.
struct PrefetchLowering : OpConversionPattern<memref::PrefetchOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(memref::PrefetchOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type elem = getTypeConverter()->convertType(op.getMemRefType().getElementType());
    if (!elem)
      return rewriter.notifyMatchFailure(op, "element type has no C form");
    Location loc = op.getLoc();
    FailureOr<Value> lv = getCElement(loc, adaptor.getMemref(), op.getIndices(),
                                      adaptor.getIndices(), elem, rewriter);
    if (failed(lv))
      return rewriter.notifyMatchFailure(op, "a buffer is indexed by one index");
    Value ptr = emitc::AddressOfOp::create(rewriter, loc, emitc::PointerType::get(elem), *lv);
    if (static_cast<const CTypeConverter *>(getTypeConverter())->isCuda()) {
      emitc::VerbatimOp::create(rewriter, loc,
                                "asm volatile(\"prefetch.global.L1 [%0];\" :: \"l\"({}));",
                                ValueRange{ptr});
    } else {
      MLIRContext *ctx = op.getContext();
      auto args = rewriter.getArrayAttr(
          {IntegerAttr::get(rewriter.getIndexType(), 0),
           emitc::OpaqueAttr::get(ctx, op.getIsWrite() ? "1" : "0"),
           emitc::OpaqueAttr::get(ctx, std::to_string(op.getLocalityHint()))});
      emitc::CallOpaqueOp::create(rewriter, loc, TypeRange{}, "__builtin_prefetch", ValueRange{ptr},
                                  args);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// memref.view of a byte pointer (the dynamic shared memory) -> `(T*)
/// &p[offset]`.
struct ViewLowering : OpConversionPattern<memref::ViewOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(memref::ViewOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    auto base = dyn_cast<emitc::PointerType>(adaptor.getSource().getType());
    if (!type || !isa<emitc::PointerType>(type) || !base || !adaptor.getSizes().empty())
      return rewriter.notifyMatchFailure(op, "only a static view of a C pointer");
    Location loc = op.getLoc();
    Value shift = cIndex(op.getByteShift(), adaptor.getByteShift(), rewriter);
    Value byte =
        emitc::SubscriptOp::create(rewriter, loc, emitc::LValueType::get(base.getPointee()),
                                   adaptor.getSource(), ValueRange{shift});
    Value at = emitc::AddressOfOp::create(rewriter, loc, base, byte);
    rewriter.replaceOpWithNewOp<emitc::CastOp>(op, type, at);
    return success();
  }
};

} // namespace

void mlir::uop::populateUopMemRefToEmitCPatterns(const CTypeConverter &converter,
                                                 RewritePatternSet &patterns) {
  // Above upstream's load, store and alloc, which take arrays only.
  patterns.add<LoadLowering, StoreLowering, AllocLowering, DeallocLowering, ExtractPointerLowering,
               AtomicAddLowering, PrefetchLowering, ViewLowering>(converter, patterns.getContext(),
                                                                  /*benefit=*/2);
}
