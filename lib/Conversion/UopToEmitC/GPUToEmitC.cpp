//===- GPUToEmitC.cpp - gpu ops as CUDA C -----------------------*- C++ -*-===//
//
// Upstream has no conversion from the gpu dialect to EmitC; these are the
// seed's CUDARenderer on uop-to-gpu's output:
//
// * gpu.func (a kernel) -> `extern "C" __global__ __launch_bounds__(N) void
//   r_64(float* __restrict__ v1, ...)`, N its known block size; its
//   workgroup attributions -> `__shared__ float smem0[256];` at its start
//   (`__shared__ __align__(128) half smem0[6144];` where `llvm.align` says)
//   (EmitC has no address spaces: a verbatim declaration and a literal
//   naming it);
// * gpu.thread_id/block_id/block_dim/grid_dim x|y|z -> `threadIdx.x`, ...
//   (the dimension uop-to-gpu chose: `.x` is the fastest-varying axis, the
//   seed's order);
// * gpu.barrier -> `__syncthreads()`, gpu.return -> `return`;
// * gpu.dynamic_shared_memory (uop-to-gpu's workgroup memory past 48 KiB)
//   -> `extern __shared__ __align__(1024) int8_t smem_dynamic[];` and a
//   literal naming it (aligned as uop-dynamic-shared-to-nvvm aligns the PTX
//   path's);
// * gpu.launch_func (in the host) -> `r_64<<<dim3(4, 1, 1), dim3(16, 1, 1)>>>(v1, v2)`,
//   with dynamic shared memory `<<<grid, block, bytes>>>` after the
//   `cudaFuncSetAttribute` that allows the kernel that many bytes (the
//   runtime does the same with the driver API).
//
//===----------------------------------------------------------------------===//

#include "Uop/Conversion/Passes.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::uop;

namespace {

/// gpu.func kernel -> emitc.func with CUDA's specifiers.
struct KernelLowering : OpConversionPattern<gpu::GPUFuncOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(gpu::GPUFuncOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!op.isKernel() || op.getNumResults() != 0 || op.getNumPrivateAttributions())
      return rewriter.notifyMatchFailure(op, "only kernels without results have a CUDA C form");
    MLIRContext *ctx = op.getContext();
    Location loc = op.getLoc();
    const TypeConverter &converter = *getTypeConverter();
    Block &entry = op.getBody().front();
    TypeConverter::SignatureConversion signature(entry.getNumArguments());
    SmallVector<Type> argTypes;
    for (auto [i, t] : llvm::enumerate(op.getArgumentTypes())) {
      Type c = converter.convertType(t);
      if (!c)
        return rewriter.notifyMatchFailure(op, "a parameter has no C type");
      signature.addInputs(i, c);
      argTypes.push_back(c);
    }
    // Workgroup memory: `__shared__ T smemK[N];` and a literal naming it,
    // at the start of the body (moved into the new entry block below).
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&entry);
    for (auto [k, attribution] : llvm::enumerate(op.getWorkgroupAttributions())) {
      auto type = cast<MemRefType>(attribution.getType());
      Type ptr = converter.convertType(type);
      std::string elem = CTypeConverter::getCTypeName(type.getElementType());
      if (!ptr || elem.empty())
        return rewriter.notifyMatchFailure(op, "workgroup memory of a type C has no array of");
      std::string name = "smem" + std::to_string(k);
      // Aligned as the PTX path's (`llvm.align`: uop-lower-gemm's tiles, 16
      // bytes a cp.async and an ldmatrix row).
      std::string align;
      if (auto a = dyn_cast_or_null<IntegerAttr>(op.getWorkgroupAttributionAttr(k, "llvm.align")))
        align = "__align__(" + std::to_string(a.getInt()) + ") ";
      emitc::VerbatimOp::create(rewriter, loc,
                                "__shared__ " + align + elem + " " + name + "[" +
                                    std::to_string(type.getNumElements()) + "];");
      Value lit = emitc::LiteralOp::create(rewriter, loc, ptr, name);
      signature.remapInput(op.getNumArguments() + k, lit);
    }
    rewriter.setInsertionPoint(op);
    auto fn =
        emitc::FuncOp::create(rewriter, loc, op.getName(), FunctionType::get(ctx, argTypes, {}));
    SmallVector<Attribute> specifiers = {StringAttr::get(ctx, "extern \"C\""),
                                         StringAttr::get(ctx, "__global__")};
    if (std::optional<ArrayRef<int32_t>> block = op.getKnownBlockSize()) {
      int64_t threads = 1;
      for (int32_t d : *block)
        threads *= d;
      specifiers.push_back(
          StringAttr::get(ctx, "__launch_bounds__(" + std::to_string(threads) + ")"));
    }
    fn.setSpecifiersAttr(ArrayAttr::get(ctx, specifiers));
    rewriter.inlineRegionBefore(op.getBody(), fn.getBody(), fn.end());
    if (!rewriter.applySignatureConversion(&fn.getBody().front(), signature, &converter))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

/// gpu.return -> emitc.return.
struct ReturnLowering : OpConversionPattern<gpu::ReturnOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(gpu::ReturnOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (op.getNumOperands())
      return rewriter.notifyMatchFailure(op, "kernels return nothing");
    rewriter.replaceOpWithNewOp<emitc::ReturnOp>(op, Value());
    return success();
  }
};

/// gpu.thread_id x -> `threadIdx.x`, and the others of the family.
template <typename IdOp> struct IdLowering : OpConversionPattern<IdOp> {
  IdLowering(const TypeConverter &converter, MLIRContext *ctx, StringRef name)
      : OpConversionPattern<IdOp>(converter, ctx), name(name.str()) {}
  LogicalResult matchAndRewrite(IdOp op, typename IdOp::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type type = this->getTypeConverter()->convertType(op.getType());
    if (!type)
      return failure();
    rewriter.replaceOpWithNewOp<emitc::LiteralOp>(
        op, type, name + "." + gpu::stringifyDimension(op.getDimension()).str());
    return success();
  }
  std::string name;
};

/// gpu.barrier -> `__syncthreads()`.
struct BarrierLowering : OpConversionPattern<gpu::BarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(gpu::BarrierOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<emitc::CallOpaqueOp>(op, TypeRange{}, "__syncthreads",
                                                     ValueRange{});
    return success();
  }
};

/// gpu.dynamic_shared_memory -> the `extern __shared__` array.
struct DynamicSharedLowering : OpConversionPattern<gpu::DynamicSharedMemoryOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(gpu::DynamicSharedMemoryOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    std::string elem = CTypeConverter::getCTypeName(op.getType().getElementType());
    if (!type || elem.empty())
      return rewriter.notifyMatchFailure(op, "not bytes C has a type of");
    emitc::VerbatimOp::create(rewriter, op.getLoc(),
                              "extern __shared__ __align__(1024) " + elem + " smem_dynamic[];");
    rewriter.replaceOpWithNewOp<emitc::LiteralOp>(op, type, "smem_dynamic");
    return success();
  }
};

/// gpu.launch_func (constant sizes) -> `name<<<dim3(...), dim3(...)>>>(args)`.
struct LaunchLowering : OpConversionPattern<gpu::LaunchFuncOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(gpu::LaunchFuncOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (op.getAsyncToken() || op.hasClusterSize())
      return rewriter.notifyMatchFailure(op, "only synchronous plain launches have a C form here");
    std::optional<int64_t> shared;
    if (Value bytes = op.getDynamicSharedMemorySize()) {
      shared = getConstantIntValue(bytes);
      if (!shared)
        return rewriter.notifyMatchFailure(op, "dynamic shared memory is not a constant");
    }
    auto dims = [&](std::array<Value, 3> values) -> std::optional<std::string> {
      std::string s = "dim3(";
      for (auto [i, v] : llvm::enumerate(values)) {
        std::optional<int64_t> c = getConstantIntValue(v);
        if (!c)
          return std::nullopt;
        s += (i ? ", " : "") + std::to_string(*c);
      }
      return s + ")";
    };
    std::optional<std::string> grid =
        dims({op.getGridSizeX(), op.getGridSizeY(), op.getGridSizeZ()});
    std::optional<std::string> block =
        dims({op.getBlockSizeX(), op.getBlockSizeY(), op.getBlockSizeZ()});
    if (!grid || !block)
      return rewriter.notifyMatchFailure(op, "launch sizes are not constants");
    std::string kernel = getCFunctionName(op.getKernelName().getValue(), /*isKernel=*/true).str();
    std::string callee = kernel + "<<<" + *grid + ", " + *block;
    if (shared) {
      std::string bytes = std::to_string(*shared);
      MLIRContext *ctx = op.getContext();
      emitc::CallOpaqueOp::create(
          rewriter, op.getLoc(), TypeRange{}, "cudaFuncSetAttribute", ValueRange{},
          rewriter.getArrayAttr(
              {emitc::OpaqueAttr::get(ctx, kernel),
               emitc::OpaqueAttr::get(ctx, "cudaFuncAttributeMaxDynamicSharedMemorySize"),
               emitc::OpaqueAttr::get(ctx, bytes)}));
      callee += ", " + bytes;
    }
    callee += ">>>";
    rewriter.replaceOpWithNewOp<emitc::CallOpaqueOp>(op, TypeRange{}, callee,
                                                     adaptor.getKernelOperands());
    return success();
  }
};

} // namespace

void mlir::uop::populateUopGPUToEmitCPatterns(const CTypeConverter &converter,
                                              RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns
      .add<KernelLowering, ReturnLowering, BarrierLowering, DynamicSharedLowering, LaunchLowering>(
          converter, ctx);
  patterns.add<IdLowering<gpu::ThreadIdOp>>(converter, ctx, "threadIdx");
  patterns.add<IdLowering<gpu::BlockIdOp>>(converter, ctx, "blockIdx");
  patterns.add<IdLowering<gpu::BlockDimOp>>(converter, ctx, "blockDim");
  patterns.add<IdLowering<gpu::GridDimOp>>(converter, ctx, "gridDim");
}
