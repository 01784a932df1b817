//===- GpuSearch.cpp - opt=search for a GPU, through bundles -------*- C++ -*-===//
//
// The GPU search: the compiler has no GPU (this machine) and the GPU machine
// has no compiler, so a search is three steps, each a command:
//
//   here   uop-compile P --target=cuda --opt=search --search-export=DIR
//            every kernel without a cached winner: its candidates (the
//            hand's choice first, then getGpuOptCandidates) compiled as
//            one-kernel bundles, DIR/manifest.txt naming them;
//   there  tools/uop-gpu-search.py RUNNER DIR
//            each candidate run by uop-runner on random inputs, checked
//            against the hand's result and timed; DIR/results.txt names
//            each kernel's winner;
//   here   uop-compile P --target=cuda --opt=search --search-results=DIR/results.txt
//            the winners cached (the CPU search's cache: "<key>.search",
//            checksummed) under the kernel's structure and the cuda
//            #uop.target, then each kernel takes its cached winner; later
//            compiles of the same kernels for the same target find them.
//
// Kernels with no cached winner (and those that divide by data, which
// random inputs may make divide by zero) get the hand's opts.
//
//===----------------------------------------------------------------------===//

#include "Uop/ExecutionEngine/ExecutionEngine.h"

#include "SearchCommon.h"

#include "Uop/IR/UopOps.h"
#include "Uop/IR/UopTarget.h"
#include "Uop/Runtime/Bundle.h"
#include "Uop/Runtime/Cache.h"
#include "Uop/Runtime/File.h"
#include "Uop/Transforms/GpuOptCandidates.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ScopedPrinter.h"
#include "llvm/Support/raw_ostream.h"

#include <fstream>
#include <sstream>

using namespace mlir;
using namespace mlir::uop;
using namespace mlir::uop::search;
namespace rt = ::uop::rt;

/// The first lines of the export's manifest and of the tool's results.
static constexpr const char *kManifestFormat = "uop-gpu-search 1";
static constexpr const char *kResultsFormat = "uop-gpu-search-results 1";

/// The cache key of `kernel`'s winner on `target` compiled as `options`
/// say (the same entry form as the CPU search's).
static std::string gpuKey(func::FuncOp kernel, TargetAttr target, const CompileOptions &options) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << kSearchFormat << "\ntarget=" << target << "\ncodegen="
     << stringifyCodegenPath(options.codegenPath) << " ptx-O" << options.ptxOptLevel
     << " ptx-features=" << options.ptxFeatures << "\n"
     << kernelText(kernel);
  return rt::hashKey(text);
}

/// Caches `opts` as the winner under `key`.
static bool cacheWinner(const std::string &key, OptsAttr opts) {
  std::string tmp = rt::cacheTempPath(".search");
  std::string entry = std::string(kSearchFormat) + "\nopts " + llvm::to_string(opts) + "\n";
  return rt::writeNewFile(tmp, entry, 0644, /*durable=*/false) &&
         bool(rt::cacheInstall(tmp, key, ".search"));
}

/// The cached winner under `key`, if any.
static OptsAttr cachedWinner(const std::string &key, MLIRContext *ctx) {
  std::string path = rt::cacheLookup(key, ".search");
  if (path.empty())
    return {};
  std::ifstream f(path);
  std::string header, line;
  if (!std::getline(f, header) || header != kSearchFormat || !std::getline(f, line) ||
      line.rfind("opts ", 0) != 0)
    return {};
  ScopedDiagnosticHandler quiet(ctx, [](Diagnostic &) { return success(); });
  return dyn_cast_or_null<OptsAttr>(parseAttribute(line.substr(5), ctx));
}

/// Caches every winner of the results file `path`: after its first line,
/// lines "KEY OPTS" (blank lines and lines from '#' are comments). An error
/// names the file and line.
static LogicalResult importResults(const std::string &path, MLIRContext *ctx, Location loc,
                                   llvm::raw_ostream &log) {
  rt::Result<std::string> text = rt::readInputFile(path);
  if (!text)
    return emitError(loc, "--search-results: ") << text.error(), failure();
  SmallVector<StringRef> lines;
  StringRef(*text).split(lines, '\n');
  auto bad = [&](size_t line, const Twine &why) {
    return emitError(FileLineColLoc::get(ctx, path, line + 1, 1), why), failure();
  };
  if (lines.empty() || lines[0].trim() != kResultsFormat)
    return bad(0, Twine("not a GPU search results file (its first line is not '") +
                      kResultsFormat + "')");
  unsigned imported = 0;
  for (size_t i = 1; i < lines.size(); ++i) {
    StringRef line = lines[i].trim();
    if (line.empty() || line.starts_with("#"))
      continue;
    auto [key, rest] = line.split(' ');
    static const size_t keyLength = rt::hashKey("").size();
    if (key.size() != keyLength || !llvm::all_of(key, llvm::isHexDigit))
      return bad(i, "expected a kernel key (" + Twine(keyLength) +
                        " hex digits) then opts, got '" + line + "'");
    StringRef optsText = rest.trim();
    OptsAttr opts;
    {
      ScopedDiagnosticHandler quiet(ctx, [](Diagnostic &) { return success(); });
      opts = dyn_cast_or_null<OptsAttr>(parseAttribute(optsText, ctx));
    }
    if (!opts)
      return bad(i, "expected #uop.opts<...> after the key, got '" + optsText + "'");
    if (!cacheWinner(key.str(), opts))
      return emitError(loc, "--search-results: cannot write the search cache (")
                 << rt::cacheDir() << ")",
             failure();
    ++imported;
  }
  log << "uop-search: " << imported << " GPU winner(s) cached from " << path << "\n";
  return success();
}

/// Writes `kernel`'s candidates as bundles DIR/SUB/I.uopx (I = 0: the
/// hand's) and their manifest lines.
static LogicalResult exportCandidates(func::FuncOp kernel, const std::string &key,
                                      const CompileOptions &options, const std::string &dir,
                                      std::string &manifest, llvm::raw_ostream &log) {
  TargetAttr target = getTarget(kernel);
  SmallVector<OptsAttr> candidates;
  if (OptsAttr hand = handChoice(kernel))
    candidates.push_back(hand);
  if (candidates.empty())
    return emitError(kernel.getLoc(), "uop-search: uop-hand-opt has no opts for this kernel"),
           failure();
  for (OptsAttr c : getGpuOptCandidates(kernel, target))
    if (!llvm::is_contained(candidates, c))
      candidates.push_back(c);
  std::string sub = kernel.getSymName().str() + "-" + key.substr(0, 12);
  SmallString<256> subDir(dir);
  llvm::sys::path::append(subDir, sub);
  if (std::error_code ec = llvm::sys::fs::create_directories(subDir))
    return emitError(kernel.getLoc(), "--search-export: cannot create ")
               << subDir << ": " << ec.message(),
           failure();
  CompileOptions one = options;
  one.opt = OptMode::Hand; // each kernel names its opts
  one.searchExport.clear();
  one.searchResults.clear();
  manifest += "kernel " + key + " " + kernel.getSymName().str() + "\n";
  unsigned written = 0;
  for (auto [i, opts] : llvm::enumerate(candidates)) {
    OwningOpRef<ModuleOp> program = singleKernelProgram(kernel, opts);
    FailureOr<CompiledProgram> compiled;
    {
      // A candidate the lowering refuses is no candidate (the hand's is
      // the reference: its failure is the compile's).
      ScopedDiagnosticHandler quiet(kernel.getContext(), [&](Diagnostic &) {
        return i == 0 ? failure() : success();
      });
      compiled = compileProgram(*program, one);
    }
    if (failed(compiled)) {
      if (i == 0)
        return failure();
      log << "uop-search: " << kernel.getSymName() << ": candidate " << opts
          << " does not compile; left out\n";
      continue;
    }
    std::string file = std::to_string(i) + ".uopx";
    SmallString<256> path(subDir);
    llvm::sys::path::append(path, file);
    std::string chip = rt::ptxTarget(compiled->ptx);
    rt::Bundle bundle = rt::Bundle::cuda(std::move(compiled->plan), std::move(compiled->ptx), chip,
                                         std::move(compiled->cubin));
    bundle.machine = compiled->machine;
    if (auto ok = rt::writeBundle(path.str().str(), bundle); !ok)
      return emitError(kernel.getLoc(), "--search-export: ") << ok.error(), failure();
    manifest += "cand " + key + " " + sub + "/" + file + " " + llvm::to_string(opts) + "\n";
    ++written;
  }
  log << "uop-search: " << kernel.getSymName() << ": " << written << " candidates exported to "
      << subDir << "\n";
  return success();
}

LogicalResult mlir::uop::gpuSearchOpts(ModuleOp module, const CompileOptions &options,
                                       llvm::raw_ostream &log) {
  MLIRContext *ctx = module.getContext();
  TargetAttr target = getTarget(module);
  if (!target || !target.isCUDA())
    return emitError(module.getLoc(), "uop-search: the module has no cuda #uop.target"),
           failure();
  if (!options.searchResults.empty() &&
      failed(importResults(options.searchResults, ctx, module.getLoc(), log)))
    return failure();
  std::string manifest;
  unsigned exported = 0;
  for (auto kernel : module.getOps<func::FuncOp>()) {
    if (!isKernel(kernel) || kernel.isDeclaration() || kernel->hasAttr(kOptsAttrName) ||
        kernel.getNumResults() != 1 || isa<VoidType>(kernel.getResultTypes()[0]))
      continue;
    StringRef name = kernel.getSymName();
    if (dividesByData(kernel)) {
      log << "uop-search: " << name << ": not searched (it divides by data): hand opts\n";
      continue;
    }
    std::string key = gpuKey(kernel, target, options);
    if (OptsAttr cached = cachedWinner(key, ctx)) {
      kernel->setAttr(kOptsAttrName, cached);
      log << "uop-search: " << name << ": cached " << cached << "\n";
      continue;
    }
    if (options.searchExport.empty()) {
      log << "uop-search: " << name << ": no GPU winner cached (--search-export): hand opts\n";
      continue;
    }
    if (failed(exportCandidates(kernel, key, options, options.searchExport, manifest, log)))
      return failure();
    ++exported;
  }
  if (exported) {
    // Appended: several programs may export into one directory.
    SmallString<256> path(options.searchExport);
    llvm::sys::path::append(path, "manifest.txt");
    bool fresh = !llvm::sys::fs::exists(path);
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_Append);
    if (ec)
      return emitError(module.getLoc(), "--search-export: cannot write ")
                 << path << ": " << ec.message(),
             failure();
    if (fresh)
      os << kManifestFormat << "\n";
    os << "target " << target << "\n" << manifest;
  }
  return success();
}
