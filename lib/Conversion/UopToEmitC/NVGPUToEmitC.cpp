//===- NVGPUToEmitC.cpp - tensor-core nvgpu ops as CUDA C -------*- C++ -*-===//
//
// Upstream has no conversion from the nvgpu dialect to EmitC. uop-lower-gemm
// writes a tensor-core GEMM with nvgpu's ldmatrix, mma.sync and cp.async
// ops; here they become calls of small `static __device__ __forceinline__`
// helpers of the CUDA prelude, each one PTX instruction in inline asm, as
// CUTLASS writes them (cute's SM75_U32x4_LDSM_N, SM80_16x8x16_F32F16F16F32_TN,
// SM80_CP_ASYNC_CACHEGLOBAL):
//
// * nvgpu.ldmatrix {numTiles = 4, transpose} -> `uop_ldmatrix_x4(&smem[i])`
//   (`_trans`): `ldmatrix.sync.aligned.m8n8.x4[.trans].shared.b16`, register
//   r of the instruction the halves 2r, 2r + 1 of the `uop_vec<half, 8>`;
// * nvgpu.mma.sync m16n8k16, f16 x f16 + f32 -> `uop_mma_m16n8k16(a, b, c)`:
//   `mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32`, A's 4 and B's 2
//   registers the pairs of halves of `a` and `b` in order, C and D the 4
//   floats of `c` and the result;
// * nvgpu.device_async_copy -> `uop_cp_async_cg<16>(&smem[i], &data[j], n)`
//   (`.ca` below 16 bytes or without bypassL1): `cp.async.{cg,ca}.shared.global
//   [dst], [src], size, src-size`, the bytes of srcElements (the rest zero
//   filled) or all of them;
// * nvgpu.device_async_create_group -> `uop_cp_async_commit()`
//   (`cp.async.commit_group`), nvgpu.device_async_wait {numGroups = N} ->
//   `uop_cp_async_wait<N>()` (`cp.async.wait_group N`, 0 without it). The
//   tokens are nothing in C: an int nobody reads.
//
// The fragments are `uop_vec<T, N>` (VectorToEmitC.cpp), the vector's
// elements row-major: what convert-nvgpu-to-nvvm's bitcasts of the
// instructions' 32-bit registers to vector<2xf16> give the PTX path, so that
// both paths compute the same thing lane by lane.
//
//===----------------------------------------------------------------------===//

#include "Uop/Conversion/Passes.h"

#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::uop;

/// The address of `memref[indices]` (a pointer to its element), in C.
static FailureOr<Value> elementAddress(Location loc, Value original, Value memref,
                                       ValueRange indices, ValueRange convertedIndices,
                                       const TypeConverter &converter,
                                       ConversionPatternRewriter &rewriter) {
  Type elem = converter.convertType(cast<MemRefType>(original.getType()).getElementType());
  if (!elem)
    return failure();
  FailureOr<Value> lv = getCElement(loc, memref, indices, convertedIndices, elem, rewriter);
  if (failed(lv) || !isa<emitc::LValueType>(lv->getType()))
    return failure();
  return emitc::AddressOfOp::create(rewriter, loc, emitc::PointerType::get(elem), *lv).getResult();
}

/// Whether `v` is a vector of `n` elements of type `elem`.
static bool isVectorOf(Type v, int64_t n, Type elem) {
  auto t = dyn_cast<VectorType>(v);
  return t && t.getNumElements() == n && t.getElementType() == elem;
}

namespace {

/// nvgpu.ldmatrix (b16) -> `uop_ldmatrix_xN[_trans](&smem[i])`.
struct LdMatrixLowering : OpConversionPattern<nvgpu::LdMatrixOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(nvgpu::LdMatrixOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    int64_t n = op.getNumTiles();
    Type f16 = rewriter.getF16Type();
    if (!llvm::is_contained({1, 2, 4}, n) || !isVectorOf(op.getType(), 2 * n, f16))
      return rewriter.notifyMatchFailure(op, "only ldmatrix of f16 tiles has a CUDA C form here");
    Type type = getTypeConverter()->convertType(op.getType());
    FailureOr<Value> ptr =
        elementAddress(op.getLoc(), op.getSrcMemref(), adaptor.getSrcMemref(), op.getIndices(),
                       adaptor.getIndices(), *getTypeConverter(), rewriter);
    if (!type || failed(ptr))
      return rewriter.notifyMatchFailure(op, "not shared memory C can address");
    std::string callee = "uop_ldmatrix_x" + std::to_string(n) + (op.getTranspose() ? "_trans" : "");
    rewriter.replaceOpWithNewOp<emitc::CallOpaqueOp>(op, type, callee, ValueRange{*ptr});
    return success();
  }
};

/// nvgpu.mma.sync m16n8k16 (f16 x f16 + f32) -> `uop_mma_m16n8k16(a, b, c)`.
struct MmaSyncLowering : OpConversionPattern<nvgpu::MmaSyncOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(nvgpu::MmaSyncOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type f16 = rewriter.getF16Type(), f32 = rewriter.getF32Type();
    if (op.getMmaShapeAsArray() != std::array<int64_t, 3>{16, 8, 16} ||
        !isVectorOf(op.getMatrixA().getType(), 8, f16) ||
        !isVectorOf(op.getMatrixB().getType(), 4, f16) ||
        !isVectorOf(op.getMatrixC().getType(), 4, f32) || !isVectorOf(op.getType(), 4, f32))
      return rewriter.notifyMatchFailure(
          op, "only mma.sync m16n8k16 with f16 operands and f32 accumulators has a CUDA C "
              "form here");
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type)
      return failure();
    rewriter.replaceOpWithNewOp<emitc::CallOpaqueOp>(
        op, type, "uop_mma_m16n8k16",
        ValueRange{adaptor.getMatrixA(), adaptor.getMatrixB(), adaptor.getMatrixC()});
    return success();
  }
};

/// An async-copy token: `0`, which nobody reads (eraseDeadC drops it).
static Value token(Operation *op, const TypeConverter &converter,
                   ConversionPatternRewriter &rewriter) {
  Type type = converter.convertType(op->getResult(0).getType());
  return emitc::LiteralOp::create(rewriter, op->getLoc(), type, "0");
}

/// nvgpu.device_async_copy -> `uop_cp_async_{cg,ca}<bytes>(dst, src, srcBytes)`.
struct AsyncCopyLowering : OpConversionPattern<nvgpu::DeviceAsyncCopyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(nvgpu::DeviceAsyncCopyOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elem = op.getDst().getType().getElementType();
    int64_t elemBytes = elem.getIntOrFloatBitWidth() / 8;
    int64_t bytes = op.getDstElements().getZExtValue() * elemBytes;
    if (!llvm::is_contained({4, 8, 16}, bytes) || elem.getIntOrFloatBitWidth() % 8)
      return rewriter.notifyMatchFailure(op, "cp.async copies 4, 8 or 16 bytes");
    FailureOr<Value> dst = elementAddress(loc, op.getDst(), adaptor.getDst(), op.getDstIndices(),
                                          adaptor.getDstIndices(), *getTypeConverter(), rewriter);
    FailureOr<Value> src = elementAddress(loc, op.getSrc(), adaptor.getSrc(), op.getSrcIndices(),
                                          adaptor.getSrcIndices(), *getTypeConverter(), rewriter);
    if (failed(dst) || failed(src))
      return rewriter.notifyMatchFailure(op, "not memory C can address");
    // The bytes read (the rest of the destination is zero filled): all of
    // them, or srcElements' worth.
    Value srcBytes;
    if (Value n = adaptor.getSrcElements()) {
      srcBytes = n;
      if (elemBytes != 1)
        srcBytes = emitc::MulOp::create(
            rewriter, loc, n.getType(), n,
            emitc::LiteralOp::create(rewriter, loc, n.getType(), std::to_string(elemBytes)));
    } else {
      srcBytes =
          emitc::LiteralOp::create(rewriter, loc, rewriter.getI32Type(), std::to_string(bytes));
    }
    // .cg (bypassing L1) copies 16 bytes only, as the PTX path's nvvm.cp.async.
    bool cg = op.getBypassL1() && bytes == 16;
    std::string callee =
        std::string(cg ? "uop_cp_async_cg" : "uop_cp_async_ca") + "<" + std::to_string(bytes) + ">";
    emitc::CallOpaqueOp::create(rewriter, loc, TypeRange{}, callee,
                                ValueRange{*dst, *src, srcBytes});
    rewriter.replaceOp(op, token(op, *getTypeConverter(), rewriter));
    return success();
  }
};

/// nvgpu.device_async_create_group -> `uop_cp_async_commit()`.
struct AsyncCreateGroupLowering : OpConversionPattern<nvgpu::DeviceAsyncCreateGroupOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(nvgpu::DeviceAsyncCreateGroupOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    emitc::CallOpaqueOp::create(rewriter, op.getLoc(), TypeRange{}, "uop_cp_async_commit",
                                ValueRange{});
    rewriter.replaceOp(op, token(op, *getTypeConverter(), rewriter));
    return success();
  }
};

/// nvgpu.device_async_wait -> `uop_cp_async_wait<N>()`.
struct AsyncWaitLowering : OpConversionPattern<nvgpu::DeviceAsyncWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(nvgpu::DeviceAsyncWaitOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    int64_t groups = op.getNumGroups().value_or(0);
    rewriter.replaceOpWithNewOp<emitc::CallOpaqueOp>(
        op, TypeRange{}, "uop_cp_async_wait<" + std::to_string(groups) + ">", ValueRange{});
    return success();
  }
};

} // namespace

void mlir::uop::populateUopNVGPUToEmitCPatterns(const CTypeConverter &converter,
                                                RewritePatternSet &patterns) {
  patterns.add<LdMatrixLowering, MmaSyncLowering, AsyncCopyLowering, AsyncCreateGroupLowering,
               AsyncWaitLowering>(converter, patterns.getContext());
}

//===----------------------------------------------------------------------===//
// The prelude's helpers
//===----------------------------------------------------------------------===//

/// `uop_ldmatrix_xN[_trans]`.
static std::string ldmatrixHelper(int n, bool trans) {
  std::string outs, regs;
  for (int r = 0; r < n; ++r) {
    regs += (r ? ", %" : "%") + std::to_string(r);
    outs += (r ? ", \"=r\"(d[" : "\"=r\"(d[") + std::to_string(r) + "])";
  }
  std::string ns = std::to_string(n), half = std::to_string(2 * n);
  return "static __device__ __forceinline__ uop_vec<half, " + half + "> uop_ldmatrix_x" + ns +
         (trans ? "_trans" : "") + "(const void *p) {\n  uop_vec<half, " + half +
         "> r;\n  uint32_t *d = reinterpret_cast<uint32_t *>(&r);\n"
         "  asm volatile(\"ldmatrix.sync.aligned.m8n8.x" +
         ns + (trans ? ".trans" : "") + ".shared.b16 {" + regs + "}, [%" + ns +
         "];\\n\"\n      : " + outs +
         "\n      : \"r\"((uint32_t)__cvta_generic_to_shared(p))\n      : \"memory\");\n" +
         "  return r;\n}";
}

std::vector<std::string> mlir::uop::getCudaFragmentHelpers(ModuleOp module) {
  llvm::StringSet<> callees;
  bool vectors = false;
  module.walk([&](Operation *op) {
    if (auto call = dyn_cast<emitc::CallOpaqueOp>(op))
      callees.insert(call.getCallee());
    auto isVec = [](Type t) {
      auto o = dyn_cast<emitc::OpaqueType>(t);
      return o && o.getValue().starts_with("uop_vec<");
    };
    if (llvm::any_of(op->getResultTypes(), isVec))
      vectors = true;
    if (auto f = dyn_cast<emitc::FuncOp>(op))
      if (llvm::any_of(f.getArgumentTypes(), isVec))
        vectors = true;
  });
  auto calls = [&](StringRef prefix) {
    return llvm::any_of(callees, [&](const auto &c) { return c.getKey().starts_with(prefix); });
  };
  std::vector<std::string> helpers;
  if (vectors)
    helpers.push_back(
        "// A vector of the tensor-core path (a fragment: its elements row-major), aligned "
        "for its 32-bit registers.\n"
        "template <typename T, int N> struct alignas(sizeof(T) * N % 16 == 0  ? 16\n"
        "                                            : sizeof(T) * N % 8 == 0 ? 8\n"
        "                                            : sizeof(T) * N % 4 == 0 ? 4\n"
        "                                                                     : sizeof(T)) "
        "uop_vec {\n"
        "  T v[N];\n"
        "  __device__ __forceinline__ T &operator[](int i) { return v[i]; }\n"
        "  __device__ __forceinline__ const T &operator[](int i) const { return v[i]; }\n"
        "};");
  if (calls("uop_vec_of"))
    helpers.push_back("template <typename T, typename... A>\n"
                      "static __device__ __forceinline__ uop_vec<T, sizeof...(A)> uop_vec_of(A... "
                      "a) {\n"
                      "  return { {T(a)...} };\n"
                      "}");
  if (calls("uop_slice"))
    helpers.push_back("template <int M, typename T, int N>\n"
                      "static __device__ __forceinline__ uop_vec<T, M> uop_slice(const uop_vec<T, "
                      "N> &v, int at) {\n"
                      "  uop_vec<T, M> r;\n"
                      "  for (int i = 0; i < M; ++i)\n"
                      "    r[i] = v[at + i];\n"
                      "  return r;\n"
                      "}");
  if (calls("uop_vec_load<"))
    helpers.push_back("template <int N, typename T>\n"
                      "static __device__ __forceinline__ uop_vec<T, N> uop_vec_load(const T *p) {\n"
                      "  uop_vec<T, N> r;\n"
                      "  for (int i = 0; i < N; ++i)\n"
                      "    r[i] = p[i];\n"
                      "  return r;\n"
                      "}");
  if (calls("uop_vec_load_aligned<"))
    helpers.push_back("template <int N, typename T>\n"
                      "static __device__ __forceinline__ uop_vec<T, N> uop_vec_load_aligned(const T "
                      "*p) {\n"
                      "  return *reinterpret_cast<const uop_vec<T, N> *>(p);\n"
                      "}");
  if (calls("uop_vec_store"))
    helpers.push_back("template <typename T, int N>\n"
                      "static __device__ __forceinline__ void uop_vec_store(T *p, const uop_vec<T, "
                      "N> &v) {\n"
                      "  for (int i = 0; i < N; ++i)\n"
                      "    p[i] = v[i];\n"
                      "}");
  for (int n : {1, 2, 4})
    for (bool trans : {false, true})
      if (callees.contains("uop_ldmatrix_x" + std::to_string(n) + (trans ? "_trans" : "")))
        helpers.push_back(ldmatrixHelper(n, trans));
  if (calls("uop_mma_m16n8k16"))
    helpers.push_back(
        "static __device__ __forceinline__ uop_vec<float, 4> uop_mma_m16n8k16(const uop_vec<half, "
        "8> &a, const uop_vec<half, 4> &b, const uop_vec<float, 4> &c) {\n"
        "  uop_vec<float, 4> d;\n"
        "  const uint32_t *A = reinterpret_cast<const uint32_t *>(&a);\n"
        "  const uint32_t *B = reinterpret_cast<const uint32_t *>(&b);\n"
        "  asm volatile(\"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
        "{%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};\\n\"\n"
        "      : \"=f\"(d[0]), \"=f\"(d[1]), \"=f\"(d[2]), \"=f\"(d[3])\n"
        "      : \"r\"(A[0]), \"r\"(A[1]), \"r\"(A[2]), \"r\"(A[3]), \"r\"(B[0]), \"r\"(B[1]),\n"
        "        \"f\"(c[0]), \"f\"(c[1]), \"f\"(c[2]), \"f\"(c[3]));\n"
        "  return d;\n"
        "}");
  for (StringRef cache : {"cg", "ca"})
    if (calls(("uop_cp_async_" + cache + "<").str()))
      helpers.push_back(
          ("template <int Bytes>\n"
           "static __device__ __forceinline__ void uop_cp_async_" +
           cache +
           "(void *dst, const void *src, uint32_t srcBytes) {\n"
           "  asm volatile(\"cp.async." +
           cache +
           ".shared.global [%0], [%1], %2, %3;\\n\"\n"
           "               :: \"r\"((uint32_t)__cvta_generic_to_shared(dst)), \"l\"(src), "
           "\"n\"(Bytes), \"r\"(srcBytes)\n"
           "               : \"memory\");\n"
           "}")
              .str());
  if (calls("uop_cp_async_commit"))
    helpers.push_back("static __device__ __forceinline__ void uop_cp_async_commit() {\n"
                      "  asm volatile(\"cp.async.commit_group;\\n\" ::: \"memory\");\n"
                      "}");
  if (calls("uop_cp_async_wait<"))
    helpers.push_back("template <int N> static __device__ __forceinline__ void "
                      "uop_cp_async_wait() {\n"
                      "  asm volatile(\"cp.async.wait_group %0;\\n\" :: \"n\"(N) : \"memory\");\n"
                      "}");
  return helpers;
}
