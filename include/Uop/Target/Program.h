//===- Program.h - read a uop program, .uir or .mlir -------------*- C++ -*-===//
//
// Every uop tool reads a program the same way: `.uir` by extension through
// the importer (diagnostics at `file.uir:LINE:COL`), anything else as MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_TARGET_PROGRAM_H
#define UOP_TARGET_PROGRAM_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"

#include <functional>
#include <string>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir {
class DialectRegistry;
class MLIRContext;

namespace uop {

/// Most brackets (`{`, `[`, `(`, `<`) an MLIR text may hold open at once,
/// regions included (a `uop.call` body is one). MLIR's parser, verifier and
/// printer recurse once per level, and the printed form indents each level
/// by two spaces: past this, a tool would print gigabytes of indentation (a
/// call per level: 0.6 GB at 10,000 levels) and, past ~300,000, overflow even
/// the tools' 1 GiB stack (Uop/Support/LargeStack.h). Deeper input is an
/// error where it gets too deep. (.uir nests calls at most 200 deep.)
constexpr size_t kMaxMLIRNesting = 16384;

/// The first character of `text` (MLIR) at which more than `limit` brackets
/// are open, outside strings and comments (`->` closes none); null if none
/// is. Linear, without recursion: safe on any input. MLIR bytecode
/// (ML\xefR) is not text and is not scanned.
const char *findDeepNesting(StringRef text, size_t limit = kMaxMLIRNesting);

/// The error findDeepNesting's point gets.
std::string deepNestingMessage(size_t limit = kMaxMLIRNesting);

/// Parses the main buffer of `sourceMgr` as a program: `.uir` (by the
/// buffer's name) through the importer, else MLIR (an error where it nests
/// deeper than kMaxMLIRNesting). Returns null after a diagnostic. The
/// context needs the uop and func dialects (and whatever else an MLIR input
/// uses).
OwningOpRef<ModuleOp> parseProgram(llvm::SourceMgr &sourceMgr, MLIRContext *context);

/// Registers an `uop-translate` translation from a program to text that
/// reads its input with parseProgram, so that `.uir` and `.mlir` inputs work
/// alike. `dialects` adds what the translation needs to the registry.
void registerProgramTranslation(StringRef name, StringRef description,
                                std::function<LogicalResult(ModuleOp, raw_ostream &)> translate,
                                std::function<void(DialectRegistry &)> dialects);

} // namespace uop
} // namespace mlir

#endif // UOP_TARGET_PROGRAM_H
