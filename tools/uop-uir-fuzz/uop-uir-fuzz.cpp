//===- uop-uir-fuzz.cpp - libFuzzer target for the .uir importer -*- C++ -*-===//
//
// Feeds arbitrary bytes to the `.uir` importer. Malformed input must produce
// a diagnostic, never a crash, an assertion or a sanitizer report. A program
// that imports must export, and its export must import and export again to
// the same text (export(import(export(import(x)))) == export(import(x))).
//
// Build with -DUOP_ENABLE_FUZZ=ON (clang); run with scripts/fuzz-uir.sh.
//
//===----------------------------------------------------------------------===//

#include "Uop/IR/UopDialect.h"
#include "Uop/Target/UIR.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>

using namespace mlir;

/// Imports `text`; null on a (reported and swallowed) error.
static OwningOpRef<ModuleOp> importText(llvm::StringRef text, MLIRContext &context) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, "fuzz.uir"),
                               llvm::SMLoc());
  return uop::importUIR(sourceMgr, &context);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  DialectRegistry registry;
  uop::registerUIRDialects(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  unsigned errors = 0;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    errors += diag.getSeverity() == DiagnosticSeverity::Error;
    return success();
  });
  llvm::StringRef input(reinterpret_cast<const char *>(data), size);
  OwningOpRef<ModuleOp> module = importText(input, context);
  if (!module) {
    if (errors == 0) {
      llvm::errs() << "import failed without an error\n";
      abort();
    }
    return 0;
  }
  std::string once, twice;
  llvm::raw_string_ostream os1(once), os2(twice);
  if (failed(uop::exportUIR(*module, os1))) {
    llvm::errs() << "an imported module does not export\n";
    abort();
  }
  OwningOpRef<ModuleOp> again = importText(once, context);
  if (!again || failed(uop::exportUIR(*again, os2)) || once != twice) {
    llvm::errs() << "export is not a fixed point:\n" << once << "---\n" << twice;
    abort();
  }
  return 0;
}
