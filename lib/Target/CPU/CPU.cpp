//===- CPU.cpp - native code for a CPU target -------------------*- C++ -*-===//

#include "Uop/Target/CPU.h"

#include "Uop/IR/UopTarget.h"
#include "Uop/Runtime/Cache.h"
#include "Uop/Runtime/Loader.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"

using namespace mlir;
using namespace mlir::uop;

LogicalResult mlir::uop::addPackedEntry(ModuleOp module, StringRef kernel, StringRef entryName) {
  auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(kernel);
  if (!fn)
    return emitError(module.getLoc(), "no LLVM function @") << kernel << " to wrap";
  MLIRContext *ctx = module.getContext();
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(module.getBody());
  Location loc = fn.getLoc();
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  auto entryType = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {ptrType});
  auto entry = LLVM::LLVMFuncOp::create(b, loc, entryName, entryType);
  Block *body = entry.addEntryBlock(b);
  b.setInsertionPointToStart(body);
  SmallVector<Value> args;
  for (auto [i, type] : llvm::enumerate(fn.getFunctionType().getParams())) {
    if (!isa<LLVM::LLVMPointerType>(type))
      return emitError(fn.getLoc(), "kernel argument ") << i << " is not a pointer: " << type;
    Value slot = LLVM::GEPOp::create(b, loc, ptrType, ptrType, body->getArgument(0),
                                     ArrayRef<LLVM::GEPArg>{(int32_t)i});
    args.push_back(LLVM::LoadOp::create(b, loc, ptrType, slot));
  }
  LLVM::CallOp::create(b, loc, fn, args);
  LLVM::ReturnOp::create(b, loc, ValueRange{});
  return success();
}

LogicalResult mlir::uop::addPlanSignature(ModuleOp module, StringRef symbol, StringRef signature) {
  MLIRContext *ctx = module.getContext();
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(module.getBody());
  std::string text = signature.str();
  text.push_back('\0');
  auto type = LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), text.size());
  LLVM::GlobalOp::create(b, module.getLoc(), type, /*isConstant=*/true, LLVM::Linkage::External,
                         symbol, b.getStringAttr(text));
  return success();
}

/// The LLVM target machine for `target` (a CPU #uop.target: its triple,
/// CPU and features) at the options' level.
static std::unique_ptr<llvm::TargetMachine>
createTargetMachine(TargetAttr target, const mlir::uop::CpuCodegenOptions &options,
                    std::string &error) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  if (!target || !target.isCPU()) {
    error = "no CPU #uop.target on the module to compile it for";
    return nullptr;
  }
  llvm::Triple triple(target.getTriple());
  const llvm::Target *llvmTarget = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!llvmTarget)
    return nullptr;
  llvm::TargetOptions to;
  llvm::CodeGenOptLevel level =
      options.optLevel >= 3 ? llvm::CodeGenOptLevel::Aggressive : llvm::CodeGenOptLevel::Default;
  if (options.fastCodegen)
    level = llvm::CodeGenOptLevel::None;
  std::unique_ptr<llvm::TargetMachine> tm(llvmTarget->createTargetMachine(
      triple, target.getCpu(), target.getFeatures(), to, llvm::Reloc::PIC_, std::nullopt, level));
  if (!tm)
    error = "cannot create a target machine for " + triple.str();
  return tm;
}

void mlir::uop::registerCpuTranslations(DialectRegistry &registry) {
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerOpenMPDialectTranslation(registry);
}

static void registerTranslations(MLIRContext *ctx) {
  DialectRegistry registry;
  mlir::uop::registerCpuTranslations(registry);
  ctx->appendDialectRegistry(registry);
}

/// scf-to-cf and cf-to-llvm carry an scf.for's loop hints along as the
/// discardable `llvm.loop_annotation` of the back edge; the LLVM IR export
/// reads the branch's own `loop_annotation`.
static void attachLoopAnnotations(ModuleOp module) {
  module.walk([](LLVM::BrOp br) {
    if (auto a = br->getAttrOfType<LLVM::LoopAnnotationAttr>("llvm.loop_annotation")) {
      br.setLoopAnnotationAttr(a);
      br->removeAttr("llvm.loop_annotation");
    }
  });
}

/// Translates to LLVM IR and optimizes it for `tm`; null after a diagnostic.
static std::unique_ptr<llvm::Module> translateAndOptimize(ModuleOp module, llvm::LLVMContext &ctx,
                                                          llvm::TargetMachine &tm,
                                                          unsigned optLevel) {
  registerTranslations(module.getContext());
  attachLoopAnnotations(module);
  std::unique_ptr<llvm::Module> llvmModule = translateModuleToLLVMIR(module, ctx, "uop");
  if (!llvmModule) {
    emitError(module.getLoc(), "translation to LLVM IR failed");
    return nullptr;
  }
  llvmModule->setDataLayout(tm.createDataLayout());
  llvmModule->setTargetTriple(tm.getTargetTriple());
  auto optimize = makeOptimizingTransformer(optLevel, 0, &tm);
  if (llvm::Error err = optimize(llvmModule.get())) {
    emitError(module.getLoc(), "LLVM optimization failed: ") << llvm::toString(std::move(err));
    return nullptr;
  }
  return llvmModule;
}

std::unique_ptr<llvm::Module>
mlir::uop::translateToOptimizedLLVMIR(ModuleOp module, llvm::LLVMContext &ctx,
                                      const CpuCodegenOptions &options) {
  std::string error;
  auto tm = createTargetMachine(getTarget(module), options, error);
  if (!tm) {
    emitError(module.getLoc(), error);
    return nullptr;
  }
  return translateAndOptimize(module, ctx, *tm, options.optLevel);
}

/// The linker driver: clang-22 (a uop dependency), else cc.
static std::string findLinker() {
  for (const char *name : {"clang-22", "clang", "cc"})
    if (auto path = llvm::sys::findProgramByName(name))
      return *path;
  return "";
}

/// The ops of the largest block of `module`.
static size_t largestBlock(ModuleOp module) {
  size_t most = 0;
  module.walk([&](Block *block) { most = std::max(most, block->getOperations().size()); });
  return most;
}

FailureOr<std::string> mlir::uop::compileToSharedLibrary(ModuleOp module,
                                                         const CpuCodegenOptions &givenOptions) {
  // LLVM's machine scheduler is quadratic in the length of a basic block
  // (a 10^6-op chain never finished): a huge block is compiled without it,
  // at codegen level None (fast instruction selection and register
  // allocation, linear); the IR is still optimized at the level asked for.
  CpuCodegenOptions options = givenOptions;
  if (largestBlock(module) > kMaxScheduledBlock)
    options.fastCodegen = true;
  std::string error;
  auto tm = createTargetMachine(getTarget(module), options, error);
  if (!tm)
    return emitError(module.getLoc(), error), failure();

  // The key: the LLVM-dialect IR, the target and the flags.
  std::string ir;
  {
    llvm::raw_string_ostream os(ir);
    module.print(os, OpPrintingFlags().enableDebugInfo(false));
  }
  bool usesOpenMP = ir.find("omp.") != std::string::npos;
  std::string key = ::uop::rt::hashKey(
      ir + "\n// target=" + tm->getTargetTriple().str() + "\n// cpu=" + tm->getTargetCPU().str() +
      "\n// features=" + tm->getTargetFeatureString().str() + "\n// O" +
      std::to_string(options.optLevel) + (options.fastCodegen ? " fast-codegen" : "") +
      "\n// uop-cpu-v4");
  std::string warning;
  std::string cached = ::uop::rt::cacheLookupLibrary(key, &warning);
  if (!warning.empty())
    llvm::errs() << "uop: warning: " << warning << "\n";
  if (!cached.empty())
    return cached;
  // A cache that cannot take the library is one line, before any work.
  if (auto dir = ::uop::rt::cacheDirChecked(); !dir.ok())
    return emitError(module.getLoc(), "cannot compile into the cache: ") << dir.error(), failure();

  llvm::LLVMContext ctx;
  std::unique_ptr<llvm::Module> llvmModule =
      translateAndOptimize(module, ctx, *tm, options.optLevel);
  if (!llvmModule)
    return failure();

  std::string objPath = ::uop::rt::cacheTempPath(".o");
  {
    std::error_code ec;
    llvm::ToolOutputFile obj(objPath, ec, llvm::sys::fs::OF_None);
    if (ec)
      return emitError(module.getLoc(), "cannot write ") << objPath << ": " << ec.message(),
             failure();
    llvm::legacy::PassManager pm;
    if (tm->addPassesToEmitFile(pm, obj.os(), nullptr, llvm::CodeGenFileType::ObjectFile))
      return emitError(module.getLoc(), "the target cannot emit object files"), failure();
    pm.run(*llvmModule);
    obj.keep();
  }
  std::string soPath = ::uop::rt::cacheTempPath(".so");
  std::string linker = findLinker();
  if (linker.empty()) {
    llvm::sys::fs::remove(objPath);
    return emitError(module.getLoc(), "no linker found (install clang-22)"), failure();
  }
  SmallVector<std::string> argv = {linker, "-shared", "-o", soPath, objPath, "-lm"};
  if (usesOpenMP) {
    // LLVM's OpenMP runtime (libomp-22-dev), found again at dlopen time.
    argv.append({"-L/usr/lib/llvm-22/lib", "-lomp", "-Wl,-rpath,/usr/lib/llvm-22/lib"});
  }
  SmallVector<StringRef> args(argv.begin(), argv.end());
  std::string errMsg;
  int rc = llvm::sys::ExecuteAndWait(linker, args, std::nullopt, {}, 0, 0, &errMsg);
  llvm::sys::fs::remove(objPath);
  if (rc != 0) {
    llvm::sys::fs::remove(soPath);
    return emitError(module.getLoc(), "linking the kernel failed (")
               << linker << " exited with " << rc << ") " << errMsg,
           failure();
  }
  auto installed = ::uop::rt::cacheInstall(soPath, key, ".so");
  if (!installed.ok())
    return emitError(module.getLoc(), "cannot cache the kernel: ") << installed.error(), failure();
  return installed.value();
}
