//===- Kernelize.cpp - fusion and fission into kernels ---------*- C++ -*-===//
//
// The seed's `kernelize.make_plan` (uopc/kernelize.py). Rangeify can lower
// any shaped graph into one loop nest, but a REDUCE consumed through an
// EXPAND would then be recomputed for every element it is broadcast to. So
// the graph is cut at materialization points -- every root, every STAGE,
// every REDUCE unless fuse-reduce is asked -- and everything between two
// points is fused into one kernel that writes exactly one buffer. With
// fuse-epilogue, a REDUCE whose only readers are elementwise computations
// of its shape ending in one point of that shape (a GEMM's bias and ReLU)
// is computed in that point's kernel instead: once per output, nothing
// recomputed.
//
// Each kernel is outlined into a `func.func` (an L1 program over local
// buffer slots 0..n-1, the output being slot n once rangeified), and the
// original function becomes the host: a list of `uop.launch`es in
// dependency order.
//
//===----------------------------------------------------------------------===//

#include "Uop/Transforms/Passes.h"

#include "Uop/IR/UopTarget.h"

#include "Uop/IR/UopOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

namespace mlir::uop {
#define GEN_PASS_DEF_UOPKERNELIZEPASS
#include "Uop/Transforms/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {

/// The seed's `UOp.toposort` of `SINK(roots)`: every node reachable, sources
/// before users, sources visited in operand order; iterative. `isLeaf` nodes
/// are listed but not entered.
SmallVector<Value> toposort(ArrayRef<Value> roots, function_ref<bool(Value)> isLeaf) {
  SmallVector<Value> out;
  DenseSet<Value> seen;
  SmallVector<std::pair<Value, bool>> stack;
  for (Value r : llvm::reverse(roots))
    stack.push_back({r, false});
  while (!stack.empty()) {
    auto [u, done] = stack.pop_back_val();
    if (done) {
      out.push_back(u);
      continue;
    }
    if (!seen.insert(u).second)
      continue;
    stack.push_back({u, true});
    Operation *def = u.getDefiningOp();
    if (!def || isLeaf(u))
      continue;
    for (Value s : llvm::reverse(def->getOperands()))
      if (!seen.contains(s))
        stack.push_back({s, false});
  }
  return out;
}

/// The buffer under a chain of reshapes, if `u` is one and covers all of it
/// (the seed's is_contiguous_buffer): such a root needs no kernel.
BufferOp contiguousBuffer(Value u) {
  Value base = u;
  while (auto r = base.getDefiningOp<ReshapeOp>())
    base = r.getSrc();
  auto buf = base.getDefiningOp<BufferOp>();
  if (buf && getNumElements(u.getType()) == getNumElements(buf.getType()))
    return buf;
  return nullptr;
}

/// ALU ops times elements that recomputing `u` would cost, stopping at
/// materialized nodes (the seed's `_fused_work`).
int64_t fusedWork(Value u) {
  int64_t n = 0;
  DenseSet<Value> seen;
  SmallVector<Value> stack{u};
  while (!stack.empty()) {
    Value x = stack.pop_back_val();
    Operation *def = x.getDefiningOp();
    if (seen.contains(x) || !def || isa<BufferOp, ReduceOp, StageOp>(def))
      continue;
    seen.insert(x);
    if (isALU(def))
      ++n;
    for (Value s : def->getOperands())
      stack.push_back(s);
  }
  return n * getNumElements(u.getType());
}

/// Wraps `v` in a `uop.stage` that replaces it everywhere.
void stage(Value v) {
  OpBuilder b(v.getContext());
  b.setInsertionPointAfterValue(v);
  auto st = StageOp::create(b, v.getLoc(), v.getType(), v);
  v.replaceAllUsesExcept(st.getResult(), st);
}

/// permute(reshape*(reduce(src))) -> reduce(permute'(src)), the reduce's
/// kept axes permuted as the permute reads them and its reduced axes left
/// last, where the reshapes come back to the reduce's shape (unit axes in
/// and out) and nothing else reads the values on the way: the reduce, a
/// materialization point, then writes its buffer in the order its readers
/// read it. Autodiff's gradient of a weight read transposed (Linear's
/// x @ W, W stored in x out) is such a chain: the MLP's dW was computed as
/// dW^T (r_128_784) and read back through the permute by each of AdamW's
/// kernels, 784 apart; now it is r_784_128, read contiguously, and a gemm
/// whose columns (128) take the register tile's lanes. The terms are summed
/// in the same order; the register tile's FMAs round differently from the
/// seed's upcast (mnist_mlp's loss moves in the 8th digit). A reduce with
/// its own opts keeps its axes. Returns how many were rewritten.
unsigned permuteIntoReduces(func::FuncOp func) {
  SmallVector<PermuteOp> perms;
  func.walk([&](PermuteOp p) { perms.push_back(p); });
  unsigned n = 0;
  for (PermuteOp p : perms) {
    Value v = p.getSrc();
    SmallVector<Operation *> chain;
    while (auto r = v.getDefiningOp<ReshapeOp>()) {
      chain.push_back(r);
      v = r.getSrc();
    }
    auto red = v.getDefiningOp<ReduceOp>();
    if (!red || red->hasAttr(kOptsAttrName) ||
        getShape(red.getType()) != getShape(p.getSrc().getType()) || !red->hasOneUse() ||
        llvm::any_of(chain, [](Operation *r) { return !r->hasOneUse(); }))
      continue;
    ArrayRef<int64_t> perm = p.getPerm();
    int64_t kept = perm.size(), rank = getShape(red.getSrc().getType()).size();
    if (kept + static_cast<int64_t>(red.getPop()) != rank)
      continue;
    SmallVector<int64_t> full(perm.begin(), perm.end());
    for (int64_t k = kept; k < rank; ++k)
      full.push_back(k);
    OpBuilder b(p);
    Value src = PermuteOp::create(b, p.getLoc(), red.getSrc(), b.getDenseI64ArrayAttr(full));
    auto moved = ReduceOp::create(b, red.getLoc(), src, red.getKindAttr(), red.getPopAttr());
    p.getResult().replaceAllUsesWith(moved.getResult());
    p.erase();
    for (Operation *r : chain)
      r->erase();
    red.erase();
    ++n;
  }
  return n;
}

class Kernelizer {
public:
  Kernelizer(func::FuncOp func, const KernelizeOptions &options, SymbolTable &symbols,
             llvm::StringMap<FlatSymbolRefAttr> &bodies)
      : func(func), fuseReduce(options.fuseReduce), layout(options.layout),
        multiOutput(options.multiOutput), fuseEpilogue(options.fuseEpilogue), panel(options.panel),
        symbols(symbols), bodies(bodies) {}

  LogicalResult run();

private:
  func::ReturnOp ret() { return cast<func::ReturnOp>(func.getBody().front().getTerminator()); }
  SmallVector<Value> roots() { return llvm::to_vector(ret().getOperands()); }
  void stripDetach();
  void stageBroadcastCompute(int64_t factor = 4);
  /// Outlines the kernel that computes the points `members` (one, or the
  /// roots of a multi-output kernel); returns its symbol and the host values
  /// bound to its local buffer slots, in slot order.
  FlatSymbolRefAttr outline(ArrayRef<Value> members, SmallVectorImpl<Value> &bound);
  /// The points each kernel computes, in an order in which every kernel
  /// comes after the kernels it reads: the points one by one, or with
  /// multi-output, elementwise roots of one shape together.
  SmallVector<SmallVector<Value, 1>> kernelsInOrder(ArrayRef<Value> order,
                                                    const DenseSet<Value> &rootSet);
  /// The points `u`'s kernel reads (other points are its leaves), and
  /// whether it reduces.
  SmallVector<Value> pointsRead(Value u, bool &reduces);
  /// The one point that reads the reduce `r`, if every reader of `r` is an
  /// elementwise op of `r`'s shape on the way to it, or a chain of reshapes
  /// of unit axes back to that shape (`folds`: each chain's end and the
  /// value it reshapes), and it has `r`'s shape (an epilogue): `r` can then
  /// be computed in that point's kernel, once per output.
  Value epilogueOf(ReduceOp r, const DenseSet<Value> &rootSet,
                   SmallVectorImpl<std::pair<Value, Value>> &folds);
  /// fuse-epilogue: the reduces `epilogueOf` allows, one a kernel, are no
  /// longer points (removed from `order` too).
  void fuseEpilogues(SmallVectorImpl<Value> &order, const DenseSet<Value> &rootSet);

  func::FuncOp func;
  bool fuseReduce, layout, multiOutput, fuseEpilogue;
  int64_t panel;
  SymbolTable &symbols;
  llvm::StringMap<FlatSymbolRefAttr> &bodies; // kernel text -> its function
  DenseSet<Value> points;
  DenseMap<Value, Value> launched; // point -> its launch result in the host
};

void Kernelizer::stripDetach() {
  // Tensor.detach() is a STAGE("detach"): autodiff stops there, execution ignores it.
  func.walk([](StageOp st) {
    if (st.getDetach()) {
      st.getResult().replaceAllUsesWith(st.getSrc());
      st.erase();
    }
  });
}

void Kernelizer::stageBroadcastCompute(int64_t factor) {
  // Fusing is only free if nothing is recomputed: a computed tensor EXPANDed
  // by `factor` or more is materialized first (the fusion/recompute trade-off).
  SmallVector<Value> todo;
  DenseSet<Value> inTodo;
  for (Value u : toposort(roots(), [](Value) { return false; })) {
    auto ex = u.getDefiningOp<ExpandOp>();
    if (!ex || getNumElements(u.getType()) < factor * getNumElements(ex.getSrc().getType()))
      continue;
    Value base = getMovementBase(ex.getSrc());
    Operation *def = base.getDefiningOp();
    if (def && isALU(def) && !isa<CastOp>(def) && !getShape(base.getType()).empty() &&
        fusedWork(base) >= 4096 && inTodo.insert(base).second)
      todo.push_back(base);
  }
  for (Value v : todo)
    stage(v);
}

/// The value a point's kernel computes: a stage's source, else the point.
static Value bodyOf(Value u) {
  if (auto st = u.getDefiningOp<StageOp>())
    return st.getSrc();
  return u;
}

SmallVector<Value> Kernelizer::pointsRead(Value u, bool &reduces) {
  reduces = false;
  SmallVector<Value> out;
  auto isLeaf = [&](Value v) { return v != u && points.contains(v); };
  for (Value v : toposort({bodyOf(u)}, isLeaf)) {
    if (isLeaf(v))
      out.push_back(v);
    else if (Operation *def = v.getDefiningOp())
      reduces |= isa<ReduceOp>(def);
  }
  return out;
}

/// The most ALU ops an epilogue fused into its reduce's kernel computes (the
/// ops of the point's kernel outside the reduce). They run per output inside
/// the reduce's register tile, in its lanes: where those are not vectors (a
/// GEMM reading B across its rows, unpacked), a long epilogue runs lane by
/// lane, where its own elementwise kernel is vectorized by LLVM. GPT's
/// feed-forward gradient fused with GELU's derivative (about 50 ops, four
/// exp2) took 5-10 ms a step against 0.5 + 0.65-1.2 ms as two kernels; bias,
/// ReLU, a mask, log-sum-exp's log and add, a mean's scale are 1-4.
static constexpr int64_t kMaxEpilogueOps = 8;

/// `shape` without its axes of size 1.
static SmallVector<int64_t> withoutUnitAxes(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> out;
  for (int64_t d : shape)
    if (d != 1)
      out.push_back(d);
  return out;
}

Value Kernelizer::epilogueOf(ReduceOp r, const DenseSet<Value> &rootSet,
                             SmallVectorImpl<std::pair<Value, Value>> &folds) {
  // A root is stored anyway; a reduce with opts of its own keeps its kernel
  // (the opts are for it).
  if (rootSet.contains(r.getResult()) || r->hasAttr(kOptsAttrName))
    return {};
  ArrayRef<int64_t> shape = getShape(r.getType());
  SmallVector<int64_t> elements = withoutUnitAxes(shape);
  Value point;
  DenseSet<Value> seen;
  SmallVector<Value> work{r.getResult()};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      // Reshapes that only insert or remove axes of size 1 and come back to
      // `r`'s shape (autodiff's [m, n] -> [m, 1, n] -> [m, n]) are `v`
      // itself: folded away if `r` fuses, so that the kernel reads the
      // reduce at the output's own index (uop-rangeify would index it
      // through the reshapes: no register tile).
      if (auto rs = dyn_cast<ReshapeOp>(user)) {
        Value end = rs.getResult();
        while (getShape(end.getType()) != shape) {
          auto next = end.hasOneUse() ? dyn_cast<ReshapeOp>(*end.getUsers().begin()) : nullptr;
          if (!next || withoutUnitAxes(getShape(end.getType())) != elements ||
              points.contains(end))
            return {};
          end = next.getResult();
        }
        if (points.contains(end))
          return {};
        folds.push_back({end, v});
        if (seen.insert(end).second)
          work.push_back(end);
        continue;
      }
      // Elementwise, at `r`'s shape: the user reads `v` at its own index. A
      // movement op (a broadcast, a permute, another reshape) or a reduce
      // would read one value of `r` at several indices or in another order.
      bool stage = isa<StageOp>(user);
      if ((!stage && !isALU(user)) || user->getNumResults() != 1 ||
          getShape(user->getResult(0).getType()) != shape)
        return {};
      Value u = user->getResult(0);
      if (points.contains(u)) {
        // One kernel only: a second would compute the reduce again.
        if ((point && point != u) || user->hasAttr(kOptsAttrName))
          return {};
        point = u;
        continue;
      }
      if (stage)
        return {};
      if (seen.insert(u).second)
        work.push_back(u);
    }
  }
  if (!point)
    return {};
  // The epilogue's cost: the ALU ops of the point's kernel outside the
  // reduce (its side inputs' computations too).
  int64_t ops = 0;
  DenseSet<Value> visited;
  SmallVector<Value> stack{bodyOf(point)};
  while (!stack.empty()) {
    Value x = stack.pop_back_val();
    Operation *def = x.getDefiningOp();
    if (x == r.getResult() || !def || (x != point && points.contains(x)) ||
        !visited.insert(x).second)
      continue;
    if (isALU(def) && ++ops > kMaxEpilogueOps)
      return {};
    llvm::append_range(stack, def->getOperands());
  }
  return point;
}

void Kernelizer::fuseEpilogues(SmallVectorImpl<Value> &order, const DenseSet<Value> &rootSet) {
  // One reduce a kernel: the point's kernel stays a reduce with an
  // epilogue (the strategy's GEMM register tile, the accumulators' epilogue
  // after the reduce loop), not several reductions side by side.
  DenseSet<Value> fused, hosts;
  for (Value u : order) {
    auto r = u.getDefiningOp<ReduceOp>();
    if (!r)
      continue;
    SmallVector<std::pair<Value, Value>> folds;
    Value p = epilogueOf(r, rootSet, folds);
    if (!p || !hosts.insert(p).second)
      continue;
    fused.insert(u);
    // The reshape chains back to the reduce's shape, read as their source.
    for (auto [end, src] : folds)
      end.replaceAllUsesWith(src);
  }
  if (fused.empty())
    return;
  for (Value u : fused)
    points.erase(u);
  llvm::erase_if(order, [&](Value u) { return fused.contains(u); });
}

/// The most values one multi-output kernel stores (its launch binds them
/// and every buffer they read; a GPU kernel's parameters are bounded).
static constexpr size_t kMaxKernelOutputs = 48;

SmallVector<SmallVector<Value, 1>> Kernelizer::kernelsInOrder(ArrayRef<Value> order,
                                                             const DenseSet<Value> &rootSet) {
  // One kernel a point: `order` is already a dependency order.
  if (!multiOutput)
    return llvm::map_to_vector(order, [](Value u) { return SmallVector<Value, 1>{u}; });
  size_t n = order.size();
  DenseMap<Value, unsigned> indexOf;
  for (auto [i, u] : llvm::enumerate(order))
    indexOf[u] = i;
  // Each point's direct reads, and its ancestors.
  SmallVector<SmallVector<unsigned>> reads(n);
  SmallVector<llvm::BitVector> ancestors;
  SmallVector<bool> fusable(n, false);
  for (auto [i, u] : llvm::enumerate(order)) {
    bool reduces;
    for (Value p : pointsRead(u, reduces))
      reads[i].push_back(indexOf.at(p));
    llvm::BitVector &anc = ancestors.emplace_back(n);
    for (unsigned d : reads[i]) {
      anc |= ancestors[d];
      anc.set(d);
    }
    // A root computed elementwise (no reduce, no opts of its own) may share
    // its kernel with other roots of its shape.
    Operation *def = u.getDefiningOp();
    fusable[i] = rootSet.contains(u) && !reduces && !isa<StageOp, ReduceOp>(def) &&
                 !def->hasAttr(kOptsAttrName) && getNumElements(u.getType()) > 0;
  }
  // Groups: greedily, in dependency order, a fusable root joins the open
  // group of its shape unless a point outside the group lies between a
  // member and it (the group's kernel would then have to run both before
  // and after that point).
  SmallVector<int> groupOf(n, -1);
  SmallVector<SmallVector<unsigned, 1>> groups;
  SmallVector<llvm::BitVector> memberBits;
  std::map<SmallVector<int64_t>, int> open;
  for (unsigned i = 0; i < n; ++i) {
    int g = -1;
    SmallVector<int64_t> shape(getShape(order[i].getType()));
    if (fusable[i]) {
      auto it = open.find(shape);
      if (it != open.end() && groups[it->second].size() < kMaxKernelOutputs &&
          llvm::none_of(ancestors[i].set_bits(), [&](unsigned x) {
            return groupOf[x] != it->second && ancestors[x].anyCommon(memberBits[it->second]);
          }))
        g = it->second;
    }
    if (g < 0) {
      g = groups.size();
      groups.emplace_back();
      memberBits.emplace_back(n);
      if (fusable[i])
        open[shape] = g;
    }
    groups[g].push_back(i);
    memberBits[g].set(i);
    groupOf[i] = g;
  }
  // Kernels in an order that respects every read: depth first over the
  // groups' reads, in the points' order.
  SmallVector<SmallVector<Value, 1>> out;
  SmallVector<bool> emitted(groups.size(), false), entered(groups.size(), false);
  for (unsigned start = 0; start < n; ++start) {
    SmallVector<std::pair<int, bool>> stack{{groupOf[start], false}};
    while (!stack.empty()) {
      auto [g, done] = stack.pop_back_val();
      if (emitted[g])
        continue;
      if (done) {
        emitted[g] = true;
        SmallVector<Value, 1> &members = out.emplace_back();
        for (unsigned i : groups[g])
          members.push_back(order[i]);
        continue;
      }
      if (entered[g])
        continue;
      entered[g] = true;
      stack.push_back({g, true});
      for (unsigned i : llvm::reverse(groups[g]))
        for (unsigned d : llvm::reverse(reads[i]))
          if (groupOf[d] != g && !emitted[groupOf[d]])
            stack.push_back({groupOf[d], false});
    }
  }
  return out;
}

FlatSymbolRefAttr Kernelizer::outline(ArrayRef<Value> members, SmallVectorImpl<Value> &bound) {
  MLIRContext *ctx = func.getContext();
  Value u = members.front();
  SmallVector<Value> values;
  SmallVector<Type> types;
  for (Value m : members) {
    values.push_back(bodyOf(m));
    types.push_back(values.back().getType());
  }
  // Other points are leaves: the kernel reads them from their placeholder.
  DenseSet<Value> own(members.begin(), members.end());
  auto isLeaf = [&](Value v) { return !own.contains(v) && points.contains(v); };
  SmallVector<Value> order = toposort(values, isLeaf);

  OpBuilder b(ctx);
  auto kernel = func::FuncOp::create(b, func.getLoc(), "kernel", b.getFunctionType({}, types));
  kernel.setPrivate();
  kernel->setAttr(kKernelAttrName, UnitAttr::get(ctx));
  // A function-level #uop.opts overrides (hand experiments); else the
  // kernel keeps the opts its point was given (`uop.opts` on the op that
  // the kernel computes), and a strategy (uop-hand-opt, the search) chooses
  // for the rest, kernel by kernel.
  if (Attribute opts = func->getAttr(kOptsAttrName))
    kernel->setAttr(kOptsAttrName, opts);
  else if (Attribute own = u.getDefiningOp()->getAttr(kOptsAttrName))
    kernel->setAttr(kOptsAttrName, own);
  b.setInsertionPointToEnd(kernel.addEntryBlock());

  // Buffers are renumbered 0..n-1 in toposort order (output last, once
  // rangeified), so identical kernels are identical functions.
  IRMapping map;
  bool reduces = false;
  for (Value v : order) {
    Location loc = v.getLoc();
    auto local = [&]() { return b.getI64IntegerAttr(bound.size()); };
    if (isLeaf(v)) {
      int64_t n = std::max<int64_t>(1, getNumElements(v.getType()));
      Type flat = RankedTensorType::get({n}, getDType(v.getType()));
      Value ph = BufferOp::create(b, loc, flat, local());
      ArrayRef<int64_t> shape = getShape(v.getType());
      if (shape.size() != 1 || shape[0] != n)
        ph = ReshapeOp::create(b, loc, ph, b.getDenseI64ArrayAttr(shape));
      Value host = launched.lookup(v);
      if (host.getType() != flat) {
        OpBuilder hb(ret());
        host = ReshapeOp::create(hb, loc, host, hb.getDenseI64ArrayAttr({n}));
      }
      bound.push_back(host);
      map.map(v, ph);
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (map.contains(v) || !def)
      continue;
    if (auto buf = dyn_cast<BufferOp>(def)) {
      map.map(v, BufferOp::create(b, loc, buf.getType(), local()).getResult());
      bound.push_back(v);
      continue;
    }
    reduces |= isa<ReduceOp>(def);
    b.clone(*def, map);
  }
  for (Value &v : values)
    v = map.lookup(v);
  func::ReturnOp::create(b, func.getLoc(), values);

  // Identical kernels are emitted once (the seed renders identical C).
  std::string text;
  {
    llvm::raw_string_ostream os(text);
    kernel.print(os, OpPrintingFlags().useLocalScope());
  }
  if (auto it = bodies.find(text); it != bodies.end()) {
    kernel.erase();
    return it->second;
  }
  // The seed's names: r_ if the kernel reduces, else e_, then its shape.
  std::string name = reduces ? "r" : "e";
  ArrayRef<int64_t> shape = getShape(u.getType());
  if (shape.empty())
    name += "_1";
  for (int64_t s : shape)
    name += "_" + std::to_string(s);
  std::string unique = name;
  for (int k = 1; symbols.lookup(unique); ++k)
    unique = name + "__" + std::to_string(k);
  kernel.setSymName(unique);
  symbols.insert(kernel, Block::iterator(func));
  auto ref = FlatSymbolRefAttr::get(ctx, unique);
  bodies.try_emplace(text, ref);
  return ref;
}

LogicalResult Kernelizer::run() {
  stripDetach();
  // fuse-reduce asks for "never write the big intermediate": no staging either.
  if (!fuseReduce)
    stageBroadcastCompute();
  // The seed's HandOpt.layout: before the materialization points are chosen,
  // so that its stages are points. First (uop's own) the reduces' outputs
  // in the order their readers read them.
  if (layout) {
    mergeReducedAxes(func);
    permuteIntoReduces(func);
  }
  if (layout && failed(layoutProgram(func, panel)))
    return failure();

  SmallVector<Value> rs = roots();
  DenseSet<Value> rootSet(rs.begin(), rs.end());
  SmallVector<Value> order;
  for (Value u : toposort(rs, [](Value) { return false; })) {
    Operation *def = u.getDefiningOp();
    if (!def)
      continue;
    if (isa<StageOp>(def) || (isa<ReduceOp>(def) && !fuseReduce) ||
        (rootSet.contains(u) && !contiguousBuffer(u))) {
      points.insert(u);
      order.push_back(u);
    }
  }
  if (fuseEpilogue && !fuseReduce)
    fuseEpilogues(order, rootSet);
  // Kernels in dependency order, each a launch in the host.
  for (ArrayRef<Value> members : kernelsInOrder(order, rootSet)) {
    SmallVector<Value> bound;
    FlatSymbolRefAttr kernel = outline(members, bound);
    OpBuilder hb(ret());
    SmallVector<Type> types;
    for (Value m : members)
      types.push_back(m.getType());
    auto launch = LaunchOp::create(hb, members.front().getLoc(), types, kernel, bound);
    for (auto [m, r] : llvm::zip(members, launch.getResults()))
      launched[m] = r;
  }
  func::ReturnOp r = ret();
  for (OpOperand &operand : r->getOpOperands())
    if (Value l = launched.lookup(operand.get()))
      operand.set(l);
  // The shaped graph is now dead: only input buffers, reshapes and launches stay.
  Block &block = func.getBody().front();
  SmallVector<Operation *> ops;
  for (Operation &op : block.without_terminator())
    ops.push_back(&op);
  for (Operation *op : llvm::reverse(ops))
    if (op->use_empty())
      op->erase();
  func->setAttr(kHostAttrName, UnitAttr::get(func.getContext()));
  func->removeAttr(kOptsAttrName);
  return success();
}

struct UopKernelizePass : uop::impl::UopKernelizePassBase<UopKernelizePass> {
  using Base::Base;
  void runOnOperation() override {
    if (layoutPanel < -1) {
      emitError(getOperation().getLoc(), "uop-kernelize: layout-panel must be >= -1, got ")
          << static_cast<int64_t>(layoutPanel);
      return signalPassFailure();
    }
    // -1: B's panels as wide as the register tile uop-hand-opt (and the
    // search) give the target.
    int64_t panel = layoutPanel;
    if (panel == -1)
      panel = getTargetOrDefault(getOperation(), TargetKind::CPU).getTileLanes();
    if (failed(kernelizeModule(getOperation(),
                               {fuseReduce, layout, panel, multiOutput, fuseEpilogue})))
      signalPassFailure();
  }
};

} // namespace

/// Whether `func` is a shaped program (L1): one block returning values.
static bool isShapedProgram(func::FuncOp func) {
  if (func.isExternal() || !llvm::hasSingleElement(func.getBody()) || isHost(func) ||
      isKernel(func))
    return false;
  auto ret = dyn_cast<func::ReturnOp>(func.getBody().front().getTerminator());
  if (!ret || ret.getNumOperands() == 0)
    return false;
  return llvm::all_of(ret.getOperandTypes(), [](Type t) { return !isa<VoidType>(t); });
}

LogicalResult mlir::uop::kernelizeModule(ModuleOp module, const KernelizeOptions &options) {
  SymbolTable symbols(module);
  llvm::StringMap<FlatSymbolRefAttr> bodies;
  SmallVector<func::FuncOp> programs;
  for (auto func : module.getOps<func::FuncOp>())
    if (isShapedProgram(func))
      programs.push_back(func);
  for (func::FuncOp func : programs) {
    if (func.getNumArguments() != 0)
      return func.emitOpError("uop-kernelize: shaped programs read uop.buffer slots; "
                              "this function takes arguments");
    for (Value v : func.getBody().front().getTerminator()->getOperands())
      if (!v.getDefiningOp())
        return func.emitOpError("uop-kernelize: returns a block argument");
    if (failed(Kernelizer(func, options, symbols, bodies).run()))
      return failure();
  }
  return success();
}
