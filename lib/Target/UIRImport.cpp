//===- UIRImport.cpp - .uir text to the uop dialect ------------*- C++ -*-===//
//
// The seed's `uir.parse` (uopc/uir.py): each statement is parsed into the
// hash-consed node graph of UIRGraph.h, applying the seed's sugar (bare
// literals become constants typed like their neighbours; binary ops and
// `where` broadcast by RESHAPE + EXPAND) and the seed's `_infer` checks, so a
// malformed statement is reported at its own line even when the program never
// uses it. The graph reachable from the last statement is then emitted as
// `func.func @main`, one scope at a time: each CALL body goes into its
// `uop.call` region with the body's params as block arguments.
//
//===----------------------------------------------------------------------===//

#include "UIRGraph.h"

#include "Uop/IR/UopOps.h"
#include "Uop/Target/UIR.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"

#include <cmath>

using namespace mlir;
using namespace mlir::uop;
using namespace mlir::uop::uir;

namespace {

/// Most call-body scopes nested in one another (each one is an MLIR region).
constexpr size_t kMaxCallDepth = 200;
/// Most operations an import may create (call bodies used in several scopes
/// are emitted once per scope).
constexpr size_t kMaxOps = 4u << 20;
/// Most parentheses nested in one literal.
constexpr unsigned kMaxTupleDepth = 16;

/// A Python literal as `ast.literal_eval` reads it (the subset `.uir` uses).
struct Literal {
  enum Kind { Bool, Int, Float, Tuple } kind = Int;
  bool b = false;
  std::string text;          ///< Int/Float: the digits as written
  double d = 0;              ///< Int/Float: Python's float(v)
  std::optional<int64_t> i;  ///< Int: the value when it fits int64
  std::vector<Literal> elems;
  unsigned col = 0;

  std::string str() const {
    if (kind == Bool)
      return b ? "true" : "false";
    if (kind != Tuple)
      return text;
    std::string out = "(";
    for (size_t k = 0; k < elems.size(); ++k)
      out += (k ? ", " : "") + elems[k].str();
    return out + (elems.size() == 1 ? ",)" : ")");
  }
};

/// A token of a statement and its 1-based column.
struct Token {
  StringRef text;
  unsigned col;
};

/// An operand: a node or a literal still waiting for its dtype.
struct Operand {
  std::optional<uint32_t> node;
  Literal lit;
  unsigned col = 0;
};

class Importer {
public:
  Importer(llvm::SourceMgr &sourceMgr, MLIRContext *context)
      : sourceMgr(sourceMgr), ctx(context), builder(context) {}

  OwningOpRef<ModuleOp> run();

private:
  // ---- diagnostics ----
  Location loc(unsigned line, unsigned col) {
    return FileLineColLoc::get(ctx, file, line, col);
  }
  LogicalResult error(unsigned col, const Twine &msg) {
    emitError(loc(line, col)) << msg;
    return failure();
  }

  // ---- statements ----
  LogicalResult parseLine(StringRef text);
  FailureOr<Literal> parseLiteral(Token tok, unsigned depth = 0);
  LogicalResult splitTop(Token s, SmallVectorImpl<Token> &out);
  FailureOr<uint32_t> build(OpKind op, std::vector<Operand> &src,
                            std::optional<Literal> lit,
                            llvm::StringMap<std::pair<Literal, Token>> &attrs,
                            unsigned opCol);

  // ---- nodes (the seed's UOp constructors) ----
  FailureOr<uint32_t> make(Node n, unsigned col);
  LogicalResult infer(Node &n, unsigned col);
  FailureOr<uint32_t> makeConst(const Literal &v, std::optional<DType> dtype, unsigned col);
  FailureOr<uint32_t> cast(uint32_t x, DType d, unsigned col);
  FailureOr<uint32_t> movement(OpKind op, uint32_t x, std::vector<int64_t> arg, unsigned col);
  LogicalResult broadcast(uint32_t &a, uint32_t &b, unsigned col);
  std::string typeStr(const Node &n);

  // ---- MLIR ----
  LogicalResult emit(uint32_t root, ModuleOp module);
  Type mlirDType(DType d);
  Type paramType(const Node &n) {
    return getValueType(n.argShape, mlirDType(n.argDType));
  }
  FailureOr<Value> emitOp(uint32_t id, ArrayRef<Value> vals, const std::vector<bool> &memory);

  llvm::SourceMgr &sourceMgr;
  MLIRContext *ctx;
  OpBuilder builder;
  StringAttr file;
  unsigned line = 0;
  Graph g;
  llvm::StringMap<uint32_t> env;
  std::optional<uint32_t> last; ///< the node of the last statement
};

} // namespace

//===----------------------------------------------------------------------===//
// Lexing
//===----------------------------------------------------------------------===//

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
LogicalResult Importer::splitTop(Token s, SmallVectorImpl<Token> &out) {
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

FailureOr<Literal> Importer::parseLiteral(Token tok, unsigned depth) {
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

//===----------------------------------------------------------------------===//
// Nodes: the seed's _infer, with the dialect verifier's messages
//===----------------------------------------------------------------------===//

/// The dtype as an MLIR type prints (bool is i1).
static std::string dtypeStr(DType d) {
  switch (d) {
  case DType::Void:
    return "!uop.void";
  case DType::Bool:
    return "i1";
  default:
    return dtypeName(d).str();
  }
}

static std::string shapeStr(ArrayRef<int64_t> shape) { return shapeToString(shape); }

std::string Importer::typeStr(const Node &n) {
  if (n.dtype == DType::Void || n.shape.empty())
    return dtypeStr(n.dtype);
  std::string dims;
  for (int64_t d : n.shape)
    dims += std::to_string(d) + "x";
  if (n.addrspace == Space::Alu || n.addrspace == Space::Global)
    return "tensor<" + dims + dtypeStr(n.dtype) + ">";
  const char *space = n.addrspace == Space::Global  ? "global"
                      : n.addrspace == Space::Local ? "local"
                                                    : "shared";
  return "memref<" + dims + dtypeStr(n.dtype) + ", #uop.addrspace<" + space + ">>";
}

static bool checkedProduct(ArrayRef<int64_t> shape, int64_t &out) {
  int64_t n = 1;
  for (int64_t d : shape)
    if (d < 0 || __builtin_mul_overflow(n, d, &n) || n > (int64_t(1) << 48))
      return false;
  out = n;
  return true;
}

LogicalResult Importer::infer(Node &n, unsigned col) {
  std::string opn = "'uop." + opName(n.op).str() + "' op ";
  auto fail = [&](const Twine &msg) { return error(col, opn + msg); };
  auto arity = [&](size_t lo, size_t hi) -> LogicalResult {
    if (n.src.size() >= lo && n.src.size() <= hi)
      return success();
    std::string want = lo == hi ? std::to_string(lo)
                       : hi == SIZE_MAX ? "at least " + std::to_string(lo)
                                        : std::to_string(lo) + " to " + std::to_string(hi);
    return fail("takes " + want + " operand" + (lo == 1 && (hi == 1 || hi == SIZE_MAX) ? "" : "s") + ", got " +
                std::to_string(n.src.size()));
  };
  auto S = [&](size_t k) -> const Node & { return g[n.src[k]]; };
  n.addrspace = Space::Alu;
  n.shape.clear();
  switch (n.op) {
  case OpKind::Const:
    n.dtype = n.cval.dtype;
    return success();
  case OpKind::Param:
    if (n.slot < 0)
      return fail("slot must be non-negative, got " + std::to_string(n.slot));
    n.dtype = n.argDType, n.shape = n.argShape;
    break;
  case OpKind::Buffer:
  case OpKind::Alloc:
    if (n.slot < 0)
      return fail("slot must be non-negative, got " + std::to_string(n.slot));
    n.dtype = n.argDType, n.shape = n.argShape;
    n.addrspace = n.op == OpKind::Buffer ? Space::Global
                  : n.space == Space::Alu ? Space::Local
                                          : n.space;
    break;
  case OpKind::Call: {
    if (failed(arity(1, SIZE_MAX)))
      return failure();
    std::map<int64_t, uint32_t> params;
    for (uint32_t p : g.callParams(n.src[0])) {
      auto [it, inserted] = params.try_emplace(g[p].slot, p);
      if (!inserted && (g[it->second].dtype != g[p].dtype || g[it->second].shape != g[p].shape))
        return fail("body has two params with slot " + std::to_string(g[p].slot) +
                    " and different types: " + typeStr(g[it->second]) + " vs " + typeStr(g[p]));
    }
    size_t nargs = n.src.size() - 1;
    bool ok = params.size() == nargs;
    int64_t expect = 0;
    for (auto &kv : params)
      ok = ok && kv.first == expect++;
    if (!ok) {
      std::string has = "[";
      for (auto &kv : params)
        has += (has.size() > 1 ? ", " : "") + std::to_string(kv.first);
      return fail("needs params 0.." + std::to_string((int64_t)nargs - 1) + ", body has " +
                  has + "]");
    }
    for (size_t k = 0; k < nargs; ++k) {
      const Node &a = S(k + 1), &p = g[params[k]];
      if (a.dtype != p.dtype || a.shape != p.shape)
        return fail("arg " + std::to_string(k) + ": " + typeStr(a) + " != param " + typeStr(p));
    }
    n.dtype = S(0).dtype, n.shape = S(0).shape, n.addrspace = S(0).addrspace;
    break;
  }
  case OpKind::Stack: {
    if (n.src.empty())
      return fail("of nothing: needs at least one source");
    for (size_t k = 1; k < n.src.size(); ++k)
      if (S(k).dtype != S(0).dtype || S(k).shape != S(0).shape)
        return fail("sources must agree in shape and dtype: " + typeStr(S(0)) + " vs " +
                    typeStr(S(k)));
    n.dtype = S(0).dtype;
    n.shape = {(int64_t)n.src.size()};
    llvm::append_range(n.shape, S(0).shape);
    break;
  }
  case OpKind::Index: {
    if (failed(arity(1, SIZE_MAX)))
      return failure();
    const Node &x = S(0);
    if (n.src.size() - 1 > x.shape.size())
      return fail(std::to_string(n.src.size() - 1) + " indices into shape " + shapeStr(x.shape) +
                  " of " + typeStr(x));
    for (size_t k = 1; k < n.src.size(); ++k)
      if (S(k).dtype != DType::I32 || !S(k).shape.empty())
        return fail("indices are i32 scalars, got " + typeStr(S(k)));
    n.dtype = x.dtype, n.addrspace = x.addrspace;
    n.shape.assign(x.shape.begin() + (n.src.size() - 1), x.shape.end());
    break;
  }
  case OpKind::Where: {
    if (failed(arity(3, 3)))
      return failure();
    const Node &c = S(0), &a = S(1), &b = S(2);
    if (c.dtype != DType::Bool)
      return fail("condition must be bool, got " + dtypeStr(c.dtype));
    if (a.dtype != b.dtype)
      return fail("branches disagree: " + dtypeStr(a.dtype) + " vs " + dtypeStr(b.dtype));
    if (c.shape != a.shape || a.shape != b.shape)
      return fail("shape mismatch: " + shapeStr(c.shape) + " " + shapeStr(a.shape) + " " +
                  shapeStr(b.shape));
    n.dtype = a.dtype, n.shape = a.shape;
    break;
  }
  case OpKind::Cast:
    if (failed(arity(1, 1)))
      return failure();
    n.dtype = n.argDType, n.shape = S(0).shape;
    break;
  case OpKind::Recip:
  case OpKind::Exp2:
  case OpKind::Log2:
  case OpKind::Sqrt:
  case OpKind::Sin:
    if (failed(arity(1, 1)))
      return failure();
    if (!isFloat(S(0).dtype))
      return fail("needs a float, got " + dtypeStr(S(0).dtype));
    n.dtype = S(0).dtype, n.shape = S(0).shape;
    break;
  case OpKind::Add:
  case OpKind::Mul:
  case OpKind::CmpLt:
  case OpKind::CmpNe:
  case OpKind::FloorDiv:
  case OpKind::FloorMod:
  case OpKind::Max: {
    if (failed(arity(2, 2)))
      return failure();
    const Node &a = S(0), &b = S(1);
    if (a.shape != b.shape)
      return fail("shape mismatch: " + typeStr(a) + " vs " + typeStr(b) +
                  " (broadcast with uop.expand)");
    if (a.dtype != b.dtype)
      return fail("dtype mismatch: " + dtypeStr(a.dtype) + " vs " + dtypeStr(b.dtype) +
                  " (use uop.cast)");
    if ((n.op == OpKind::FloorDiv || n.op == OpKind::FloorMod) && a.dtype != DType::I32)
      return fail("is integer only, got " + dtypeStr(a.dtype));
    n.dtype = (n.op == OpKind::CmpLt || n.op == OpKind::CmpNe) ? DType::Bool : a.dtype;
    n.shape = a.shape;
    break;
  }
  case OpKind::Load:
    if (failed(arity(1, 1)))
      return failure();
    if (S(0).addrspace == Space::Alu)
      return fail("needs memory, got " + typeStr(S(0)));
    n.dtype = S(0).dtype, n.shape = S(0).shape;
    break;
  case OpKind::Store:
    if (failed(arity(2, 2)))
      return failure();
    if (S(0).addrspace == Space::Alu)
      return fail("needs memory, got " + typeStr(S(0)));
    if (S(0).dtype != S(1).dtype)
      return fail("stores " + dtypeStr(S(1).dtype) + " into " + dtypeStr(S(0).dtype) +
                  " memory");
    n.dtype = DType::Void;
    break;
  case OpKind::After:
    if (failed(arity(1, SIZE_MAX)))
      return failure();
    n.dtype = S(0).dtype, n.shape = S(0).shape, n.addrspace = S(0).addrspace;
    break;
  case OpKind::Sink:
  case OpKind::Barrier:
    n.dtype = DType::Void;
    break;
  case OpKind::End:
    if (failed(arity(1, SIZE_MAX)))
      return failure();
    n.dtype = DType::Void;
    break;
  case OpKind::Range:
    if (failed(arity(1, 1)))
      return failure();
    if (S(0).dtype != DType::I32 || !S(0).shape.empty())
      return fail("end must be i32, got " + typeStr(S(0)));
    if (n.slot < 0)
      return fail("idx must be non-negative, got " + std::to_string(n.slot));
    n.dtype = DType::I32;
    break;
  case OpKind::Reshape: {
    int64_t from, to;
    if (llvm::any_of(n.argShape, [](int64_t d) { return d < 0; }))
      return fail("shape " + shapeStr(n.argShape) + " has a negative size");
    if (!checkedProduct(n.argShape, to) || !checkedProduct(S(0).shape, from))
      return fail("shape " + shapeStr(n.argShape) + " has too many elements");
    if (from != to)
      return fail("cannot reshape " + shapeStr(S(0).shape) + " to " + shapeStr(n.argShape) +
                  ": element counts " + std::to_string(from) + " vs " + std::to_string(to));
    n.dtype = S(0).dtype, n.shape = n.argShape, n.addrspace = S(0).addrspace;
    break;
  }
  case OpKind::Expand: {
    const std::vector<int64_t> &from = S(0).shape, &to = n.argShape;
    bool ok = from.size() == to.size();
    for (size_t k = 0; ok && k < from.size(); ++k)
      ok = from[k] == to[k] || (from[k] == 1 && to[k] >= 0);
    if (!ok)
      return fail("cannot expand " + shapeStr(from) + " to " + shapeStr(to) +
                  ": same rank, and only size-1 axes grow");
    int64_t count;
    if (!checkedProduct(to, count))
      return fail("shape " + shapeStr(to) + " has too many elements");
    n.dtype = S(0).dtype, n.shape = to, n.addrspace = S(0).addrspace;
    break;
  }
  case OpKind::Permute: {
    const std::vector<int64_t> &shape = S(0).shape, &perm = n.argShape;
    std::vector<bool> seen(shape.size());
    bool ok = perm.size() == shape.size();
    for (size_t k = 0; ok && k < perm.size(); ++k) {
      ok = perm[k] >= 0 && perm[k] < (int64_t)shape.size() && !seen[perm[k]];
      if (ok)
        seen[perm[k]] = true;
    }
    if (!ok)
      return fail(shapeStr(perm) + " is not a permutation of the " + std::to_string(shape.size()) +
                  " axes of " + shapeStr(shape));
    for (int64_t p : perm)
      n.shape.push_back(shape[p]);
    n.dtype = S(0).dtype, n.addrspace = S(0).addrspace;
    break;
  }
  case OpKind::Shrink: {
    const std::vector<int64_t> &shape = S(0).shape, &b = n.argShape;
    bool ok = b.size() == 2 * shape.size();
    for (size_t k = 0; ok && k < shape.size(); ++k)
      ok = 0 <= b[2 * k] && b[2 * k] <= b[2 * k + 1] && b[2 * k + 1] <= shape[k];
    if (!ok) {
      std::string bs = "[";
      for (size_t k = 0; k + 1 < b.size(); k += 2)
        bs += (k ? ", " : "") + std::to_string(b[k]) + ":" + std::to_string(b[k + 1]);
      return fail("bounds " + bs + "] do not fit shape " + shapeStr(shape) +
                  ": one begin:end per axis, 0 <= begin <= end <= size");
    }
    for (size_t k = 0; k < shape.size(); ++k)
      n.shape.push_back(b[2 * k + 1] - b[2 * k]);
    n.dtype = S(0).dtype, n.addrspace = S(0).addrspace;
    break;
  }
  case OpKind::Reduce: {
    const std::vector<int64_t> &shape = S(0).shape;
    if (n.slot < 0 || n.slot > (int64_t)shape.size())
      return fail("cannot reduce " + std::to_string(n.slot) + " axes of shape " + shapeStr(shape));
    n.dtype = S(0).dtype;
    n.shape.assign(shape.begin(), shape.end() - n.slot);
    break;
  }
  case OpKind::Stage:
    if (failed(arity(1, 1)))
      return failure();
    n.dtype = S(0).dtype, n.shape = S(0).shape;
    break;
  case OpKind::Wmma:
    if (failed(arity(3, 3)))
      return failure();
    n.dtype = S(2).dtype, n.shape = S(2).shape;
    break;
  }
  int64_t count;
  if (!checkedProduct(n.shape, count))
    return fail("shape " + shapeStr(n.shape) + " has a negative size or too many elements");
  return success();
}

FailureOr<uint32_t> Importer::make(Node n, unsigned col) {
  if (failed(infer(n, col)))
    return failure();
  n.line = line, n.col = col;
  return g.intern(std::move(n));
}

FailureOr<uint32_t> Importer::cast(uint32_t x, DType d, unsigned col) {
  if (g[x].dtype == d)
    return x; // the seed's `cast` is the identity on its own dtype
  Node n;
  n.op = OpKind::Cast, n.src = {x}, n.argDType = d;
  return make(std::move(n), col);
}

FailureOr<uint32_t> Importer::movement(OpKind op, uint32_t x, std::vector<int64_t> arg,
                                       unsigned col) {
  Node n;
  n.op = op, n.src = {x}, n.argShape = std::move(arg);
  return make(std::move(n), col);
}

/// The seed's `UOp.const(v, dtype)`: f16 is a CAST of an f32 constant; any
/// other dtype converts the value as Python's bool/int/float would.
FailureOr<uint32_t> Importer::makeConst(const Literal &v, std::optional<DType> dtype,
                                        unsigned col) {
  if (v.kind == Literal::Tuple)
    return error(col, "expected a scalar literal, got '" + v.str() + "'");
  if (dtype == DType::F16) {
    FailureOr<uint32_t> c = makeConst(v, DType::F32, col);
    if (failed(c))
      return failure();
    return cast(*c, DType::F16, col);
  }
  DType target = v.kind == Literal::Bool ? DType::Bool
                 : v.kind == Literal::Int ? DType::I32
                                          : DType::F32;
  if (dtype && *dtype != target)
    target = *dtype == DType::Bool ? DType::Bool
             : *dtype == DType::I32 ? DType::I32
                                    : DType::F32;
  Node n;
  n.op = OpKind::Const;
  n.cval.dtype = target;
  switch (target) {
  case DType::Bool:
    n.cval.i = v.kind == Literal::Bool ? v.b : (v.d != 0 || std::isnan(v.d));
    break;
  case DType::I32: {
    std::optional<int64_t> x;
    if (v.kind == Literal::Bool)
      x = v.b;
    else if (v.kind == Literal::Int)
      x = v.i;
    else if (std::isfinite(v.d) && std::fabs(v.d) < 1e18)
      x = (int64_t)std::trunc(v.d);
    if (!x || *x < INT32_MIN || *x > INT32_MAX)
      return error(col, "literal " + v.str() + " does not fit i32");
    n.cval.i = *x;
    break;
  }
  default: {
    if (v.kind == Literal::Bool) {
      n.cval.f = v.b ? 1.0f : 0.0f;
      break;
    }
    if (!std::isfinite(v.d) && (v.text == "inf" || v.text == "-inf" || v.text == "nan")) {
      n.cval.f = (float)v.d;
      break;
    }
    // Round the decimal straight to f32, as a C compiler reads the literal.
    StringRef text = v.text;
    bool neg = text.consume_front("-");
    text.consume_front("+");
    llvm::APFloat f(llvm::APFloat::IEEEsingle());
    auto status = f.convertFromString(text, llvm::APFloat::rmNearestTiesToEven);
    if (!status) {
      llvm::consumeError(status.takeError());
      return error(col, "bad literal '" + v.text + "'");
    }
    if (neg)
      f.changeSign();
    n.cval.f = f.convertToFloat();
    break;
  }
  }
  return make(std::move(n), col);
}

/// The seed's `_broadcast`.
LogicalResult Importer::broadcast(uint32_t &a, uint32_t &b, unsigned col) {
  if (g[a].shape == g[b].shape)
    return success();
  size_t rank = std::max(g[a].shape.size(), g[b].shape.size());
  for (uint32_t *x : {&a, &b}) {
    if (g[*x].shape.size() < rank) {
      std::vector<int64_t> s(rank - g[*x].shape.size(), 1);
      llvm::append_range(s, g[*x].shape);
      FailureOr<uint32_t> r = movement(OpKind::Reshape, *x, std::move(s), col);
      if (failed(r))
        return failure();
      *x = *r;
    }
  }
  std::vector<int64_t> out;
  for (size_t k = 0; k < rank; ++k) {
    int64_t x = g[a].shape[k], y = g[b].shape[k];
    if (x != y && x != 1 && y != 1)
      return error(col, "can't broadcast " + formatTuple(g[a].shape) + " with " +
                            formatTuple(g[b].shape));
    out.push_back(std::max(x, y));
  }
  for (uint32_t *x : {&a, &b}) {
    if (g[*x].shape != out) {
      FailureOr<uint32_t> r = movement(OpKind::Expand, *x, out, col);
      if (failed(r))
        return failure();
      *x = *r;
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

/// The attributes each op takes.
static bool takesAttr(OpKind op, StringRef key) {
  switch (op) {
  case OpKind::Buffer:
    return key == "dtype" || key == "slot";
  case OpKind::Alloc:
    return key == "dtype" || key == "slot" || key == "space";
  case OpKind::Param:
    return key == "dtype" || key == "slot" || key == "shape";
  case OpKind::Const:
  case OpKind::Cast:
    return key == "dtype";
  case OpKind::Call:
    return key == "name";
  case OpKind::Range:
    return key == "idx" || key == "kind";
  case OpKind::Reduce:
    return key == "op" || key == "pop";
  case OpKind::Stage:
    return key == "detach";
  default:
    return false;
  }
}

LogicalResult Importer::parseLine(StringRef text) {
  // Comments, then the statement `%name = op operands : attrs`.
  size_t hash = text.find('#');
  Token stmt = trim({text.take_front(hash), 1});
  if (stmt.text.empty())
    return success();
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
  Token opTok{body.text.take_front(sp), body.col};
  Token opsTok = trim({body.text.drop_front(sp), body.col + (unsigned)sp});
  std::optional<OpKind> op = opFromName(opTok.text);
  if (!op)
    return error(opTok.col, "unknown op '" + opTok.text + "'");

  // Attributes: key=value, the value a parenthesized tuple or a word.
  llvm::StringMap<std::pair<Literal, Token>> attrs;
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
    if (!takesAttr(*op, key))
      return error(keyCol, "unknown attribute '" + key + "' for " + opName(*op));
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
    Literal lit;
    if (key == "slot" || key == "idx" || key == "pop" || key == "shape") {
      FailureOr<Literal> l = parseLiteral(val);
      if (failed(l))
        return failure();
      lit = *l;
    }
    if (!attrs.try_emplace(key, lit, val).second)
      return error(keyCol, "duplicate attribute '" + key + "'");
  }

  // Operands.
  SmallVector<Token> toks;
  if (failed(splitTop(opsTok, toks)))
    return failure();
  std::optional<Literal> lit;
  if (*op == OpKind::Buffer || *op == OpKind::Alloc || *op == OpKind::Const || *op == OpKind::Reshape ||
      *op == OpKind::Expand || *op == OpKind::Permute || *op == OpKind::Shrink) {
    if (toks.empty())
      return error(opTok.col + opTok.text.size(),
                   opName(*op) + " needs a literal argument");
    bool first = *op == OpKind::Buffer || *op == OpKind::Alloc || *op == OpKind::Const;
    Token t = first ? toks.front() : toks.back();
    FailureOr<Literal> l = parseLiteral(t);
    if (failed(l))
      return failure();
    lit = *l;
    if (first)
      toks.erase(toks.begin());
    else
      toks.pop_back();
  }
  std::vector<Operand> src;
  for (Token t : toks) {
    Operand o;
    o.col = t.col;
    if (t.text.starts_with("%")) {
      auto it = env.find(t.text.drop_front());
      if (it == env.end())
        return error(t.col, "undefined " + t.text);
      o.node = it->second;
    } else {
      FailureOr<Literal> l = parseLiteral(t);
      if (failed(l))
        return failure();
      o.lit = *l;
    }
    src.push_back(std::move(o));
  }
  FailureOr<uint32_t> u = build(*op, src, lit, attrs, lhs.col);
  if (failed(u))
    return failure();
  env[name] = *u;
  last = *u;
  return success();
}

/// An integer attribute or literal argument.
static std::optional<int64_t> asInt(const Literal &l) {
  if (l.kind == Literal::Int)
    return l.i;
  return std::nullopt;
}

/// A tuple of integers.
static std::optional<std::vector<int64_t>> asInts(const Literal &l) {
  if (l.kind != Literal::Tuple)
    return std::nullopt;
  std::vector<int64_t> out;
  for (const Literal &e : l.elems) {
    if (e.kind != Literal::Int || !e.i)
      return std::nullopt;
    out.push_back(*e.i);
  }
  return out;
}

FailureOr<uint32_t> Importer::build(OpKind op, std::vector<Operand> &src,
                                    std::optional<Literal> lit,
                                    llvm::StringMap<std::pair<Literal, Token>> &attrs,
                                    unsigned col) {
  std::string opn = opName(op).str();
  // ---- attributes ----
  auto intAttr = [&](StringRef key, int64_t def) -> FailureOr<int64_t> {
    auto it = attrs.find(key);
    if (it == attrs.end())
      return def;
    std::optional<int64_t> v = asInt(it->second.first);
    if (!v)
      return error(it->second.second.col,
                   "bad value '" + it->second.second.text + "' for " + key + ": expected an integer");
    return *v;
  };
  auto dtypeAttr = [&](std::optional<DType> def) -> FailureOr<std::optional<DType>> {
    auto it = attrs.find("dtype");
    if (it == attrs.end())
      return def;
    std::optional<DType> d = dtypeFromName(it->second.second.text);
    if (!d || *d == DType::Void)
      return error(it->second.second.col,
                   "unknown dtype '" + it->second.second.text + "' (bool, i32, f32 or f16)");
    return std::optional<DType>(d);
  };
  auto noOperands = [&]() -> LogicalResult {
    if (!src.empty())
      return error(src.front().col, opn + " takes no operands");
    return success();
  };

  // ---- literals in source position become constants ----
  std::optional<DType> like;
  for (size_t k = op == OpKind::Where ? 1 : 0; k < src.size() && !like; ++k)
    if (src[k].node)
      like = g[*src[k].node].dtype;
  std::vector<uint32_t> s;
  for (Operand &o : src) {
    if (o.node) {
      s.push_back(*o.node);
      continue;
    }
    bool plain = op == OpKind::Index || op == OpKind::Range || !like || o.lit.kind == Literal::Bool;
    FailureOr<uint32_t> c = makeConst(o.lit, plain ? std::nullopt : like, o.col);
    if (failed(c))
      return failure();
    s.push_back(*c);
  }

  Node n;
  n.op = op;
  switch (op) {
  case OpKind::Buffer:
  case OpKind::Alloc: {
    if (failed(noOperands()))
      return failure();
    std::optional<int64_t> size = asInt(*lit);
    if (!size || *size < 0)
      return error(lit->col, opn + " size must be a non-negative integer, got '" + lit->str() + "'");
    FailureOr<int64_t> slot = intAttr("slot", 0);
    FailureOr<std::optional<DType>> dt = dtypeAttr(DType::F32);
    if (failed(slot) || failed(dt))
      return failure();
    n.slot = *slot, n.argDType = **dt, n.argShape = {*size};
    if (auto it = attrs.find("space"); it != attrs.end()) {
      std::string v = it->second.second.text.lower();
      if (v == "global")
        n.space = Space::Global;
      else if (v == "shared")
        n.space = Space::Shared;
      else if (v != "local")
        return error(it->second.second.col,
                     "unknown space '" + it->second.second.text + "' (global, local or shared)");
    }
    return make(std::move(n), col);
  }
  case OpKind::Param: {
    if (failed(noOperands()))
      return failure();
    if (!attrs.count("slot"))
      return error(col, "param needs slot=");
    FailureOr<int64_t> slot = intAttr("slot", 0);
    FailureOr<std::optional<DType>> dt = dtypeAttr(DType::F32);
    if (failed(slot) || failed(dt))
      return failure();
    n.slot = *slot, n.argDType = **dt;
    if (auto it = attrs.find("shape"); it != attrs.end()) {
      std::optional<std::vector<int64_t>> shape = asInts(it->second.first);
      if (!shape || llvm::any_of(*shape, [](int64_t d) { return d < 0; }))
        return error(it->second.second.col,
                     "bad shape '" + it->second.second.text + "': expected a tuple of sizes");
      n.argShape = *shape;
    }
    return make(std::move(n), col);
  }
  case OpKind::Const: {
    if (failed(noOperands()))
      return failure();
    FailureOr<std::optional<DType>> dt = dtypeAttr(std::nullopt);
    if (failed(dt))
      return failure();
    return makeConst(*lit, *dt, lit->col);
  }
  case OpKind::Call: {
    auto it = attrs.find("name");
    n.name = it == attrs.end() ? "f" : it->second.second.text.str();
    n.src = s;
    return make(std::move(n), col);
  }
  case OpKind::Cast: {
    if (!attrs.count("dtype"))
      return error(col, "cast needs dtype=");
    FailureOr<std::optional<DType>> dt = dtypeAttr(std::nullopt);
    if (failed(dt))
      return failure();
    if (s.size() != 1)
      return error(col, "'uop.cast' op takes 1 operand, got " + std::to_string(s.size()));
    return cast(s[0], **dt, col);
  }
  case OpKind::Range: {
    FailureOr<int64_t> idx = intAttr("idx", 0);
    if (failed(idx))
      return failure();
    n.slot = *idx;
    if (auto it = attrs.find("kind"); it != attrs.end()) {
      std::string v = it->second.second.text.lower();
      bool found = false;
      for (unsigned k = 0; k <= (unsigned)Axis::Local; ++k)
        if (v == axisName((Axis)k))
          n.axis = (Axis)k, found = true;
      if (!found)
        return error(it->second.second.col,
                     "unknown kind '" + it->second.second.text +
                         "' (loop, reduce, upcast, thread, global or local)");
    }
    n.src = s;
    return make(std::move(n), col);
  }
  case OpKind::Reduce: {
    FailureOr<int64_t> pop = intAttr("pop", 1);
    if (failed(pop))
      return failure();
    n.slot = *pop;
    if (auto it = attrs.find("op"); it != attrs.end()) {
      std::string v = it->second.second.text.lower();
      if (v != "add" && v != "max")
        return error(it->second.second.col,
                     "unknown reduce op '" + it->second.second.text + "' (add or max)");
      n.reduceMax = v == "max";
    }
    if (s.size() != 1)
      return error(col, "'uop.reduce' op takes 1 operand, got " + std::to_string(s.size()));
    n.src = s;
    return make(std::move(n), col);
  }
  case OpKind::Reshape:
  case OpKind::Expand:
  case OpKind::Permute:
  case OpKind::Shrink: {
    if (s.size() != 1)
      return error(col, "'uop." + opn + "' op takes 1 operand and a tuple, got " +
                            std::to_string(s.size()) + " operands");
    std::optional<std::vector<int64_t>> arg;
    if (op == OpKind::Shrink) {
      if (lit->kind == Literal::Tuple) {
        arg.emplace();
        for (const Literal &e : lit->elems) {
          std::optional<std::vector<int64_t>> pair = asInts(e);
          if (!pair || pair->size() != 2) {
            arg.reset();
            break;
          }
          llvm::append_range(*arg, *pair);
        }
      }
      if (!arg)
        return error(lit->col, "shrink needs ((begin, end), ...), got '" + lit->str() + "'");
    } else {
      arg = asInts(*lit);
      if (!arg)
        return error(lit->col, opn + " needs a tuple of integers, got '" + lit->str() + "'");
    }
    return movement(op, s[0], std::move(*arg), col);
  }
  case OpKind::Add:
  case OpKind::Mul:
  case OpKind::CmpLt:
  case OpKind::CmpNe:
  case OpKind::FloorDiv:
  case OpKind::FloorMod:
  case OpKind::Max:
    if (s.size() != 2)
      return error(col, "'uop." + opn + "' op takes 2 operands, got " + std::to_string(s.size()));
    if (failed(broadcast(s[0], s[1], col)))
      return failure();
    break;
  case OpKind::Stage:
    // The seed's STAGE(arg="detach"), Tensor.detach(): an autodiff marker.
    if (auto it = attrs.find("detach"); it != attrs.end()) {
      StringRef v = it->second.second.text;
      if (v != "true" && v != "false")
        return error(it->second.second.col,
                     "bad value '" + v.str() + "' for detach: expected true or false");
      if (v == "true")
        n.name = "detach";
    }
    break;
  case OpKind::Where:
    if (s.size() != 3)
      return error(col, "'uop.where' op takes 3 operands, got " + std::to_string(s.size()));
    if (failed(broadcast(s[1], s[2], col)) || failed(broadcast(s[0], s[1], col)) ||
        failed(broadcast(s[0], s[2], col)))
      return failure();
    break;
  default:
    break;
  }
  n.src = s;
  return make(std::move(n), col);
}

//===----------------------------------------------------------------------===//
// Emission
//===----------------------------------------------------------------------===//

Type Importer::mlirDType(DType d) {
  switch (d) {
  case DType::Bool:
    return builder.getI1Type();
  case DType::I32:
    return builder.getI32Type();
  case DType::F16:
    return builder.getF16Type();
  case DType::F32:
    return builder.getF32Type();
  case DType::Void:
    return VoidType::get(ctx);
  }
  return {};
}

FailureOr<Value> Importer::emitOp(uint32_t id, ArrayRef<Value> v,
                                  const std::vector<bool> &memory) {
  const Node &n = g[id];
  Location l = loc(n.line, n.col);
  OpBuilder &b = builder;
  Type voidTy = VoidType::get(ctx);
  auto i64 = [&](int64_t x) { return b.getI64IntegerAttr(x); };
  switch (n.op) {
  case OpKind::Const: {
    TypedAttr attr;
    if (n.cval.dtype == DType::Bool)
      attr = b.getBoolAttr(n.cval.i != 0);
    else if (n.cval.dtype == DType::I32)
      attr = b.getIntegerAttr(b.getI32Type(), llvm::APInt(32, n.cval.i, /*isSigned=*/true));
    else
      attr = b.getF32FloatAttr(n.cval.f);
    return ConstOp::create(b, l, attr).getResult();
  }
  case OpKind::Param: // top-level params are the function's arguments
    return ParamOp::create(b, l, paramType(n), i64(n.slot)).getResult();
  case OpKind::Stack:
    return StackOp::create(b, l, v).getResult();
  case OpKind::Index:
    return IndexOp::create(b, l, v[0], v.drop_front()).getResult();
  case OpKind::Cast:
    return CastOp::create(b, l, v[0], TypeAttr::get(mlirDType(n.argDType))).getResult();
  case OpKind::Recip:
    return RecipOp::create(b, l, v[0]).getResult();
  case OpKind::Exp2:
    return Exp2Op::create(b, l, v[0]).getResult();
  case OpKind::Log2:
    return Log2Op::create(b, l, v[0]).getResult();
  case OpKind::Sqrt:
    return SqrtOp::create(b, l, v[0]).getResult();
  case OpKind::Sin:
    return SinOp::create(b, l, v[0]).getResult();
  case OpKind::Add:
    return AddOp::create(b, l, v[0], v[1]).getResult();
  case OpKind::Mul:
    return MulOp::create(b, l, v[0], v[1]).getResult();
  case OpKind::CmpLt:
    return CmpLtOp::create(b, l, v[0], v[1]).getResult();
  case OpKind::CmpNe:
    return CmpNeOp::create(b, l, v[0], v[1]).getResult();
  case OpKind::FloorDiv:
    return FloorDivOp::create(b, l, v[0], v[1]).getResult();
  case OpKind::FloorMod:
    return FloorModOp::create(b, l, v[0], v[1]).getResult();
  case OpKind::Max:
    return MaxOp::create(b, l, v[0], v[1]).getResult();
  case OpKind::Where:
    return WhereOp::create(b, l, v[0], v[1], v[2]).getResult();
  case OpKind::Buffer: {
    Type t = mlirDType(n.argDType);
    Type ty = memory[id] ? Type(MemRefType::get(n.argShape, t, MemRefLayoutAttrInterface(),
                                                AddressSpaceAttr::get(ctx, AddressSpace::Global)))
                         : Type(RankedTensorType::get(n.argShape, t));
    return BufferOp::create(b, l, ty, i64(n.slot)).getResult();
  }
  case OpKind::Alloc: {
    AddressSpace space = n.space == Space::Shared   ? AddressSpace::Shared
                         : n.space == Space::Global ? AddressSpace::Global
                                                    : AddressSpace::Local;
    Type ty = MemRefType::get(n.argShape, mlirDType(n.argDType), MemRefLayoutAttrInterface(),
                              AddressSpaceAttr::get(ctx, space));
    return AllocOp::create(b, l, ty, i64(n.slot)).getResult();
  }
  case OpKind::Load:
    return LoadOp::create(b, l, v[0]).getResult();
  case OpKind::Store:
    return StoreOp::create(b, l, voidTy, v[0], v[1]).getResult();
  case OpKind::After:
    return AfterOp::create(b, l, v[0].getType(), v[0], v.drop_front()).getResult();
  case OpKind::Sink:
    return SinkOp::create(b, l, voidTy, v).getResult();
  case OpKind::Range:
    return RangeOp::create(b, l, b.getI32Type(), v[0], i64(n.slot),
                           AxisKindAttr::get(ctx, (AxisKind)n.axis))
        .getResult();
  case OpKind::End:
    return EndOp::create(b, l, voidTy, v[0], v.drop_front()).getResult();
  case OpKind::Reshape:
    return ReshapeOp::create(b, l, v[0], b.getDenseI64ArrayAttr(n.argShape)).getResult();
  case OpKind::Expand:
    return ExpandOp::create(b, l, v[0], b.getDenseI64ArrayAttr(n.argShape)).getResult();
  case OpKind::Permute:
    return PermuteOp::create(b, l, v[0], b.getDenseI64ArrayAttr(n.argShape)).getResult();
  case OpKind::Shrink:
    return ShrinkOp::create(b, l, v[0], b.getDenseI64ArrayAttr(n.argShape)).getResult();
  case OpKind::Reduce:
    return ReduceOp::create(b, l, v[0],
                            ReduceKindAttr::get(ctx, n.reduceMax ? ReduceKind::Max : ReduceKind::Add),
                            i64(n.slot))
        .getResult();
  case OpKind::Stage:
    return StageOp::create(b, l, v[0].getType(), v[0], n.name == "detach").getResult();
  case OpKind::Barrier:
    return BarrierOp::create(b, l, voidTy, v).getResult();
  case OpKind::Wmma:
    return WmmaOp::create(b, l, v[2].getType(), v[0], v[1], v[2]).getResult();
  case OpKind::Call:
    break;
  }
  return failure();
}

namespace {
/// One scope being emitted: the function body or a call body.
struct Frame {
  uint32_t root;
  Block *block;
  llvm::DenseMap<uint32_t, Value> memo;
  llvm::DenseSet<uint32_t> seen;
  std::vector<std::pair<uint32_t, bool>> stack;
  CallOp call;           ///< the call whose body this is (null at the top)
  uint32_t callNode = 0; ///< its node
};
} // namespace

LogicalResult Importer::emit(uint32_t root, ModuleOp module) {
  // Which buffers are memory: their value flows, through index/after/movement,
  // into a load or store pointer or an after.
  std::vector<uint32_t> reachable = g.toposort(root);
  std::vector<bool> live(g.size()), memory(g.size());
  for (uint32_t u : reachable)
    live[u] = true;
  for (size_t id = g.size(); id-- > 0;) {
    const Node &n = g[id];
    if (!live[id] || n.src.empty())
      continue;
    if (n.op == OpKind::Load || n.op == OpKind::Store || n.op == OpKind::After)
      memory[n.src[0]] = true;
    if (memory[id] && (n.op == OpKind::Index || n.op == OpKind::After || n.op == OpKind::Reshape ||
                       n.op == OpKind::Expand || n.op == OpKind::Permute || n.op == OpKind::Shrink))
      memory[n.src[0]] = true;
  }

  // Top-level params become the arguments of @main, in slot order.
  std::map<int64_t, uint32_t> params;
  for (uint32_t p : g.callParams(root)) {
    auto [it, inserted] = params.try_emplace(g[p].slot, p);
    if (!inserted) {
      const Node &a = g[it->second], &b = g[p];
      const Node &later = a.line > b.line ? a : b;
      emitError(loc(later.line, later.col))
          << "two params with slot " << b.slot << " and different types: " << typeStr(a)
          << " vs " << typeStr(b);
      return failure();
    }
  }
  SmallVector<Type> argTypes;
  bool dense = true;
  int64_t expect = 0;
  for (auto &kv : params) {
    argTypes.push_back(paramType(g[kv.second]));
    dense = dense && kv.first == expect++;
  }
  const Node &rootNode = g[root];
  auto func = func::FuncOp::create(loc(rootNode.line, rootNode.col), "main",
                                   builder.getFunctionType(argTypes, {}));
  module.push_back(func);
  Block *entry = func.addEntryBlock();
  if (!dense)
    for (auto [k, kv] : llvm::enumerate(params))
      func.setArgAttr(k, "uop.slot", builder.getI64IntegerAttr(kv.first));

  std::vector<Frame> frames;
  frames.emplace_back();
  frames.back().root = root;
  frames.back().block = entry;
  for (auto [k, kv] : llvm::enumerate(params)) {
    const Node &p = g[kv.second];
    entry->getArgument(k).setLoc(loc(p.line, p.col));
    frames.back().memo[kv.second] = entry->getArgument(k);
  }
  frames.back().stack.push_back({root, false});
  size_t numOps = 0;

  while (!frames.empty()) {
    Frame &f = frames.back();
    builder.setInsertionPointToEnd(f.block);
    if (f.stack.empty()) {
      Value result = f.memo.lookup(f.root);
      const Node &r = g[f.root];
      if (!f.call) {
        func::ReturnOp::create(builder, loc(r.line, r.col), result);
        func.setType(builder.getFunctionType(argTypes, {result.getType()}));
        frames.pop_back();
        continue;
      }
      YieldOp::create(builder, loc(r.line, r.col), result);
      f.call.getResult().setType(result.getType());
      Value callResult = f.call.getResult();
      uint32_t callNode = f.callNode;
      frames.pop_back();
      frames.back().memo[callNode] = callResult;
      continue;
    }
    auto [u, done] = f.stack.back();
    f.stack.pop_back();
    const Node &n = g[u];
    if (!done) {
      if (!f.seen.insert(u).second)
        continue;
      f.stack.push_back({u, true});
      size_t first = n.op == OpKind::Call ? 1 : 0; // the body is its own scope
      for (size_t k = n.src.size(); k-- > first;)
        if (!f.seen.count(n.src[k]))
          f.stack.push_back({n.src[k], false});
      continue;
    }
    if (f.memo.count(u))
      continue;
    if (++numOps > kMaxOps) {
      emitError(loc(n.line, n.col)) << "program too large: call bodies expand to more than "
                                    << kMaxOps << " operations";
      return failure();
    }
    SmallVector<Value> vals;
    for (size_t k = n.op == OpKind::Call ? 1 : 0; k < n.src.size(); ++k)
      vals.push_back(f.memo.lookup(n.src[k]));
    if (n.op != OpKind::Call) {
      FailureOr<Value> v = emitOp(u, vals, memory);
      if (failed(v))
        return failure();
      f.memo[u] = *v;
      continue;
    }
    // A call: its body is a new scope whose params are block arguments.
    if (frames.size() > kMaxCallDepth) {
      emitError(loc(n.line, n.col)) << "calls nested more than " << kMaxCallDepth << " deep";
      return failure();
    }
    std::map<int64_t, uint32_t> bodyParams;
    for (uint32_t p : g.callParams(n.src[0]))
      bodyParams.try_emplace(g[p].slot, p);
    auto call = CallOp::create(builder, loc(n.line, n.col), builder.getI32Type(),
                               builder.getStringAttr(n.name), vals);
    Block *body = builder.createBlock(&call.getBody());
    Frame inner;
    inner.root = n.src[0];
    inner.block = body;
    inner.call = call;
    inner.callNode = u;
    for (auto &kv : bodyParams) {
      const Node &p = g[kv.second];
      inner.memo[kv.second] = body->addArgument(paramType(p), loc(p.line, p.col));
    }
    inner.stack.push_back({inner.root, false});
    frames.push_back(std::move(inner));
  }
  return success();
}

OwningOpRef<ModuleOp> Importer::run() {
  const llvm::MemoryBuffer *buf = sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  file = StringAttr::get(ctx, buf->getBufferIdentifier());
  StringRef text = buf->getBuffer();
  line = 0;
  while (true) {
    ++line;
    auto [raw, rest] = text.split('\n');
    if (failed(parseLine(raw)))
      return nullptr;
    if (rest.empty() && raw.size() == text.size())
      break; // no newline left
    text = rest;
    if (text.empty())
      break;
  }
  if (!last) {
    line = 1;
    (void)error(1, "empty program");
    return nullptr;
  }
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc(1, 1));
  if (failed(emit(*last, *module)) || failed(verify(*module)))
    return nullptr;
  return module;
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

OwningOpRef<ModuleOp> mlir::uop::importUIR(llvm::SourceMgr &sourceMgr,
                                           MLIRContext *context) {
  context->loadDialect<UopDialect, func::FuncDialect>();
  return Importer(sourceMgr, context).run();
}
