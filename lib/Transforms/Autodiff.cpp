//===- Autodiff.cpp - reverse-mode autodiff of shaped uop graphs -*- C++ -*-===//
//
// A port of uopc/autodiff.py. Each rule builds exactly the seed's ops, in
// its operand order (`g * s[1]` is mul(g, s1)), so the gradient graph is the
// seed's, but for sin's: the seed's cos(x) = sin(x + pi/2) loses digits on
// large arguments, this one is 1 - 2 sin^2(x / 2).
//
//===----------------------------------------------------------------------===//

#include "Uop/Transforms/Autodiff.h"

#include "Uop/IR/UopComposite.h"
#include "Uop/IR/UopOps.h"
#include "Uop/IR/UopTypes.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"

#include "llvm/Support/MathExtras.h"
#include <cmath>

using namespace mlir;
using namespace mlir::uop;

SmallVector<Value> mlir::uop::seedToposort(Value root) {
  // Post-order DFS, operands in order: the seed's `toposort` (it pushes the
  // sources reversed and skips a node seen by the time it is popped, which
  // visits them in order as a recursive DFS does).
  SmallVector<Value> out;
  llvm::DenseSet<Value> seen;
  SmallVector<std::pair<Value, unsigned>> stack;
  seen.insert(root);
  stack.push_back({root, 0});
  while (!stack.empty()) {
    auto &[cur, i] = stack.back();
    Operation *def = cur.getDefiningOp();
    if (def && i < def->getNumOperands()) {
      Value src = def->getOperand(i++);
      if (seen.insert(src).second)
        stack.push_back({src, 0});
      continue;
    }
    out.push_back(cur);
    stack.pop_back();
  }
  return out;
}

namespace {
/// Builds the seed's UOp expressions at one location.
struct Ops {
  OpBuilder &b;
  Location loc;

  Type dtypeOf(Value v) { return getDType(v.getType()); }
  ArrayRef<int64_t> shapeOf(Value v) { return getShape(v.getType()); }

  /// UOp.const(v, dtype): f16 is an f32 constant cast (Python has no f16
  /// values); bool and i32 convert as Python's bool() and int() do.
  Value constant(double v, Type dtype) {
    if (dtype.isF16())
      return CastOp::create(b, loc, constant(v, b.getF32Type()), TypeAttr::get(dtype));
    if (isFloatDType(dtype))
      return ConstOp::create(b, loc, b.getFloatAttr(dtype, v));
    if (dtype.isInteger(1))
      return ConstOp::create(b, loc, b.getBoolAttr(v != 0));
    return ConstOp::create(b, loc, b.getIntegerAttr(dtype, static_cast<int64_t>(std::trunc(v))));
  }
  /// The seed's `_full(like, v)` (and `zeros_like`, `const_like`): v of
  /// like's dtype, reshaped to 1s and expanded to like's shape.
  Value full(Value like, double v) {
    Value c = constant(v, dtypeOf(like));
    ArrayRef<int64_t> shape = shapeOf(like);
    if (shape.empty())
      return c;
    return expand(reshape(c, SmallVector<int64_t>(shape.size(), 1)), shape);
  }
  Value zeros(Value like) { return full(like, 0); }

  Value add(Value x, Value y) { return AddOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return MulOp::create(b, loc, x, y); }
  Value lt(Value x, Value y) { return CmpLtOp::create(b, loc, x, y); }
  Value ne(Value x, Value y) { return CmpNeOp::create(b, loc, x, y); }
  /// x.eq(y) = x.ne(y).ne(True).
  Value eq(Value x, Value y) {
    Value n = ne(x, y);
    return ne(n, full(n, 1));
  }
  /// -x: x * -1 (i32) or x * -1.0.
  Value neg(Value x) { return mul(x, full(x, -1)); }
  Value where(Value c, Value x, Value y) { return WhereOp::create(b, loc, c, x, y); }
  Value recip(Value x) { return RecipOp::create(b, loc, x); }
  Value sin(Value x) { return SinOp::create(b, loc, x); }
  Value cast(Value x, Type dtype) {
    return dtypeOf(x) == dtype ? x : CastOp::create(b, loc, x, TypeAttr::get(dtype)).getResult();
  }
  Value reshape(Value x, ArrayRef<int64_t> shape) {
    return ReshapeOp::create(b, loc, x, b.getDenseI64ArrayAttr(shape));
  }
  Value expand(Value x, ArrayRef<int64_t> shape) {
    return ExpandOp::create(b, loc, x, b.getDenseI64ArrayAttr(shape));
  }
  Value permute(Value x, ArrayRef<int64_t> perm) {
    return PermuteOp::create(b, loc, x, b.getDenseI64ArrayAttr(perm));
  }
  Value reduceAdd(Value x, int64_t n) {
    return ReduceOp::create(b, loc, x, ReduceKindAttr::get(b.getContext(), ReduceKind::Add),
                            b.getI64IntegerAttr(n));
  }
  Value index(Value x, int64_t i) {
    return IndexOp::create(b, loc, x, ValueRange{constant(i, b.getI32Type())});
  }
  Value stack(ArrayRef<Value> xs) { return StackOp::create(b, loc, ValueRange(xs)); }
};
} // namespace

/// The seed's `_rule(u, g)`: the gradient of each operand of `op` (null for
/// none), or failure with an error at `op`.
static FailureOr<SmallVector<Value>> rule(OpBuilder &b, Operation *op, Value g) {
  Ops o{b, op->getLoc()};
  Value u = op->getResult(0);
  auto s = [&](unsigned i) { return op->getOperand(i); };
  using Grads = SmallVector<Value>;
  constexpr double ln2 = llvm::numbers::ln2;

  if (isa<AddOp>(op))
    return Grads{g, g};
  if (isa<MulOp>(op)) {
    Value ga = o.mul(g, s(1));
    return Grads{ga, o.mul(g, s(0))};
  }
  if (isa<MaxOp>(op)) {
    Value a = s(0), c = s(1);
    Value half = o.mul(g, o.full(g, 0.5));
    Value zero = o.zeros(g);
    Value ca = o.where(o.lt(c, a), g, o.where(o.lt(a, c), zero, half));
    Value cc = o.where(o.lt(a, c), g, o.where(o.lt(c, a), zero, half));
    return Grads{ca, cc};
  }
  if (isa<RecipOp>(op))
    return Grads{o.neg(o.mul(o.mul(g, u), u))};
  if (isa<Exp2Op>(op))
    return Grads{o.mul(o.mul(g, u), o.full(u, ln2))};
  if (isa<Log2Op>(op))
    return Grads{o.mul(o.mul(g, o.recip(s(0))), o.full(u, 1 / ln2))};
  if (isa<SqrtOp>(op))
    return Grads{o.mul(o.mul(g, o.recip(u)), o.full(u, 0.5))};
  if (isa<SinOp>(op)) {
    // cos(x) = 1 - 2 sin^2(x / 2): x / 2 is exact, so the derivative is as
    // exact as sin at every x (the seed's sin(x + pi/2) rounds x + pi/2,
    // which loses the low digits of a large x).
    Value h = o.sin(o.mul(s(0), o.full(u, 0.5)));
    Value cos = o.add(o.mul(o.mul(h, h), o.full(u, -2)), o.full(u, 1));
    return Grads{o.mul(g, cos)};
  }
  if (isa<CastOp>(op)) {
    Type src = o.dtypeOf(s(0));
    return Grads{isFloatDType(src) ? o.cast(g, src) : Value()};
  }
  if (isa<WhereOp>(op)) {
    Value ga = o.where(s(0), g, o.zeros(g));
    return Grads{Value(), ga, o.where(s(0), o.zeros(g), g)};
  }
  if (isa<CmpLtOp, CmpNeOp, FloorDivOp, FloorModOp>(op))
    return Grads(op->getNumOperands(), Value());
  if (isa<ReshapeOp>(op))
    return Grads{o.reshape(g, o.shapeOf(s(0)))};
  if (isa<ExpandOp>(op))
    return Grads{sumTo(b, o.loc, g, o.shapeOf(s(0)))};
  if (auto p = dyn_cast<PermuteOp>(op)) {
    ArrayRef<int64_t> perm = p.getPerm();
    SmallVector<int64_t> inv(perm.size());
    for (auto [i, q] : llvm::enumerate(perm))
      inv[q] = i;
    return Grads{o.permute(g, inv)};
  }
  if (auto sh = dyn_cast<ShrinkOp>(op)) {
    ArrayRef<int64_t> bounds = sh.getBounds();
    ArrayRef<int64_t> n = o.shapeOf(s(0));
    SmallVector<std::pair<int64_t, int64_t>> pads;
    for (size_t i = 0; i < n.size(); ++i)
      pads.push_back({bounds[2 * i], n[i] - bounds[2 * i + 1]});
    return Grads{pad(b, o.loc, g, pads)};
  }
  if (isa<StackOp>(op)) {
    Grads gs;
    for (unsigned i = 0; i < op->getNumOperands(); ++i)
      gs.push_back(o.index(g, i));
    return gs;
  }
  if (auto st = dyn_cast<StageOp>(op))
    return Grads{st.getDetach() ? Value() : g};
  if (auto r = dyn_cast<ReduceOp>(op)) {
    int64_t n = r.getPop();
    Value x = s(0);
    SmallVector<int64_t> kept(o.shapeOf(u));
    kept.append(n, 1);
    ArrayRef<int64_t> xs = o.shapeOf(x);
    Value ge = o.expand(o.reshape(g, kept), xs);
    if (r.getKind() == ReduceKind::Add)
      return Grads{ge};
    Value mx = o.expand(o.reshape(u, kept), xs);
    Value mask = o.cast(o.eq(x, mx), o.dtypeOf(x)); // ties share the gradient
    Value cnt = o.expand(o.reshape(o.reduceAdd(mask, n), kept), xs);
    return Grads{o.mul(o.mul(ge, mask), o.recip(cnt))};
  }
  if (auto ix = dyn_cast<IndexOp>(op)) {
    SmallVector<int64_t> idx;
    for (Value i : ix.getIndices()) {
      auto c = i.getDefiningOp<ConstOp>();
      auto v = c ? dyn_cast<IntegerAttr>(c.getValue()) : IntegerAttr();
      if (!v)
        return op->emitError("no gradient of a data-dependent uop.index (its indices must be "
                             "uop.const; use a one-hot matmul)"),
               failure();
      idx.push_back(v.getInt());
    }
    if (!isa<RankedTensorType>(ix.getSrc().getType()))
      return op->emitError("no gradient of a uop.index of memory (autodiff works on shaped "
                           "values only)"),
             failure();
    ArrayRef<int64_t> xs = o.shapeOf(ix.getSrc());
    Value gx = g;
    for (size_t k = idx.size(); k-- > 0;) {
      Value z = o.zeros(gx);
      SmallVector<Value> parts;
      for (int64_t j = 0; j < xs[k]; ++j)
        parts.push_back(j == idx[k] ? gx : z);
      gx = o.stack(parts);
    }
    Grads gs{gx};
    gs.append(idx.size(), Value());
    return gs;
  }
  if (isa<ConstOp, BufferOp, ParamOp>(op))
    return Grads();
  return op->emitError() << "no gradient rule for '" << op->getName()
                         << "' (autodiff works on pure shaped graphs"
                         << (isa<CallOp>(op) ? "; run uop-inline-calls first)" : ")"),
         failure();
}

/// A uop value (a scalar or a tensor of a uop dtype), not memory or an effect.
static bool isValue(Type t) {
  Type d = isa<RankedTensorType>(t) ? cast<RankedTensorType>(t).getElementType() : t;
  return d.isInteger(1) || d.isInteger(32) || isFloatDType(d);
}

FailureOr<SmallVector<Value>> mlir::uop::gradient(OpBuilder &b, Value root,
                                                  ArrayRef<Value> targets) {
  if (!isValue(root.getType()))
    return emitError(root.getLoc()) << "gradient: the root must be a uop value (a scalar or a "
                                       "tensor), not "
                                    << root.getType(),
           failure();
  for (Value t : targets)
    if (!isValue(t.getType()))
      return emitError(t.getLoc()) << "gradient: a target must be a uop value (a scalar or a "
                                      "tensor), not "
                                   << t.getType(),
             failure();
  SmallVector<Value> topo = seedToposort(root);
  // Only walk the values that lie on a path to some target.
  llvm::DenseSet<Value> targetSet(targets.begin(), targets.end());
  llvm::DenseSet<Value> onPath(targets.begin(), targets.end());
  for (Value u : topo)
    if (Operation *def = u.getDefiningOp())
      if (llvm::any_of(def->getOperands(), [&](Value x) { return onPath.contains(x); }))
        onPath.insert(u);

  llvm::DenseMap<Value, Value> grads;
  grads[root] = Ops{b, root.getLoc()}.full(root, 1.0);
  for (Value u : llvm::reverse(topo)) {
    Operation *def = u.getDefiningOp();
    bool leaf = !def || def->getNumOperands() == 0;
    auto it = grads.find(u);
    if (it == grads.end() || !onPath.contains(u) || (targetSet.contains(u) && leaf))
      continue;
    if (!def) // a block argument that is not a target has no path to one
      continue;
    FailureOr<SmallVector<Value>> gs = rule(b, def, it->second);
    if (failed(gs))
      return failure();
    for (auto [x, gx] : llvm::zip(def->getOperands(), *gs)) {
      if (!gx || !onPath.contains(x))
        continue;
      auto [slot, inserted] = grads.try_emplace(x, gx);
      if (!inserted)
        slot->second = AddOp::create(b, def->getLoc(), slot->second, gx);
    }
  }
  SmallVector<Value> out;
  for (Value t : targets) {
    Value g = grads.lookup(t);
    out.push_back(g ? g : Ops{b, t.getLoc()}.zeros(t));
  }
  return out;
}
