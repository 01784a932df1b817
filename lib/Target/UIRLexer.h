//===- UIRLexer.h - the line syntax of .uir ---------------------*- C++ -*-===//
//
// The syntax of one `.uir` statement, `%name = op operands : key=value ...`,
// and of the Python literals it uses (`ast.literal_eval`'s subset): the
// seed's `uir.parse` up to the point where statements become ops. Nothing
// here knows what an op means; the importer (UIRImport.cpp) says which
// attributes and literal argument each op name takes through `OpSyntax`.
// Errors are reported at `FileLineColLoc(file, line, column)`.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_LIB_TARGET_UIRLEXER_H
#define UOP_LIB_TARGET_UIRLEXER_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::uop::uir {

/// A piece of a statement and its 1-based column.
struct Token {
  StringRef text;
  unsigned col = 0;
};

/// A Python literal as `ast.literal_eval` reads it (the subset `.uir` uses).
struct Literal {
  enum Kind { Bool, Int, Float, Tuple } kind = Int;
  bool b = false;
  std::string text;         ///< Int/Float: the digits as written
  double d = 0;             ///< Int/Float: Python's float(v)
  std::optional<int64_t> i; ///< Int: the value when it fits int64
  std::vector<Literal> elems;
  unsigned col = 0;

  /// The literal as written back (`(4,)`, `true`, `1.5`).
  std::string str() const;
  /// The integer, if this is an int that fits int64.
  std::optional<int64_t> asInt() const;
  /// The integers of a tuple of ints.
  std::optional<std::vector<int64_t>> asInts() const;
};

/// What the statement syntax needs to know about an op name.
struct OpSyntax {
  /// Where the op's literal argument stands among the operands.
  enum LiteralArg : uint8_t { NoLiteral, FirstLiteral, LastLiteral };
  LiteralArg literal = NoLiteral;
  /// The attribute keys the op takes.
  ArrayRef<StringRef> attrs;
};

/// One statement, split but not interpreted.
struct Statement {
  Token name; ///< `%name` as written
  Token op;   ///< the op name as written
  SmallVector<Token, 4> operands;
  std::optional<Token> literal;                  ///< the literal argument, per OpSyntax
  SmallVector<std::pair<Token, Token>, 2> attrs; ///< key, value
};

/// Splits `.uir` lines into statements and reads literals, reporting errors
/// at the current line.
class Lexer {
public:
  /// Returns the syntax of an op name, or null for an unknown op.
  using OpLookup = function_ref<const OpSyntax *(StringRef opName)>;

  Lexer(MLIRContext *context, StringRef file);

  void setLine(unsigned l) { line = l; }
  unsigned getLine() const { return line; }
  Location loc(unsigned col) const { return loc(line, col); }
  Location loc(unsigned l, unsigned col) const;
  /// Reports `msg` at `col` of the current line; always fails.
  LogicalResult error(unsigned col, const Twine &msg) const;

  /// Splits one line. Returns false for a blank or comment-only line, true
  /// for a statement (in `out`), failure on a syntax error (reported). The
  /// syntax of the op is `lookup(op name)`; its literal argument is taken
  /// out of the operands, which are otherwise left as written.
  FailureOr<bool> lexStatement(StringRef text, OpLookup lookup, Statement &out) const;

  /// A literal (a bad one is reported).
  FailureOr<Literal> parseLiteral(Token tok, unsigned depth = 0) const;

private:
  LogicalResult splitTop(Token s, SmallVectorImpl<Token> &out) const;

  MLIRContext *context;
  StringAttr file;
  unsigned line = 0;
};

/// Most parentheses nested in one literal.
constexpr unsigned kMaxTupleDepth = 16;

} // namespace mlir::uop::uir

#endif // UOP_LIB_TARGET_UIRLEXER_H
