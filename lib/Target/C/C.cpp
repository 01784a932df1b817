//===- C.cpp - C and CUDA C from the EmitC dialect --------------*- C++ -*-===//
//
// Printing (emitc::translateToCpp), the runtime's entry points, and the
// compilers: clang-22 (or cc) for a shared library, nvcc and ptxas for PTX
// and a cubin, each result cached by a hash of its source and flags.
//
//===----------------------------------------------------------------------===//

#include "Uop/Target/C.h"

#include "Uop/Runtime/Cache.h"

#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/Cpp/CppEmitter.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::uop;
namespace rt = ::uop::rt;

LogicalResult mlir::uop::translateToC(ModuleOp module, raw_ostream &os, StringRef header) {
  if (!header.empty()) {
    // A comment cannot hold "*/".
    std::string text = header.str();
    for (size_t at = text.find("*/"); at != std::string::npos; at = text.find("*/", at))
      text.replace(at, 2, "* /");
    os << "/*\n" << text << (text.empty() || text.back() == '\n' ? "" : "\n") << "*/\n";
  }
  return emitc::translateToCpp(module, os);
}

LogicalResult mlir::uop::addPackedCEntry(ModuleOp module, StringRef function, StringRef entry) {
  auto fn = module.lookupSymbol<emitc::FuncOp>(function);
  if (!fn)
    return emitError(module.getLoc(), "no C function ") << function << " to wrap";
  MLIRContext *ctx = module.getContext();
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  Location loc = fn.getLoc();
  auto voidPtr = emitc::PointerType::get(emitc::OpaqueType::get(ctx, "void"));
  auto argsType = emitc::PointerType::get(voidPtr);
  auto wrapper = emitc::FuncOp::create(b, loc, entry, FunctionType::get(ctx, {argsType}, {}));
  Block *body = wrapper.addEntryBlock();
  b.setInsertionPointToStart(body);
  SmallVector<Value> args;
  for (auto [i, type] : llvm::enumerate(fn.getArgumentTypes())) {
    Value idx = emitc::LiteralOp::create(b, loc, b.getIndexType(), std::to_string(i));
    auto element = emitc::SubscriptOp::create(b, loc, emitc::LValueType::get(voidPtr),
                                              body->getArgument(0), ValueRange{idx});
    // void* converts to the parameter's pointer type in C.
    args.push_back(emitc::LoadOp::create(b, loc, voidPtr, element));
  }
  if (args.empty()) // -Wunused-parameter
    emitc::VerbatimOp::create(b, loc, "(void){};", ValueRange{body->getArgument(0)});
  emitc::CallOpaqueOp::create(b, loc, TypeRange{}, fn.getName(), args);
  emitc::ReturnOp::create(b, loc, Value());
  return success();
}

void mlir::uop::registerCTranslation(DialectRegistry &registry) {
  registry.insert<emitc::EmitCDialect>();
}

//===----------------------------------------------------------------------===//
// Running a compiler
//===----------------------------------------------------------------------===//

std::string mlir::uop::findCCompiler() {
  for (const char *name : {"clang-22", "clang", "cc"})
    if (auto path = llvm::sys::findProgramByName(name))
      return *path;
  return "";
}

std::string mlir::uop::findNvcc(StringRef toolkit) {
  SmallVector<std::string> roots;
  if (!toolkit.empty())
    roots.push_back(toolkit.str());
  for (const char *var : {"CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"})
    if (const char *v = std::getenv(var); v && *v)
      roots.push_back(v);
  roots.push_back("/usr/local/cuda");
  for (const std::string &root : roots) {
    SmallString<128> nvcc(root);
    llvm::sys::path::append(nvcc, "bin", "nvcc");
    if (llvm::sys::fs::can_execute(nvcc))
      return nvcc.str().str();
    if (!toolkit.empty())
      return ""; // the toolkit named has none
  }
  if (auto path = llvm::sys::findProgramByName("nvcc"))
    return *path;
  return "";
}

/// Runs `argv`; on failure a diagnostic at `loc` that names `what` and
/// holds the program's first lines of output.
static LogicalResult run(ArrayRef<std::string> argv, StringRef what, Location loc) {
  std::string log = rt::cacheTempPath(".log");
  SmallVector<StringRef> args(argv.begin(), argv.end());
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(log), StringRef(log)};
  std::string errMsg;
  int rc = llvm::sys::ExecuteAndWait(argv[0], args, std::nullopt, redirects, 0, 0, &errMsg);
  std::string output;
  if (auto buf = llvm::MemoryBuffer::getFile(log))
    output = (*buf)->getBuffer().str();
  llvm::sys::fs::remove(log);
  if (rc == 0)
    return success();
  // The first lines say what is wrong; the rest is usually more of it.
  SmallVector<StringRef> lines;
  StringRef(output).split(lines, '\n', 20, false);
  if (lines.size() > 20)
    lines.pop_back();
  std::string text = llvm::join(lines, "\n");
  return emitError(loc) << what << " failed (" << argv[0] << " exited with " << rc
                        << (errMsg.empty() ? "" : ": " + errMsg) << ")"
                        << (text.empty() ? "" : ":\n" + text);
}

/// Writes `text` to a fresh file of the cache's tmp directory.
static FailureOr<std::string> writeTemp(StringRef text, StringRef ext, Location loc) {
  std::string path = rt::cacheTempPath(ext.str());
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return emitError(loc, "cannot write ") << path << ": " << ec.message(), failure();
  os << text;
  return path;
}

//===----------------------------------------------------------------------===//
// C -> shared library
//===----------------------------------------------------------------------===//

size_t mlir::uop::largestCBlock(ModuleOp module) {
  size_t most = 0;
  module.walk([&](Block *block) {
    if (isa<emitc::ExpressionOp>(block->getParentOp()))
      return;
    size_t n = 0;
    for (Operation &op : *block) {
      ++n;
      if (auto e = dyn_cast<emitc::ExpressionOp>(op))
        n += e.getBody()->getOperations().size();
    }
    most = std::max(most, n);
  });
  return most;
}

FailureOr<std::string> mlir::uop::compileCToSharedLibrary(StringRef source, TargetAttr target,
                                                          unsigned optLevel, bool fastCodegen,
                                                          Location loc) {
  if (!target || !target.isCPU())
    return emitError(loc, "no CPU #uop.target to compile the C for"), failure();
  std::string cc = findCCompiler();
  if (cc.empty())
    return emitError(loc, "no C compiler found (install clang-22)"), failure();
  bool clang = llvm::sys::path::filename(cc).starts_with("clang");
  bool openmp = source.contains("#pragma omp");
  // The seed's flags, less its fast-math ones: floats stay IEEE as on the
  // LLVM path (which reassociates only its reductions' adds).
  std::string level = fastCodegen ? "0" : std::to_string(std::min(optLevel, 3u));
  std::vector<std::string> flags = {"-std=gnu11", "-O" + level, "-fPIC", "-shared",
                                    "-fno-math-errno"};
  if (!target.getCpu().empty())
    flags.push_back("-march=" + target.getCpu().str());
  if (clang) {
    // Exactly the target's features (the CPU name alone may imply one a
    // host lacks), and f16 rounded after each op, as LLVM's half.
    for (StringRef f : llvm::split(target.getFeatures(), ','))
      if (!f.empty())
        flags.insert(flags.end(), {"-Xclang", "-target-feature", "-Xclang", f.str()});
    flags.push_back("-fexcess-precision=16");
  }
  if (openmp) {
    flags.push_back("-fopenmp");
    if (clang) // LLVM's OpenMP runtime (libomp-22-dev), found again at dlopen time
      flags.insert(flags.end(), {"-L/usr/lib/llvm-22/lib", "-Wl,-rpath,/usr/lib/llvm-22/lib"});
  }
  std::string key =
      rt::hashKey(source.str() + "\n// " + cc + " " + llvm::join(flags, " ") + "\n// uop-c-v1");
  std::string cached = rt::cacheLookup(key, ".so");
  if (!cached.empty())
    return cached;
  if (auto dir = rt::cacheDirChecked(); !dir.ok())
    return emitError(loc, "cannot compile into the cache: ") << dir.error(), failure();
  FailureOr<std::string> src = writeTemp(source, ".c", loc);
  if (failed(src))
    return failure();
  std::string so = rt::cacheTempPath(".so");
  std::vector<std::string> argv = {cc};
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.insert(argv.end(), {"-o", so, *src, "-lm"});
  LogicalResult compiled = run(argv, "compiling the C", loc);
  llvm::sys::fs::remove(*src);
  if (failed(compiled)) {
    llvm::sys::fs::remove(so);
    return failure();
  }
  auto installed = rt::cacheInstall(so, key, ".so");
  if (!installed.ok())
    return emitError(loc, "cannot cache the library: ") << installed.error(), failure();
  return installed.value();
}

//===----------------------------------------------------------------------===//
// CUDA C -> PTX and cubin
//===----------------------------------------------------------------------===//

FailureOr<CudaBinary> mlir::uop::compileCudaC(StringRef source, TargetAttr target,
                                              StringRef toolkit, Location loc) {
  if (!target || !target.isCUDA())
    return emitError(loc, "no CUDA #uop.target to compile the CUDA C for"), failure();
  std::string nvcc = findNvcc(toolkit);
  if (nvcc.empty())
    return emitError(loc, "no nvcc found (the CUDA toolkit: --cuda-toolkit, $CUDA_HOME or "
                          "/usr/local/cuda)"),
           failure();
  SmallString<128> ptxas(llvm::sys::path::parent_path(nvcc));
  llvm::sys::path::append(ptxas, "ptxas");
  std::string chip = target.getChip().str();
  std::vector<std::string> nvccFlags = {"-arch=" + chip, "-O3", "-ptx"};
  std::vector<std::string> ptxasFlags = {"-arch=" + chip, "-O3"};
  std::string key = rt::hashKey(source.str() + "\n// " + nvcc + " " + llvm::join(nvccFlags, " ") +
                                " | ptxas " + llvm::join(ptxasFlags, " ") + "\n// uop-cuda-c-v1");
  auto read = [](const std::string &path) -> std::optional<std::string> {
    auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
    if (!buf)
      return std::nullopt;
    return (*buf)->getBuffer().str();
  };
  std::string cachedPtx = rt::cacheLookup(key, ".ptx");
  std::string cachedCubin = rt::cacheLookup(key, ".cubin");
  if (!cachedPtx.empty() && !cachedCubin.empty()) {
    std::optional<std::string> ptx = read(cachedPtx), cubin = read(cachedCubin);
    if (ptx && cubin)
      return CudaBinary{std::move(*ptx), std::move(*cubin)};
  }
  if (auto dir = rt::cacheDirChecked(); !dir.ok())
    return emitError(loc, "cannot compile into the cache: ") << dir.error(), failure();
  FailureOr<std::string> src = writeTemp(source, ".cu", loc);
  if (failed(src))
    return failure();
  std::string ptxPath = rt::cacheTempPath(".ptx");
  std::string cubinPath = rt::cacheTempPath(".cubin");
  std::vector<std::string> argv = {nvcc};
  argv.insert(argv.end(), nvccFlags.begin(), nvccFlags.end());
  argv.insert(argv.end(), {"-o", ptxPath, *src});
  LogicalResult ok = run(argv, "compiling the CUDA C with nvcc", loc);
  llvm::sys::fs::remove(*src);
  if (succeeded(ok)) {
    std::vector<std::string> asArgv = {ptxas.str().str()};
    asArgv.insert(asArgv.end(), ptxasFlags.begin(), ptxasFlags.end());
    asArgv.insert(asArgv.end(), {"-o", cubinPath, ptxPath});
    ok = run(asArgv, "assembling the PTX with ptxas", loc);
  }
  std::optional<std::string> ptx = read(ptxPath), cubin = read(cubinPath);
  if (failed(ok) || !ptx || !cubin) {
    llvm::sys::fs::remove(ptxPath);
    llvm::sys::fs::remove(cubinPath);
    if (succeeded(ok))
      emitError(loc, "nvcc made no PTX or ptxas no cubin");
    return failure();
  }
  // A cache that cannot take them costs a recompile next time, nothing more.
  (void)rt::cacheInstall(ptxPath, key, ".ptx");
  (void)rt::cacheInstall(cubinPath, key, ".cubin");
  return CudaBinary{std::move(*ptx), std::move(*cubin)};
}
