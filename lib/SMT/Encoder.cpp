//===- Encoder.cpp - uop ops as Z3 terms ------------------------*- C++ -*-===//
//
// The translation of a function's ops into Z3 terms, element by element,
// following exec_alu (include/Uop/IR/UopSemantics.h):
//  * i32 is an integer that wraps modulo 2^32; floordiv/floormod are floor
//    (a division by a constant stays linear); x // 0, x % 0, INT_MIN // -1
//    and a cast of inf or NaN to i32 are undefined (C traps or is undefined
//    there, the folders refuse them): they go to the program's definedness;
//  * bool is Bool (add is or, mul is and, as exec_alu truncates to bool);
//  * f32 and f16 are Z3 floating point, IEEE round-to-nearest-even: the float
//    rules (x*1.0 -> x, x+0.0 -> x, the where rules, operand swaps) are only
//    true or false with IEEE's NaN and signed zeros, which uninterpreted
//    functions would have to assume away. exp2, log2 and sin have no SMT
//    theory: they are uninterpreted, except that on a constant their value is
//    exec_alu's (libm's), which is what folding them computes;
//  * a uop.range is an i32 in [0, max(0, end-1)] (the seed's bounds), one per
//    axis, the same variable before and after (its end must be equal);
//  * uop.check_index is its index, defined only in [0, size) (outside, the
//    run-time check fails); a uop.after of a value is the value;
//  * any other op (buffers, loads, stores, ends, sinks, ...) is an
//    uninterpreted function of its operands, named by its kind, attributes
//    and types: uop-symbolic rewrites only values, so effects must come out
//    the same function of equal values.
//
//===----------------------------------------------------------------------===//

#include "Encoder.h"

#include "Uop/IR/UopDialect.h"
#include "Uop/IR/UopOps.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <set>

using namespace mlir;
using namespace mlir::uop;
using namespace mlir::uop::smt;

bool mlir::uop::smt::isSmallTerm(const z3::expr &e, size_t limit) {
  std::set<unsigned> seen;
  std::vector<z3::expr> work{e};
  while (!work.empty()) {
    z3::expr x = work.back();
    work.pop_back();
    if (!seen.insert(x.id()).second)
      continue;
    if (seen.size() > limit)
      return false;
    if (x.is_app())
      for (unsigned i = 0; i < x.num_args(); ++i)
        work.push_back(x.arg(i));
  }
  return true;
}

z3::sort Env::opaque(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return ctx.uninterpreted_sort(("T:" + s).c_str());
}

z3::func_decl Env::function(const std::string &name, const z3::sort_vector &domain,
                            const z3::sort &range) {
  auto it = functions.find(name);
  if (it != functions.end())
    return it->second;
  z3::func_decl f = ctx.function(name.c_str(), domain, range);
  functions.emplace(name, f);
  return f;
}

namespace {
/// The Z3 sort of a uop dtype's values.
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

/// Whether `t` is a dtype the formulas model (i1, i32, f32, f16).
bool isValueDType(Type t) { return t.isInteger(1) || t.isInteger(32) || t.isF32() || t.isF16(); }

} // namespace

/// The Encoder's state and its translation of each op.
class Encoder::Impl {
public:
  Impl(Env &env, bool before) : env(env), ctx(env.ctx), before(before) {}

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
    // A constant computed by other ops (max(3, -1)) is one too. Simplified
    // only while small: a term can hold a whole chain, and simplifying it at
    // every op of the chain is quadratic.
    auto isConstant = [&](const z3::expr &e) {
      return e.is_numeral() || (isSmallTerm(e, 64) && e.simplify().is_numeral());
    };
    switch (kind) {
    case AluKind::Add:
      if (isBool)
        return v[0] || v[1];
      if (isInt) {
        auto [a, ia] = unwrapped(v[0]);
        auto [b, ib] = unwrapped(v[1]);
        return wrap(a + b, ia.add(ib));
      }
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
  /// The sum under `e` if it is a wrapped sum (Env::unwrapped), else `e`;
  /// with its bounds. Sums beyond 2^61 stay wrapped, so that bounds add
  /// within int64.
  std::pair<z3::expr, Interval> unwrapped(const z3::expr &e) {
    auto it = env.unwrapped.find(Z3_get_ast_id(ctx, e));
    constexpr int64_t limit = int64_t(1) << 61;
    if (it != env.unwrapped.end() && it->second.lo >= -limit && it->second.hi <= limit)
      return {it->second.sum, Interval{it->second.lo, it->second.hi}};
    return {e, intervalOf(e)};
  }
  z3::expr known(const z3::expr &e, Interval i) {
    if (i.lo >= INT32_MIN && i.hi <= INT32_MAX)
      env.intervals[Z3_get_ast_id(ctx, e)] = {i.lo, i.hi};
    return e;
  }

  /// Two's complement wrap of an integer into i32 (the value of an i32 add
  /// or mul); the premise "no i32 overflow" says it is the identity.
  z3::expr wrap(const z3::expr &t, Interval raw) {
    // Folded only when its operands are constants: Z3's simplify rewrites
    // the whole term, and an i32 chain's term holds the chain before it (a
    // 2,000-add chain took 215 s and 1.4 GB, quadratic in its length).
    bool constant = t.is_app() && t.num_args() > 0;
    for (unsigned i = 0; constant && i < t.num_args(); ++i)
      constant = t.arg(i).is_numeral();
    z3::expr wrapped = constant ? t.simplify() : t;
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
    z3::expr w =
        t - two32 * z3::expr(ctx,
                             Z3_mk_div(ctx, t + ctx.int_val(static_cast<int64_t>(1) << 31), two32));
    env.unwrapped.emplace(Z3_get_ast_id(ctx, w), Env::Unwrapped{w, t, raw.lo, raw.hi});
    return w;
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
    if (auto check = dyn_cast<CheckIndexOp>(op)) {
      // The index itself where it is in [0, size); outside, a failed
      // run-time check: the program's result is undefined there, as an
      // index out of bounds is.
      const Val &i = value(check.getIndex());
      z3::expr x = i.elems[0];
      definedness.push_back(x >= 0 && x < ctx.int_val(static_cast<int64_t>(check.getSize())));
      Val out = i;
      if (i.k[0] && (i.k[0]->i < 0 || i.k[0]->i >= check.getSize()))
        out.k[0] = std::nullopt;
      values.try_emplace(check.getResult(), std::move(out));
      return success();
    }
    if (auto after = dyn_cast<AfterOp>(op);
        after && !isMemory(after.getType()) && !isa<VoidType>(after.getType())) {
      // A value after its dependencies (a gather after its checks) is the
      // value; the dependencies' definedness is already the program's.
      values.try_emplace(after.getResult(), value(after.getSrc()));
      return success();
    }
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

Encoder::Encoder(Env &env, bool before) : impl(std::make_unique<Impl>(env, before)) {}

Encoder::~Encoder() = default;

FailureOr<std::vector<Val>> Encoder::run(func::FuncOp func, std::optional<Unsupported> &error) {
  return impl->run(func, error);
}

z3::expr Encoder::defined() { return impl->defined(); }

z3::expr Encoder::noOverflow() { return impl->noOverflow(); }

z3::expr Encoder::noNegZero() { return impl->noNegZero(); }

const std::vector<std::pair<Operation *, z3::expr>> &Encoder::rangeEnds() const {
  return impl->rangeEnds;
}

const std::vector<std::pair<Operation *, std::pair<Val, Val>>> &Encoder::stores() const {
  return impl->stores;
}
