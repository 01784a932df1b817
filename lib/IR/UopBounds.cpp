//===- UopBounds.cpp - vmin/vmax as InferIntRangeInterface -----*- C++ -*-===//
//
// The seed's `_bounds` rules: a range is [0, end-1]; floor mod by c>0 is in
// [0, c); comparisons give bool ranges; anything that may wrap gives the full
// i32 range. Implemented once on plain (min, max) pairs and exposed both as
// InferIntRangeInterface (for upstream int-range-optimizations) and through
// `getBounds` (for the symbolic rules).
//
//===----------------------------------------------------------------------===//

#include "Uop/IR/UopBounds.h"
#include "Uop/IR/UopOps.h"
#include "Uop/IR/UopSemantics.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::uop;

//===----------------------------------------------------------------------===//
// The seed's rules on (min, max) pairs
//===----------------------------------------------------------------------===//

IntBounds mlir::uop::getFullBounds(Type dtype) {
  if (dtype.isInteger(1))
    return {0, 1};
  return {INT32_MIN, INT32_MAX};
}

IntBounds mlir::uop::inferUopBounds(Operation *op, ArrayRef<IntBounds> in) {
  Type dtype = getDType(op->getResult(0).getType());
  unsigned width = getIntegerWidth(dtype);
  bool isBool = width == 1;
  IntBounds full = isBool ? IntBounds{0, 1} : IntBounds{INT32_MIN, INT32_MAX};
  if (width != 1 && width != 32)
    return full;
  auto isInt = [&](unsigned i) {
    unsigned w = getIntegerWidth(getDType(op->getOperand(i).getType()));
    return w == 1 || w == 32;
  };
  /// The seed gives up when an i32 result may wrap; bool results are truthy.
  auto result = [&](int64_t lo, int64_t hi) -> IntBounds {
    if (isBool)
      return {lo != 0, hi != 0}; // only reached with non-negative lo, hi
    if (lo < INT32_MIN || hi > INT32_MAX)
      return full;
    return {lo, hi};
  };

  if (auto range = dyn_cast<RangeOp>(op))
    return result(0, std::max<int64_t>(0, in[0].max - 1));
  if (auto cast = dyn_cast<CastOp>(op)) {
    if (getIntegerWidth(getDType(cast.getSrc().getType())) == 1)
      return {in[0].min, in[0].max};
    if (getDType(cast.getSrc().getType()) == dtype)
      return in[0];
    return full;
  }
  if (isa<WhereOp>(op)) {
    IntBounds c = in[0], a = in[1], b = in[2];
    if (c.min)
      return a;
    if (!c.max)
      return b;
    return {std::min(a.min, b.min), std::max(a.max, b.max)};
  }
  if (op->getNumOperands() != 2)
    return full;
  if (!isInt(0) || !isInt(1))
    return full; // float comparisons: any bool
  IntBounds a = in[0], b = in[1];
  if (isa<AddOp>(op))
    return result(a.min + b.min, a.max + b.max);
  if (isa<MulOp>(op)) {
    int64_t ps[] = {a.min * b.min, a.min * b.max, a.max * b.min, a.max * b.max};
    return result(*std::min_element(ps, ps + 4), *std::max_element(ps, ps + 4));
  }
  if (isa<MaxOp>(op))
    return result(std::max(a.min, b.min), std::max(a.max, b.max));
  if (isa<FloorDivOp>(op) && b.min == b.max && b.min > 0)
    return result(floorDiv(a.min, b.min), floorDiv(a.max, b.min));
  if (isa<FloorModOp>(op) && b.min == b.max && b.min > 0) {
    if (0 <= a.min && a.max < b.min)
      return a;
    return {0, b.min - 1}; // floor mod by c > 0 is always in [0, c)
  }
  if (isa<CmpLtOp>(op)) {
    if (a.max < b.min)
      return {1, 1};
    if (a.min >= b.max)
      return {0, 0};
    return {0, 1};
  }
  if (isa<CmpNeOp>(op)) {
    if (a.max < b.min || b.max < a.min)
      return {1, 1};
    if (a.min == a.max && a.max == b.min && b.min == b.max)
      return {0, 0};
    return {0, 1};
  }
  return full;
}

//===----------------------------------------------------------------------===//
// ConstantIntRanges <-> IntBounds
//===----------------------------------------------------------------------===//

static bool isIntLike(Type type) {
  if (isa<IntegerType>(type))
    return true;
  if (isa<Float32Type, Float16Type>(type))
    return false;
  Type dtype = getElementTypeOrSelf(type);
  return isa<IntegerType, IndexType>(dtype);
}

static unsigned bitWidth(Type type) {
  Type dtype = getElementTypeOrSelf(type);
  if (auto integer = dyn_cast<IntegerType>(dtype))
    return integer.getWidth();
  return IndexType::kInternalStorageBitWidth;
}

static ConstantIntRanges toRanges(Type type, IntBounds b) {
  unsigned width = bitWidth(type);
  if (width == 1)
    return ConstantIntRanges::fromUnsigned(APInt(1, b.min), APInt(1, b.max));
  return ConstantIntRanges::fromSigned(APInt(width, b.min, /*isSigned=*/true),
                                       APInt(width, b.max, /*isSigned=*/true));
}

static IntBounds fromRanges(const ConstantIntRanges &r) {
  if (r.smin().getBitWidth() == 1)
    return {(int64_t)r.umin().getZExtValue(), (int64_t)r.umax().getZExtValue()};
  if (r.smin().getBitWidth() > 64)
    return {INT64_MIN, INT64_MAX};
  return {r.smin().getSExtValue(), r.smax().getSExtValue()};
}

/// The interface implementation shared by every uop integer op.
static void inferRanges(Operation *op, ArrayRef<ConstantIntRanges> argRanges,
                        SetIntRangeFn setResultRange) {
  Value result = op->getResult(0);
  if (!isIntLike(result.getType()))
    return;
  SmallVector<IntBounds> in;
  for (auto [operand, range] : llvm::zip(op->getOperands(), argRanges))
    in.push_back(isIntLike(operand.getType()) ? fromRanges(range)
                                              : IntBounds{INT64_MIN, INT64_MAX});
  setResultRange(result, toRanges(result.getType(), inferUopBounds(op, in)));
}

#define UOP_INFER_RANGES(OP)                                                                       \
  void OP::inferResultRanges(ArrayRef<ConstantIntRanges> argRanges,                                \
                             SetIntRangeFn setResultRange) {                                       \
    inferRanges(*this, argRanges, setResultRange);                                                 \
  }
UOP_INFER_RANGES(RangeOp)
UOP_INFER_RANGES(CastOp)
UOP_INFER_RANGES(WhereOp)
UOP_INFER_RANGES(AddOp)
UOP_INFER_RANGES(MulOp)
UOP_INFER_RANGES(MaxOp)
UOP_INFER_RANGES(CmpLtOp)
UOP_INFER_RANGES(CmpNeOp)
UOP_INFER_RANGES(FloorDivOp)
UOP_INFER_RANGES(FloorModOp)
#undef UOP_INFER_RANGES

/// The smallest and largest element of an integer constant's value (a
/// scalar or a dense tensor).
static IntBounds elementBounds(Attribute value) {
  auto dense = dyn_cast<DenseIntOrFPElementsAttr>(value);
  int64_t n = dense && !dense.isSplat() ? dense.getNumElements() : 1;
  IntBounds b{INT64_MAX, INT64_MIN};
  for (int64_t i = 0; i < n; ++i) {
    int64_t v = getElement(value, i).i;
    b.min = std::min(b.min, v);
    b.max = std::max(b.max, v);
  }
  return b;
}

void ConstOp::inferResultRanges(ArrayRef<ConstantIntRanges>, SetIntRangeFn setResultRange) {
  if (!isIntLike(getType()))
    return;
  setResultRange(getResult(), toRanges(getType(), elementBounds(getValue())));
}

//===----------------------------------------------------------------------===//
// getBounds: an iterative memoized walk
//===----------------------------------------------------------------------===//

void BoundsCache::notifyOperationErased(Operation *op) {
  if (op->getNumResults() == 1)
    ranges.erase(op->getResult(0));
  else
    for (Value result : op->getResults())
      ranges.erase(result);
  if (auto c = dyn_cast<ConstOp>(op)) {
    Attribute value = c.getProperties().value;
    auto it = constants.find({op->getBlock(), value});
    if (it != constants.end() && it->second == op)
      constants.erase(it);
    if (intConstants.empty())
      return;
    if (std::optional<Scalar> s = getSplatValue(value); s && !s->isFloat) {
      auto jt = intConstants.find({op->getBlock(), c.getType(), s->i});
      if (jt != intConstants.end() && jt->second == op)
        intConstants.erase(jt);
    }
  }
}

/// How many ops a query without a cache may look at.
static constexpr unsigned kUncachedBudget = 16;

/// `b` as the interface path stores it: through a ConstantIntRanges of the
/// width of `type` and back (toRanges then fromRanges, without the APInts).
static IntBounds normalize(Type type, IntBounds b) {
  unsigned width = bitWidth(type);
  if (width == 1)
    return {b.min & 1, b.max & 1};
  if (width > 64)
    return {INT64_MIN, INT64_MAX};
  if (width == 64)
    return b;
  auto sext = [&](int64_t v) {
    uint64_t m = uint64_t(1) << (width - 1);
    uint64_t u = uint64_t(v) & ((uint64_t(1) << width) - 1);
    return int64_t((u ^ m) - m);
  };
  return {sext(b.min), sext(b.max)};
}

/// The range of any value of `type` (ConstantIntRanges::maxRange, as bounds).
static IntBounds maxBounds(Type type) {
  return fromRanges(ConstantIntRanges::maxRange(bitWidth(type)));
}

/// The bounds of the uop constant `op`.
static IntBounds constBounds(ConstOp op) {
  return normalize(op.getType(), elementBounds(op.getProperties().value));
}

/// The uop ops whose interface implementation is `inferRanges` above: their
/// bounds are computed on IntBounds directly, with the same result.
static bool isUopRangeOp(Operation *op) {
  return isa<RangeOp, CastOp, WhereOp, AddOp, MulOp, MaxOp, CmpLtOp, CmpNeOp, FloorDivOp,
             FloorModOp>(op);
}

IntBounds mlir::uop::getBounds(Value value, BoundsCache *cache) {
  if (cache) {
    auto it = cache->ranges.find(value);
    if (it != cache->ranges.end())
      return it->second;
    // The usual query: a uop op whose operands' bounds are known (the rules
    // ask for an op's bounds after its operands'). What the walk below
    // computes, with one lookup per operand.
    Operation *def = value.getDefiningOp();
    if (def && isUopRangeOp(def) && isIntLike(value.getType())) {
      IntBounds in[3];
      unsigned n = def->getNumOperands();
      bool known = n <= 3;
      for (unsigned i = 0; known && i < n; ++i) {
        Value operand = def->getOperand(i);
        if (!isIntLike(operand.getType())) {
          in[i] = {INT64_MIN, INT64_MAX};
          continue;
        }
        auto oit = cache->ranges.find(operand);
        if (oit == cache->ranges.end())
          known = false;
        else
          in[i] = oit->second;
      }
      if (known) {
        // inferUopBounds gives i1 and i32 results in range already.
        IntBounds b = inferUopBounds(def, ArrayRef(in, n));
        Type type = value.getType();
        if (unsigned width = getIntegerWidth(type); width != 1 && width != 32)
          b = normalize(type, b);
        cache->ranges.try_emplace(value, b);
        return b;
      }
    }
  }
  if (!isIntLike(value.getType()))
    return {INT64_MIN, INT64_MAX};
  llvm::DenseMap<Value, IntBounds, BoundsCache::ValueInfo> local;
  auto &memo = cache ? cache->ranges : local;
  unsigned reached = 0;

  SmallVector<Value, 16> todo{value};
  SmallVector<IntBounds, 4> in;
  SmallVector<ConstantIntRanges, 4> args;
  while (!todo.empty()) {
    Value v = todo.back();
    if (memo.count(v)) {
      todo.pop_back();
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (auto c = dyn_cast_or_null<ConstOp>(def)) {
      memo.try_emplace(v, isIntLike(c.getType()) ? constBounds(c) : maxBounds(v.getType()));
      todo.pop_back();
      continue;
    }
    bool uopOp = def && isUopRangeOp(def);
    auto iface = uopOp ? InferIntRangeInterface() : dyn_cast_or_null<InferIntRangeInterface>(def);
    if (!uopOp && !iface) {
      memo.try_emplace(v, maxBounds(v.getType()));
      todo.pop_back();
      continue;
    }
    // Operands first (post-order, with an explicit stack).
    bool ready = true;
    for (Value operand : def->getOperands()) {
      if (!isIntLike(operand.getType()) || memo.count(operand))
        continue;
      // Without a cache, look at a bounded number of ops (counted as they
      // are reached, so that a deep chain is not descended either).
      if (!cache && reached >= kUncachedBudget) {
        memo.try_emplace(operand, maxBounds(operand.getType()));
        continue;
      }
      ++reached;
      todo.push_back(operand);
      ready = false;
    }
    if (!ready)
      continue;
    todo.pop_back();
    if (uopOp) {
      // inferRanges, on IntBounds.
      Value result = def->getResult(0);
      if (!isIntLike(result.getType()))
        continue; // inferRanges sets nothing
      in.clear();
      for (Value operand : def->getOperands())
        in.push_back(isIntLike(operand.getType()) ? memo.find(operand)->second
                                                  : IntBounds{INT64_MIN, INT64_MAX});
      memo.insert_or_assign(result, normalize(result.getType(), inferUopBounds(def, in)));
      continue;
    }
    // Any other op with the interface: through ConstantIntRanges.
    args.clear();
    for (Value operand : def->getOperands())
      args.push_back(isIntLike(operand.getType())
                         ? toRanges(operand.getType(), memo.find(operand)->second)
                         : ConstantIntRanges::maxRange(64));
    iface.inferResultRanges(args, [&](Value result, const ConstantIntRanges &range) {
      memo.insert_or_assign(result, fromRanges(range));
    });
    for (Value result : def->getResults())
      if (isIntLike(result.getType()))
        memo.try_emplace(result, maxBounds(result.getType()));
  }
  return memo.find(value)->second;
}
