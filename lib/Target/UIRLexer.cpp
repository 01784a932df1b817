//===- UIRLexer.cpp - the line syntax of .uir ------------------*- C++ -*-===//

#include "UIRLexer.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <cstdlib>

using namespace mlir;
using namespace mlir::uop::uir;

//===----------------------------------------------------------------------===//
// Literal
//===----------------------------------------------------------------------===//

std::string Literal::str() const {
  if (kind == Bool)
    return b ? "true" : "false";
  if (kind != Tuple)
    return text;
  std::string out = "(";
  for (size_t k = 0; k < elems.size(); ++k)
    out += (k ? ", " : "") + elems[k].str();
  return out + (elems.size() == 1 ? ",)" : ")");
}

std::optional<int64_t> Literal::asInt() const {
  if (kind == Int)
    return i;
  return std::nullopt;
}

std::optional<std::vector<int64_t>> Literal::asInts() const {
  if (kind != Tuple)
    return std::nullopt;
  std::vector<int64_t> out;
  for (const Literal &e : elems) {
    if (e.kind != Int || !e.i)
      return std::nullopt;
    out.push_back(*e.i);
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Lexer
//===----------------------------------------------------------------------===//

Lexer::Lexer(MLIRContext *context, StringRef file)
    : context(context), file(StringAttr::get(context, file)) {}

Location Lexer::loc(unsigned l, unsigned col) const {
  return FileLineColLoc::get(context, file, l, col);
}

LogicalResult Lexer::error(unsigned col, const Twine &msg) const {
  emitError(loc(col)) << msg;
  return failure();
}

static bool isNameChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '.' || c == '$' || c == '-';
}

static Token trim(Token t) {
  size_t b = 0, e = t.text.size();
  while (b < e && llvm::isSpace(t.text[b]))
    ++b;
  while (e > b && llvm::isSpace(t.text[e - 1]))
    --e;
  return {t.text.slice(b, e), t.col + (unsigned)b};
}

/// The seed's `_split_top`: commas outside parentheses.
LogicalResult Lexer::splitTop(Token s, SmallVectorImpl<Token> &out) const {
  int depth = 0;
  size_t start = 0;
  unsigned openCol = 0;
  for (size_t k = 0; k <= s.text.size(); ++k) {
    char c = k < s.text.size() ? s.text[k] : ',';
    if (c == '(' && depth++ == 0)
      openCol = s.col + k;
    if (c == ')' && --depth < 0)
      return error(s.col + k, "unbalanced ')'");
    if (c == ',' && depth == 0) {
      Token t = trim({s.text.slice(start, k), s.col + (unsigned)start});
      if (k == s.text.size() && t.text.empty() && out.empty())
        break; // no operands at all
      if (t.text.empty())
        return error(t.col, "expected an operand");
      out.push_back(t);
      start = k + 1;
    }
  }
  if (depth > 0)
    return error(openCol, "unbalanced '(': missing ')'");
  return success();
}

FailureOr<Literal> Lexer::parseLiteral(Token tok, unsigned depth) const {
  StringRef s = tok.text;
  Literal lit;
  lit.col = tok.col;
  auto bad = [&]() -> FailureOr<Literal> {
    (void)error(tok.col, "bad literal '" + s + "'");
    return failure();
  };
  if (s == "true" || s == "True" || s == "false" || s == "False") {
    lit.kind = Literal::Bool;
    lit.b = s.front() == 't' || s.front() == 'T';
    return lit;
  }
  if (s == "inf" || s == "-inf" || s == "nan") {
    lit.kind = Literal::Float;
    lit.text = s.str();
    lit.d = s == "nan" ? std::nan("") : (s == "inf" ? INFINITY : -INFINITY);
    return lit;
  }
  if (s.starts_with("(")) {
    if (!s.ends_with(")") || s.size() < 2)
      return bad();
    if (depth >= kMaxTupleDepth) {
      (void)error(tok.col, "literal nested too deeply");
      return failure();
    }
    Token inner{s.drop_front().drop_back(), tok.col + 1};
    // Split on top-level commas; a trailing comma makes a one-tuple.
    SmallVector<Token> parts;
    int d = 0;
    size_t start = 0;
    bool sawComma = false;
    for (size_t k = 0; k <= inner.text.size(); ++k) {
      char c = k < inner.text.size() ? inner.text[k] : ',';
      d += (c == '(') - (c == ')');
      if (d < 0)
        return bad();
      if (c == ',' && d == 0) {
        if (k < inner.text.size())
          sawComma = true;
        Token t = trim({inner.text.slice(start, k), inner.col + (unsigned)start});
        start = k + 1;
        if (t.text.empty()) {
          if (k == inner.text.size() && (sawComma || parts.empty()))
            break; // `(4,)` or `()`
          return bad();
        }
        parts.push_back(t);
      }
    }
    if (d != 0)
      return bad();
    if (!sawComma && parts.size() == 1)
      return parseLiteral(parts[0], depth + 1); // `(4)` is just 4
    lit.kind = Literal::Tuple;
    for (Token t : parts) {
      FailureOr<Literal> e = parseLiteral(t, depth + 1);
      if (failed(e))
        return failure();
      lit.elems.push_back(std::move(*e));
    }
    return lit;
  }
  // Numbers: [+-]digits, or a float with '.', or an exponent.
  StringRef body = s;
  if (body.starts_with("+") || body.starts_with("-"))
    body = body.drop_front();
  if (body.empty())
    return bad();
  size_t k = 0;
  auto digits = [&] {
    size_t n = 0;
    while (k < body.size() && llvm::isDigit(body[k]))
      ++k, ++n;
    return n;
  };
  size_t intDigits = digits();
  bool isFloat = false;
  size_t fracDigits = 0;
  if (k < body.size() && body[k] == '.') {
    ++k;
    isFloat = true;
    fracDigits = digits();
  }
  if (intDigits + fracDigits == 0)
    return bad();
  if (k < body.size() && (body[k] == 'e' || body[k] == 'E')) {
    ++k;
    isFloat = true;
    if (k < body.size() && (body[k] == '+' || body[k] == '-'))
      ++k;
    if (digits() == 0)
      return bad();
  }
  if (k != body.size())
    return bad();
  lit.kind = isFloat ? Literal::Float : Literal::Int;
  lit.text = s.str();
  lit.d = std::strtod(lit.text.c_str(), nullptr);
  if (!isFloat) {
    int64_t v;
    if (!s.drop_front(s.starts_with("+")).getAsInteger(10, v))
      lit.i = v;
  }
  return lit;
}

FailureOr<bool> Lexer::lexStatement(StringRef text, OpLookup lookup, Statement &out) const {
  // Comments, then the statement `%name = op operands : attrs`.
  size_t hash = text.find('#');
  Token stmt = trim({text.take_front(hash), 1});
  if (stmt.text.empty())
    return false;
  for (size_t k = 0; k < stmt.text.size(); ++k) {
    unsigned char c = stmt.text[k];
    if ((c < 0x20 && !llvm::isSpace(c)) || c >= 0x7f)
      return error(stmt.col + k, "invalid character 0x" + llvm::utohexstr(c, true, 2));
  }
  if (stmt.text.front() != '%')
    return error(stmt.col, "statement must start with %name =");
  size_t eq = stmt.text.find('=');
  if (eq == StringRef::npos)
    return error(stmt.col + stmt.text.size(), "expected '=' after the name");
  Token lhs = trim({stmt.text.take_front(eq), stmt.col});
  StringRef name = lhs.text.drop_front();
  if (name.empty() || !llvm::all_of(name, isNameChar))
    return error(lhs.col, "bad name '" + lhs.text + "': expected %[A-Za-z0-9_.$-]+");
  out.name = lhs;
  Token rhs{stmt.text.drop_front(eq + 1), stmt.col + (unsigned)eq + 1};
  size_t colon = rhs.text.find(':');
  Token body = trim({rhs.text.take_front(colon), rhs.col});
  Token attrsTok{colon == StringRef::npos ? StringRef() : rhs.text.drop_front(colon + 1),
                 rhs.col + (unsigned)(colon == StringRef::npos ? 0 : colon + 1)};
  if (body.text.empty())
    return error(rhs.col, "expected an op name after '='");
  size_t sp = 0;
  while (sp < body.text.size() && !llvm::isSpace(body.text[sp]))
    ++sp;
  out.op = Token{body.text.take_front(sp), body.col};
  Token opsTok = trim({body.text.drop_front(sp), body.col + (unsigned)sp});
  const OpSyntax *syntax = lookup(out.op.text);
  if (!syntax)
    return error(out.op.col, "unknown op '" + out.op.text + "'");

  // Attributes: key=value, the value a parenthesized tuple or a word.
  out.attrs.clear();
  StringRef a = attrsTok.text;
  size_t k = 0;
  while (true) {
    while (k < a.size() && llvm::isSpace(a[k]))
      ++k;
    if (k >= a.size())
      break;
    unsigned keyCol = attrsTok.col + k;
    size_t ks = k;
    while (k < a.size() && (llvm::isAlnum(a[k]) || a[k] == '_'))
      ++k;
    StringRef key = a.slice(ks, k);
    if (key.empty() || k >= a.size() || a[k] != '=')
      return error(keyCol, "expected key=value attribute");
    if (!llvm::is_contained(syntax->attrs, key))
      return error(keyCol, "unknown attribute '" + key + "' for " + out.op.text.lower());
    ++k;
    size_t vs = k;
    if (k < a.size() && a[k] == '(') {
      int depth = 0;
      for (; k < a.size(); ++k) {
        depth += (a[k] == '(') - (a[k] == ')');
        if (depth == 0)
          break;
      }
      if (depth != 0)
        return error(attrsTok.col + vs, "unbalanced '(': missing ')'");
      ++k;
    } else {
      while (k < a.size() && !llvm::isSpace(a[k]))
        ++k;
    }
    Token val{a.slice(vs, k), attrsTok.col + (unsigned)vs};
    if (val.text.empty())
      return error(val.col, "expected a value for '" + key + "'");
    if (key == "slot" || key == "idx" || key == "pop" || key == "shape")
      if (failed(parseLiteral(val)))
        return failure();
    if (llvm::any_of(out.attrs, [&](auto &kv) { return kv.first.text == key; }))
      return error(keyCol, "duplicate attribute '" + key + "'");
    out.attrs.push_back({Token{key, keyCol}, val});
  }

  // Operands, and the literal argument among them.
  out.operands.clear();
  out.literal.reset();
  if (failed(splitTop(opsTok, out.operands)))
    return failure();
  if (syntax->literal != OpSyntax::NoLiteral) {
    if (out.operands.empty())
      return error(out.op.col + out.op.text.size(),
                   out.op.text.lower() + " needs a literal argument");
    bool first = syntax->literal == OpSyntax::FirstLiteral;
    Token t = first ? out.operands.front() : out.operands.back();
    if (failed(parseLiteral(t)))
      return failure();
    out.literal = t;
    if (first)
      out.operands.erase(out.operands.begin());
    else
      out.operands.pop_back();
  }
  return true;
}
