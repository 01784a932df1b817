//===- UopToEmitC.cpp - lowered kernels and host -> EmitC ------*- C++ -*-===//
//
// uop-to-emitc: the C path's conversion. The pass prepares the module
// (names C reserves, GPU kernels out of their gpu.module, CPU thread ranges
// as loops under an OpenMP pragma, allocas tagged private), runs upstream's
// conversions to EmitC and uop's patterns (the other files of this
// directory) with one type converter, forms C expressions, and puts the
// seed's prelude first. See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "Uop/Conversion/Passes.h"

#include "mlir/Conversion/ArithToEmitC/ArithToEmitC.h"
#include "mlir/Conversion/FuncToEmitC/FuncToEmitC.h"
#include "mlir/Conversion/MathToEmitC/MathToEmitC.h"
#include "mlir/Conversion/MemRefToEmitC/MemRefToEmitC.h"
#include "mlir/Conversion/SCFToEmitC/SCFToEmitC.h"
#include "mlir/Dialect/EmitC/Transforms/TypeConversions.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/SymbolTable.h"

#include <limits>

namespace mlir::uop {
#define GEN_PASS_DEF_UOPTOEMITCPASS
#include "Uop/Conversion/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

StringRef mlir::uop::getCFunctionName(StringRef name, bool isKernel) {
  if (name != "main")
    return name;
  return isKernel ? kCKernelMainName : kCHostMainName;
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

std::string CTypeConverter::getCTypeName(Type type) {
  if (auto i = dyn_cast<IntegerType>(type)) {
    if (i.getWidth() == 1)
      return "bool";
    if (llvm::is_contained({8u, 16u, 32u, 64u}, i.getWidth()))
      return (i.isUnsigned() ? "uint" : "int") + std::to_string(i.getWidth()) + "_t";
    return "";
  }
  if (type.isF32())
    return "float";
  if (type.isF64())
    return "double";
  if (type.isF16())
    return "_Float16"; // CUDA: `half`, by the prelude's #define
  if (type.isBF16())
    return "__bf16";
  if (isa<IndexType, emitc::SizeTType>(type))
    return "size_t";
  return "";
}

/// Whether a memref lives in `space` (a #gpu.address_space).
static bool inAddressSpace(MemRefType type, gpu::AddressSpace space) {
  auto a = dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
  return a && a.getValue() == space;
}

CTypeConverter::CTypeConverter(MLIRContext *ctx, bool cuda) : cuda(cuda) {
  addConversion([](Type type) -> std::optional<Type> {
    if (emitc::isSupportedEmitCType(type))
      return type;
    return std::nullopt;
  });
  populateEmitCSizeTTypeConversions(*this);
  addConversion([this, ctx](MemRefType type) -> std::optional<Type> {
    if (!type.getLayout().isIdentity() || type.getRank() == 0)
      return std::nullopt;
    Type elem = convertType(type.getElementType());
    if (!elem || getCTypeName(elem).empty())
      return std::nullopt;
    // The block's dynamic shared memory (memref<?xi8>, gpu.dynamic_shared_memory):
    // a pointer to its `extern __shared__` array, as static workgroup memory.
    if (this->cuda && type.getRank() == 1 && inAddressSpace(type, gpu::AddressSpace::Workgroup))
      return emitc::PointerType::get(elem);
    if (!type.hasStaticShape())
      return std::nullopt;
    if (inAddressSpace(type, gpu::AddressSpace::Private)) {
      if (type.getNumElements() == 1)
        return emitc::LValueType::get(elem);
      return emitc::ArrayType::get(type.getShape(), elem);
    }
    if (inAddressSpace(type, gpu::AddressSpace::Workgroup))
      return emitc::PointerType::get(elem);
    if (type.getMemorySpace() || type.getRank() != 1)
      return std::nullopt;
    return emitc::OpaqueType::get(ctx, getCTypeName(elem) +
                                           (this->cuda ? "* __restrict__" : "* restrict"));
  });
  // CUDA: a vector (the tensor-core fragments of uop-lower-gemm's nvgpu
  // ops) is the prelude's `uop_vec<T, N>`, its elements flattened row-major
  // (NVGPUToEmitC.cpp); an async-copy token is nothing C needs, an int
  // nobody reads.
  addConversion([this, ctx](VectorType type) -> std::optional<Type> {
    if (!this->cuda || type.isScalable() || type.getRank() == 0)
      return std::nullopt;
    std::string elem = getCTypeName(type.getElementType());
    if (elem.empty() || type.getElementType().isInteger(1))
      return std::nullopt;
    return emitc::OpaqueType::get(ctx, "uop_vec<" + elem + ", " +
                                           std::to_string(type.getNumElements()) + ">");
  });
  addConversion([this, ctx](nvgpu::DeviceAsyncTokenType) -> std::optional<Type> {
    if (!this->cuda)
      return std::nullopt;
    return IntegerType::get(ctx, 32);
  });
  auto cast = [](OpBuilder &b, Type type, ValueRange inputs, Location loc) -> Value {
    if (inputs.size() != 1)
      return Value();
    return UnrealizedConversionCastOp::create(b, loc, type, inputs).getResult(0);
  };
  addSourceMaterialization(cast);
  addTargetMaterialization(cast);
}

//===----------------------------------------------------------------------===//
// Before the conversion
//===----------------------------------------------------------------------===//

/// Renames the functions C gives a meaning to (`main`).
static void renameReserved(ModuleOp module) {
  auto rename = [&](Operation *fn, bool isKernel) {
    auto sym = cast<SymbolOpInterface>(fn);
    StringRef name = getCFunctionName(sym.getName(), isKernel);
    if (name == sym.getName())
      return;
    Operation *table = SymbolTable::getNearestSymbolTable(fn);
    (void)SymbolTable::replaceAllSymbolUses(fn, StringAttr::get(fn->getContext(), name),
                                            table->getParentOp() ? table->getParentOp() : table);
    sym.setName(name);
  };
  module.walk([&](func::FuncOp f) { rename(f, f->hasAttr("uop.kernel")); });
  module.walk([&](gpu::GPUFuncOp f) { rename(f, /*isKernel=*/true); });
}

/// Moves the kernels of each gpu.module to the module (CUDA C has one
/// namespace) and drops the gpu.module.
static LogicalResult flattenGPUModules(ModuleOp module) {
  SmallVector<gpu::GPUModuleOp> gpuModules(module.getOps<gpu::GPUModuleOp>());
  // The kernels first: C++ declares a function before its use (the host's
  // launches).
  Operation *first = &module.getBody()->front();
  for (gpu::GPUModuleOp g : gpuModules) {
    for (Operation &op : llvm::make_early_inc_range(g.getBody()->getOperations())) {
      if (!isa<gpu::GPUFuncOp>(op))
        return op.emitOpError("has no CUDA C form (only gpu.func kernels do)");
      if (module.lookupSymbol(cast<gpu::GPUFuncOp>(op).getName()))
        return op.emitOpError("has the name of another function of the module");
      op.moveBefore(first);
    }
    g.erase();
  }
  module->removeAttr(gpu::GPUDialect::getContainerModuleAttrName());
  return success();
}

/// A CPU thread range: `scf.parallel` -> a nest of `scf.for`, the outermost
/// under `#pragma omp parallel for` (the seed's render_range) when `openmp`
/// and it is not inside another parallel loop (as convert-scf-to-openmp,
/// which makes the inner ones serial).
static LogicalResult parallelToLoops(ModuleOp module, bool openmp) {
  SmallVector<scf::ParallelOp> loops; // inner ones first
  module.walk([&](scf::ParallelOp p) { loops.push_back(p); });
  for (scf::ParallelOp p : loops) {
    if (p.getNumReductions())
      return p.emitOpError("with reductions has no C form here");
    OpBuilder b(p);
    Location loc = p.getLoc();
    if (openmp && !p->getParentOfType<scf::ParallelOp>()) {
      std::string pragma = "#pragma omp parallel for";
      if (p.getNumLoops() > 1)
        pragma += " collapse(" + std::to_string(p.getNumLoops()) + ")";
      emitc::VerbatimOp::create(b, loc, pragma);
    }
    Block *body = nullptr;
    for (unsigned i = 0; i < p.getNumLoops(); ++i) {
      Value lb = p.getLowerBound()[i], ub = p.getUpperBound()[i], step = p.getStep()[i];
      // Constant bounds: an int loop, as the seed's (the kernel casts the
      // index to i32 anyway).
      std::optional<int64_t> l = getConstantIntValue(lb), u = getConstantIntValue(ub),
                             s = getConstantIntValue(step);
      bool asInt = l && u && s && *l >= 0 && *u <= std::numeric_limits<int32_t>::max();
      if (asInt) {
        auto c = [&](int64_t v) {
          return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v)).getResult();
        };
        lb = c(*l), ub = c(*u), step = c(*s);
      }
      auto loop = scf::ForOp::create(b, loc, lb, ub, step);
      b.setInsertionPointToStart(loop.getBody());
      Value iv = loop.getInductionVar();
      Value oldIv = p.getInductionVars()[i];
      if (asInt) {
        // Casts of the index to i32 are the int itself.
        for (Operation *user : llvm::make_early_inc_range(oldIv.getUsers()))
          if (auto cast = dyn_cast<arith::IndexCastOp>(user);
              cast && cast.getType() == iv.getType())
            cast.getResult().replaceAllUsesWith(iv);
        iv = arith::IndexCastOp::create(b, loc, b.getIndexType(), iv);
      }
      oldIv.replaceAllUsesWith(iv);
      body = loop.getBody();
      b.setInsertionPoint(body->getTerminator());
    }
    body->getOperations().splice(Block::iterator(body->getTerminator()),
                                 p.getBody()->getOperations(), p.getBody()->begin(),
                                 std::prev(p.getBody()->end()));
    p.erase();
  }
  return success();
}

/// A comment before each kernel that names its parameters as the seed
/// does (the emitter names values v1, v2, ...): `/* r_64: v1 = data0 (4096
/// x float), v2 = data1 (64 x float) */`, data<slot> the kernel's buffer
/// slot (`uop.slots`); a last parameter past them is the kernel's run-time
/// check record or, on the GPU, its scratch memory.
static void commentKernelParameters(ModuleOp module) {
  auto comment = [](Operation *fn, StringRef name, TypeRange args) {
    auto slots = fn->getAttrOfType<DenseI64ArrayAttr>("uop.slots");
    std::string text = "/* " + name.str() + ":";
    for (auto [i, t] : llvm::enumerate(args)) {
      auto m = dyn_cast<MemRefType>(t);
      if (!m)
        continue;
      text += (i ? ", v" : " v") + std::to_string(i + 1) + " = ";
      if (slots && i < slots.size())
        text += "data" + std::to_string(slots[i]);
      else if (fn->hasAttr(kChecksAttrName))
        text += "the run-time checks' record";
      else
        text += "scratch";
      text += " (" + std::to_string(m.getNumElements()) + " x " +
              CTypeConverter::getCTypeName(m.getElementType()) + ")";
    }
    OpBuilder b(fn);
    emitc::VerbatimOp::create(b, fn->getLoc(), text + " */");
  };
  module.walk([&](func::FuncOp f) {
    if (f->hasAttr("uop.kernel") && !f.isDeclaration())
      comment(f, f.getName(), f.getArgumentTypes());
  });
  module.walk([&](gpu::GPUFuncOp f) {
    if (f.isKernel())
      comment(f, f.getName(), f.getArgumentTypes());
  });
}

/// Tags every alloca's memref `#gpu.address_space<private>`: the type
/// converter then makes it a C array (or a scalar variable), while an
/// untagged memref is a buffer (a restrict pointer).
static void tagPrivateAllocas(ModuleOp module) {
  auto priv = gpu::AddressSpaceAttr::get(module.getContext(), gpu::AddressSpace::Private);
  module.walk([&](memref::AllocaOp a) {
    MemRefType t = a.getType();
    if (t.getMemorySpace())
      return;
    a.getResult().setType(MemRefType::get(t.getShape(), t.getElementType(), t.getLayout(), priv));
  });
}

//===----------------------------------------------------------------------===//
// After the conversion
//===----------------------------------------------------------------------===//

/// Whether `module` calls the C function `name`.
static bool calls(ModuleOp module, StringRef name) {
  return module
      .walk([&](emitc::CallOpaqueOp call) {
        return call.getCallee() == name ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

/// The seed's prelude (render_c.PRELUDE; for CUDA gpu.CUDA_PRELUDE, with
/// the toolkit's headers, which nvcc has, for INFINITY and NAN).
static void addPrelude(ModuleOp module, bool cuda) {
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  Location loc = module.getLoc();
  bool f16 = false;
  module.walk([&](Operation *op) {
    for (Type t : llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes()))
      if (t.isF16() ||
          (isa<emitc::OpaqueType>(t) && cast<emitc::OpaqueType>(t).getValue().contains("_Float16")))
        f16 = true;
  });
  auto include = [&](StringRef h) { emitc::IncludeOp::create(b, loc, h, /*standard=*/true); };
  if (cuda) {
    if (f16) {
      include("cuda_fp16.h");
      // nvcc has no _Float16 in device code (EmitC spells f16 so).
      emitc::VerbatimOp::create(b, loc, "#define _Float16 half");
    }
    include("math.h");
    include("stdint.h");
  } else {
    include("math.h");
    include("stdbool.h");
    include("stddef.h");
    include("stdint.h");
    include("stdlib.h");
  }
  // The seed's helpers, those the program calls (clang warns about an
  // unused static function).
  std::string qualifier = cuda ? "__device__ inline" : "static inline";
  if (calls(module, "floordiv_i32"))
    emitc::VerbatimOp::create(b, loc,
                              qualifier +
                                  " int floordiv_i32(int a, int b) { int q = a / b; return (q "
                                  "* b != a && ((a < 0) != (b < 0))) ? q - 1 : q; }");
  if (calls(module, "floormod_i32"))
    emitc::VerbatimOp::create(b, loc,
                              qualifier +
                                  " int floormod_i32(int a, int b) { int r = a % b; return (r != "
                                  "0 && ((r < 0) != (b < 0))) ? r + b : r; }");
  // The tensor-core path's (CUTLASS's inline PTX).
  if (cuda)
    for (const std::string &helper : getCudaFragmentHelpers(module))
      emitc::VerbatimOp::create(b, loc, helper);
}

/// Erases the C ops nothing uses and that do nothing: what uop's patterns
/// made dead (an index cast the subscript no longer needs, the parts of a
/// floor modulo), which EmitC's ops, having no memory-effect traits, do not
/// let DCE remove. The emitter would declare them: -Wunused-variable.
static void eraseDeadC(ModuleOp module) {
  auto isPure = [](Operation *op) {
    // (A load of a variable: the value of a loop the run-time checks made a
    // while, which nothing reads.)
    if (isa<emitc::LiteralOp, emitc::ConstantOp, emitc::SubscriptOp, emitc::AddressOfOp,
            emitc::GetGlobalOp, emitc::LoadOp>(op))
      return true;
    if (auto cast = dyn_cast<emitc::CastOp>(op))
      return emitc::isFundamentalType(cast.getSource().getType());
    if (auto e = dyn_cast<emitc::CExpressionInterface>(op))
      return !e.hasSideEffects();
    return false;
  };
  SmallVector<Operation *> work;
  llvm::SmallPtrSet<Operation *, 16> queued;
  module.walk([&](Operation *op) {
    if (op->getNumResults() && op->use_empty() && isPure(op) && queued.insert(op).second)
      work.push_back(op);
  });
  // A local variable that is only assigned (the value of a loop nothing
  // reads once its loads are gone): its assignments and itself
  // (-Wunused-but-set-variable). Repeated, as erasing a load frees one.
  auto eraseWriteOnly = [&] {
    SmallVector<emitc::VariableOp> vars;
    module.walk([&](emitc::VariableOp v) {
      if (llvm::all_of(v->getUsers(), [&](Operation *u) {
            auto a = dyn_cast<emitc::AssignOp>(u);
            return a && a.getVar() == v.getResult();
          }))
        vars.push_back(v);
    });
    for (emitc::VariableOp v : vars) {
      for (Operation *u : llvm::make_early_inc_range(v->getUsers())) {
        Operation *def = cast<emitc::AssignOp>(u).getValue().getDefiningOp();
        u->erase();
        if (def && def->use_empty() && isPure(def) && queued.insert(def).second)
          work.push_back(def);
      }
      v.erase();
    }
    return !vars.empty();
  };
  do {
    while (!work.empty()) {
      Operation *op = work.pop_back_val();
      SmallVector<Operation *> defs;
      for (Value v : op->getOperands())
        if (Operation *def = v.getDefiningOp())
          defs.push_back(def);
      op->erase();
      for (Operation *def : defs)
        if (def->use_empty() && isPure(def) && queued.insert(def).second)
          work.push_back(def);
    }
  } while (eraseWriteOnly());
}

/// `(void)v3;` for each parameter a function does not use (a kernel whose
/// buffer simplification left unread): `-Wextra` warns otherwise.
static void markUnusedParameters(ModuleOp module) {
  module.walk([](emitc::FuncOp f) {
    if (f.isExternal())
      return;
    OpBuilder b = OpBuilder::atBlockBegin(&f.getBody().front());
    for (BlockArgument arg : f.getArguments())
      if (arg.use_empty())
        emitc::VerbatimOp::create(b, f.getLoc(), "(void){};", ValueRange{arg});
  });
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {
struct UopToEmitCPass : mlir::uop::impl::UopToEmitCPassBase<UopToEmitCPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    renameReserved(module);
    if ((cuda && failed(flattenGPUModules(module))) || failed(parallelToLoops(module, openmp)))
      return signalPassFailure();
    commentKernelParameters(module);
    tagPrivateAllocas(module);
    if (cuda)
      simplifyVectorFragments(module);

    CTypeConverter converter(ctx, cuda);
    RewritePatternSet patterns(ctx);
    // Upstream's conversions, then uop's with a higher benefit where both
    // match (each file says what upstream lacks).
    populateArithToEmitCPatterns(converter, patterns);
    // C's names (sinf) in CUDA too: its device math has them all.
    populateConvertMathToEmitCPatterns(patterns, emitc::LanguageTarget::c99);
    populateSCFToEmitCConversionPatterns(patterns, converter);
    populateFuncToEmitCPatterns(converter, patterns);
    populateMemRefToEmitCConversionPatterns(patterns, converter);
    populateUopArithToEmitCPatterns(converter, patterns);
    populateUopMathToEmitCPatterns(converter, patterns);
    populateUopMemRefToEmitCPatterns(converter, patterns);
    if (cuda) {
      populateUopGPUToEmitCPatterns(converter, patterns);
      populateUopNVGPUToEmitCPatterns(converter, patterns);
      populateUopVectorToEmitCPatterns(converter, patterns);
    }

    ConversionTarget target(*ctx);
    target.addLegalDialect<emitc::EmitCDialect>();
    target.addLegalOp<ModuleOp>();
    if (failed(applyFullConversion(module, target, std::move(patterns))))
      return signalPassFailure();

    if (cuda) // the host, which the runtime does not call, for a reader's C++ project
      module.walk([&](emitc::FuncOp f) {
        ArrayAttr spec = f.getSpecifiersAttr();
        if (spec && llvm::any_of(spec, [](Attribute a) {
              return cast<StringAttr>(a).getValue() == "__global__";
            }))
          return;
        f.setSpecifiersAttr(ArrayAttr::get(ctx, {StringAttr::get(ctx, "extern \"C\"")}));
      });
    eraseDeadC(module);
    formCExpressions(module);
    markUnusedParameters(module);
    addPrelude(module, cuda);
  }
};
} // namespace
