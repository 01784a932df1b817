//===- uop-opt-fuzz.cpp - libFuzzer target for the uop passes --*- C++ -*-===//
//
// The input is one selector byte and then MLIR text (the uop dialect, func and
// arith). Text that parses and verifies is run through one uop pass, chosen
// by the selector byte (its value mod 6; the top bit is the pass's option):
//
//   0 uop-symbolic   1 uop-inline-calls   2 uop-evaluate
//   3 uop-kernelize (fuse-reduce)   4 uop-rangeify   5 uop-linearize
//
// Verified IR in must give verified IR out, or a failure with an error
// diagnostic; never a crash, an assertion, a sanitizer report, a failure
// without a diagnostic or invalid IR.
//
// The selector is the first byte, so the corpus stays text: '0'..'5' pick
// passes 0..5. Build with -DUOP_ENABLE_FUZZ=ON (clang); run with
//   build/bin/uop-opt-fuzz DIR fuzz/opt-corpus -dict=fuzz/opt.dict
// (test/Transforms/fuzz-opt.test runs it for 10 s).
//
//===----------------------------------------------------------------------===//

#include "Uop/Conversion/Passes.h"
#include "Uop/IR/UopDialect.h"
#include "Uop/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>

using namespace mlir;

// MLIR is linked uninstrumented, but its allocators' inline code compiled
// here poisons and unpoisons BumpPtrAllocator slabs (LLVM_ADDRESS_SANITIZER_BUILD)
// while the same allocator's code in libMLIR does not: an attribute that
// libMLIR allocates in a slab poisoned here reads as use-after-poison. The
// allocators' manual poisoning is off; ASan's own checks are not.
extern "C" const char *__asan_default_options() { return "allow_user_poisoning=0"; }

static const char *const kPassNames[] = {"uop-symbolic",  "uop-inline-calls", "uop-evaluate",
                                         "uop-kernelize", "uop-rangeify",     "uop-linearize"};

static void addPass(PassManager &pm, unsigned which, bool option) {
  switch (which) {
  case 0:
    pm.addPass(mlir::uop::createUopSymbolicPass());
    break;
  case 1:
    pm.addPass(mlir::uop::createUopInlineCallsPass());
    break;
  case 2:
    pm.addPass(mlir::uop::createUopEvaluatePass());
    break;
  case 3: {
    mlir::uop::UopKernelizePassOptions o;
    o.fuseReduce = option;
    pm.addPass(mlir::uop::createUopKernelizePass(o));
    break;
  }
  case 4:
    pm.addNestedPass<func::FuncOp>(mlir::uop::createUopRangeifyPass());
    break;
  default:
    pm.addNestedPass<func::FuncOp>(mlir::uop::createUopLinearizePass());
    break;
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  unsigned which = (data[0] & 0x7f) % 6;
  bool option = data[0] & 0x80;
  llvm::StringRef text(reinterpret_cast<const char *>(data + 1), size - 1);

  DialectRegistry registry;
  registry.insert<mlir::uop::UopDialect, func::FuncDialect, arith::ArithDialect>();
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.allowUnregisteredDialects(false);
  unsigned errors = 0;
  bool inPass = false;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    errors += diag.getSeverity() == DiagnosticSeverity::Error;
    if (getenv("UOP_OPT_FUZZ_VERBOSE") && inPass)
      llvm::errs() << "diagnostic: " << diag << "\n";
    return success();
  });

  // MLIR's lexer stops at a NUL: the input goes through a null-terminated copy
  // (libFuzzer's bytes have none after them).
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, "fuzz.mlir"),
                               llvm::SMLoc());
  ParserConfig config(&context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, config);
  if (!module)
    return 0; // did not parse, or did not verify: the parser reported it
  if (failed(verify(*module)))
    return 0;

  PassManager pm(&context, ModuleOp::getOperationName());
  pm.enableVerifier(false); // verified explicitly below: invalid output is a finding
  addPass(pm, which, option);
  errors = 0;
  inPass = true;
  if (failed(pm.run(*module))) {
    if (errors == 0) {
      llvm::errs() << kPassNames[which] << " failed without an error diagnostic\n";
      abort();
    }
    return 0;
  }
  inPass = false;
  errors = 0;
  if (failed(verify(*module))) {
    llvm::errs() << kPassNames[which] << " produced IR that does not verify:\n";
    module->getOperation()->print(llvm::errs(), OpPrintingFlags().assumeVerified());
    abort();
  }
  return 0;
}
