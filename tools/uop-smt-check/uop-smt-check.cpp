//===- uop-smt-check.cpp - prove uop-symbolic's rewrites with Z3 ----------===//
//
// Translation validation of uop-symbolic: each function of a program before
// and after the pass becomes formulas over the same inputs, and Z3 proves the
// results equal, or prints input values for which they differ.
//
//   uop-smt-check PROG...                  run uop-symbolic on each PROG itself
//   uop-smt-check BEFORE --after=AFTER     compare two given programs
//
// The semantics is exec_alu's (include/Uop/IR/UopSemantics.h):
//  * i32 is a 32-bit vector that wraps; floordiv/floormod are floor (SMT-LIB's
//    bvsmod is floor modulo); x // 0, x % 0, INT_MIN // -1 and a cast of inf or
//    NaN to i32 are undefined (C traps or is undefined there, the folders
//    refuse them): the proof assumes the program before is defined and
//    requires the program after to be defined too;
//  * bool is Bool (add is or, mul is and, as exec_alu truncates to bool);
//  * f32 and f16 are Z3 floating point, IEEE round-to-nearest-even: the float
//    rules (x*1.0 -> x, x+0.0 -> x, the where rules, operand swaps) are only
//    true or false with IEEE's NaN and signed zeros, which uninterpreted
//    functions would have to assume away. Results are compared with SMT-LIB
//    equality (NaNs equal, +0.0 and -0.0 not). exp2, log2 and sin have no SMT
//    theory: they are uninterpreted, except that on a constant their value is
//    exec_alu's (libm's), which is what folding them computes;
//  * a uop.range is an i32 in [0, max(0, end-1)] (the seed's bounds), one per
//    axis, the same variable before and after (its end must be equal);
//  * any other op (buffers, loads, stores, ends, sinks, ...) is an
//    uninterpreted function of its operands, named by its kind, attributes
//    and types: uop-symbolic rewrites only values, so effects must come out
//    the same function of equal values.
//
// What cannot be proven with i32 wrap-around is tried again under the seed's
// two premises: no i32 add or mul of the program before overflows (the seed's
// rules are for index arithmetic, which the seed renders as C's int, where
// overflow is undefined), and no float value before is -0.0 (the seed accepts
// x + 0.0 -> x). A result proven only so is reported as such (--exact makes
// it an error; --premise-rules names the rules allowed to need them).
//
//===----------------------------------------------------------------------===//

#include "Uop/IR/UopDialect.h"
#include "Uop/IR/UopOps.h"
#include "Uop/IR/UopSemantics.h"
#include "Uop/Support/LargeStack.h"
#include "Uop/Target/Program.h"
#include "Uop/Transforms/Passes.h"
#include "Uop/Transforms/SeedOrderRewrite.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <z3++.h>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::uop;

namespace {

/// The options uop-smt-check --help lists (LLVM's own stay usable, unlisted).
static llvm::cl::OptionCategory toolOptions("uop-smt-check options");
llvm::cl::list<std::string> inputs(llvm::cl::cat(toolOptions), llvm::cl::Positional,
                                   llvm::cl::desc("PROG..."), llvm::cl::OneOrMore);
llvm::cl::opt<std::string> afterFile(llvm::cl::cat(toolOptions), "after",
                                     llvm::cl::desc("The program after uop-symbolic (one PROG): "
                                                    "compare instead of running the pass"),
                                     llvm::cl::value_desc("file"));
llvm::cl::opt<bool> exact(llvm::cl::cat(toolOptions), "exact",
                          llvm::cl::desc("Require proofs with i32 wrap-around and signed "
                                         "zeros, without the seed's premises"));
llvm::cl::opt<bool> printCounts(llvm::cl::cat(toolOptions), "rule-counts",
                                llvm::cl::desc("Print how often each rule of uop-symbolic fired"));
llvm::cl::opt<bool> requireAll(llvm::cl::cat(toolOptions), "require-all-rules",
                               llvm::cl::desc("Fail if a rule of uop-symbolic never fired"));
llvm::cl::list<std::string>
    premiseRules(llvm::cl::cat(toolOptions), "premise-rules", llvm::cl::CommaSeparated,
                 llvm::cl::desc("Rules that may need the seed's premises: a function that "
                                "needs them and fired none of these is an error"));
llvm::cl::opt<unsigned> timeoutMs(llvm::cl::cat(toolOptions), "timeout", llvm::cl::init(30000),
                                  llvm::cl::desc("Z3 time limit per query, in ms"));
llvm::cl::opt<bool> verbose(llvm::cl::cat(toolOptions), "v",
                            llvm::cl::desc("Print one line per function"));

/// Elements of a value at most: larger tensors are not checked.
constexpr int64_t kMaxElements = 4096;

/// Why a function could not be translated.
struct Unsupported {
  Operation *op;
  std::string why;
};

/// A value: its shape and one term per element (row-major); for an opaque
/// type (memory, pointers, effects), one term of an uninterpreted sort. `k`
/// holds the element's constant where it is known (for the functions that
/// have no SMT theory).
struct Val {
  SmallVector<int64_t> shape;
  std::vector<z3::expr> elems;
  std::vector<std::optional<Scalar>> k;
};

/// What before and after share: the inputs, the range variables and the
/// uninterpreted functions.
struct Env {
  explicit Env(z3::context &ctx) : ctx(ctx) {}
  z3::context &ctx;
  /// Function arguments by index, each a Val of fresh constants.
  std::vector<std::optional<Val>> args;
  struct Range {
    z3::expr var;
    z3::expr end; // in the program before
  };
  std::map<std::string, Range> ranges;
  std::vector<std::pair<std::string, z3::expr>> named; // for counterexamples
  std::map<std::string, z3::func_decl> functions;
  std::vector<z3::expr> assumptions;
  /// Bounds of i32 terms (by AST id), where narrower than i32.
  std::map<unsigned, std::pair<int64_t, int64_t>> intervals;

  z3::sort opaque(Type type) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << type;
    return ctx.uninterpreted_sort(("T:" + s).c_str());
  }
  z3::func_decl function(const std::string &name, const z3::sort_vector &domain,
                         const z3::sort &range) {
    auto it = functions.find(name);
    if (it != functions.end())
      return it->second;
    z3::func_decl f = ctx.function(name.c_str(), domain, range);
    functions.emplace(name, f);
    return f;
  }
};

z3::sort dtypeSort(z3::context &ctx, Type dtype) {
  if (dtype.isInteger(1))
    return ctx.bool_sort();
  if (dtype.isInteger(32))
    return ctx.int_sort();
  if (dtype.isF32())
    return ctx.fpa_sort(8, 24);
  if (dtype.isF16())
    return ctx.fpa_sort(5, 11);
  llvm_unreachable("not a uop dtype");
}

bool isValueDType(Type t) { return t.isInteger(1) || t.isInteger(32) || t.isF32() || t.isF16(); }

/// A program's formulas.
class Encoder {
public:
  Encoder(Env &env, bool before) : env(env), ctx(env.ctx), before(before) {}

  /// Translates `func`'s body; the results of its return.
  FailureOr<std::vector<Val>> run(func::FuncOp func, std::optional<Unsupported> &error) {
    Block &body = func.getBody().front();
    for (BlockArgument arg : body.getArguments()) {
      unsigned i = arg.getArgNumber();
      if (env.args.size() <= i)
        env.args.resize(i + 1);
      if (!env.args[i]) {
        std::optional<Val> v = fresh(arg.getType(), "%arg" + std::to_string(i), &error, func);
        if (!v)
          return failure();
        env.args[i] = *v;
      }
      values.try_emplace(arg, *env.args[i]);
      notNegZero(*env.args[i]);
    }
    if (failed(runBlock(body, error)))
      return failure();
    auto ret = dyn_cast<func::ReturnOp>(body.getTerminator());
    if (!ret) {
      error = Unsupported{body.getTerminator(), "not a func.return"};
      return failure();
    }
    std::vector<Val> results;
    for (Value v : ret.getOperands())
      results.push_back(values.at(v));
    return results;
  }

  z3::expr defined() { return conj(definedness); }
  /// That no i32 add or mul overflows (before or after alike: the seed's
  /// rules are identities of unbounded integers).
  z3::expr noOverflow() { return conj(overflow); }
  z3::expr noNegZero() { return conj(negZero); }
  /// Obligations of the program after (its range ends equal those before).
  std::vector<std::pair<Operation *, z3::expr>> rangeEnds;
  /// The stores, in program order.
  std::vector<std::pair<Operation *, std::pair<Val, Val>>> stores;

private:
  Env &env;
  z3::context &ctx;
  bool before;
  llvm::DenseMap<Value, Val> values;
  std::vector<z3::expr> definedness, overflow, negZero;
  std::map<std::string, int> rangeSeen;

  z3::expr conj(const std::vector<z3::expr> &v) {
    z3::expr r = ctx.bool_val(true);
    for (const z3::expr &e : v)
      r = r && e;
    return r;
  }

  z3::expr rne() { return z3::expr(ctx, Z3_mk_fpa_rne(ctx)); }
  z3::expr rtz() { return z3::expr(ctx, Z3_mk_fpa_rtz(ctx)); }

  /// A literal of `dtype`.
  z3::expr literal(Type dtype, const Scalar &s) {
    if (dtype.isInteger(1))
      return ctx.bool_val(s.truthy());
    if (dtype.isInteger(32))
      return ctx.int_val(static_cast<int64_t>(s.i));
    z3::sort sort = dtypeSort(ctx, dtype);
    double d = s.asDouble();
    bool losesInfo;
    llvm::APFloat f(d);
    f.convert(dtype.isF32() ? llvm::APFloat::IEEEsingle() : llvm::APFloat::IEEEhalf(),
              llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    if (f.isNaN())
      return ctx.fpa_nan(sort);
    uint64_t bits = f.bitcastToAPInt().getZExtValue();
    unsigned width = dtype.isF32() ? 32 : 16;
    z3::expr bv = ctx.bv_val(static_cast<uint64_t>(bits), width);
    return z3::expr(ctx, Z3_mk_fpa_to_fp_bv(ctx, bv, sort));
  }

  /// Fresh constants for a value of `type` (an input).
  std::optional<Val> fresh(Type type, const std::string &name, std::optional<Unsupported> *error,
                           Operation *where) {
    Val v;
    Type dtype = getDType(type);
    if (isa<RankedTensorType>(type) || isValueDType(type)) {
      if (!isValueDType(dtype)) {
        *error = Unsupported{where, "an input of an unknown dtype"};
        return std::nullopt;
      }
      v.shape.assign(getShape(type).begin(), getShape(type).end());
      int64_t n = getNumElements(type);
      if (n > kMaxElements) {
        *error = Unsupported{where, "an input of " + std::to_string(n) + " elements"};
        return std::nullopt;
      }
      for (int64_t i = 0; i < n; ++i) {
        std::string elemName = v.shape.empty() ? name : name + "[" + std::to_string(i) + "]";
        z3::expr e = ctx.constant(elemName.c_str(), dtypeSort(ctx, dtype));
        if (dtype.isInteger(32))
          env.assumptions.push_back(e >= INT32_MIN && e <= INT32_MAX);
        v.elems.push_back(e);
        v.k.push_back(std::nullopt);
        env.named.emplace_back(elemName, e);
      }
      return v;
    }
    z3::expr e = ctx.constant(name.c_str(), env.opaque(type));
    v.elems.push_back(e);
    v.k.push_back(std::nullopt);
    return v;
  }

  void notNegZero(const Val &v) {
    if (!before)
      return;
    for (const z3::expr &e : v.elems)
      if (e.is_fpa())
        negZero.push_back(!(e.mk_is_zero() && z3::expr(ctx, Z3_mk_fpa_is_negative(ctx, e))));
  }

  LogicalResult runBlock(Block &block, std::optional<Unsupported> &error) {
    for (Operation &op : block.without_terminator())
      if (failed(translate(&op, error)))
        return failure();
    return success();
  }

  /// The element-wise value of the ALU op `kind` (operands of `dtype`).
  z3::expr alu(AluKind kind, Type dtype, Type resultDType, ArrayRef<z3::expr> v,
               std::optional<Scalar> divisor = std::nullopt) {
    bool isBool = dtype.isInteger(1), isInt = dtype.isInteger(32);
    bool isFloat = !isBool && !isInt;
    // IEEE add and mul are commutative (SMT-LIB has one NaN): operands in a
    // fixed order, so that a swap of them is the same term. A solver proving
    // two different adder circuits equal bit by bit is slow.
    auto ordered = [&]() -> std::pair<z3::expr, z3::expr> {
      if (Z3_get_ast_id(ctx, v[1]) < Z3_get_ast_id(ctx, v[0]))
        return {v[1], v[0]};
      return {v[0], v[1]};
    };
    auto fp2 = [&](auto fn) {
      auto [a, b] = ordered();
      return z3::expr(ctx, fn(ctx, rne(), a, b));
    };
    // i32 ops of two non-constants (a product, a division by a value) are
    // nonlinear: uninterpreted functions of their operands (sound, no rule
    // rewrites them, and the solver needs only their operands' equality).
    auto nonlinear = [&](const char *name, const z3::expr &a, const z3::expr &b) {
      z3::sort_vector domain(ctx);
      domain.push_back(ctx.int_sort());
      domain.push_back(ctx.int_sort());
      z3::expr r = env.function(name, domain, ctx.int_sort())(a, b);
      env.assumptions.push_back(r >= INT32_MIN && r <= INT32_MAX);
      return r;
    };
    // A constant computed by other ops (max(3, -1)) is one too.
    auto isConstant = [&](const z3::expr &e) { return e.simplify().is_numeral(); };
    switch (kind) {
    case AluKind::Add:
      if (isBool)
        return v[0] || v[1];
      if (isInt)
        return wrap(v[0] + v[1], intervalOf(v[0]).add(intervalOf(v[1])));
      return fp2(Z3_mk_fpa_add);
    case AluKind::Mul:
      if (isBool)
        return v[0] && v[1];
      if (isInt) {
        Interval product = intervalOf(v[0]).mul(intervalOf(v[1]));
        // Exact where it cannot wrap (bounded operands: ranges); else
        // uninterpreted.
        if (!isConstant(v[0]) && !isConstant(v[1]) &&
            !(product.lo >= INT32_MIN && product.hi <= INT32_MAX)) {
          // In operand order: uop-symbolic never swaps two non-constants,
          // and the function is not known to be commutative.
          return nonlinear("mul_i32", v[0], v[1]);
        }
        return wrap(v[0] * v[1], intervalOf(v[0]).mul(intervalOf(v[1])));
      }
      return fp2(Z3_mk_fpa_mul);
    case AluKind::Max:
      // Python's max(a, b): b only if b > a.
      if (isBool)
        return v[0] || v[1];
      if (isInt)
        return known(z3::ite(v[1] > v[0], v[1], v[0]),
                     {std::max(intervalOf(v[0]).lo, intervalOf(v[1]).lo),
                      std::max(intervalOf(v[0]).hi, intervalOf(v[1]).hi)});
      return z3::ite(z3::expr(ctx, Z3_mk_fpa_gt(ctx, v[1], v[0])), v[1], v[0]);
    case AluKind::CmpLt:
      if (isBool)
        return !v[0] && v[1];
      if (isInt)
        return v[0] < v[1];
      return z3::expr(ctx, Z3_mk_fpa_lt(ctx, v[0], v[1]));
    case AluKind::CmpNe:
      if (isBool || isInt)
        return v[0] != v[1];
      return !z3::expr(ctx, Z3_mk_fpa_eq(ctx, ordered().first, ordered().second));
    case AluKind::FloorDiv:
      if (isBool) {
        definedness.push_back(v[1]);
        return v[0];
      }
      if (isInt) {
        if (!divisor || divisor->i == 0 || divisor->i == -1)
          definedness.push_back(v[1] != 0 && !(v[0] == INT32_MIN && v[1] == -1));
        if (!divisor)
          return nonlinear("floordiv_i32", v[0], v[1]);
        z3::expr q = floorDivision(v[0], v[1], divisor);
        if (divisor && divisor->i > 0)
          return known(q, {floorDiv(intervalOf(v[0]).lo, divisor->i),
                           floorDiv(intervalOf(v[0]).hi, divisor->i)});
        return q;
      }
      break;
    case AluKind::FloorMod:
      if (isBool) {
        definedness.push_back(v[1]);
        return ctx.bool_val(false);
      }
      if (isInt) {
        if (!divisor || divisor->i == 0)
          definedness.push_back(v[1] != 0);
        if (!divisor)
          return nonlinear("floormod_i32", v[0], v[1]);
        z3::expr m = v[0] - v[1] * floorDivision(v[0], v[1], divisor);
        if (divisor && divisor->i > 0)
          return known(m, {0, divisor->i - 1});
        return m;
      }
      break;
    case AluKind::Where:
      break;
    case AluKind::Recip:
      if (isFloat) {
        z3::expr one = literal(dtype, Scalar::real(1.0));
        return z3::expr(ctx, Z3_mk_fpa_div(ctx, rne(), one, v[0]));
      }
      break;
    case AluKind::Sqrt:
      if (isFloat)
        return z3::expr(ctx, Z3_mk_fpa_sqrt(ctx, rne(), v[0]));
      break;
    case AluKind::Exp2:
    case AluKind::Log2:
    case AluKind::Sin: {
      if (!isFloat)
        break;
      std::string name = std::string(kind == AluKind::Exp2   ? "exp2"
                                     : kind == AluKind::Log2 ? "log2"
                                                             : "sin") +
                         (dtype.isF32() ? "_f32" : "_f16");
      z3::sort_vector domain(ctx);
      domain.push_back(v[0].get_sort());
      return env.function(name, domain, v[0].get_sort())(v[0]);
    }
    case AluKind::Cast:
      return castOf(dtype, resultDType, v[0]);
    }
    llvm_unreachable("an ALU op of a dtype it does not take");
  }

  /// Bounds of an i32 term, by interval arithmetic over what built it.
  struct Interval {
    int64_t lo = INT32_MIN, hi = INT32_MAX;
    Interval add(Interval o) const { return {lo + o.lo, hi + o.hi}; }
    Interval mul(Interval o) const {
      // Within i32, products fit in int64.
      int64_t p[] = {lo * o.lo, lo * o.hi, hi * o.lo, hi * o.hi};
      return {*std::min_element(p, p + 4), *std::max_element(p, p + 4)};
    }
  };
  Interval intervalOf(const z3::expr &e) {
    int64_t v;
    if (e.is_numeral() && Z3_get_numeral_int64(ctx, e, &v))
      return {v, v};
    auto it = env.intervals.find(Z3_get_ast_id(ctx, e));
    return it == env.intervals.end() ? Interval{} : Interval{it->second.first, it->second.second};
  }
  z3::expr known(const z3::expr &e, Interval i) {
    if (i.lo >= INT32_MIN && i.hi <= INT32_MAX)
      env.intervals[Z3_get_ast_id(ctx, e)] = {i.lo, i.hi};
    return e;
  }

  /// Two's complement wrap of an integer into i32 (the value of an i32 add
  /// or mul); the premise "no i32 overflow" says it is the identity.
  z3::expr wrap(const z3::expr &t, Interval raw) {
    z3::expr wrapped = t.simplify();
    if (wrapped.is_numeral()) {
      int64_t v;
      if (Z3_get_numeral_int64(ctx, wrapped, &v))
        return ctx.int_val(static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(v))));
    }
    // Interval arithmetic (the seed's bounds) proves many index expressions
    // never wrap: then no division by 2^32 for the solver to reason about.
    if (raw.lo >= INT32_MIN && raw.hi <= INT32_MAX)
      return known(wrapped, raw);
    overflow.push_back(t >= INT32_MIN && t <= INT32_MAX);
    z3::expr two32 = ctx.int_val(static_cast<int64_t>(1) << 32);
    return t - two32 * z3::expr(ctx, Z3_mk_div(ctx, t + ctx.int_val(static_cast<int64_t>(1) << 31),
                                               two32));
  }

  /// Python's a // b on integers: SMT-LIB's div is Euclidean (the remainder
  /// is never negative), which is floor division for b > 0; for b < 0,
  /// a // b == (-a) // (-b). A division by a constant stays linear.
  z3::expr floorDivision(const z3::expr &a, const z3::expr &b, std::optional<Scalar> divisor) {
    auto euclid = [&](const z3::expr &x, const z3::expr &y) {
      return z3::expr(ctx, Z3_mk_div(ctx, x, y));
    };
    if (divisor && divisor->i > 0)
      return euclid(a, b);
    if (divisor && divisor->i < 0)
      return euclid(-a, -b);
    return z3::ite(b > 0, euclid(a, b), euclid(-a, -b));
  }

  z3::expr castOf(Type from, Type to, const z3::expr &a) {
    if (from == to)
      return a;
    z3::sort toSort = dtypeSort(ctx, to);
    if (to.isInteger(1)) {
      if (from.isInteger(32))
        return a != 0;
      return !a.mk_is_zero(); // NaN is true
    }
    if (to.isInteger(32)) {
      if (from.isInteger(1))
        return z3::ite(a, ctx.int_val(1), ctx.int_val(0));
      // int() truncates toward zero, then wraps modulo 2^32; inf and NaN are
      // undefined.
      definedness.push_back(!a.mk_is_inf() && !a.mk_is_nan());
      z3::expr wide(ctx, Z3_mk_fpa_to_sbv(ctx, rtz(), a, 160));
      z3::expr low = wide.extract(31, 0);
      z3::expr unsignedValue(ctx, Z3_mk_bv2int(ctx, low, false));
      return z3::ite(low.extract(31, 31) == ctx.bv_val(1, 1),
                     unsignedValue - ctx.int_val(static_cast<int64_t>(1) << 32), unsignedValue);
    }
    if (from.isInteger(1))
      return z3::ite(a, literal(to, Scalar::real(1.0)), literal(to, Scalar::real(0.0)));
    if (from.isInteger(32)) {
      z3::expr bits(ctx, Z3_mk_int2bv(ctx, 32, a));
      return z3::expr(ctx, Z3_mk_fpa_to_fp_signed(ctx, rne(), bits, toSort));
    }
    return z3::expr(ctx, Z3_mk_fpa_to_fp_float(ctx, rne(), a, toSort));
  }

  /// exec_alu on constants, for the functions without an SMT theory.
  std::optional<Scalar> constantOf(AluKind kind, Type resultDType,
                                   ArrayRef<std::optional<Scalar>> k) {
    SmallVector<Scalar, 3> s;
    for (const std::optional<Scalar> &x : k) {
      if (!x)
        return std::nullopt;
      s.push_back(*x);
    }
    return execAlu(kind, resultDType, s);
  }

  Val &value(Value v) { return values.find(v)->second; }

  /// Row-major strides of `shape`.
  static SmallVector<int64_t> strides(ArrayRef<int64_t> shape) {
    SmallVector<int64_t> s(shape.size(), 1);
    for (int64_t i = (int64_t)shape.size() - 2; i >= 0; --i)
      s[i] = s[i + 1] * shape[i + 1];
    return s;
  }
  static SmallVector<int64_t> unravel(int64_t i, ArrayRef<int64_t> shape) {
    SmallVector<int64_t> out(shape.size());
    for (int64_t d = (int64_t)shape.size() - 1; d >= 0; --d) {
      out[d] = i % shape[d];
      i /= shape[d];
    }
    return out;
  }
  static int64_t ravel(ArrayRef<int64_t> idx, ArrayRef<int64_t> shape) {
    int64_t i = 0;
    for (auto [x, s] : llvm::zip(idx, shape))
      i = i * s + x;
    return i;
  }

  /// `src`'s elements picked by `pick(output index)`.
  template <typename Fn> Val gather(const Val &src, ArrayRef<int64_t> shape, Fn pick) {
    Val out;
    out.shape.assign(shape.begin(), shape.end());
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    for (int64_t i = 0; i < n; ++i) {
      int64_t j = pick(unravel(i, shape));
      out.elems.push_back(src.elems[j]);
      out.k.push_back(src.k[j]);
    }
    return out;
  }

  /// Any op without a rule here: an uninterpreted function of its operands.
  LogicalResult opaque(Operation *op, std::optional<Unsupported> &error) {
    std::string key;
    llvm::raw_string_ostream os(key);
    os << op->getName().getStringRef();
    if (Attribute props = op->getPropertiesAsAttribute())
      os << props;
    os << op->getDiscardableAttrDictionary() << "(";
    z3::sort_vector domain(ctx);
    z3::expr_vector args(ctx);
    for (Value operand : op->getOperands()) {
      os << operand.getType() << ",";
      for (const z3::expr &e : value(operand).elems) {
        domain.push_back(e.get_sort());
        args.push_back(e);
      }
    }
    os << ")";
    for (auto [i, result] : llvm::enumerate(op->getResults())) {
      Type type = result.getType();
      Val v;
      std::string name = key + "#" + std::to_string(i);
      llvm::raw_string_ostream ns(name);
      ns << ":" << type;
      bool isValue = isa<RankedTensorType>(type) || isValueDType(type);
      if (isValue && isValueDType(getDType(type))) {
        v.shape.assign(getShape(type).begin(), getShape(type).end());
        int64_t n = getNumElements(type);
        if (n > kMaxElements) {
          error = Unsupported{op, "a value of " + std::to_string(n) + " elements"};
          return failure();
        }
        for (int64_t e = 0; e < n; ++e) {
          z3::expr x = env.function(name + "[" + std::to_string(e) + "]", domain,
                                    dtypeSort(ctx, getDType(type)))(args);
          if (getDType(type).isInteger(32))
            env.assumptions.push_back(x >= INT32_MIN && x <= INT32_MAX);
          v.elems.push_back(x);
          v.k.push_back(std::nullopt);
        }
      } else {
        v.elems.push_back(env.function(name, domain, env.opaque(type))(args));
        v.k.push_back(std::nullopt);
      }
      notNegZero(v);
      values.try_emplace(result, std::move(v));
    }
    return success();
  }

  LogicalResult translate(Operation *op, std::optional<Unsupported> &error) {
    if (op->getNumResults() == 1) {
      Type type = op->getResult(0).getType();
      if ((isa<RankedTensorType>(type) || isValueDType(type)) &&
          getNumElements(type) > kMaxElements) {
        error = Unsupported{op, "a value of " + std::to_string(getNumElements(type)) + " elements"};
        return failure();
      }
    }
    if (auto c = dyn_cast<ConstOp>(op)) {
      Type type = c.getType();
      Type dtype = getDType(type);
      if (!isValueDType(dtype))
        return opaque(op, error);
      Val v;
      v.shape.assign(getShape(type).begin(), getShape(type).end());
      for (const Scalar &s : getAllElements(c.getValue(), type)) {
        v.elems.push_back(literal(dtype, s));
        v.k.push_back(s);
      }
      values.try_emplace(c.getResult(), std::move(v));
      return success();
    }
    if (std::optional<AluKind> kind = getAluKind(op)) {
      Type resultType = op->getResult(0).getType();
      if (!isa<RankedTensorType>(resultType) && !isValueDType(resultType))
        return opaque(op, error);
      Type resultDType = getDType(resultType);
      // The operand dtype the op computes in (the condition of a where is
      // not it).
      Value typed = *kind == AluKind::Where ? op->getOperand(1) : op->getOperand(0);
      Type dtype = getDType(typed.getType());
      Val out;
      out.shape.assign(getShape(resultType).begin(), getShape(resultType).end());
      int64_t n = getNumElements(resultType);
      for (Value operand : op->getOperands())
        if ((int64_t)value(operand).elems.size() != n) {
          error = Unsupported{op, "operands of another shape"};
          return failure();
        }
      for (int64_t i = 0; i < n; ++i) {
        SmallVector<z3::expr, 3> v;
        SmallVector<std::optional<Scalar>, 3> k;
        for (Value operand : op->getOperands()) {
          v.push_back(value(operand).elems[i]);
          k.push_back(value(operand).k[i]);
        }
        std::optional<Scalar> known = constantOf(*kind, resultDType, k);
        z3::expr e = *kind == AluKind::Where
                         ? z3::ite(truthy(v[0]), v[1], v[2])
                         : alu(*kind, dtype, resultDType, v, k.size() == 2 ? k[1] : std::nullopt);
        // No SMT theory: on a constant, exec_alu's value.
        if ((*kind == AluKind::Exp2 || *kind == AluKind::Log2 || *kind == AluKind::Sin) && known)
          env.assumptions.push_back(e == literal(resultDType, *known));
        out.elems.push_back(e);
        out.k.push_back(known);
      }
      notNegZero(out);
      values.try_emplace(op->getResult(0), std::move(out));
      return success();
    }
    if (auto range = dyn_cast<RangeOp>(op)) {
      std::string key;
      llvm::raw_string_ostream os(key);
      os << "range" << range.getIdx() << "_" << stringifyAxisKind(range.getKind());
      int ordinal = rangeSeen[key]++;
      if (ordinal)
        os << "_" << ordinal;
      z3::expr end = value(range.getEnd()).elems[0];
      auto it = env.ranges.find(key);
      if (it == env.ranges.end()) {
        z3::expr var = ctx.int_const(key.c_str());
        // The seed's bounds: [0, max(0, end - 1)].
        env.assumptions.push_back(var >= 0 && (var < end || var == 0));
        it = env.ranges.emplace(key, Env::Range{var, end}).first;
        known(var, {0, std::max<int64_t>(0, intervalOf(end).hi - 1)});
        env.named.emplace_back(key, var);
      } else if (!before) {
        rangeEnds.emplace_back(op, end == it->second.end);
      }
      Val v;
      v.elems.push_back(it->second.var);
      v.k.push_back(std::nullopt);
      values.try_emplace(range.getResult(), std::move(v));
      return success();
    }
    if (auto stack = dyn_cast<StackOp>(op)) {
      Val out;
      Type type = stack.getType();
      out.shape.assign(getShape(type).begin(), getShape(type).end());
      for (Value src : stack.getSrcs()) {
        Val &s = value(src);
        out.elems.insert(out.elems.end(), s.elems.begin(), s.elems.end());
        out.k.insert(out.k.end(), s.k.begin(), s.k.end());
      }
      values.try_emplace(stack.getResult(), std::move(out));
      return success();
    }
    if (isa<ReshapeOp, ExpandOp, PermuteOp, ShrinkOp, ReduceOp>(op) &&
        !isMemory(op->getOperand(0).getType()))
      return movement(op, error);
    if (auto index = dyn_cast<IndexOp>(op); index && !isMemory(index.getSrc().getType()))
      return indexValue(index, error);
    if (auto call = dyn_cast<CallOp>(op)) {
      Block &body = call->getRegion(0).front();
      for (auto [arg, operand] : llvm::zip(body.getArguments(), call->getOperands()))
        values.try_emplace(arg, value(operand));
      if (failed(runBlock(body, error)))
        return failure();
      values.try_emplace(call->getResult(0), value(body.getTerminator()->getOperand(0)));
      return success();
    }
    if (op->getNumRegions()) {
      error = Unsupported{op, "an op with regions"};
      return failure();
    }
    if (failed(opaque(op, error)))
      return failure();
    if (auto store = dyn_cast<StoreOp>(op))
      stores.emplace_back(op, std::make_pair(value(store.getPtr()), value(store.getValue())));
    return success();
  }

  z3::expr truthy(const z3::expr &c) {
    if (c.is_bool())
      return c;
    if (c.is_int())
      return c != 0;
    return !c.mk_is_zero();
  }

  LogicalResult movement(Operation *op, std::optional<Unsupported> &error) {
    const Val &src = value(op->getOperand(0));
    Type resultType = op->getResult(0).getType();
    SmallVector<int64_t> shape(getShape(resultType));
    ArrayRef<int64_t> ishape = src.shape;
    Val out;
    if (isa<ReshapeOp>(op)) {
      out = src;
      out.shape = shape;
    } else if (isa<ExpandOp>(op)) {
      out = gather(src, shape, [&](ArrayRef<int64_t> idx) {
        SmallVector<int64_t> in;
        for (auto [x, s] : llvm::zip(idx, ishape))
          in.push_back(s == 1 ? 0 : x);
        return ravel(in, ishape);
      });
    } else if (auto permute = dyn_cast<PermuteOp>(op)) {
      ArrayRef<int64_t> perm = permute.getPerm();
      out = gather(src, shape, [&](ArrayRef<int64_t> idx) {
        SmallVector<int64_t> in(ishape.size());
        for (size_t d = 0; d < perm.size(); ++d)
          in[perm[d]] = idx[d];
        return ravel(in, ishape);
      });
    } else if (auto shrink = dyn_cast<ShrinkOp>(op)) {
      out = gather(src, shape, [&](ArrayRef<int64_t> idx) {
        SmallVector<int64_t> in;
        for (size_t d = 0; d < idx.size(); ++d)
          in.push_back(idx[d] + shrink.getBound(d).first);
        return ravel(in, ishape);
      });
    } else {
      auto reduce = cast<ReduceOp>(op);
      Type dtype = getDType(resultType);
      AluKind kind = reduce.getKind() == ReduceKind::Add ? AluKind::Add : AluKind::Max;
      int64_t inner = 1;
      for (int64_t d : ishape.take_back(reduce.getPop()))
        inner *= d;
      int64_t n = getNumElements(resultType);
      out.shape = shape;
      for (int64_t i = 0; i < n; ++i) {
        z3::expr acc = src.elems[i * inner];
        std::optional<Scalar> k = src.k[i * inner];
        for (int64_t j = 1; j < inner; ++j) {
          acc = alu(kind, dtype, dtype, {acc, src.elems[i * inner + j]});
          k = constantOf(kind, dtype, {k, src.k[i * inner + j]});
        }
        out.elems.push_back(acc);
        out.k.push_back(k);
      }
      notNegZero(out);
    }
    (void)error;
    values.try_emplace(op->getResult(0), std::move(out));
    return success();
  }

  /// Index of a value (a stack, a tensor): the sub-tensor at the indices; a
  /// symbolic index selects among all, and must be in bounds.
  LogicalResult indexValue(IndexOp index, std::optional<Unsupported> &error) {
    const Val &src = value(index.getSrc());
    ArrayRef<int64_t> ishape = src.shape;
    size_t depth = index.getIndices().size();
    if (depth > ishape.size()) {
      error = Unsupported{index, "more indices than axes"};
      return failure();
    }
    int64_t inner = 1;
    for (int64_t d : ishape.drop_front(depth))
      inner *= d;
    // The flat offset of the indexed sub-tensor, as a term, and whether it
    // is in bounds.
    z3::expr offset = ctx.int_val(0);
    z3::expr inBounds = ctx.bool_val(true);
    for (size_t d = 0; d < depth; ++d) {
      z3::expr i = value(index.getIndices()[d]).elems[0];
      inBounds = inBounds && i >= 0 && i < ctx.int_val(static_cast<int64_t>(ishape[d]));
      int64_t stride = inner;
      for (size_t e = d + 1; e < depth; ++e)
        stride *= ishape[e];
      offset = offset + i * ctx.int_val(static_cast<int64_t>(stride));
    }
    definedness.push_back(inBounds);
    int64_t outer = 1;
    for (int64_t d : ishape.take_front(depth))
      outer *= d;
    Val out;
    out.shape.assign(ishape.begin() + depth, ishape.end());
    for (int64_t e = 0; e < inner; ++e) {
      z3::expr r = src.elems[e];
      for (int64_t o = 1; o < outer; ++o)
        r = z3::ite(offset == ctx.int_val(static_cast<int64_t>(o * inner)),
                    src.elems[o * inner + e], r);
      out.elems.push_back(r.simplify());
      out.k.push_back(std::nullopt);
    }
    values.try_emplace(index.getResult(), std::move(out));
    return success();
  }
};

/// A term's value in a model, as uop prints it.
std::string show(z3::model &model, const z3::expr &e) {
  z3::expr v = model.eval(e, true);
  std::string out;
  llvm::raw_string_ostream os(out);
  if (v.is_bool()) {
    os << (v.is_true() ? "true" : "false");
  } else if (v.is_int()) {
    int64_t i = 0;
    if (Z3_get_numeral_int64(v.ctx(), v, &i))
      os << i;
    else
      os << v.to_string();
  } else if (v.is_fpa() && model.eval(e.mk_is_nan(), true).is_true()) {
    os << "nan";
  } else if (v.is_fpa()) {
    unsigned sbits = v.get_sort().fpa_sbits();
    z3::expr bv = model.eval(z3::expr(v.ctx(), Z3_mk_fpa_to_ieee_bv(v.ctx(), e)), true);
    uint64_t bits = 0;
    if (Z3_get_numeral_uint64(v.ctx(), bv, &bits)) {
      llvm::APFloat f(sbits == 24 ? llvm::APFloat::IEEEsingle() : llvm::APFloat::IEEEhalf(),
                      llvm::APInt(sbits == 24 ? 32 : 16, bits));
      SmallString<32> s;
      f.toString(s);
      os << s;
    } else {
      os << v.to_string();
    }
  } else {
    os << v.to_string();
  }
  return out;
}

enum class Level { Exact, NoOverflow, NoNegZero, Both, Failed };

struct Totals {
  int64_t functions = 0, obligations = 0, exact = 0, premised = 0, failed = 0, unsupported = 0;
};

struct Checker {
  MLIRContext &context;
  z3::context ctx;
  Totals totals;
  llvm::StringMap<int64_t> counts;
  std::set<std::string> allowedPremise;
  bool ok = true;

  explicit Checker(MLIRContext &context) : context(context) {
    for (const std::string &r : premiseRules)
      allowedPremise.insert(r);
  }

  /// Checks `after` against `before`; `fired` are the rules that fired in it.
  void check(func::FuncOp before, func::FuncOp after, const llvm::StringMap<int64_t> &fired) {
    ++totals.functions;
    Env env(ctx);
    Encoder eb(env, true), ea(env, false);
    std::optional<Unsupported> error;
    FailureOr<std::vector<Val>> rb = eb.run(before, error);
    FailureOr<std::vector<Val>> ra = failure();
    if (succeeded(rb))
      ra = ea.run(after, error);
    if (failed(rb) || failed(ra)) {
      ++totals.unsupported;
      ok = false;
      error->op->emitError() << "uop-smt-check: cannot translate @" << before.getSymName() << ": "
                             << error->why;
      return;
    }
    if (rb->size() != ra->size()) {
      ++totals.failed;
      ok = false;
      after.emitError() << "uop-smt-check: @" << before.getSymName() << " returns " << ra->size()
                        << " values after uop-symbolic, " << rb->size() << " before";
      return;
    }
    // The obligations: the program after is defined where the one before
    // is, range ends are kept, stores are the same, results are equal.
    struct Obligation {
      std::string what;
      Operation *beforeOp, *afterOp;
      z3::expr holds;
      const Val *vb, *va;
    };
    std::vector<Obligation> obligations;
    Operation *retB = before.getBody().front().getTerminator();
    Operation *retA = after.getBody().front().getTerminator();
    obligations.push_back({"the program after uop-symbolic is defined (no division by zero, "
                           "INT_MIN // -1 or cast of inf/NaN to i32) where the program before is",
                           retB, retA, ea.defined(), nullptr, nullptr});
    for (auto &[op, holds] : ea.rangeEnds)
      obligations.push_back({"the range keeps its end", op, op, holds, nullptr, nullptr});
    auto equal = [&](const Val &a, const Val &b) {
      z3::expr r = ctx.bool_val(a.elems.size() == b.elems.size());
      for (size_t i = 0; i < std::min(a.elems.size(), b.elems.size()); ++i)
        r = r && a.elems[i] == b.elems[i];
      return r;
    };
    if (eb.stores.size() == ea.stores.size())
      for (size_t i = 0; i < eb.stores.size(); ++i) {
        auto &[ob, vb] = eb.stores[i];
        auto &[oa, va] = ea.stores[i];
        obligations.push_back({"the store's address is the same", ob, oa, equal(vb.first, va.first),
                               nullptr, nullptr});
        obligations.push_back({"the stored value is the same", ob, oa, equal(vb.second, va.second),
                               &vb.second, &va.second});
      }
    for (size_t i = 0; i < rb->size(); ++i) {
      Value vB = retB->getOperand(i), vA = retA->getOperand(i);
      Operation *defB = vB.getDefiningOp() ? vB.getDefiningOp() : retB;
      Operation *defA = vA.getDefiningOp() ? vA.getDefiningOp() : retA;
      obligations.push_back({"result #" + std::to_string(i) + " is the same", defB, defA,
                             equal((*rb)[i], (*ra)[i]), &(*rb)[i], &(*ra)[i]});
    }

    z3::expr hypothesis = eb.defined();
    for (const z3::expr &a : env.assumptions)
      hypothesis = hypothesis && a;
    // No overflow before or after: the seed's rules are integer identities.
    z3::expr noOverflow = eb.noOverflow() && ea.noOverflow(), noNegZero = eb.noNegZero();
    Level worst = Level::Exact;
    // A fresh solver per query: without push/pop Z3 bit-blasts the whole
    // problem (its QF_BV/QF_FPBV tactics), much faster than its incremental
    // core on these.
    std::unique_ptr<z3::solver> solver;
    auto refuted = [&](const z3::expr &claim, std::optional<z3::expr> premise) {
      solver = std::make_unique<z3::solver>(ctx);
      z3::params p(ctx);
      p.set("timeout", timeoutMs.getValue());
      solver->set(p);
      solver->add(hypothesis);
      if (premise)
        solver->add(*premise);
      solver->add(!claim);
      return solver->check();
    };
    for (Obligation &o : obligations) {
      ++totals.obligations;
      z3::expr claim = o.holds.simplify();
      Level level = Level::Exact;
      if (!claim.is_true() && refuted(claim, std::nullopt) != z3::unsat) {
        z3::check_result both = refuted(claim, noOverflow && noNegZero);
        if (both == z3::unsat) {
          bool overflowEnough = refuted(claim, noOverflow) == z3::unsat;
          bool negZeroEnough = !overflowEnough && refuted(claim, noNegZero) == z3::unsat;
          level = overflowEnough  ? Level::NoOverflow
                  : negZeroEnough ? Level::NoNegZero
                                  : Level::Both;
        } else {
          level = Level::Failed;
          refuted(claim, noOverflow && noNegZero);
          report(*solver, before, o.what, o.beforeOp, o.afterOp, both, env, o.vb, o.va, fired);
        }
      }
      // A proven obligation is a lemma for the next ones (the sink after the
      // stores).
      if (level == Level::Exact)
        hypothesis = hypothesis && claim;
      if (level == Level::Exact) {
        ++totals.exact;
      } else if (level == Level::Failed) {
        ++totals.failed;
        ok = false;
      } else {
        ++totals.premised;
        if (exact) {
          ok = false;
          o.beforeOp->emitError() << "uop-smt-check: in @" << before.getSymName() << ", " << o.what
                                  << " only " << premiseText(level);
        }
      }
      if (level != Level::Failed && (worst == Level::Exact || level == Level::Both))
        worst = level == Level::Exact ? worst : level;
      if (level == Level::Failed)
        worst = Level::Failed;
    }
    if (worst != Level::Exact && worst != Level::Failed && !allowedPremise.empty()) {
      bool allowed = false;
      for (auto &entry : fired)
        allowed |= allowedPremise.count(entry.getKey().str()) > 0;
      if (!allowed) {
        ok = false;
        before.emitError() << "uop-smt-check: @" << before.getSymName() << " is proven only "
                           << premiseText(worst) << ", but none of the rules allowed to need that "
                           << "fired (it fired: " << firedText(fired) << ")";
      }
    }
    if (verbose)
      llvm::outs() << "@" << before.getSymName() << ": "
                   << (worst == Level::Exact    ? "proven"
                       : worst == Level::Failed ? "FAILED"
                                                : "proven " + premiseText(worst))
                   << " (" << firedText(fired) << ")\n";
  }

  static std::string premiseText(Level level) {
    switch (level) {
    case Level::NoOverflow:
      return "assuming no i32 overflow";
    case Level::NoNegZero:
      return "assuming no -0.0";
    case Level::Both:
      return "assuming no i32 overflow and no -0.0";
    default:
      return "";
    }
  }

  static std::string firedText(const llvm::StringMap<int64_t> &fired) {
    std::vector<std::string> names;
    for (auto &entry : fired)
      names.push_back(entry.getKey().str());
    std::sort(names.begin(), names.end());
    std::string out;
    for (const std::string &n : names)
      out += (out.empty() ? "" : ", ") + n;
    return out.empty() ? "no rules" : out;
  }

  void report(z3::solver &solver, func::FuncOp func, const std::string &what, Operation *beforeOp,
              Operation *afterOp, z3::check_result r, Env &env, const Val *vb, const Val *va,
              const llvm::StringMap<int64_t> &fired) {
    InFlightDiagnostic diag = beforeOp->emitError();
    diag << "uop-smt-check: in @" << func.getSymName() << ", not proven that " << what;
    if (r == z3::unknown) {
      diag << " (Z3 gave up: " << solver.reason_unknown() << ")";
      return;
    }
    z3::model model = solver.get_model();
    std::string inputsText;
    for (auto &[name, e] : env.named)
      inputsText += (inputsText.empty() ? "" : ", ") + name + " = " + show(model, e);
    diag.attachNote() << "counterexample: " << (inputsText.empty() ? "(no inputs)" : inputsText);
    if (vb && va) {
      std::string b, a;
      for (const z3::expr &e : vb->elems)
        b += (b.empty() ? "" : ", ") + show(model, e);
      for (const z3::expr &e : va->elems)
        a += (a.empty() ? "" : ", ") + show(model, e);
      diag.attachNote() << "before: " << b << "; after: " << a;
    }
    diag.attachNote(afterOp->getLoc())
        << "after uop-symbolic (rules fired: " << firedText(fired) << ")";
  }
};

/// Parses a program (.uir or .mlir).
OwningOpRef<ModuleOp> load(const std::string &path, MLIRContext &context,
                           llvm::SourceMgr &sourceMgr) {
  std::string message;
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(path);
  if (!buffer) {
    llvm::errs() << "uop-smt-check: cannot read " << path << ": " << buffer.getError().message()
                 << "\n";
    return nullptr;
  }
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  return parseProgram(sourceMgr, &context);
}

int run(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::HideUnrelatedOptions(toolOptions);
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "uop-smt-check: prove with Z3 that uop-symbolic keeps every function's results\n");
  DialectRegistry registry;
  registry.insert<UopDialect, func::FuncDialect>();
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  if (!afterFile.empty() && inputs.size() != 1) {
    llvm::errs() << "uop-smt-check: --after takes one program before\n";
    return 1;
  }
  Checker checker(context);
  bool ok = true;
  for (const std::string &path : inputs) {
    llvm::SourceMgr sourceMgr;
    SourceMgrDiagnosticHandler handler(sourceMgr, &context);
    OwningOpRef<ModuleOp> before = load(path, context, sourceMgr);
    if (!before)
      return 1;
    OwningOpRef<ModuleOp> after;
    llvm::SourceMgr afterMgr;
    std::map<std::string, llvm::StringMap<int64_t>> fired;
    if (!afterFile.empty()) {
      // parseProgram reads a SourceMgr's main buffer: one of its own (its
      // locations still print as file:line:col).
      after = load(afterFile, context, afterMgr);
      if (!after)
        return 1;
    } else {
      after = before->clone();
      for (auto func : after->getOps<func::FuncOp>()) {
        if (func.isExternal())
          continue;
        llvm::StringMap<int64_t> &counts = fired[func.getSymName().str()];
        if (failed(applySymbolic(func, 10, nullptr, &counts)))
          return 1;
        for (auto &entry : counts)
          checker.counts[entry.getKey()] += entry.getValue();
      }
      if (failed(verify(*after)))
        return 1;
    }
    for (auto func : before->getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      auto other = after->lookupSymbol<func::FuncOp>(func.getSymName());
      if (!other) {
        func.emitError() << "uop-smt-check: no @" << func.getSymName() << " after";
        ok = false;
        continue;
      }
      checker.check(func, other, fired[func.getSymName().str()]);
    }
  }
  ok &= checker.ok;
  const Totals &t = checker.totals;
  llvm::outs() << "uop-smt-check: " << t.functions << " functions, " << t.obligations
               << " obligations: " << t.exact << " proven, " << t.premised
               << " proven under the seed's premises, " << t.failed << " failed, " << t.unsupported
               << " not translated\n";
  if (afterFile.empty() && (printCounts || requireAll)) {
    SmallVector<std::string> names = getSymbolicRuleNames(&context);
    std::vector<std::string> never;
    for (const std::string &name : names) {
      int64_t n = checker.counts.lookup(name);
      if (printCounts)
        llvm::outs() << llvm::format("%8lld  ", static_cast<long long>(n)) << name << "\n";
      if (!n)
        never.push_back(name);
    }
    for (auto &entry : checker.counts)
      if (!llvm::is_contained(names, entry.getKey().str()) && printCounts)
        llvm::outs() << llvm::format("%8lld  ", static_cast<long long>(entry.getValue()))
                     << entry.getKey() << " (not a listed rule)\n";
    if (requireAll && !never.empty()) {
      llvm::errs() << "uop-smt-check: " << never.size() << " rules never fired:\n";
      for (const std::string &name : never)
        llvm::errs() << "  " << name << "\n";
      ok = false;
    }
  }
  return ok ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  return mlir::uop::runWithLargeStack([&] { return run(argc, argv); });
}
