//===- Rangeify.cpp - shaped graph (L1) to kernel graph (L2) ---*- C++ -*-===//
//
// The seed's `rangeify.lower` (uopc/rangeify.py): give every output axis a
// RANGE, then ask each node "what is your value at index (i0, i1, ...)?" and
// push the index down the graph. BUFFER value[i] becomes a load of an index,
// ALU ops apply to the sources' values, movement ops rewrite the index, a
// STACK becomes a where-chain, a REDUCE an accumulator and new REDUCE ranges.
// The result is stored element by element into a new output buffer.
//
// This is the seed's lowering without `#uop.opts` (no upcast, unroll, thread,
// tile or GPU mapping yet) and without kernelize: STAGE is computed inline.
//
//===----------------------------------------------------------------------===//

#include "Uop/Conversion/Passes.h"
#include "Uop/IR/UopOps.h"
#include "Uop/IR/UopSymbolic.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPRANGEIFYPASS
#include "Uop/Conversion/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {

using Index = SmallVector<Value, 4>;

class Rangeifier {
public:
  Rangeifier(func::FuncOp func, OpBuilder &b)
      : func(func), b(b), loc(func.getLoc()), ctx(func.getContext()) {}

  /// Lowers `root` into stores into a new buffer; returns the sink.
  FailureOr<Value> lower(Value root, int64_t outSlot);

private:
  FailureOr<Value> rangeify(Value u, ArrayRef<Value> idx);
  FailureOr<Value> reduce(ReduceOp op, ArrayRef<Value> idx);
  Value c32(int64_t v) {
    return ConstOp::create(b, loc, b.getI32IntegerAttr(static_cast<int32_t>(v)));
  }
  Value rng(int64_t size, AxisKind kind) {
    return RangeOp::create(b, loc, c32(size), b.getI64IntegerAttr(nextRange++),
                           AxisKindAttr::get(ctx, kind));
  }
  Value alloc(Type dtype) {
    auto local = AddressSpaceAttr::get(ctx, AddressSpace::Local);
    auto t = MemRefType::get({1}, dtype, MemRefLayoutAttrInterface(), local);
    return AllocOp::create(b, loc, t, b.getI64IntegerAttr(nextAlloc++));
  }
  /// The seed simplifies index math as it builds it; uop builds it plainly
  /// and simplifies the whole kernel at the end (see rangeifyFunction).
  Value simplify(Value v) { return v; }
  /// The RANGE ops `vals` depend on, sorted by idx (the seed's ranges_in).
  SmallVector<Value> rangesIn(ArrayRef<Value> vals);
  Value memBuffer(BufferOp buf);

  func::FuncOp func;
  OpBuilder &b;
  Location loc;
  MLIRContext *ctx;
  int64_t nextRange = 0, nextAlloc = 0;
  std::map<std::pair<Value, SmallVector<Value, 4>>, Value,
           std::function<bool(const std::pair<Value, SmallVector<Value, 4>> &,
                              const std::pair<Value, SmallVector<Value, 4>> &)>>
      memo{[](const auto &a, const auto &b) {
        if (a.first != b.first)
          return a.first.getAsOpaquePointer() < b.first.getAsOpaquePointer();
        return std::lexicographical_compare(
            a.second.begin(), a.second.end(), b.second.begin(), b.second.end(),
            [](Value x, Value y) { return x.getAsOpaquePointer() < y.getAsOpaquePointer(); });
      }};
  DenseMap<Operation *, SmallVector<std::pair<SmallVector<Value>, SmallVector<Value>>>>
      reduceRanges;
  DenseMap<std::pair<int64_t, Type>, Value> buffers;
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
    auto type = MemRefType::get(t.getShape(), t.getElementType(), MemRefLayoutAttrInterface(),
                                global);
    mem = BufferOp::create(b, buf.getLoc(), type, buf.getSlotAttr());
  }
  return mem;
}

/// ravel(idx, shape): the flat index.
static Value ravel(OpBuilder &b, Location loc, ArrayRef<Value> idx, ArrayRef<int64_t> shape,
                   function_ref<Value(int64_t)> c32) {
  Value flat = c32(0);
  for (auto [i, s] : llvm::zip(idx, shape))
    flat = AddOp::create(b, loc, MulOp::create(b, loc, flat, c32(s)), i);
  return flat;
}

FailureOr<Value> Rangeifier::rangeify(Value u, ArrayRef<Value> idx) {
  auto key = std::make_pair(u, SmallVector<Value, 4>(idx.begin(), idx.end()));
  if (auto it = memo.find(key); it != memo.end())
    return it->second;
  ArrayRef<int64_t> shape = getShape(u.getType());
  Operation *op = u.getDefiningOp();
  if (!op)
    return func.emitOpError("uop-rangeify: shaped programs read uop.buffer slots, not "
                            "function arguments");
  if (idx.size() != shape.size())
    return op->emitOpError("uop-rangeify: ") << idx.size() << " indices for shape "
                                              << shapeToString(shape);
  Value r;
  auto sub = [&](Value x, ArrayRef<Value> i) { return rangeify(x, i); };
  if (auto c = dyn_cast<ConstOp>(op)) {
    if (auto dense = dyn_cast<DenseElementsAttr>(c.getValue())) {
      // A folded STACK of constants: a where-chain over the flat index.
      Value flat = simplify(ravel(b, loc, idx, shape, [&](int64_t v) { return c32(v); }));
      auto values = llvm::to_vector(dense.getValues<Attribute>());
      r = ConstOp::create(b, loc, cast<TypedAttr>(values.back()));
      for (int64_t k = (int64_t)values.size() - 2; k >= 0; --k) {
        Value cond = CmpNeOp::create(b, loc, flat, c32(k));
        r = WhereOp::create(b, loc, cond, r, ConstOp::create(b, loc, cast<TypedAttr>(values[k])));
      }
    } else {
      r = u;
    }
  } else if (auto buf = dyn_cast<BufferOp>(op)) {
    if (isa<MemRefType>(buf.getType()))
      return op->emitOpError("uop-rangeify: expects a shaped program (L1); this buffer is memory");
    Value ptr = IndexOp::create(b, loc, memBuffer(buf), ValueRange{idx[0]});
    r = LoadOp::create(b, loc, ptr);
  } else if (auto stage = dyn_cast<StageOp>(op)) {
    auto v = sub(stage.getSrc(), idx);
    if (failed(v))
      return failure();
    r = *v;
  } else if (isa<AddOp, MulOp, MaxOp, CmpLtOp, CmpNeOp, FloorDivOp, FloorModOp, WhereOp, CastOp,
                 RecipOp, Exp2Op, Log2Op, SqrtOp, SinOp>(op)) {
    IRMapping map;
    for (Value x : op->getOperands()) {
      auto v = sub(x, idx);
      if (failed(v))
        return failure();
      map.map(x, *v);
    }
    // The same op on scalars: clone it and infer its new (scalar) type.
    Operation *scalar = b.clone(*op, map);
    SmallVector<Type> types;
    if (auto iface = dyn_cast<InferTypeOpInterface>(scalar)) {
      if (failed(iface.inferReturnTypes(ctx, scalar->getLoc(), scalar->getOperands(),
                                        scalar->getRawDictionaryAttrs(),
                                        scalar->getPropertiesStorage(), scalar->getRegions(),
                                        types)))
        return op->emitOpError("uop-rangeify: cannot type the scalar op");
    } else {
      types.push_back(scalar->getOperand(0).getType());
    }
    scalar->getResult(0).setType(types[0]);
    r = scalar->getResult(0);
  } else if (auto index = dyn_cast<IndexOp>(op)) {
    Index iv;
    for (Value i : index.getIndices()) {
      auto v = sub(i, {});
      if (failed(v))
        return failure();
      iv.push_back(*v);
    }
    iv.append(idx.begin(), idx.end());
    auto v = sub(index.getSrc(), iv);
    if (failed(v))
      return failure();
    r = *v;
  } else if (auto stack = dyn_cast<StackOp>(op)) {
    Value i = idx[0];
    ArrayRef<Value> rest = idx.drop_front();
    auto last = sub(stack.getSrcs().back(), rest);
    if (failed(last))
      return failure();
    r = *last;
    for (int64_t k = (int64_t)stack.getSrcs().size() - 2; k >= 0; --k) {
      auto v = sub(stack.getSrcs()[k], rest);
      if (failed(v))
        return failure();
      Value cond = simplify(CmpLtOp::create(b, loc, i, c32(k + 1)));
      r = WhereOp::create(b, loc, cond, *v, r);
    }
  } else if (auto reshape = dyn_cast<ReshapeOp>(op)) {
    // Simplified now: ((i*N + j)//N) % N mentions j but *is* i; the memo and
    // the placement of reduces both need the truth.
    ArrayRef<int64_t> from = getShape(reshape.getSrc().getType());
    Value flat = ravel(b, loc, idx, shape, [&](int64_t v) { return c32(v); });
    Index src(from.size());
    int64_t stride = 1;
    for (int64_t k = (int64_t)from.size() - 1; k >= 0; --k) {
      if (from[k] == 1) {
        src[k] = c32(0);
      } else {
        Value q = FloorDivOp::create(b, loc, flat, c32(stride));
        src[k] = simplify(FloorModOp::create(b, loc, q, c32(from[k])));
      }
      stride *= from[k];
    }
    auto v = sub(reshape.getSrc(), src);
    if (failed(v))
      return failure();
    r = *v;
  } else if (auto expand = dyn_cast<ExpandOp>(op)) {
    ArrayRef<int64_t> from = getShape(expand.getSrc().getType());
    Index src;
    for (auto [i, s, n] : llvm::zip(idx, from, shape))
      src.push_back(s == 1 && n != 1 ? c32(0) : i);
    auto v = sub(expand.getSrc(), src);
    if (failed(v))
      return failure();
    r = *v;
  } else if (auto permute = dyn_cast<PermuteOp>(op)) {
    Index inv(idx.size());
    for (auto [k, p] : llvm::enumerate(permute.getPerm()))
      inv[p] = idx[k];
    auto v = sub(permute.getSrc(), inv);
    if (failed(v))
      return failure();
    r = *v;
  } else if (auto shrink = dyn_cast<ShrinkOp>(op)) {
    Index src;
    for (auto [k, i] : llvm::enumerate(idx)) {
      int64_t begin = shrink.getBound(k).first;
      src.push_back(begin ? Value(AddOp::create(b, loc, i, c32(begin))) : i);
    }
    auto v = sub(shrink.getSrc(), src);
    if (failed(v))
      return failure();
    r = *v;
  } else if (auto red = dyn_cast<ReduceOp>(op)) {
    auto v = reduce(red, idx);
    if (failed(v))
      return failure();
    r = *v;
  } else {
    return op->emitOpError("uop-rangeify: no rule for this op in a shaped program");
  }
  memo[key] = r;
  return r;
}

/// The identity of a reduction: 0 for add, the lowest value for max.
static TypedAttr identity(OpBuilder &b, ReduceKind kind, Type dtype) {
  if (isFloatDType(dtype))
    return b.getFloatAttr(dtype, kind == ReduceKind::Add ? 0.0
                                                         : -std::numeric_limits<double>::infinity());
  if (dtype.isInteger(1))
    return b.getBoolAttr(false);
  return b.getI32IntegerAttr(kind == ReduceKind::Add ? 0 : INT32_MIN);
}

FailureOr<Value> Rangeifier::reduce(ReduceOp op, ArrayRef<Value> idx) {
  Value x = op.getSrc();
  ArrayRef<int64_t> xshape = getShape(x.getType());
  int64_t n = op.getPopAttr().getInt();
  ArrayRef<int64_t> rshape = xshape.take_back(n);
  // Copies of the same reduce share one loop per set of output ranges.
  SmallVector<Value> outRanges = rangesIn(idx);
  SmallVector<Value> parts;
  bool found = false;
  for (auto &[key, ps] : reduceRanges[op])
    if (key == outRanges) {
      parts = ps;
      found = true;
    }
  if (!found) {
    for (int64_t s : rshape)
      parts.push_back(s > 1 ? rng(s, AxisKind::Reduce) : c32(0));
    reduceRanges[op].push_back({outRanges, parts});
  }
  Index full(idx.begin(), idx.end());
  full.append(parts.begin(), parts.end());
  auto val = rangeify(x, full);
  if (failed(val))
    return failure();
  SmallVector<Value> real;
  for (Value p : parts)
    if (p.getDefiningOp<RangeOp>())
      real.push_back(p);
  if (real.empty())
    return *val;
  Type dtype = getDType(op.getType());
  auto binop = [&](Value a, Value c) -> Value {
    if (op.getKind() == ReduceKind::Add)
      return AddOp::create(b, loc, a, c);
    return MaxOp::create(b, loc, a, c);
  };
  Value acc = alloc(dtype);
  Value zero = c32(0);
  // The accumulator lives inside the loops the output index uses...
  Value acc0 = outRanges.empty() ? acc : Value(AfterOp::create(b, loc, acc, outRanges));
  Value init = StoreOp::create(b, loc, IndexOp::create(b, loc, acc0, ValueRange{zero}),
                               ConstOp::create(b, loc, identity(b, op.getKind(), dtype)));
  // ...is re-read every iteration of the reduce loops...
  SmallVector<Value> deps{init};
  deps.append(real.begin(), real.end());
  Value accl = AfterOp::create(b, loc, acc0, deps);
  Value ptrl = IndexOp::create(b, loc, accl, ValueRange{zero});
  Value upd = StoreOp::create(b, loc, ptrl, binop(LoadOp::create(b, loc, ptrl), *val));
  // ...and is read once more after the loops end.
  Value end = EndOp::create(b, loc, upd, real);
  Value done = AfterOp::create(b, loc, acc0, ValueRange{end});
  return Value(LoadOp::create(b, loc, IndexOp::create(b, loc, done, ValueRange{zero})));
}

FailureOr<Value> Rangeifier::lower(Value root, int64_t outSlot) {
  ArrayRef<int64_t> shape = getShape(root.getType());
  Type dtype = getDType(root.getType());
  int64_t numel = 1;
  for (int64_t s : shape)
    numel *= s;
  auto global = AddressSpaceAttr::get(ctx, AddressSpace::Global);
  auto outType = MemRefType::get({std::max<int64_t>(1, numel)}, dtype,
                                 MemRefLayoutAttrInterface(), global);
  Value out = BufferOp::create(b, loc, outType, b.getI64IntegerAttr(outSlot));
  Index idx;
  for (int64_t s : shape)
    idx.push_back(s > 1 ? rng(s, AxisKind::Loop) : c32(0));
  auto val = rangeify(root, idx);
  if (failed(val))
    return failure();
  Value flat = shape.empty() ? c32(0)
                             : simplify(ravel(b, loc, idx, shape, [&](int64_t v) { return c32(v); }));
  Value store = StoreOp::create(b, loc, IndexOp::create(b, loc, out, ValueRange{flat}), *val);
  SmallVector<Value> loops;
  for (Value i : idx)
    if (i.getDefiningOp<RangeOp>())
      loops.push_back(i);
  Value body = loops.empty() ? store : Value(EndOp::create(b, loc, store, loops));
  return Value(SinkOp::create(b, loc, ValueRange{body}));
}

struct UopRangeifyPass : uop::impl::UopRangeifyPassBase<UopRangeifyPass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(rangeifyFunction(getOperation())))
      signalPassFailure();
  }
};

} // namespace

LogicalResult mlir::uop::rangeifyFunction(func::FuncOp func) {
  if (func.isExternal() || !llvm::hasSingleElement(func.getBody()))
    return success();
  auto ret = dyn_cast<func::ReturnOp>(func.getBody().front().getTerminator());
  if (!ret || ret.getNumOperands() != 1)
    return success();
  Value root = ret.getOperand(0);
  if (isa<VoidType>(root.getType()))
    return success(); // already a kernel graph
  if (func.getNumArguments() != 0)
    return func.emitOpError("uop-rangeify: shaped programs read uop.buffer slots; "
                            "this function takes arguments");
  // The output buffer takes the next free slot (the seed's run_shaped).
  int64_t outSlot = 0;
  func.walk([&](BufferOp buf) { outSlot = std::max(outSlot, buf.getSlotAttr().getInt() + 1); });
  OpBuilder b(ret);
  Rangeifier r(func, b);
  FailureOr<Value> sink = r.lower(root, outSlot);
  if (failed(sink))
    return failure();
  ArrayRef<int64_t> shape = getShape(root.getType());
  ret->setOperands(ValueRange{*sink});
  func.setType(FunctionType::get(func.getContext(), {}, {sink->getType()}));
  func->setAttr("uop.output_slot", b.getI64IntegerAttr(outSlot));
  func->setAttr("uop.output_shape", b.getDenseI64ArrayAttr(shape));
  // The seed's final simplify: fold and apply the symbolic rules to the
  // kernel (this also drops the shaped graph, now dead).
  {
    MLIRContext *ctx = func.getContext();
    RewritePatternSet set(ctx);
    populateSymbolicPatterns(set);
    for (RegisteredOperationName name : ctx->getRegisteredOperations())
      if (name.getDialectNamespace() == "uop")
        name.getCanonicalizationPatterns(set, ctx);
    if (failed(applyPatternsGreedily(func, std::move(set))))
      return func.emitOpError("uop-rangeify: simplification did not converge");
  }
  // Drop whatever of the shaped graph is still dead.
  Block &block = func.getBody().front();
  bool changed = true;
  while (changed) {
    changed = false;
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block)))
      if (&op != ret.getOperation() && op.use_empty() && isPure(&op)) {
        op.erase();
        changed = true;
      }
  }
  return success();
}
