//===- Kernelize.cpp - fusion and fission into kernels ---------*- C++ -*-===//
//
// The seed's `kernelize.make_plan` (uopc/kernelize.py). Rangeify can lower
// any shaped graph into one loop nest, but a REDUCE consumed through an
// EXPAND would then be recomputed for every element it is broadcast to. So
// the graph is cut at materialization points -- every root, every STAGE,
// every REDUCE unless fuse-reduce is asked -- and everything between two
// points is fused into one kernel that writes exactly one buffer.
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
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

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
  Kernelizer(func::FuncOp func, bool fuseReduce, bool layout, int64_t panel, SymbolTable &symbols,
             llvm::StringMap<FlatSymbolRefAttr> &bodies)
      : func(func), fuseReduce(fuseReduce), layout(layout), panel(panel), symbols(symbols),
        bodies(bodies) {}

  LogicalResult run();

private:
  func::ReturnOp ret() { return cast<func::ReturnOp>(func.getBody().front().getTerminator()); }
  SmallVector<Value> roots() { return llvm::to_vector(ret().getOperands()); }
  void stripDetach();
  void stageBroadcastCompute(int64_t factor = 4);
  /// Outlines the kernel of point `u`; returns its symbol and the host values
  /// bound to its local buffer slots, in slot order.
  FlatSymbolRefAttr outline(Value u, SmallVectorImpl<Value> &bound);

  func::FuncOp func;
  bool fuseReduce, layout;
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

FlatSymbolRefAttr Kernelizer::outline(Value u, SmallVectorImpl<Value> &bound) {
  MLIRContext *ctx = func.getContext();
  Value body = u;
  if (auto st = u.getDefiningOp<StageOp>())
    body = st.getSrc();
  // Other points are leaves: the kernel reads them from their placeholder.
  auto isLeaf = [&](Value v) { return v != u && points.contains(v); };
  SmallVector<Value> order = toposort({body}, isLeaf);

  OpBuilder b(ctx);
  auto kernel =
      func::FuncOp::create(b, func.getLoc(), "kernel", b.getFunctionType({}, {body.getType()}));
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
  func::ReturnOp::create(b, func.getLoc(), map.lookup(body));

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
  // Kernels in dependency order, each a launch in the host.
  for (Value u : order) {
    SmallVector<Value> bound;
    FlatSymbolRefAttr kernel = outline(u, bound);
    OpBuilder hb(ret());
    launched[u] = LaunchOp::create(hb, u.getLoc(), u.getType(), kernel, bound).getResult();
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
    if (failed(kernelizeModule(getOperation(), fuseReduce, layout, panel)))
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

LogicalResult mlir::uop::kernelizeModule(ModuleOp module, bool fuseReduce, bool layout,
                                         int64_t panel) {
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
    if (failed(Kernelizer(func, fuseReduce, layout, panel, symbols, bodies).run()))
      return failure();
  }
  return success();
}
