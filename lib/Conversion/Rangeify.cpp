//===- Rangeify.cpp - shaped graph (L1) to kernel graph (L2) ---*- C++ -*-===//
//
// The seed's `rangeify.lower` (uopc/rangeify.py): give every output axis a
// RANGE, then ask each node "what is your value at index (i0, i1, ...)?" and
// push the index down the graph. BUFFER value[i] becomes a load of an index,
// ALU ops apply to the sources' values, movement ops rewrite the index, a
// STACK becomes a where-chain, a REDUCE an accumulator and new REDUCE ranges.
// The result is stored element by element into a new output buffer.
//
// `#uop.opts` on the function maps the kernel onto the machine (upcast,
// unroll, thread, tile, GPU ranges). Run without uop-kernelize first, STAGE
// is computed inline.
//
//===----------------------------------------------------------------------===//

#include "Uop/Conversion/Passes.h"
#include "Uop/IR/UopBounds.h"
#include "Uop/IR/UopOps.h"
#include "Uop/IR/UopSymbolic.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/DenseSet.h"

#include <map>
#include <memory>
#include <vector>

namespace mlir::uop {
#define GEN_PASS_DEF_UOPRANGEIFYPASS
#include "Uop/Conversion/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {

using Index = SmallVector<Value, 4>;

/// The value for `axis` in an axis/value pair list of #uop.opts, or `dflt`.
static int64_t lookupAxis(ArrayRef<int64_t> pairs, int64_t axis, int64_t dflt) {
  for (size_t i = 0; i + 1 < pairs.size(); i += 2)
    if (pairs[i] == axis)
      return pairs[i + 1];
  return dflt;
}

class Rangeifier {
public:
  Rangeifier(func::FuncOp func, OpBuilder &b, OptsAttr opts)
      : func(func), b(b), loc(func.getLoc()), ctx(func.getContext()), opts(opts) {}

  /// Lowers `roots` (one shape) into stores into new buffers, slots
  /// `outSlot`, `outSlot` + 1, ...; returns the sink.
  FailureOr<Value> lower(ArrayRef<Value> roots, int64_t outSlot);

private:
  /// An axis split as index = base * factor + c (base a RANGE or constant 0).
  /// A ragged upcast (`limit` set: an output axis, or its tile, of `limit`
  /// indices that `factor` does not divide) clamps each copy's index:
  /// index = offset + min(base * factor + c, limit - 1). The copies past
  /// the end compute the last index's value again, with the same terms in
  /// the same order, and store that same value to the same element, so the
  /// result is unchanged while every tile keeps `factor` rows of registers.
  struct Part {
    Value base;
    int64_t factor;
    int64_t limit = 0;
    Value offset = {};
  };
  /// What a REDUCE's rule computes before asking for its source's values.
  struct ReduceState {
    SmallVector<Value> outRanges;
    SmallVector<Part> parts;
    SmallVector<Index> combos;
  };
  /// `tile` on the reduce axis of a root reduce (`tile = {rank: size}`, the
  /// axis after the output's; the seed has no such blocking): the reduction
  /// runs in blocks of `size` terms, the block loop outermost, and each
  /// block continues the element's reduction from the value the block
  /// before stored into the output (its identity in block 0). Each
  /// element's terms are combined in the same order as without blocks; only
  /// the loops around them change, so a block of B's rows stays in cache
  /// while the output loops sweep it.
  struct ReduceTile {
    Operation *op = nullptr; // the root uop.reduce
    Value block;             // the block loop's RANGE
    int64_t size = 0;
    Value out;  // the output memref
    Value flat; // the output element being lowered (its flat index)
  } reduceTile;
  /// A call of the seed's recursive rule (the value of `u` at `idx`) on the
  /// explicit stack of `rangeify`: `stage` counts the values it has asked
  /// for, which are on `rangeify`'s result stack from `base` on.
  struct Frame {
    Value u;
    Index idx;
    unsigned stage = 0;
    size_t base = 0;
    Value r;
    std::unique_ptr<ReduceState> reduce;
    /// A value index's run-time checks (uop.check_index), one per axis
    /// whose bounds are not proven.
    SmallVector<Value, 2> checks;
  };

  /// The value of `u` at `idx`: the seed's `rangeify`, without recursion.
  FailureOr<Value> rangeify(Value u, ArrayRef<Value> idx);
  /// Runs `f`'s rule on as many source values as it has (`got`): true when
  /// it is done (its value in `f.r`), false when it asks for one more
  /// (`wantValue` at `wantIdx`).
  FailureOr<bool> step(Frame &f, ArrayRef<Value> got);
  ReduceState reduceBegin(ReduceOp op, ArrayRef<Value> idx);
  Value reduceEnd(ReduceOp op, const ReduceState &st, ArrayRef<Value> got);
  static SmallVector<void *, 5> memoKey(Value u, ArrayRef<Value> idx) {
    SmallVector<void *, 5> key{u.getAsOpaquePointer()};
    for (Value i : idx)
      key.push_back(i.getAsOpaquePointer());
    return key;
  }
  /// One constant per value, as in the seed's hash-consed graph: an index
  /// holding the same constant is the same index, so the memo finds it (a
  /// row max read by both the numerator and the sum of a fused softmax is
  /// one reduction, not two). Each is made before everything that follows
  /// it (the builder only appends).
  Value c32(int64_t v) {
    Value &c = consts[v];
    if (!c)
      c = ConstOp::create(b, loc, b.getI32IntegerAttr(static_cast<int32_t>(v)));
    return c;
  }
  DenseMap<int64_t, Value> consts;
  /// Index arithmetic, hash-consed like the constants (the same op of the
  /// same operands is one value) and with the identities x + 0, x * 1 and
  /// x * 0 folded as it is built, as the seed's builders do: the index of a
  /// row reached through a unit axis is the row's own index.
  template <typename OpT> Value indexOp(Value x, Value y) {
    auto isConst = [&](Value v, int64_t c) { return consts.lookup(c) == v; };
    if constexpr (std::is_same_v<OpT, AddOp>) {
      if (isConst(y, 0))
        return x;
      if (isConst(x, 0))
        return y;
    }
    if constexpr (std::is_same_v<OpT, MulOp>) {
      if (isConst(y, 1))
        return x;
      if (isConst(x, 1))
        return y;
      if (isConst(x, 0) || isConst(y, 0))
        return c32(0);
    }
    if constexpr (std::is_same_v<OpT, FloorDivOp>)
      if (isConst(y, 1))
        return x;
    Value &v = indexOps[{OpT::getOperationName(), x.getAsOpaquePointer(), y.getAsOpaquePointer()}];
    if (!v)
      v = OpT::create(b, loc, x, y);
    return v;
  }
  std::map<std::tuple<StringRef, void *, void *>, Value> indexOps;
  Value rng(int64_t size, AxisKind kind) {
    return RangeOp::create(b, loc, c32(size), b.getI64IntegerAttr(nextRange++),
                           AxisKindAttr::get(ctx, kind));
  }
  Value alloc(Type dtype) {
    auto local = AddressSpaceAttr::get(ctx, AddressSpace::Local);
    auto t = MemRefType::get({1}, dtype, MemRefLayoutAttrInterface(), local);
    return AllocOp::create(b, loc, t, b.getI64IntegerAttr(nextAlloc++));
  }
  /// ravel(idx, shape): the flat index.
  Value ravel(ArrayRef<Value> idx, ArrayRef<int64_t> shape) {
    Value flat = c32(0);
    for (auto [i, s] : llvm::zip(idx, shape))
      flat = indexOp<AddOp>(indexOp<MulOp>(flat, c32(s)), i);
    return flat;
  }
  /// The RANGE ops `vals` depend on, sorted by idx (the seed's ranges_in).
  SmallVector<Value> rangesIn(ArrayRef<Value> vals);
  Value memBuffer(BufferOp buf);

  func::FuncOp func;
  OpBuilder &b;
  Location loc;
  MLIRContext *ctx;
  OptsAttr opts;
  int64_t nextRange = 0, nextAlloc = 0;

  Value wantValue;
  Index wantIdx;

  Part axisParts(int64_t size, int64_t factor, AxisKind kind, bool ragged = false);
  FailureOr<Part> gpuAxis(int64_t size, int64_t local, int64_t factor, Value block = {});
  /// The parts of the output axes on the GPU: a GLOBAL range per axis, or
  /// one per `merge` group, and LOCAL ranges.
  LogicalResult gpuParts(ArrayRef<int64_t> shape, SmallVectorImpl<Part> &plist);
  /// Every index tuple with the unrolled part of each axis fixed (the seed's _combos).
  SmallVector<Index> combos(ArrayRef<Part> parts);
  /// The copies of the kernel's body that unrolled (upcast, unroll) parts
  /// make, times `outer`; saturating.
  static int64_t copies(ArrayRef<Part> parts, int64_t outer = 1) {
    int64_t n = outer;
    for (const Part &p : parts)
      if (__builtin_mul_overflow(n, std::max<int64_t>(1, p.factor), &n))
        return INT64_MAX;
    return n;
  }
  /// The most copies: an upcast of 65,536 ran for minutes and gigabytes.
  static constexpr int64_t kMaxCopies = 4096;
  /// The copies the output's unrolled parts make.
  int64_t outCopies = 1;
  LogicalResult tooManyCopies(Operation *op, int64_t n) {
    return op->emitOpError("uop-rangeify: the opts unroll the kernel's body ")
           << (n == INT64_MAX ? std::string("more than 2^63") : std::to_string(n))
           << " times (its upcast and unroll factors multiplied); at most " << kMaxCopies;
  }
  /// The seed's memo: (node, index) -> scalar value, keyed by the node and
  /// the index values' pointers.
  std::map<SmallVector<void *, 5>, Value> memo;
  DenseMap<Operation *, SmallVector<std::pair<SmallVector<Value>, SmallVector<Part>>>> reduceRanges;
  DenseMap<std::pair<int64_t, Type>, Value> buffers;
  /// The value indices (uop.index of a value) being lowered, innermost last:
  /// a buffer load under one has its location, where a run-time check of
  /// the load (uop-linearize) reports.
  SmallVector<Location> indexLocs;
};

SmallVector<Value> Rangeifier::rangesIn(ArrayRef<Value> vals) {
  SmallVector<Value> out;
  llvm::DenseSet<Operation *> seen;
  SmallVector<Operation *> work;
  for (Value v : vals)
    work.push_back(v.getDefiningOp());
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (!op || !seen.insert(op).second)
      continue;
    if (isa<RangeOp>(op))
      out.push_back(op->getResult(0));
    for (Value x : op->getOperands())
      work.push_back(x.getDefiningOp());
  }
  llvm::sort(out, [](Value x, Value y) {
    return x.getDefiningOp<RangeOp>().getIdxAttr().getInt() <
           y.getDefiningOp<RangeOp>().getIdxAttr().getInt();
  });
  return out;
}

Value Rangeifier::memBuffer(BufferOp buf) {
  auto t = cast<RankedTensorType>(buf.getType());
  int64_t slot = buf.getSlotAttr().getInt();
  Value &mem = buffers[{slot, t}];
  if (!mem) {
    auto global = AddressSpaceAttr::get(ctx, AddressSpace::Global);
    auto type =
        MemRefType::get(t.getShape(), t.getElementType(), MemRefLayoutAttrInterface(), global);
    mem = BufferOp::create(b, buf.getLoc(), type, buf.getSlotAttr());
  }
  return mem;
}

FailureOr<Value> Rangeifier::rangeify(Value root, ArrayRef<Value> rootIdx) {
  // The seed's rule recurses on the sources; here each call is a Frame on an
  // explicit stack, and each finished call's value goes on `results`, where
  // its caller reads it. The ops are made in the order the recursion makes
  // them.
  std::vector<Frame> frames;
  SmallVector<Value> results;
  // Starts the call (u, idx): its memoized value, or a new frame.
  auto call = [&](Value u, ArrayRef<Value> idx) -> LogicalResult {
    if (auto it = memo.find(memoKey(u, idx)); it != memo.end()) {
      results.push_back(it->second);
      return success();
    }
    ArrayRef<int64_t> shape = getShape(u.getType());
    Operation *op = u.getDefiningOp();
    if (!op)
      return func.emitOpError("uop-rangeify: shaped programs read uop.buffer slots, not "
                              "function arguments");
    if (idx.size() != shape.size())
      return op->emitOpError("uop-rangeify: ")
             << idx.size() << " indices for shape " << shapeToString(shape);
    // Indices are i32, as in the seed (c32 would wrap): every axis is, and
    // a flat index over a value's elements (a reshape ravels its index, a
    // folded stack of constants indexes them flat). A broadcast that is
    // never raveled (A @ B's N x N x K product) may be larger.
    bool flat = isa<ReshapeOp>(op) ||
                (isa<ConstOp>(op) && isa<DenseElementsAttr>(cast<ConstOp>(op).getValue()));
    int64_t n = getNumElements(u.getType());
    if ((flat && n > INT32_MAX) || llvm::any_of(shape, [](int64_t d) { return d > INT32_MAX; }))
      return op->emitOpError("uop-rangeify: ")
             << n << " elements do not fit the i32 index arithmetic of the seed";
    Frame f;
    f.u = u;
    f.idx.assign(idx.begin(), idx.end());
    f.base = results.size();
    frames.push_back(std::move(f));
    return success();
  };
  if (failed(call(root, rootIdx)))
    return failure();
  while (!frames.empty()) {
    Frame &f = frames.back();
    FailureOr<bool> done = step(f, ArrayRef(results).drop_front(f.base));
    if (failed(done))
      return failure();
    if (!*done) {
      Index idx = std::move(wantIdx);
      if (failed(call(wantValue, idx)))
        return failure();
      continue;
    }
    Value r = f.r;
    memo[memoKey(f.u, f.idx)] = r;
    results.truncate(f.base);
    results.push_back(r);
    frames.pop_back();
  }
  return results.back();
}

static TypedAttr identity(OpBuilder &b, ReduceKind kind, Type dtype);

FailureOr<bool> Rangeifier::step(Frame &f, ArrayRef<Value> got) {
  // Asks for the value of `v` at `i` (the recursive call); `got` holds the
  // values asked for so far, in order.
  auto need = [&](Value v, ArrayRef<Value> i) {
    wantValue = v;
    wantIdx.assign(i.begin(), i.end());
    ++f.stage;
    return false;
  };
  Value u = f.u;
  ArrayRef<Value> idx = f.idx;
  unsigned stage = f.stage;
  ArrayRef<int64_t> shape = getShape(u.getType());
  Operation *op = u.getDefiningOp();
  Value &r = f.r;
  if (auto c = dyn_cast<ConstOp>(op)) {
    if (auto dense = dyn_cast<DenseElementsAttr>(c.getValue())) {
      // A folded STACK of constants: a where-chain over the flat index.
      Value flat = ravel(idx, shape);
      auto values = llvm::to_vector(dense.getValues<Attribute>());
      r = ConstOp::create(b, loc, cast<TypedAttr>(values.back()));
      for (int64_t k = (int64_t)values.size() - 2; k >= 0; --k) {
        Value cond = CmpNeOp::create(b, loc, flat, c32(k));
        r = WhereOp::create(b, loc, cond, r, ConstOp::create(b, loc, cast<TypedAttr>(values[k])));
      }
    } else {
      r = u;
    }
    return true;
  }
  if (auto buf = dyn_cast<BufferOp>(op)) {
    if (isa<MemRefType>(buf.getType()))
      return op->emitOpError("uop-rangeify: expects a shaped program (L1); this buffer is memory");
    Location at = indexLocs.empty() ? buf.getLoc() : indexLocs.back();
    Value ptr = IndexOp::create(b, at, memBuffer(buf), ValueRange{idx[0]});
    r = LoadOp::create(b, at, ptr);
    return true;
  }
  if (auto stage_ = dyn_cast<StageOp>(op)) {
    if (stage == 0)
      return need(stage_.getSrc(), idx);
    r = got[0];
    return true;
  }
  if (isa<AddOp, MulOp, MaxOp, CmpLtOp, CmpNeOp, FloorDivOp, FloorModOp, WhereOp, CastOp, RecipOp,
          Exp2Op, Log2Op, SqrtOp, SinOp>(op)) {
    if (stage < op->getNumOperands())
      return need(op->getOperand(stage), idx);
    IRMapping map;
    for (auto [x, v] : llvm::zip_equal(op->getOperands(), got))
      map.map(x, v);
    // The same op on scalars: clone it and infer its new (scalar) type.
    Operation *scalar = b.clone(*op, map);
    SmallVector<Type> types;
    if (auto iface = dyn_cast<InferTypeOpInterface>(scalar)) {
      if (failed(iface.inferReturnTypes(
              ctx, scalar->getLoc(), scalar->getOperands(), scalar->getRawDictionaryAttrs(),
              scalar->getPropertiesStorage(), scalar->getRegions(), types)))
        return op->emitOpError("uop-rangeify: cannot type the scalar op");
    } else {
      types.push_back(scalar->getOperand(0).getType());
    }
    scalar->getResult(0).setType(types[0]);
    r = scalar->getResult(0);
    return true;
  }
  if (auto index = dyn_cast<IndexOp>(op)) {
    unsigned m = index.getIndices().size();
    if (stage < m)
      return need(index.getIndices()[stage], {});
    if (stage == m) {
      // An index that is out of bounds for every value it can take is an
      // error here, as uop-evaluate reports it (a stack's where-chain would
      // silently give its last element).
      ArrayRef<int64_t> src = getShape(index.getSrc().getType());
      for (auto [k, i] : llvm::enumerate(got)) {
        if (k >= src.size() || !i.getType().isInteger(32))
          continue;
        IntBounds bounds = getBounds(i);
        if (bounds.max < 0 || bounds.min >= src[k]) {
          auto diag = op->emitError("index ");
          if (bounds.isConstant())
            diag << bounds.min;
          else
            diag << "in [" << bounds.min << ", " << bounds.max << "]";
          diag << " out of bounds for axis " << k << " of size " << src[k];
          return failure();
        }
      }
      // Every axis is checked at run time unless its bounds are proven:
      // a view maps the index into its source, where one out of range on
      // an axis reads a neighbour's element (issue 32).
      Index iv;
      for (auto [k, i] : llvm::enumerate(got)) {
        Value checked = i;
        if (k < src.size() && i.getType().isInteger(32)) {
          IntBounds bounds = getBounds(i);
          if (bounds.min < 0 || bounds.max >= src[k]) {
            checked = CheckIndexOp::create(b, op->getLoc(), i, src[k]);
            f.checks.push_back(checked);
          }
        }
        iv.push_back(checked);
      }
      iv.append(idx.begin(), idx.end());
      indexLocs.push_back(op->getLoc());
      return need(index.getSrc(), iv);
    }
    indexLocs.pop_back();
    r = got[m];
    // The value comes after its checks: a view may drop the checked index
    // (an expanded axis reads element 0) and the simplification may too
    // (a stack of equal values is one where(c, x, x) -> x); the pure
    // uop.check_index would then go with it, and an index out of range
    // would pass unreported (issue 32).
    if (!f.checks.empty())
      r = AfterOp::create(b, op->getLoc(), r, f.checks);
    return true;
  }
  if (auto stack = dyn_cast<StackOp>(op)) {
    // The last source's value, then a WHERE for each one before it, from the
    // back.
    Value i = idx[0];
    ArrayRef<Value> rest = idx.drop_front();
    int64_t n = stack.getSrcs().size();
    if (stage == 0)
      return need(stack.getSrcs().back(), rest);
    if (stage == 1) {
      r = got[0];
    } else {
      int64_t k = n - stage;
      Value cond = CmpLtOp::create(b, loc, i, c32(k + 1));
      r = WhereOp::create(b, loc, cond, got[stage - 1], r);
    }
    if (int64_t k = n - 1 - stage; k >= 0)
      return need(stack.getSrcs()[k], rest);
    return true;
  }
  // Movement ops rewrite the index, then ask for the source's value there.
  if (stage == 1 && isa<ReshapeOp, ExpandOp, PermuteOp, ShrinkOp>(op)) {
    r = got[0];
    return true;
  }
  if (auto reshape = dyn_cast<ReshapeOp>(op)) {
    // The seed simplifies this index math as it builds it; uop builds it
    // plainly and simplifies the whole kernel at the end (rangeifyFunction).
    // So that a reduce below a reshape sits in no more loops than the
    // seed's, the index is raveled and unraveled per group of axes whose
    // sizes multiply to the same (row-major reshapes never mix groups):
    // (64, 16) -> (64, 1, 16) maps i to i and j to j, not through i*16+j.
    ArrayRef<int64_t> from = getShape(reshape.getSrc().getType());
    Index src(from.size());
    size_t i = 0, k = 0, n = shape.size(), m = from.size();
    while (i < n || k < m) {
      size_t i0 = i, k0 = k;
      int64_t pd = 1, pk = 1;
      do {
        if ((pd <= pk && i < n) || k >= m)
          pd *= shape[i++];
        else
          pk *= from[k++];
      } while (pd != pk && (i < n || k < m));
      // Trailing unit axes join the group (they take index 0).
      while (i < n && shape[i] == 1 && (k >= m || from[k] != 1))
        ++i;
      while (k < m && from[k] == 1 && (i >= n || shape[i] != 1))
        ++k;
      Value flat = i > i0 ? ravel(idx.slice(i0, i - i0), shape.slice(i0, i - i0)) : c32(0);
      int64_t stride = 1;
      for (int64_t kk = (int64_t)k - 1; kk >= (int64_t)k0; --kk) {
        if (from[kk] == 1) {
          src[kk] = c32(0);
        } else if (kk == (int64_t)k0 && stride == 1) {
          src[kk] = flat; // the group's only axis of size > 1
        } else {
          Value q = stride == 1 ? flat : indexOp<FloorDivOp>(flat, c32(stride));
          src[kk] = kk == (int64_t)k0 ? q : indexOp<FloorModOp>(q, c32(from[kk]));
        }
        stride *= from[kk];
      }
    }
    return need(reshape.getSrc(), src);
  }
  if (auto expand = dyn_cast<ExpandOp>(op)) {
    ArrayRef<int64_t> from = getShape(expand.getSrc().getType());
    Index src;
    for (auto [i, s, n] : llvm::zip(idx, from, shape))
      src.push_back(s == 1 && n != 1 ? c32(0) : i);
    return need(expand.getSrc(), src);
  }
  if (auto permute = dyn_cast<PermuteOp>(op)) {
    Index inv(idx.size());
    for (auto [k, p] : llvm::enumerate(permute.getPerm()))
      inv[p] = idx[k];
    return need(permute.getSrc(), inv);
  }
  if (auto shrink = dyn_cast<ShrinkOp>(op)) {
    Index src;
    for (auto [k, i] : llvm::enumerate(idx)) {
      int64_t begin = shrink.getBound(k).first;
      src.push_back(begin ? indexOp<AddOp>(i, c32(begin)) : i);
    }
    return need(shrink.getSrc(), src);
  }
  if (auto red = dyn_cast<ReduceOp>(op)) {
    // A reduction over no elements is its identity (0 for add, -inf for
    // max), as numpy's; its loop would have read the first element of an
    // empty value (issue 32: a false out-of-bounds error, garbage
    // unchecked).
    ArrayRef<int64_t> xshape = getShape(red.getSrc().getType());
    if (llvm::is_contained(xshape.take_back(red.getPopAttr().getInt()), 0)) {
      r = ConstOp::create(b, loc, identity(b, red.getKind(), getDType(red.getType())));
      return true;
    }
    if (!f.reduce) {
      f.reduce = std::make_unique<ReduceState>(reduceBegin(red, idx));
      if (int64_t n = copies(f.reduce->parts, outCopies); n > kMaxCopies)
        return tooManyCopies(op, n);
    }
    ArrayRef<Index> cs = f.reduce->combos;
    if (stage < cs.size()) {
      Index full(idx.begin(), idx.end());
      full.append(cs[stage].begin(), cs[stage].end());
      return need(red.getSrc(), full);
    }
    r = reduceEnd(red, *f.reduce, got);
    return true;
  }
  return op->emitOpError("uop-rangeify: no rule for this op in a shaped program");
}

/// The identity of a reduction: 0 for add, the lowest value for max.
static TypedAttr identity(OpBuilder &b, ReduceKind kind, Type dtype) {
  if (isFloatDType(dtype))
    return b.getFloatAttr(dtype,
                          kind == ReduceKind::Add ? 0.0 : -std::numeric_limits<double>::infinity());
  if (dtype.isInteger(1))
    return b.getBoolAttr(false);
  return b.getI32IntegerAttr(kind == ReduceKind::Add ? 0 : INT32_MIN);
}

Rangeifier::ReduceState Rangeifier::reduceBegin(ReduceOp op, ArrayRef<Value> idx) {
  Value x = op.getSrc();
  ArrayRef<int64_t> xshape = getShape(x.getType());
  int64_t n = op.getPopAttr().getInt();
  ArrayRef<int64_t> rshape = xshape.take_back(n);
  // Copies of the same reduce share one loop per set of output ranges.
  SmallVector<Value> outRanges = rangesIn(idx);
  SmallVector<Part> parts;
  bool found = false;
  for (auto &[key, ps] : reduceRanges[op])
    if (key == outRanges) {
      parts = ps;
      found = true;
    }
  if (!found && op == reduceTile.op) {
    // k = block * size + kk: the block loop is the reduce tile's, kk this
    // reduction's own (unrolled as the opts say).
    int64_t u =
        opts.getUnroll() > 1 && reduceTile.size % opts.getUnroll() == 0 ? opts.getUnroll() : 1;
    int64_t inner = reduceTile.size / u;
    Value base = indexOp<MulOp>(reduceTile.block, c32(inner));
    if (inner > 1)
      base = indexOp<AddOp>(base, rng(inner, AxisKind::Reduce));
    parts.push_back({base, u});
    reduceRanges[op].push_back({outRanges, parts});
  } else if (!found) {
    for (auto [k, s] : llvm::enumerate(rshape))
      parts.push_back(axisParts(s, (int64_t)k == n - 1 ? opts.getUnroll() : 1, AxisKind::Reduce));
    reduceRanges[op].push_back({outRanges, parts});
  }
  ReduceState st{std::move(outRanges), std::move(parts), {}};
  if (copies(st.parts, outCopies) <= kMaxCopies)
    st.combos = combos(st.parts);
  return st;
}

Value Rangeifier::reduceEnd(ReduceOp op, const ReduceState &st, ArrayRef<Value> got) {
  const SmallVector<Value> &outRanges = st.outRanges;
  ArrayRef<Part> parts = st.parts;
  SmallVector<Value> vals(got.begin(), got.end());
  auto binop = [&](Value a, Value c) -> Value {
    if (op.getKind() == ReduceKind::Add)
      return AddOp::create(b, loc, a, c);
    return MaxOp::create(b, loc, a, c);
  };
  // An unrolled reduce axis: a balanced tree.
  while (vals.size() > 1) {
    SmallVector<Value> next;
    for (size_t i = 0; i < vals.size(); i += 2)
      next.push_back(i + 1 < vals.size() ? binop(vals[i], vals[i + 1]) : vals[i]);
    vals = std::move(next);
  }
  // The reduction's own loops (a reduce tile's block loop is the output's).
  SmallVector<Value> real;
  for (const Part &p : parts)
    for (Value r : rangesIn({p.base}))
      if (r != reduceTile.block)
        real.push_back(r);
  bool tiled = op == reduceTile.op;
  if (real.empty() && !tiled)
    return vals[0];
  Type dtype = getDType(op.getType());
  Value start = ConstOp::create(b, loc, identity(b, op.getKind(), dtype));
  if (tiled) {
    // The value so far: the identity in block 0, else what the block
    // before stored (read inside the block loop and the output's loops).
    SmallVector<Value> deps(outRanges);
    deps.push_back(reduceTile.block);
    Value out = AfterOp::create(b, loc, reduceTile.out, deps);
    Value prev = LoadOp::create(b, loc, IndexOp::create(b, loc, out, ValueRange{reduceTile.flat}));
    Value first = CmpLtOp::create(b, loc, reduceTile.block, c32(1));
    start = WhereOp::create(b, loc, first, start, prev);
    if (real.empty())
      return binop(start, vals[0]);
  }
  Value val = vals[0];
  Value acc = alloc(dtype);
  Value zero = c32(0);
  // The accumulator lives inside the loops the output index uses...
  Value acc0 = outRanges.empty() ? acc : Value(AfterOp::create(b, loc, acc, outRanges));
  Value init = StoreOp::create(b, loc, IndexOp::create(b, loc, acc0, ValueRange{zero}), start);
  // ...is re-read every iteration of the reduce loops...
  SmallVector<Value> deps{init};
  deps.append(real.begin(), real.end());
  Value accl = AfterOp::create(b, loc, acc0, deps);
  Value ptrl = IndexOp::create(b, loc, accl, ValueRange{zero});
  Value upd = StoreOp::create(b, loc, ptrl, binop(LoadOp::create(b, loc, ptrl), val));
  // ...and is read once more after the loops end.
  Value end = EndOp::create(b, loc, upd, real);
  Value done = AfterOp::create(b, loc, acc0, ValueRange{end});
  return Value(LoadOp::create(b, loc, IndexOp::create(b, loc, done, ValueRange{zero})));
}

Rangeifier::Part Rangeifier::axisParts(int64_t size, int64_t factor, AxisKind kind, bool ragged) {
  if (factor > 1 && size % factor == 0)
    return {size > factor ? rng(size / factor, kind) : c32(0), factor};
  if (ragged && factor > 1 && size > factor)
    return {rng(llvm::divideCeil(size, factor), kind), factor, size};
  return {size > 1 ? rng(size, kind) : c32(0), 1};
}

FailureOr<Rangeifier::Part> Rangeifier::gpuAxis(int64_t size, int64_t local, int64_t factor,
                                                Value block) {
  // size = blocks * local * factor: index = (gidx * local + lidx) * factor + c.
  // (A product that overflows divided by zero here: issue 32.)
  int64_t per;
  if (local < 1 || factor < 1 || __builtin_mul_overflow(local, factor, &per) || size % per != 0)
    return func.emitOpError("uop-rangeify: axis of size ")
           << size << " is not divisible by local " << local << " * upcast " << factor;
  int64_t blocks = size / per;
  // (`block`: the axis's block index out of a merged GLOBAL range.)
  Value g = block ? block : blocks > 1 ? rng(blocks, AxisKind::Global) : c32(0);
  if (local == 1)
    return Part{g, factor};
  Value l = rng(local, AxisKind::Local);
  return Part{AddOp::create(b, loc, MulOp::create(b, loc, g, c32(local)), l), factor};
}

LogicalResult Rangeifier::gpuParts(ArrayRef<int64_t> shape, SmallVectorImpl<Part> &plist) {
  int64_t rank = shape.size();
  auto localOf = [&](int64_t k) { return lookupAxis(opts.getLocal(), k, 1); };
  auto factorOf = [&](int64_t k) { return lookupAxis(opts.getUpcast(), k, 1); };
  for (int64_t k = 0; k < rank;) {
    int64_t count = std::min<int64_t>(lookupAxis(opts.getMerge(), k, 1), rank - k);
    if (count <= 1) {
      auto p = gpuAxis(shape[k], localOf(k), factorOf(k));
      if (failed(p))
        return failure();
      plist[k++] = *p;
      continue;
    }
    // One GLOBAL range over the group's blocks, the last axis fastest (as
    // the output is laid out); each axis's block index is
    // (G floordiv the blocks of the axes after it) floormod its blocks.
    SmallVector<int64_t> blocks;
    int64_t total = 1;
    for (int64_t j = k; j < k + count; ++j) {
      int64_t per;
      if (localOf(j) < 1 || factorOf(j) < 1 ||
          __builtin_mul_overflow(localOf(j), factorOf(j), &per) || shape[j] % per != 0)
        return func.emitOpError("uop-rangeify: axis of size ")
               << shape[j] << " is not divisible by local " << localOf(j) << " * upcast "
               << factorOf(j);
      blocks.push_back(shape[j] / per);
      total *= blocks.back();
    }
    Value group = total > 1 ? rng(total, AxisKind::Global) : c32(0);
    int64_t after = total;
    for (int64_t j = k; j < k + count; ++j) {
      int64_t n = blocks[j - k];
      after /= n;
      Value g = c32(0);
      if (n > 1) {
        g = after > 1 ? indexOp<FloorDivOp>(group, c32(after)) : group;
        if (after * n < total)
          g = indexOp<FloorModOp>(g, c32(n));
      }
      auto p = gpuAxis(shape[j], localOf(j), factorOf(j), g);
      if (failed(p))
        return failure();
      plist[j] = *p;
    }
    k += count;
  }
  return success();
}

SmallVector<Index> Rangeifier::combos(ArrayRef<Part> parts) {
  SmallVector<Index> out{{}};
  for (const Part &p : parts) {
    APInt c;
    bool known0 = matchPattern(p.base, m_ConstantInt(&c)) && c.isZero();
    SmallVector<Index> next;
    for (const Index &prefix : out)
      for (int64_t k = 0; k < p.factor; ++k) {
        Index i = prefix;
        Value v;
        if (known0)
          v = c32(p.limit ? std::min(k, p.limit - 1) : k);
        else if (p.factor > 1)
          v = indexOp<AddOp>(indexOp<MulOp>(p.base, c32(p.factor)), c32(k));
        else
          v = p.base;
        if (p.limit && !known0) // min(v, limit - 1) = -max(-v, 1 - limit)
          v = indexOp<MulOp>(indexOp<MaxOp>(indexOp<MulOp>(v, c32(-1)), c32(1 - p.limit)), c32(-1));
        if (p.offset)
          v = indexOp<AddOp>(p.offset, v);
        i.push_back(v);
        next.push_back(std::move(i));
      }
    out = std::move(next);
  }
  return out;
}

FailureOr<Value> Rangeifier::lower(ArrayRef<Value> roots, int64_t outSlot) {
  Value root = roots.front();
  ArrayRef<int64_t> shape = getShape(root.getType());
  int64_t numel = getNumElements(root.getType());
  // The value is stored at its flat index.
  if (numel > INT32_MAX)
    if (Operation *op = root.getDefiningOp())
      return op->emitOpError("uop-rangeify: ")
             << numel << " elements do not fit the i32 index arithmetic of the seed";
  auto global = AddressSpaceAttr::get(ctx, AddressSpace::Global);
  SmallVector<Value> outs;
  for (auto [k, r] : llvm::enumerate(roots)) {
    if (getShape(r.getType()) != shape)
      return func.emitOpError("uop-rangeify: the values of a multi-output kernel differ in "
                              "shape: ")
             << r.getType() << " and " << root.getType();
    auto outType = MemRefType::get({std::max<int64_t>(1, numel)}, getDType(r.getType()),
                                   MemRefLayoutAttrInterface(), global);
    outs.push_back(BufferOp::create(b, loc, outType, b.getI64IntegerAttr(outSlot + k)));
  }
  Value out = outs.front();
  int64_t rank = shape.size();
  SmallVector<Part> plist(rank);
  // A tile of the root reduction's axis (see ReduceTile): its block loop
  // is made first, so it is the outermost.
  if (auto red = root.getDefiningOp<ReduceOp>(); red && !opts.getGpu() && roots.size() == 1) {
    ArrayRef<int64_t> src = getShape(red.getSrc().getType());
    int64_t size = lookupAxis(opts.getTile(), rank, 0);
    if (red.getPop() == 1 && (int64_t)src.size() == rank + 1 && size > 1 && size < src.back() &&
        src.back() % size == 0)
      reduceTile = {red, rng(src.back() / size, AxisKind::Loop), size, out, {}};
  }
  if (opts.getGpu()) {
    // Each output axis (or merged group of axes) gets a GLOBAL range, and
    // optionally a LOCAL one.
    if (failed(gpuParts(shape, plist)))
      return failure();
  } else {
    // The THREAD axis gets the lowest range index: it is the outermost loop.
    int64_t thread = opts.hasThread() && opts.getThread() < rank ? opts.getThread() : -1;
    SmallVector<int64_t> order;
    if (thread >= 0)
      order.push_back(thread);
    for (int64_t k = 0; k < rank; ++k)
      if (k != thread)
        order.push_back(k);
    // Tiled axes: every block loop first (outer), then the loops in a block.
    // An upcast that does not divide its axis (or its tile) is ragged (see
    // Part), except where the kernel reads back its output: a reduce tile's
    // blocks and `stash` do, and a clamped copy could read what its twin
    // already stored. (Then the seed's rule: no upcast of that axis.)
    bool ragged = !reduceTile.op && !opts.getStash();
    SmallVector<std::pair<int64_t, int64_t>> tiled;
    ArrayRef<int64_t> tile = opts.getTile();
    for (size_t i = 0; i + 1 < tile.size(); i += 2) {
      int64_t k = tile[i], t = tile[i + 1];
      int64_t f = lookupAxis(opts.getUpcast(), k, 1);
      if (k < rank && 1 < t && t < shape[k] && shape[k] % t == 0 &&
          (t % f == 0 || (ragged && t > f)))
        tiled.push_back({k, t});
    }
    DenseMap<int64_t, Value> outer;
    for (auto [k, t] : tiled)
      outer[k] = rng(shape[k] / t, k == thread ? AxisKind::Thread : AxisKind::Loop);
    for (int64_t k : order) {
      int64_t f = lookupAxis(opts.getUpcast(), k, 1);
      auto it = llvm::find_if(tiled, [&](auto &p) { return p.first == k; });
      if (it != tiled.end() && it->second % f != 0) {
        // A ragged tile: offset = block * t, then the clamped copies.
        plist[k] = {rng(llvm::divideCeil(it->second, f), AxisKind::Loop), f, it->second,
                    MulOp::create(b, loc, outer[k], c32(it->second))};
      } else if (it != tiled.end()) {
        int64_t inner = it->second / f;
        Value base = outer[k];
        if (inner > 1)
          base = AddOp::create(b, loc, MulOp::create(b, loc, outer[k], c32(inner)),
                               rng(inner, AxisKind::Loop));
        plist[k] = {base, f};
      } else {
        plist[k] = axisParts(shape[k], f, k == thread ? AxisKind::Thread : AxisKind::Loop, ragged);
      }
    }
  }
  SmallVector<Value> stores;
  outCopies = copies(plist);
  if (outCopies > kMaxCopies)
    return tooManyCopies(root.getDefiningOp() ? root.getDefiningOp() : b.getBlock()->getParentOp(),
                         outCopies);
  for (const Index &idx : combos(plist)) {
    Value flat = shape.empty() ? c32(0) : ravel(idx, shape);
    reduceTile.flat = flat;
    // Each value at this index, in order: a value another reads is
    // computed once (rangeify's memo).
    for (auto [r, o] : llvm::zip(roots, outs)) {
      auto val = rangeify(r, idx);
      if (failed(val))
        return failure();
      stores.push_back(StoreOp::create(b, loc, IndexOp::create(b, loc, o, ValueRange{flat}), *val));
    }
  }
  SmallVector<Value> bases;
  for (const Part &p : plist) {
    if (p.offset)
      bases.push_back(p.offset);
    bases.push_back(p.base);
  }
  if (reduceTile.op)
    bases.push_back(reduceTile.block);
  SmallVector<Value> loops = rangesIn(bases);
  Value body = stores.size() == 1 ? stores[0] : Value(SinkOp::create(b, loc, stores));
  if (!loops.empty())
    body = EndOp::create(b, loc, body, loops);
  return Value(SinkOp::create(b, loc, ValueRange{body}));
}

/// Unrolled copies each END the same shared loop: merge them into one END
/// over a SINK (the seed's merge_ends).
static void mergeEnds(func::FuncOp func) {
  bool changed = true;
  while (changed) {
    changed = false;
    std::map<SmallVector<void *>, SmallVector<EndOp>> groups;
    func.walk([&](EndOp end) {
      SmallVector<void *> key;
      for (Value r : end.getRanges())
        key.push_back(r.getAsOpaquePointer());
      groups[key].push_back(end);
    });
    for (auto &[key, ends] : groups) {
      if (ends.size() < 2)
        continue;
      // Insert after the last of them so every source dominates.
      EndOp last = ends.front();
      for (EndOp e : ends)
        if (last->isBeforeInBlock(e))
          last = e;
      OpBuilder b(last->getBlock(), std::next(last->getIterator()));
      SmallVector<Value> srcs;
      for (EndOp e : ends)
        srcs.push_back(e.getSrc());
      Value sink = SinkOp::create(b, last.getLoc(), srcs);
      auto merged = EndOp::create(b, last.getLoc(), sink, ends.front().getRanges());
      for (EndOp e : ends) {
        e.getResult().replaceAllUsesWith(merged.getResult());
        e.erase();
      }
      changed = true;
      break;
    }
  }
  // A user of an earlier END of a group may sit before the merged END, which
  // is placed after the group's last END: restore def-before-use order.
  sortTopologically(&func.getBody().front());
}

struct UopRangeifyPass : mlir::uop::impl::UopRangeifyPassBase<UopRangeifyPass> {
  using Base::Base;
  /// The simplification rules are gathered once, not per kernel.
  LogicalResult initialize(MLIRContext *ctx) override {
    simplify = getRangeifySimplifyPatterns(ctx);
    return success();
  }
  void runOnOperation() override {
    if (failed(rangeifyFunction(getOperation(), &simplify)))
      signalPassFailure();
  }
  FrozenRewritePatternSet simplify;
};

} // namespace

FrozenRewritePatternSet mlir::uop::getRangeifySimplifyPatterns(MLIRContext *ctx) {
  RewritePatternSet set(ctx);
  populateSymbolicPatterns(set);
  for (RegisteredOperationName name : ctx->getRegisteredOperations())
    if (name.getDialectNamespace() == "uop")
      name.getCanonicalizationPatterns(set, ctx);
  return FrozenRewritePatternSet(std::move(set));
}

LogicalResult mlir::uop::rangeifyFunction(func::FuncOp func,
                                          const FrozenRewritePatternSet *simplify) {
  // The host of a kernelized program is uop-lower-host's.
  if (func.isExternal() || !llvm::hasSingleElement(func.getBody()) || isHost(func))
    return success();
  auto ret = dyn_cast<func::ReturnOp>(func.getBody().front().getTerminator());
  if (!ret || ret.getNumOperands() == 0)
    return success();
  SmallVector<Value> roots(ret.getOperands());
  Value root = roots.front();
  if (isa<VoidType>(root.getType()))
    return success(); // already a kernel graph
  // Several values: a multi-output kernel of uop-kernelize; a host's
  // program has its launches and is not this pass's.
  if (roots.size() > 1 && !isKernel(func))
    return success();
  if (func.getNumArguments() != 0)
    return func.emitOpError("uop-rangeify: shaped programs read uop.buffer slots; "
                            "this function takes arguments");
  // The output buffer takes the next free slot (the seed's run_shaped).
  int64_t outSlot = 0;
  func.walk([&](BufferOp buf) { outSlot = std::max(outSlot, buf.getSlotAttr().getInt() + 1); });
  OpBuilder b(ret);
  auto opts = func->getAttrOfType<OptsAttr>(kOptsAttrName);
  if (!opts)
    opts = OptsAttr::get(func.getContext(), {}, -1, 1, {}, false, {});
  Rangeifier r(func, b, opts);
  // A value of no elements has nothing to compute or store (its ranges
  // would be folded to a single index 0 of an empty buffer).
  FailureOr<Value> sink =
      getNumElements(root.getType()) == 0
          ? FailureOr<Value>(
                SinkOp::create(b, ret.getLoc(), VoidType::get(func.getContext()), ValueRange{})
                    .getResult())
          : r.lower(roots, outSlot);
  if (failed(sink))
    return failure();
  ArrayRef<int64_t> shape = getShape(root.getType());
  ret->setOperands(ValueRange{*sink});
  func.setType(FunctionType::get(func.getContext(), {}, {sink->getType()}));
  func->setAttr(kOutputSlotAttrName, b.getI64IntegerAttr(outSlot));
  func->setAttr(kOutputShapeAttrName, b.getDenseI64ArrayAttr(shape));
  mergeEnds(func);
  // The seed's final simplify: fold and apply the symbolic rules to the
  // kernel. The greedy driver also erases the shaped graph, now dead.
  FrozenRewritePatternSet own;
  if (!simplify)
    simplify = &(own = getRangeifySimplifyPatterns(func.getContext()));
  if (failed(applyPatternsGreedily(func, *simplify)))
    return func.emitOpError("uop-rangeify: simplification did not converge");
  return success();
}
