//===- UIRImport.cpp - .uir text to the uop dialect ------------*- C++ -*-===//
//
// The seed's `uir.parse` (uopc/uir.py), building `uop` ops directly:
//
// 1. Every line is split into a statement (UIRLexer.h) and its `%name`
//    operands are resolved to earlier statements. This syntactic pass exists
//    for the one thing the text leaves to later lines: whether a `buffer` is
//    memory (a memref) or a value (a tensor), which docs/UIR.md decides by how
//    the program uses it.
// 2. Each statement is then built as `uop` ops at the `FileLineColLoc` of the
//    statement, applying the seed's sugar (bare literals become constants
//    typed like their neighbours; binary ops and `where` broadcast by RESHAPE
//    + EXPAND). The result types are the ops' own (ODS type inference) and
//    each new op is verified at once, so the dialect's verifiers report a
//    malformed statement at its line even when the program never uses it.
//    Structurally equal ops are one op (the seed's hash consing): a map over
//    the built ops. A `call` clones its body (everything reachable from the
//    body, not entering nested calls' bodies) into its region, the body's
//    params becoming the block arguments.
// 3. The ops the last statement uses become `func.func @main`, in the seed's
//    toposort order; its top-level params become the function's arguments.
//
// Nothing recurses on graph depth.
//
//===----------------------------------------------------------------------===//

#include "UIRLexer.h"

#include "Uop/IR/UopOps.h"
#include "Uop/Target/UIR.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"

#include <cmath>
#include <map>
#include <set>

using namespace mlir;
using namespace mlir::uop;
using namespace mlir::uop::uir;

namespace {

/// Most call-body scopes nested in one another (each one is an MLIR region).
constexpr size_t kMaxCallDepth = 200;
/// Most operations the call bodies may hold in all (a body used by several
/// calls is cloned into each).
constexpr size_t kMaxOps = 4u << 20;

class Importer;

/// A statement after the syntactic pass.
struct Stmt {
  const struct OpSpec *op;
  unsigned line, col; ///< where the statement (its `%name`) starts
  Token literal;      ///< the literal argument (empty text if none)
  uint32_t firstOperand, numOperands;
  uint32_t firstAttr, numAttrs;
};

/// An operand: an earlier statement, or a literal (`ref` < 0).
struct StmtOperand {
  int32_t ref;
  Token tok;
};

using BuildFn = FailureOr<Value> (Importer::*)(const Stmt &, SmallVectorImpl<Value> &);

/// An op name of the format: its syntax, how its statement builds, and how it
/// uses memory (for the buffer memref-or-tensor decision).
struct OpSpec {
  StringRef name;
  OpSyntax syntax;
  BuildFn build;
  /// The first operand is used as memory (load, store, after).
  bool usesMemory = false;
  /// When the result is used as memory, so is the first operand (index,
  /// after, movement; cast, which is the identity on its own dtype).
  bool passesMemory = false;
  bool isBuffer = false;
};

/// Hash consing: ops equal in name, operands (in order), attributes and
/// result types are one op, as the seed's nodes equal in (op, sources, arg)
/// are. A call is keyed by its body (the op its region was cloned from)
/// instead of its region.
struct ConsKey {
  Operation *op;
  Operation *body = nullptr;
  unsigned hash = 0; ///< of the op, so that a probe reads no other op

  static unsigned hashOf(Operation *op, Operation *body) {
    llvm::hash_code h = llvm::hash_combine(op->getName().getAsOpaquePointer(),
                                           op->getRawDictionaryAttrs(), op->hashProperties(), body);
    for (Type t : op->getResultTypes())
      h = llvm::hash_combine(h, t);
    for (Value v : op->getOperands())
      h = llvm::hash_combine(h, v);
    return h;
  }
};

struct ConsInfo {
  static ConsKey getEmptyKey() { return {llvm::DenseMapInfo<Operation *>::getEmptyKey()}; }
  static ConsKey getTombstoneKey() { return {llvm::DenseMapInfo<Operation *>::getTombstoneKey()}; }
  static unsigned getHashValue(const ConsKey &k) { return k.hash; }
  static bool isEqual(const ConsKey &a, const ConsKey &b) {
    if (a.op == b.op)
      return true;
    if (a.op == getEmptyKey().op || a.op == getTombstoneKey().op || b.op == getEmptyKey().op ||
        b.op == getTombstoneKey().op)
      return false;
    return a.hash == b.hash && a.body == b.body && a.op->getName() == b.op->getName() &&
           a.op->getRawDictionaryAttrs() == b.op->getRawDictionaryAttrs() &&
           a.op->getName().compareOpProperties(a.op->getPropertiesStorage(),
                                               b.op->getPropertiesStorage()) &&
           llvm::equal(a.op->getResultTypes(), b.op->getResultTypes()) &&
           llvm::equal(a.op->getOperands(), b.op->getOperands());
  }
};

/// A buffer's identity in the text: (size, slot, dtype as written).
using BufferKey = std::tuple<int64_t, int64_t, std::string>;

class Importer {
public:
  Importer(llvm::SourceMgr &sourceMgr, MLIRContext *context);

  OwningOpRef<ModuleOp> run();

  // ---- statement builders (the OpSpec table) ----
  FailureOr<Value> buildConst(const Stmt &, SmallVectorImpl<Value> &);
  FailureOr<Value> buildParam(const Stmt &, SmallVectorImpl<Value> &);
  FailureOr<Value> buildMemory(const Stmt &, SmallVectorImpl<Value> &);
  FailureOr<Value> buildCall(const Stmt &, SmallVectorImpl<Value> &);
  FailureOr<Value> buildStack(const Stmt &, SmallVectorImpl<Value> &);
  FailureOr<Value> buildIndex(const Stmt &, SmallVectorImpl<Value> &);
  FailureOr<Value> buildCast(const Stmt &, SmallVectorImpl<Value> &);
  template <typename OpTy> FailureOr<Value> buildUnary(const Stmt &, SmallVectorImpl<Value> &);
  template <typename OpTy> FailureOr<Value> buildBinary(const Stmt &, SmallVectorImpl<Value> &);
  FailureOr<Value> buildWhere(const Stmt &, SmallVectorImpl<Value> &);
  FailureOr<Value> buildLoad(const Stmt &, SmallVectorImpl<Value> &);
  FailureOr<Value> buildStore(const Stmt &, SmallVectorImpl<Value> &);
  FailureOr<Value> buildAfter(const Stmt &, SmallVectorImpl<Value> &);
  template <typename OpTy> FailureOr<Value> buildEffects(const Stmt &, SmallVectorImpl<Value> &);
  FailureOr<Value> buildRange(const Stmt &, SmallVectorImpl<Value> &);
  FailureOr<Value> buildEnd(const Stmt &, SmallVectorImpl<Value> &);
  template <typename OpTy> FailureOr<Value> buildMovement(const Stmt &, SmallVectorImpl<Value> &);
  FailureOr<Value> buildReduce(const Stmt &, SmallVectorImpl<Value> &);
  FailureOr<Value> buildStage(const Stmt &, SmallVectorImpl<Value> &);
  FailureOr<Value> buildWmma(const Stmt &, SmallVectorImpl<Value> &);

private:
  // ---- pass 1: statements ----
  LogicalResult readStatements();
  void findMemoryBuffers();
  std::optional<BufferKey> bufferKey(const Stmt &st);

  // ---- pass 2: ops ----
  Location loc(unsigned col) { return lex.loc(col); }
  LogicalResult error(unsigned col, const Twine &msg) { return lex.error(col, msg); }
  ArrayRef<StmtOperand> operandsOf(const Stmt &st) {
    return ArrayRef(operands).slice(st.firstOperand, st.numOperands);
  }
  std::optional<Token> attr(const Stmt &st, StringRef key);
  FailureOr<int64_t> intAttr(const Stmt &st, StringRef key, int64_t def);
  FailureOr<Type> dtypeAttr(const Stmt &st, Type def);
  Literal literalOf(Token tok);
  LogicalResult arity(const Stmt &st, ArrayRef<Value> s, size_t lo, size_t hi);
  LogicalResult noOperands(const Stmt &st);

  FailureOr<Value> buildStatement(const Stmt &st);
  /// Interns a new op (an equal op built before replaces it) and verifies it.
  FailureOr<Value> finish(Operation *op, Operation *body = nullptr);
  /// Builds an op whose result types ODS infers, from its builder's arguments
  /// after the result type.
  template <typename OpTy, typename... Args> FailureOr<Value> create(Location l, Args &&...args);
  FailureOr<Value> makeConst(const Literal &v, Type dtype, unsigned col);
  FailureOr<Value> cast(Value x, Type dtype, unsigned col);
  LogicalResult broadcast(Value &a, Value &b, unsigned col);

  // ---- pass 3: the function ----
  LogicalResult emitFunction(Value root);

  llvm::SourceMgr &sourceMgr;
  MLIRContext *ctx;
  Lexer lex;
  OpBuilder builder;

  std::vector<Stmt> stmts;
  std::vector<StmtOperand> operands;
  std::vector<std::pair<Token, Token>> attrs;
  std::set<BufferKey> memoryBuffers;

  OwningOpRef<ModuleOp> module;
  func::FuncOp func;
  Block *pool = nullptr; ///< every statement's ops, in the order built
  std::vector<Value> values;
  llvm::DenseSet<ConsKey, ConsInfo> consed;
  /// For each call op: how deep its calls nest and how many ops its body holds.
  llvm::DenseMap<Operation *, std::pair<size_t, size_t>> callSizes;
  size_t bodyOps = 0;
};

//===----------------------------------------------------------------------===//
// The ops of the format
//===----------------------------------------------------------------------===//

const StringRef kMemoryAttrs[] = {"dtype", "slot"};
const StringRef kAllocAttrs[] = {"dtype", "slot", "space"};
const StringRef kParamAttrs[] = {"dtype", "slot", "shape"};
const StringRef kDTypeAttr[] = {"dtype"};
const StringRef kCallAttrs[] = {"name"};
const StringRef kRangeAttrs[] = {"idx", "kind"};
const StringRef kReduceAttrs[] = {"op", "pop"};
const StringRef kStageAttrs[] = {"detach"};

constexpr OpSyntax plain{OpSyntax::NoLiteral, ArrayRef<StringRef>()};

const OpSpec kOps[] = {
    {"param", {OpSyntax::NoLiteral, kParamAttrs}, &Importer::buildParam},
    {"call", {OpSyntax::NoLiteral, kCallAttrs}, &Importer::buildCall},
    {"const", {OpSyntax::FirstLiteral, kDTypeAttr}, &Importer::buildConst},
    {"stack", plain, &Importer::buildStack},
    {"index", plain, &Importer::buildIndex, false, true},
    {"cast", {OpSyntax::NoLiteral, kDTypeAttr}, &Importer::buildCast, false, true},
    {"recip", plain, &Importer::buildUnary<RecipOp>},
    {"add", plain, &Importer::buildBinary<AddOp>},
    {"mul", plain, &Importer::buildBinary<MulOp>},
    {"cmplt", plain, &Importer::buildBinary<CmpLtOp>},
    {"floordiv", plain, &Importer::buildBinary<FloorDivOp>},
    {"floormod", plain, &Importer::buildBinary<FloorModOp>},
    {"where", plain, &Importer::buildWhere},
    {"cmpne", plain, &Importer::buildBinary<CmpNeOp>},
    {"max", plain, &Importer::buildBinary<MaxOp>},
    {"exp2", plain, &Importer::buildUnary<Exp2Op>},
    {"log2", plain, &Importer::buildUnary<Log2Op>},
    {"sqrt", plain, &Importer::buildUnary<SqrtOp>},
    {"sin", plain, &Importer::buildUnary<SinOp>},
    {"buffer", {OpSyntax::FirstLiteral, kMemoryAttrs}, &Importer::buildMemory, false, false, true},
    {"alloc", {OpSyntax::FirstLiteral, kAllocAttrs}, &Importer::buildMemory},
    {"load", plain, &Importer::buildLoad, true},
    {"store", plain, &Importer::buildStore, true},
    {"after", plain, &Importer::buildAfter, true, true},
    {"sink", plain, &Importer::buildEffects<SinkOp>},
    {"range", {OpSyntax::NoLiteral, kRangeAttrs}, &Importer::buildRange},
    {"end", plain, &Importer::buildEnd},
    {"reshape", {OpSyntax::LastLiteral, {}}, &Importer::buildMovement<ReshapeOp>, false, true},
    {"expand", {OpSyntax::LastLiteral, {}}, &Importer::buildMovement<ExpandOp>, false, true},
    {"permute", {OpSyntax::LastLiteral, {}}, &Importer::buildMovement<PermuteOp>, false, true},
    {"shrink", {OpSyntax::LastLiteral, {}}, &Importer::buildMovement<ShrinkOp>, false, true},
    {"reduce", {OpSyntax::NoLiteral, kReduceAttrs}, &Importer::buildReduce},
    {"stage", {OpSyntax::NoLiteral, kStageAttrs}, &Importer::buildStage},
    {"barrier", plain, &Importer::buildEffects<BarrierOp>},
    {"wmma", plain, &Importer::buildWmma},
};

/// The op of a name, case-insensitively (the seed's `Ops[name.upper()]`).
const OpSpec *lookupOp(StringRef name) {
  for (const OpSpec &spec : kOps)
    if (name.equals_insensitive(spec.name))
      return &spec;
  return nullptr;
}

} // namespace

Importer::Importer(llvm::SourceMgr &sourceMgr, MLIRContext *context)
    : sourceMgr(sourceMgr), ctx(context),
      lex(context, sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBufferIdentifier()),
      builder(context) {}

//===----------------------------------------------------------------------===//
// Pass 1: statements
//===----------------------------------------------------------------------===//

LogicalResult Importer::readStatements() {
  StringRef text = sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBuffer();
  llvm::StringMap<int32_t> env;
  Statement s;
  unsigned line = 0;
  while (true) {
    lex.setLine(++line);
    auto [raw, rest] = text.split('\n');
    FailureOr<bool> isStmt = lex.lexStatement(
        raw,
        [](StringRef name) -> const OpSyntax * {
          const OpSpec *spec = lookupOp(name);
          return spec ? &spec->syntax : nullptr;
        },
        s);
    if (failed(isStmt))
      return failure();
    if (*isStmt) {
      Stmt st;
      st.op = lookupOp(s.op.text);
      st.line = line;
      st.col = s.name.col;
      st.literal = s.literal.value_or(Token());
      st.firstOperand = operands.size();
      st.numOperands = s.operands.size();
      st.firstAttr = attrs.size();
      st.numAttrs = s.attrs.size();
      for (Token t : s.operands) {
        if (!t.text.starts_with("%")) {
          if (failed(lex.parseLiteral(t)))
            return failure();
          operands.push_back({-1, t});
          continue;
        }
        auto it = env.find(t.text.drop_front());
        if (it == env.end())
          return error(t.col, "undefined " + t.text);
        operands.push_back({it->second, t});
      }
      llvm::append_range(attrs, s.attrs);
      env[s.name.text.drop_front()] = stmts.size();
      stmts.push_back(st);
    }
    if (rest.empty() && raw.size() == text.size())
      break; // no newline left
    text = rest;
    if (text.empty())
      break;
  }
  return success();
}

/// The buffer-or-tensor decision of docs/UIR.md: a buffer is memory when the
/// program uses it as memory (through index, after, movement ops) in a load,
/// store or after. Equal buffers are one op, so the decision is per buffer.
void Importer::findMemoryBuffers() {
  std::vector<bool> memory(stmts.size());
  for (size_t k = stmts.size(); k-- > 0;) {
    const Stmt &st = stmts[k];
    if (!st.numOperands)
      continue;
    int32_t src = operands[st.firstOperand].ref;
    if (src >= 0 && (st.op->usesMemory || (memory[k] && st.op->passesMemory)))
      memory[src] = true;
  }
  for (size_t k = 0; k < stmts.size(); ++k)
    if (memory[k] && stmts[k].op->isBuffer)
      if (std::optional<BufferKey> key = bufferKey(stmts[k]))
        memoryBuffers.insert(*key);
}

std::optional<BufferKey> Importer::bufferKey(const Stmt &st) {
  std::optional<int64_t> size = literalOf(st.literal).asInt(), slot = 0;
  if (std::optional<Token> t = attr(st, "slot"))
    slot = literalOf(*t).asInt();
  std::optional<Token> dtype = attr(st, "dtype");
  if (!size || !slot)
    return std::nullopt;
  return BufferKey{*size, *slot, dtype ? dtype->text.str() : "f32"};
}

//===----------------------------------------------------------------------===//
// Pass 2: ops
//===----------------------------------------------------------------------===//

std::optional<Token> Importer::attr(const Stmt &st, StringRef key) {
  for (const auto &kv : ArrayRef(attrs).slice(st.firstAttr, st.numAttrs))
    if (kv.first.text == key)
      return kv.second;
  return std::nullopt;
}

/// A literal the syntactic pass has read once already.
Literal Importer::literalOf(Token tok) {
  FailureOr<Literal> l = lex.parseLiteral(tok);
  assert(succeeded(l) && "literal checked by the syntactic pass");
  return succeeded(l) ? *l : Literal();
}

FailureOr<int64_t> Importer::intAttr(const Stmt &st, StringRef key, int64_t def) {
  std::optional<Token> t = attr(st, key);
  if (!t)
    return def;
  std::optional<int64_t> v = literalOf(*t).asInt();
  if (!v)
    return error(t->col, "bad value '" + t->text + "' for " + key + ": expected an integer");
  return *v;
}

FailureOr<Type> Importer::dtypeAttr(const Stmt &st, Type def) {
  std::optional<Token> t = attr(st, "dtype");
  if (!t)
    return def;
  Type d = llvm::StringSwitch<Type>(t->text)
               .Case("bool", builder.getI1Type())
               .Case("i32", builder.getI32Type())
               .Case("f32", builder.getF32Type())
               .Case("f16", builder.getF16Type())
               .Default(Type());
  if (!d)
    return error(t->col, "unknown dtype '" + t->text + "' (bool, i32, f32 or f16)");
  return d;
}

/// The operand count a statement's op takes (the text's, before any op is
/// built).
LogicalResult Importer::arity(const Stmt &st, ArrayRef<Value> s, size_t lo, size_t hi) {
  if (s.size() >= lo && s.size() <= hi)
    return success();
  std::string want = lo == hi         ? std::to_string(lo)
                     : hi == SIZE_MAX ? "at least " + std::to_string(lo)
                                      : std::to_string(lo) + " to " + std::to_string(hi);
  return error(st.col, "'uop." + st.op->name + "' op takes " + want + " operand" +
                           (lo == 1 && (hi == 1 || hi == SIZE_MAX) ? "" : "s") + ", got " +
                           std::to_string(s.size()));
}

LogicalResult Importer::noOperands(const Stmt &st) {
  if (st.numOperands)
    return error(operandsOf(st).front().tok.col, st.op->name + " takes no operands");
  return success();
}

FailureOr<Value> Importer::finish(Operation *op, Operation *body) {
  auto [it, inserted] = consed.insert({op, body, ConsKey::hashOf(op, body)});
  if (!inserted) {
    op->erase();
    return it->op->getResult(0);
  }
  if (failed(verify(op)))
    return failure();
  return op->getResult(0);
}

template <typename OpTy, typename... Args>
FailureOr<Value> Importer::create(Location l, Args &&...args) {
  OperationState state(l, OpTy::getOperationName());
  OpTy::build(builder, state, Type(), std::forward<Args>(args)...);
  state.types.clear();
  SmallVector<Type, 1> types;
  if (failed(OpTy::inferReturnTypes(ctx, l, state.operands, state.attributes.getDictionary(ctx),
                                    state.getRawProperties(), state.regions, types)))
    return failure();
  state.addTypes(types);
  return finish(builder.create(state));
}

FailureOr<Value> Importer::cast(Value x, Type dtype, unsigned col) {
  if (getDType(x.getType()) == dtype)
    return x; // the seed's `cast` is the identity on its own dtype
  return create<CastOp>(loc(col), x, TypeAttr::get(dtype));
}

/// The seed's `UOp.const(v, dtype)`: f16 is a CAST of an f32 constant; any
/// other dtype converts the value as Python's bool/int/float would (a dtype
/// that is not a scalar one, as void, means f32).
FailureOr<Value> Importer::makeConst(const Literal &v, Type dtype, unsigned col) {
  if (v.kind == Literal::Tuple)
    return error(col, "expected a scalar literal, got '" + v.str() + "'");
  if (dtype && dtype.isF16()) {
    FailureOr<Value> c = makeConst(v, builder.getF32Type(), col);
    if (failed(c))
      return failure();
    return cast(*c, dtype, col);
  }
  enum {
    Bool,
    I32,
    F32
  } target = v.kind == Literal::Bool  ? Bool
             : v.kind == Literal::Int ? I32
                                      : F32;
  if (dtype)
    target = dtype.isInteger(1) ? Bool : dtype.isInteger(32) ? I32 : F32;
  TypedAttr attr;
  switch (target) {
  case Bool:
    attr = builder.getBoolAttr(v.kind == Literal::Bool ? v.b : (v.d != 0 || std::isnan(v.d)));
    break;
  case I32: {
    std::optional<int64_t> x;
    if (v.kind == Literal::Bool)
      x = v.b;
    else if (v.kind == Literal::Int)
      x = v.i;
    else if (std::isfinite(v.d) && std::fabs(v.d) < 1e18)
      x = (int64_t)std::trunc(v.d);
    if (!x || *x < INT32_MIN || *x > INT32_MAX)
      return error(col, "literal " + v.str() + " does not fit i32");
    attr = builder.getIntegerAttr(builder.getI32Type(), llvm::APInt(32, *x, /*isSigned=*/true));
    break;
  }
  case F32: {
    float f;
    if (v.kind == Literal::Bool) {
      f = v.b ? 1.0f : 0.0f;
    } else if (!std::isfinite(v.d) && (v.text == "inf" || v.text == "-inf" || v.text == "nan")) {
      f = (float)v.d;
    } else {
      // Round the decimal straight to f32, as a C compiler reads the literal.
      StringRef text = v.text;
      bool neg = text.consume_front("-");
      text.consume_front("+");
      llvm::APFloat af(llvm::APFloat::IEEEsingle());
      auto status = af.convertFromString(text, llvm::APFloat::rmNearestTiesToEven);
      if (!status) {
        llvm::consumeError(status.takeError());
        return error(col, "bad literal '" + v.text + "'");
      }
      if (neg)
        af.changeSign();
      f = af.convertToFloat();
    }
    attr = builder.getF32FloatAttr(f);
    break;
  }
  }
  return finish(ConstOp::create(builder, loc(col), attr));
}

/// A type as it prints, for diagnostics.
static std::string typeStr(Type type) {
  std::string out;
  llvm::raw_string_ostream os(out);
  type.print(os);
  return out;
}

/// The seed's `UOp.toposort` over built ops: every op `root` uses, sources
/// before users, first operands first, iteratively. Call bodies are regions,
/// not operands, so they are not entered.
static std::vector<Operation *> toposort(Operation *root) {
  std::vector<Operation *> order;
  llvm::DenseSet<Operation *> seen;
  SmallVector<std::pair<Operation *, bool>> stack{{root, false}};
  while (!stack.empty()) {
    auto [op, done] = stack.pop_back_val();
    if (done) {
      order.push_back(op);
      continue;
    }
    if (!seen.insert(op).second)
      continue;
    stack.push_back({op, true});
    for (Value v : llvm::reverse(op->getOperands()))
      if (Operation *def = v.getDefiningOp(); def && !seen.count(def))
        stack.push_back({def, false});
  }
  return order;
}

static std::string pyTuple(ArrayRef<int64_t> xs) {
  std::string out = "(";
  for (size_t k = 0; k < xs.size(); ++k)
    out += (k ? ", " : "") + std::to_string(xs[k]);
  return out + (xs.size() == 1 ? ",)" : ")");
}

/// The seed's `_broadcast`.
LogicalResult Importer::broadcast(Value &a, Value &b, unsigned col) {
  auto shape = [](Value v) { return getShape(v.getType()); };
  if (shape(a) == shape(b))
    return success();
  size_t rank = std::max(shape(a).size(), shape(b).size());
  for (Value *x : {&a, &b}) {
    if (shape(*x).size() < rank) {
      SmallVector<int64_t> s(rank - shape(*x).size(), 1);
      llvm::append_range(s, shape(*x));
      FailureOr<Value> r = create<ReshapeOp>(loc(col), *x, builder.getDenseI64ArrayAttr(s));
      if (failed(r))
        return failure();
      *x = *r;
    }
  }
  SmallVector<int64_t> out;
  for (size_t k = 0; k < rank; ++k) {
    int64_t x = shape(a)[k], y = shape(b)[k];
    if (x != y && x != 1 && y != 1)
      return error(col, "can't broadcast " + pyTuple(shape(a)) + " with " + pyTuple(shape(b)));
    out.push_back(std::max(x, y));
  }
  for (Value *x : {&a, &b}) {
    if (shape(*x) != ArrayRef<int64_t>(out)) {
      FailureOr<Value> r = create<ExpandOp>(loc(col), *x, builder.getDenseI64ArrayAttr(out));
      if (failed(r))
        return failure();
      *x = *r;
    }
  }
  return success();
}

/// The operands of a statement, literals made constants typed like the first
/// named operand (for `where`, the first named branch), then the op.
FailureOr<Value> Importer::buildStatement(const Stmt &st) {
  ArrayRef<StmtOperand> ops = operandsOf(st);
  bool isWhere = st.op->build == &Importer::buildWhere;
  Type like;
  for (size_t k = isWhere ? 1 : 0; k < ops.size() && !like; ++k)
    if (ops[k].ref >= 0)
      like = getDType(values[ops[k].ref].getType());
  bool untyped = st.op->build == &Importer::buildIndex || st.op->build == &Importer::buildRange;
  SmallVector<Value, 4> s;
  for (const StmtOperand &o : ops) {
    if (o.ref >= 0) {
      s.push_back(values[o.ref]);
      continue;
    }
    Literal lit = literalOf(o.tok);
    bool plainLit = untyped || !like || lit.kind == Literal::Bool;
    FailureOr<Value> c = makeConst(lit, plainLit ? Type() : like, o.tok.col);
    if (failed(c))
      return failure();
    s.push_back(*c);
  }
  return (this->*st.op->build)(st, s);
}

FailureOr<Value> Importer::buildMemory(const Stmt &st, SmallVectorImpl<Value> &) {
  if (failed(noOperands(st)))
    return failure();
  Literal lit = literalOf(st.literal);
  std::optional<int64_t> size = lit.asInt();
  if (!size || *size < 0)
    return error(lit.col,
                 st.op->name + " size must be a non-negative integer, got '" + lit.str() + "'");
  FailureOr<int64_t> slot = intAttr(st, "slot", 0);
  FailureOr<Type> dt = dtypeAttr(st, builder.getF32Type());
  if (failed(slot) || failed(dt))
    return failure();
  if (st.op->isBuffer) {
    Type ty = RankedTensorType::get({*size}, *dt);
    if (memoryBuffers.count(*bufferKey(st)))
      ty = MemRefType::get({*size}, *dt, MemRefLayoutAttrInterface(),
                           AddressSpaceAttr::get(ctx, AddressSpace::Global));
    return finish(BufferOp::create(builder, loc(st.col), ty, builder.getI64IntegerAttr(*slot)));
  }
  AddressSpace space = AddressSpace::Local;
  if (std::optional<Token> t = attr(st, "space")) {
    std::string v = t->text.lower();
    if (v == "global")
      space = AddressSpace::Global;
    else if (v == "shared")
      space = AddressSpace::Shared;
    else if (v != "local")
      return error(t->col, "unknown space '" + t->text + "' (global, local or shared)");
  }
  Type ty =
      MemRefType::get({*size}, *dt, MemRefLayoutAttrInterface(), AddressSpaceAttr::get(ctx, space));
  return finish(AllocOp::create(builder, loc(st.col), ty, builder.getI64IntegerAttr(*slot)));
}

FailureOr<Value> Importer::buildParam(const Stmt &st, SmallVectorImpl<Value> &) {
  if (failed(noOperands(st)))
    return failure();
  if (!attr(st, "slot"))
    return error(st.col, "param needs slot=");
  FailureOr<int64_t> slot = intAttr(st, "slot", 0);
  FailureOr<Type> dt = dtypeAttr(st, builder.getF32Type());
  if (failed(slot) || failed(dt))
    return failure();
  std::vector<int64_t> shape;
  if (std::optional<Token> t = attr(st, "shape")) {
    std::optional<std::vector<int64_t>> s = literalOf(*t).asInts();
    if (!s || llvm::any_of(*s, [](int64_t d) { return d < 0; }))
      return error(t->col, "bad shape '" + t->text + "': expected a tuple of sizes");
    shape = *s;
  }
  return finish(ParamOp::create(builder, loc(st.col), getValueType(shape, *dt),
                                builder.getI64IntegerAttr(*slot)));
}

FailureOr<Value> Importer::buildConst(const Stmt &st, SmallVectorImpl<Value> &) {
  if (failed(noOperands(st)))
    return failure();
  FailureOr<Type> dt = dtypeAttr(st, Type());
  if (failed(dt))
    return failure();
  return makeConst(literalOf(st.literal), *dt, st.literal.col);
}

/// The seed's CALL(body, args...): the body (everything reachable from it,
/// not entering nested calls' bodies) is cloned into the call's region, its
/// params (the seed's `call_params`, by slot) becoming the block arguments.
FailureOr<Value> Importer::buildCall(const Stmt &st, SmallVectorImpl<Value> &s) {
  if (failed(arity(st, s, 1, SIZE_MAX)))
    return failure();
  std::optional<Token> nameTok = attr(st, "name");
  StringAttr name = builder.getStringAttr(nameTok ? nameTok->text : "f");
  Value body = s[0];
  std::vector<Operation *> order = toposort(body.getDefiningOp());
  std::map<int64_t, ParamOp> params;
  size_t depth = 1, size = 1; // the yield
  for (Operation *op : order) {
    if (auto p = dyn_cast<ParamOp>(op)) {
      auto [it, inserted] = params.try_emplace(p.getSlot(), p);
      if (!inserted)
        return error(st.col, "'uop.call' op body has two params with slot " + Twine(p.getSlot()) +
                                 " and different types: " + typeStr(it->second.getType()) + " vs " +
                                 typeStr(p.getType()));
      continue;
    }
    ++size;
    if (auto it = callSizes.find(op); it != callSizes.end()) {
      depth = std::max(depth, it->second.first + 1);
      size += it->second.second;
    }
  }
  size_t nargs = s.size() - 1;
  bool dense = params.empty() || (int64_t)params.size() - 1 == params.rbegin()->first;
  if (!dense) {
    std::string has = "[";
    for (auto &kv : params)
      has += (has.size() > 1 ? ", " : "") + std::to_string(kv.first);
    return error(st.col, "'uop.call' op needs params 0.." + Twine((int64_t)nargs - 1) +
                             ", body has " + has + "]");
  }
  if (depth > kMaxCallDepth)
    return error(st.col, "calls nested more than " + Twine(kMaxCallDepth) + " deep");
  if ((bodyOps += size) > kMaxOps)
    return error(st.col, "program too large: call bodies expand to more than " + Twine(kMaxOps) +
                             " operations");

  auto call = CallOp::create(builder, loc(st.col), body.getType(), name, ArrayRef(s).drop_front());
  {
    OpBuilder::InsertionGuard guard(builder);
    Block *block = builder.createBlock(&call.getBody());
    IRMapping map;
    for (auto &kv : params)
      map.map(kv.second.getResult(), block->addArgument(kv.second.getType(), kv.second.getLoc()));
    for (Operation *op : order)
      if (!isa<ParamOp>(op))
        builder.clone(*op, map);
    YieldOp::create(builder, body.getLoc(), map.lookupOrDefault(body));
  }
  FailureOr<Value> v = finish(call, body.getDefiningOp());
  if (succeeded(v))
    callSizes.try_emplace(v->getDefiningOp(), depth, size);
  return v;
}

FailureOr<Value> Importer::buildStack(const Stmt &st, SmallVectorImpl<Value> &s) {
  return create<StackOp>(loc(st.col), ValueRange(s));
}

FailureOr<Value> Importer::buildIndex(const Stmt &st, SmallVectorImpl<Value> &s) {
  if (failed(arity(st, s, 1, SIZE_MAX)))
    return failure();
  return create<IndexOp>(loc(st.col), s[0], ValueRange(ArrayRef(s).drop_front()));
}

FailureOr<Value> Importer::buildCast(const Stmt &st, SmallVectorImpl<Value> &s) {
  if (!attr(st, "dtype"))
    return error(st.col, "cast needs dtype=");
  FailureOr<Type> dt = dtypeAttr(st, Type());
  if (failed(dt) || failed(arity(st, s, 1, 1)))
    return failure();
  return cast(s[0], *dt, st.col);
}

template <typename OpTy>
FailureOr<Value> Importer::buildUnary(const Stmt &st, SmallVectorImpl<Value> &s) {
  if (failed(arity(st, s, 1, 1)))
    return failure();
  return finish(OpTy::create(builder, loc(st.col), s[0]));
}

template <typename OpTy>
FailureOr<Value> Importer::buildBinary(const Stmt &st, SmallVectorImpl<Value> &s) {
  if (failed(arity(st, s, 2, 2)) || failed(broadcast(s[0], s[1], st.col)))
    return failure();
  return create<OpTy>(loc(st.col), s[0], s[1]);
}

FailureOr<Value> Importer::buildWhere(const Stmt &st, SmallVectorImpl<Value> &s) {
  if (failed(arity(st, s, 3, 3)) || failed(broadcast(s[1], s[2], st.col)) ||
      failed(broadcast(s[0], s[1], st.col)) || failed(broadcast(s[0], s[2], st.col)))
    return failure();
  return create<WhereOp>(loc(st.col), s[0], s[1], s[2]);
}

FailureOr<Value> Importer::buildLoad(const Stmt &st, SmallVectorImpl<Value> &s) {
  if (failed(arity(st, s, 1, 1)))
    return failure();
  return create<LoadOp>(loc(st.col), s[0]);
}

FailureOr<Value> Importer::buildStore(const Stmt &st, SmallVectorImpl<Value> &s) {
  if (failed(arity(st, s, 2, 2)))
    return failure();
  return finish(StoreOp::create(builder, loc(st.col), VoidType::get(ctx), s[0], s[1]));
}

FailureOr<Value> Importer::buildAfter(const Stmt &st, SmallVectorImpl<Value> &s) {
  if (failed(arity(st, s, 1, SIZE_MAX)))
    return failure();
  return finish(AfterOp::create(builder, loc(st.col), s[0].getType(), s[0],
                                ValueRange(ArrayRef(s).drop_front())));
}

template <typename OpTy>
FailureOr<Value> Importer::buildEffects(const Stmt &st, SmallVectorImpl<Value> &s) {
  return finish(OpTy::create(builder, loc(st.col), VoidType::get(ctx), ValueRange(s)));
}

FailureOr<Value> Importer::buildRange(const Stmt &st, SmallVectorImpl<Value> &s) {
  FailureOr<int64_t> idx = intAttr(st, "idx", 0);
  if (failed(idx))
    return failure();
  AxisKind kind = AxisKind::Loop;
  if (std::optional<Token> t = attr(st, "kind")) {
    std::optional<AxisKind> k = symbolizeAxisKind(t->text.lower());
    if (!k)
      return error(t->col, "unknown kind '" + t->text +
                               "' (loop, reduce, upcast, thread, global or local)");
    kind = *k;
  }
  if (failed(arity(st, s, 1, 1)))
    return failure();
  return finish(RangeOp::create(builder, loc(st.col), builder.getI32Type(), s[0],
                                builder.getI64IntegerAttr(*idx), AxisKindAttr::get(ctx, kind)));
}

FailureOr<Value> Importer::buildEnd(const Stmt &st, SmallVectorImpl<Value> &s) {
  if (failed(arity(st, s, 1, SIZE_MAX)))
    return failure();
  return finish(EndOp::create(builder, loc(st.col), VoidType::get(ctx), s[0],
                              ValueRange(ArrayRef(s).drop_front())));
}

template <typename OpTy>
FailureOr<Value> Importer::buildMovement(const Stmt &st, SmallVectorImpl<Value> &s) {
  StringRef name = st.op->name;
  if (s.size() != 1)
    return error(st.col, "'uop." + name + "' op takes 1 operand and a tuple, got " +
                             Twine(s.size()) + " operands");
  Literal lit = literalOf(st.literal);
  std::optional<std::vector<int64_t>> arg;
  if (std::is_same_v<OpTy, ShrinkOp>) {
    if (lit.kind == Literal::Tuple) {
      arg.emplace();
      for (const Literal &e : lit.elems) {
        std::optional<std::vector<int64_t>> pair = e.asInts();
        if (!pair || pair->size() != 2) {
          arg.reset();
          break;
        }
        llvm::append_range(*arg, *pair);
      }
    }
    if (!arg)
      return error(lit.col, "shrink needs ((begin, end), ...), got '" + lit.str() + "'");
  } else {
    arg = lit.asInts();
    if (!arg)
      return error(lit.col, name + " needs a tuple of integers, got '" + lit.str() + "'");
  }
  return create<OpTy>(loc(st.col), s[0], builder.getDenseI64ArrayAttr(*arg));
}

FailureOr<Value> Importer::buildReduce(const Stmt &st, SmallVectorImpl<Value> &s) {
  FailureOr<int64_t> pop = intAttr(st, "pop", 1);
  if (failed(pop))
    return failure();
  ReduceKind kind = ReduceKind::Add;
  if (std::optional<Token> t = attr(st, "op")) {
    std::string v = t->text.lower();
    if (v != "add" && v != "max")
      return error(t->col, "unknown reduce op '" + t->text + "' (add or max)");
    kind = v == "max" ? ReduceKind::Max : ReduceKind::Add;
  }
  if (failed(arity(st, s, 1, 1)))
    return failure();
  return create<ReduceOp>(loc(st.col), s[0], ReduceKindAttr::get(ctx, kind),
                          builder.getI64IntegerAttr(*pop));
}

/// The seed's STAGE(arg="detach"), Tensor.detach(): an autodiff marker.
FailureOr<Value> Importer::buildStage(const Stmt &st, SmallVectorImpl<Value> &s) {
  bool detach = false;
  if (std::optional<Token> t = attr(st, "detach")) {
    if (t->text != "true" && t->text != "false")
      return error(t->col, "bad value '" + t->text + "' for detach: expected true or false");
    detach = t->text == "true";
  }
  if (failed(arity(st, s, 1, 1)))
    return failure();
  return finish(StageOp::create(builder, loc(st.col), s[0].getType(), s[0], detach));
}

FailureOr<Value> Importer::buildWmma(const Stmt &st, SmallVectorImpl<Value> &s) {
  if (failed(arity(st, s, 3, 3)))
    return failure();
  return finish(WmmaOp::create(builder, loc(st.col), s[2].getType(), s[0], s[1], s[2]));
}

//===----------------------------------------------------------------------===//
// Pass 3: the function
//===----------------------------------------------------------------------===//

/// The line of an op's location.
static unsigned lineOf(Operation *op) {
  auto l = dyn_cast<FileLineColLoc>(op->getLoc());
  return l ? l.getLine() : 0;
}

/// The ops the last statement uses become @main, in the seed's toposort
/// order; its params (not looking inside call bodies) are the arguments, in
/// slot order.
LogicalResult Importer::emitFunction(Value root) {
  Operation *rootOp = root.getDefiningOp();
  Location rootLoc = rootOp->getLoc();
  Type resultType = root.getType();
  std::vector<Operation *> order = toposort(rootOp);
  std::map<int64_t, ParamOp> params;
  for (Operation *op : order) {
    auto p = dyn_cast<ParamOp>(op);
    if (!p)
      continue;
    auto [it, inserted] = params.try_emplace(p.getSlot(), p);
    if (!inserted) {
      ParamOp a = it->second;
      Operation *later = lineOf(a) > lineOf(p) ? a : p;
      emitError(later->getLoc()) << "two params with slot " << p.getSlot()
                                 << " and different types: " << typeStr(a.getType()) << " vs "
                                 << typeStr(p.getType());
      return failure();
    }
  }
  // The used ops go to the end of the block in order; the others, now in
  // front of them, are erased last first (their users are unused too).
  for (Operation *op : order)
    op->moveBefore(pool, pool->end());
  size_t unused = pool->getOperations().size() - order.size();
  while (unused--)
    order.front()->getPrevNode()->erase();

  builder.setInsertionPointToEnd(pool);
  func::ReturnOp::create(builder, rootLoc, root);
  SmallVector<Type> argTypes;
  bool dense = true;
  int64_t expect = 0;
  for (auto &[slot, p] : params) {
    argTypes.push_back(p.getType());
    dense = dense && slot == expect++;
    p.getResult().replaceAllUsesWith(pool->addArgument(p.getType(), p.getLoc()));
    p->erase();
  }
  func->setLoc(rootLoc);
  func.setType(builder.getFunctionType(argTypes, {resultType}));
  if (!dense)
    for (auto [k, kv] : llvm::enumerate(params))
      func.setArgAttr(k, "uop.slot", builder.getI64IntegerAttr(kv.first));
  return success();
}

OwningOpRef<ModuleOp> Importer::run() {
  // Pass 1. A syntax error is reported once the statements before it are
  // built, so that the first error in the file is the one reported.
  std::optional<Diagnostic> syntaxError;
  {
    ScopedDiagnosticHandler stash(ctx, [&](Diagnostic &d) {
      if (!syntaxError)
        syntaxError.emplace(std::move(d));
      return success();
    });
    (void)readStatements();
  }
  findMemoryBuffers();

  // Pass 2.
  module = ModuleOp::create(lex.loc(1, 1));
  builder.setInsertionPointToEnd(module->getBody());
  func = func::FuncOp::create(builder, lex.loc(1, 1), "main", builder.getFunctionType({}, {}));
  pool = func.addEntryBlock();
  builder.setInsertionPointToEnd(pool);
  values.reserve(stmts.size());
  for (const Stmt &st : stmts) {
    lex.setLine(st.line);
    FailureOr<Value> v = buildStatement(st);
    if (failed(v))
      return nullptr;
    values.push_back(*v);
  }
  if (syntaxError) {
    ctx->getDiagEngine().emit(std::move(*syntaxError));
    return nullptr;
  }
  if (values.empty()) {
    emitError(lex.loc(1, 1)) << "empty program";
    return nullptr;
  }

  // Pass 3.
  if (failed(emitFunction(values.back())) || failed(verify(*module)))
    return nullptr;
  return std::move(module);
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

OwningOpRef<ModuleOp> mlir::uop::importUIR(llvm::SourceMgr &sourceMgr, MLIRContext *context) {
  context->loadDialect<UopDialect, func::FuncDialect>();
  return Importer(sourceMgr, context).run();
}
