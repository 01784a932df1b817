//===- Linearize.cpp - kernel graph (L2) to scf loops (L3) -----*- C++ -*-===//
//
// The seed's `linearize` (uopc/linearize.py) and the lowering half of its
// `render_c`: the kernel DAG is scheduled into a list whose RANGE/END nodes
// open and close loops, and that list is emitted as scf/memref/arith/math.
//
// The scheduler (Schedule.h) is a port of the seed's list scheduler, step
// for step (same toposort, same scopes, same tie breaks), so a program
// lowers to the loop nest the seed would render.
//
//===----------------------------------------------------------------------===//

#include "LaneLegality.h"
#include "Lanes.h"
#include "RuntimeChecks.h"
#include "Schedule.h"

#include "Uop/Conversion/Passes.h"
#include "Uop/IR/UopOps.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlow/IntegerRangeAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseSet.h"

#include <map>

namespace mlir::uop {
#define GEN_PASS_DEF_UOPLINEARIZEPASS
#include "Uop/Conversion/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {

//===----------------------------------------------------------------------===//
// Emission (the lowering half of uopc/render_c.py)
//===----------------------------------------------------------------------===//

class Emitter {
public:
  Emitter(func::FuncOp func, Scheduler &sched, DataFlowSolver &solver, bool gpu, bool checks)
      : func(func), sched(sched), b(func.getContext()), gpu(gpu), checks(b, solver, checks) {}

  LogicalResult run();

private:
  LogicalResult emitOp(Operation *op);
  LogicalResult emitAlu(Operation *op);
  Value val(Operation *op, unsigned i) { return vals.lookup(srcOp(op, i)); }
  /// Vector lanes: the type of `t` across the lanes.
  VectorType laneType(Type t) { return VectorType::get({jamWidth}, t); }
  /// `v` across the lanes (a lane-invariant scalar is broadcast).
  Value lanesOf(Value v);
  /// The constant vector <0, s, 2s, ...> of i32 or index `t`.
  Value laneSteps(Type t, int64_t s);
  LogicalResult emitLoad(Operation *op);
  LogicalResult emitStore(Operation *op);
  /// Whether `op` sits inside the loop being unrolled and jammed.
  bool inJam(Operation *op) {
    if (!jam)
      return false;
    ArrayRef<Operation *> t = sched.getLoops(op);
    return llvm::is_contained(t, jam);
  }
  Operation *srcOp(Operation *op, unsigned i) { return op->getOperand(i).getDefiningOp(); }
  Value constIndex(int64_t v) { return arith::ConstantIndexOp::create(b, b.getUnknownLoc(), v); }
  /// Whether `v`, an i32, is provably >= 0 (the seed's `vmin(u) >= 0`).
  bool nonNegative(Value v);
  /// Whether `op`'s operand i is a constant > 0.
  bool positiveConst(Operation *op, unsigned i);
  void findReductions();
  void findAddressMath();
  void assignProcessors();

  func::FuncOp func;
  Scheduler &sched;
  OpBuilder b;
  /// The GPU path: GLOBAL/LOCAL ranges stay GPU-mapped parallel loops.
  bool gpu;
  /// Run-time checks of what the bounds analysis does not prove.
  RuntimeChecks checks;
  Block *entry = nullptr;
  /// GPU mode: the block/thread dimension of each GLOBAL/LOCAL range.
  DenseMap<Operation *, gpu::Processor> processors;

  Operation *jam = nullptr; // the range whose iterations are vector lanes
  int64_t jamWidth = 1;
  /// A memory access: memref and index (`index` typed). Inside the lanes,
  /// lane l reads `idx + l * stride` (a lane-invariant access has stride 0),
  /// or lane l of `lanes` where the index is not affine in the lane; a
  /// lane-private memref (an alloc inside the lanes) holds vectors, one
  /// lane per element, at a lane-invariant index.
  struct Ptr {
    Value mem, idx;
    int64_t stride = 0;
    Value lanes;
    bool priv = false;
  };
  /// Values of the emitted ops. Inside the lanes a lane-variant value is a
  /// vector<W x T>; a lane-invariant one stays a scalar.
  DenseMap<Operation *, Value> vals;
  DenseMap<Operation *, Value> mems;             // memrefs
  DenseMap<Operation *, Ptr> ptrs;               // memory accesses
  llvm::SmallPtrSet<Operation *, 8> privateMems; // lane-private allocs (and afters)
  /// Lane-variant i32 values affine in the lane: (lane 0's value, stride).
  DenseMap<Operation *, std::pair<Value, int64_t>> affine;
  DenseMap<Operation *, Operation *> memRoot;     // after/index -> buffer/alloc
  llvm::SmallPtrSet<Operation *, 8> reductions;   // float ops that accumulate
  llvm::SmallPtrSet<Operation *, 8> contracted;   // muls feeding them
  llvm::SmallPtrSet<Operation *, 16> addressMath; // i32 add/mul only feeding indices
  DenseMap<Operation *, int64_t> outerVectorize;  // range -> vector width
  struct Loop {
    Operation *range;
    Operation *loop;
    Block *body;
  };
  SmallVector<Loop> loops;
  DenseMap<Operation *, int64_t> bodySize;           // range -> ops scheduled inside it
  SmallVector<std::pair<Block *, Value>> heapAllocs; // freed at the block's end
};

/// The most ops in a loop body that LLVM's loop vectorizer is let at.
constexpr int64_t kMaxVectorizedBody = 2048;
/// The largest uop.alloc made on the stack (memref.alloca); larger ones are
/// memref.alloc and memref.dealloc.
constexpr int64_t kMaxStackAllocBytes = 64 * 1024;

bool Emitter::nonNegative(Value v) {
  auto r = checks.rangeOf(v);
  return r && r->first >= 0;
}

bool Emitter::positiveConst(Operation *op, unsigned i) {
  APInt c;
  return matchPattern(op->getOperand(i), m_ConstantInt(&c)) && c.isStrictlyPositive();
}

void Emitter::findReductions() {
  // A float add/max/mul stored into an alloc it also loads from (through the
  // same alloc) is an accumulation: it may be reassociated.
  for (Operation *op : sched.getOrder()) {
    auto store = dyn_cast<StoreOp>(op);
    if (!store)
      continue;
    Operation *mem = rootMemory(store.getPtr().getDefiningOp());
    if (!mem || !isa<AllocOp>(mem))
      continue;
    Operation *v = store.getValue().getDefiningOp();
    if (!v || !isa<AddOp, MaxOp, MulOp>(v) || !isFloatDType(store.getValue().getType()))
      continue;
    bool accumulates = llvm::any_of(v->getOperands(), [&](Value x) {
      auto load = x.getDefiningOp<LoadOp>();
      return load && rootMemory(load.getPtr().getDefiningOp()) == mem;
    });
    if (!accumulates)
      continue;
    reductions.insert(v);
    if (isa<AddOp>(v))
      for (Value x : v->getOperands())
        if (auto mul = x.getDefiningOp<MulOp>())
          contracted.insert(mul);
  }
}

/// Integer adds and muls whose every use is (through other such ops) the index
/// of a memory access. Their overflow would address out of bounds anyway, so
/// they are `nsw`, as C's int arithmetic is: that keeps LLVM's view of the
/// addresses affine (vectorization, strength reduction). Every other i32 op
/// wraps, as the seed's semantics say.
void Emitter::findAddressMath() {
  ArrayRef<Operation *> order = sched.getOrder();
  for (Operation *op : llvm::reverse(order)) {
    if (!isa<AddOp, MulOp>(op) || !op->getResult(0).getType().isInteger(32))
      continue;
    bool onlyAddresses = !op->getResult(0).use_empty();
    for (OpOperand &use : op->getResult(0).getUses()) {
      Operation *user = use.getOwner();
      bool isIndex = isa<IndexOp>(user) && use.getOperandNumber() > 0 &&
                     isMemory(user->getOperand(0).getType());
      if (!isIndex && !addressMath.contains(user))
        onlyAddresses = false;
    }
    if (onlyAddresses)
      addressMath.insert(op);
  }
}

/// The seed's CUDARenderer: per kind, the GPU ranges sorted by idx, highest
/// first (the fastest-varying axis), get x, y, z; a fourth is sequential,
/// which uop-to-gpu rejects (CUDA has 3 grid and 3 block dimensions).
void Emitter::assignProcessors() {
  SmallVector<std::pair<int64_t, RangeOp>> ranges;
  for (Operation *op : sched.getOrder())
    if (auto r = dyn_cast<RangeOp>(op))
      if (r.getKind() == AxisKind::Global || r.getKind() == AxisKind::Local)
        ranges.push_back({r.getIdxAttr().getInt(), r});
  llvm::stable_sort(ranges, [](const auto &a, const auto &b) { return a.first > b.first; });
  unsigned numGlobal = 0, numLocal = 0;
  for (auto &[idx, r] : ranges) {
    bool global = r.getKind() == AxisKind::Global;
    unsigned &n = global ? numGlobal : numLocal;
    unsigned base =
        static_cast<unsigned>(global ? gpu::Processor::BlockX : gpu::Processor::ThreadX);
    processors[r] = n < 3 ? static_cast<gpu::Processor>(base + n) : gpu::Processor::Sequential;
    ++n;
  }
}

LogicalResult Emitter::run() {
  MLIRContext *ctx = func.getContext();
  // Buffers become arguments in slot order; one argument per slot.
  std::map<int64_t, BufferOp> slots;
  for (Operation *op : sched.getOrder()) {
    auto buf = dyn_cast<BufferOp>(op);
    if (!buf)
      continue;
    if (!isa<MemRefType>(buf.getType()))
      return buf.emitOpError("uop-linearize: expects a kernel graph (L2), but this "
                             "buffer is a tensor value (run uop-rangeify first)");
    auto [it, inserted] = slots.insert({buf.getSlotAttr().getInt(), buf});
    if (!inserted && it->second.getType() != buf.getType())
      return buf.emitOpError("slot ")
             << it->first << " is also a buffer of type " << it->second.getType();
  }
  SmallVector<Type> argTypes;
  SmallVector<int64_t> slotList;
  DenseMap<int64_t, unsigned> argOf;
  for (auto &[slot, buf] : slots) {
    auto t = cast<MemRefType>(buf.getType());
    argOf[slot] = argTypes.size();
    // A buffer of no elements is passed one (as the host plan allocates
    // it); its checks still use its declared size.
    argTypes.push_back(
        MemRefType::get({std::max<int64_t>(1, t.getNumElements())}, t.getElementType()));
    slotList.push_back(slot);
  }

  findReductions();
  findAddressMath();
  if (gpu) {
    assignProcessors(); // (the jam is for the CPU's SLP vectorizer)
  } else {
    int64_t lanes = 1;
    if (auto opts = func->getAttrOfType<OptsAttr>(kOptsAttrName))
      lanes = opts.getVector();
    outerVectorize = findOuterVectorization(
        sched.getOrder(), [&](Operation *op) { return sched.getLoops(op); }, lanes);
  }
  for (Operation *op : sched.getOrder())
    for (Operation *r : sched.getLoops(op))
      ++bodySize[r];

  // A fresh body; the old one is dropped at the end.
  Region &region = func.getBody();
  Block *oldEntry = &region.front();
  entry = new Block();
  region.getBlocks().insert(region.begin(), entry);
  for (Type t : argTypes)
    entry->addArgument(t, func.getLoc());
  checks.addRecord(entry, func.getLoc());
  b.setInsertionPointToStart(entry);
  auto ret = func::ReturnOp::create(b, func.getLoc());
  b.setInsertionPoint(ret);

  for (Operation *op : sched.getOrder()) {
    if (auto buf = dyn_cast<BufferOp>(op)) {
      mems[op] = entry->getArgument(argOf[buf.getSlotAttr().getInt()]);
      continue;
    }
    if (failed(emitOp(op)))
      return failure();
  }
  for (auto [block, mem] : heapAllocs) {
    b.setInsertionPoint(block->getTerminator());
    memref::DeallocOp::create(b, mem.getLoc(), mem);
  }

  // Drop the graph.
  oldEntry->dropAllDefinedValueUses();
  oldEntry->dropAllReferences();
  oldEntry->erase();
  checks.finish(func, entry, argTypes);
  func.setType(FunctionType::get(ctx, argTypes, {}));
  func->setAttr(kSlotsAttrName, b.getDenseI64ArrayAttr(slotList));
  func->setAttr(kKernelAttrName, UnitAttr::get(ctx));
  return success();
}

LogicalResult Emitter::emitOp(Operation *op) {
  Location loc = op->getLoc();
  b.setInsertionPoint(loops.empty() ? entry->getTerminator() : loops.back().body->getTerminator());

  if (auto c = dyn_cast<ConstOp>(op)) {
    if (isa<ShapedType>(c.getType()))
      return op->emitOpError("uop-linearize: expects scalar constants in a "
                             "kernel graph, got ")
             << c.getType();
    vals[op] = arith::ConstantOp::create(b, loc, cast<TypedAttr>(c.getValue()));
    return success();
  }
  if (auto alloc = dyn_cast<AllocOp>(op)) {
    auto t = cast<MemRefType>(alloc.getType());
    // Allocas go to the function entry (so LLVM promotes them to registers),
    // or to the top of the innermost parallel body (one per thread).
    OpBuilder::InsertionGuard guard(b);
    Block *home = entry;
    for (const Loop &l : loops)
      if (isa<scf::ParallelOp>(l.loop))
        home = l.body;
    Attribute space;
    if (getAddressSpace(t) == AddressSpace::Shared) {
      home = entry;
      // Workgroup memory on the GPU path (uop-to-gpu makes it an attribution).
      if (gpu)
        space = gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
    }
    b.setInsertionPointToStart(home);
    // Inside vector lanes every lane has its own copy: one vector per element.
    // An alloc of no elements gets one, so that a (checked) access is safe.
    bool priv = inJam(op);
    Type elem = priv ? Type(laneType(t.getElementType())) : t.getElementType();
    auto type = MemRefType::get({std::max<int64_t>(1, t.getNumElements())}, elem,
                                MemRefLayoutAttrInterface(), space);
    if (priv)
      privateMems.insert(op);
    // A large one (the stack is a few MiB, an OpenMP worker's less) is on
    // the heap, freed at the end of the same block (once it is emitted). On
    // the GPU, shared memory is workgroup memory and locals are registers.
    int64_t bytes = type.getNumElements() * (priv ? jamWidth : 1) *
                    std::max<int64_t>(1, t.getElementTypeBitWidth() / 8);
    if (!gpu && bytes > kMaxStackAllocBytes) {
      Value mem = memref::AllocOp::create(b, loc, type);
      heapAllocs.push_back({home, mem});
      mems[op] = mem;
      return success();
    }
    mems[op] = memref::AllocaOp::create(b, loc, type);
    return success();
  }
  if (auto after = dyn_cast<AfterOp>(op)) {
    Operation *src = srcOp(op, 0);
    if (mems.count(src)) {
      mems[op] = mems.lookup(src);
      if (privateMems.contains(src))
        privateMems.insert(op);
    } else if (ptrs.count(src)) {
      ptrs[op] = ptrs.lookup(src);
    } else {
      vals[op] = vals.lookup(src);
      if (affine.count(src))
        affine[op] = affine.lookup(src);
    }
    return success();
  }
  if (auto index = dyn_cast<IndexOp>(op)) {
    Operation *src = srcOp(op, 0);
    if (!mems.count(src))
      return op->emitOpError("uop-linearize: expects an index of memory (L2); "
                             "value indexing is lowered by uop-rangeify");
    Ptr p;
    p.mem = mems.lookup(src);
    p.priv = privateMems.contains(src);
    if (index.getIndices().empty()) {
      mems[op] = p.mem;
      if (p.priv)
        privateMems.insert(op);
      return success();
    }
    if (index.getIndices().size() != 1)
      return op->emitOpError("uop-linearize: only flat (1-D) memory is supported");
    Value i = val(op, 1);
    auto aff = affine.find(srcOp(op, 1));
    // Lane 0's index of an access affine in the lanes (strided loads/stores).
    Value base = aff != affine.end() ? aff->second.first : Value();
    int64_t stride = aff != affine.end() ? aff->second.second : 0;
    checks.checkIndex(index, i, base, stride, jamWidth);
    if (base) {
      p.idx = arith::IndexCastOp::create(b, loc, b.getIndexType(), base);
      p.stride = stride;
    } else if (isa<VectorType>(i.getType())) {
      p.lanes = arith::IndexCastOp::create(b, loc, laneType(b.getIndexType()), i);
    } else {
      p.idx = arith::IndexCastOp::create(b, loc, b.getIndexType(), i);
    }
    if (p.priv && (p.lanes || p.stride))
      return op->emitOpError("uop-linearize: a lane-private alloc indexed differently per lane");
    ptrs[op] = p;
    return success();
  }
  if (isa<LoadOp>(op))
    return emitLoad(op);
  if (isa<StoreOp>(op))
    return emitStore(op);
  if (auto range = dyn_cast<RangeOp>(op)) {
    Operation *loop;
    Block *body;
    bool gpuRange =
        gpu && (range.getKind() == AxisKind::Global || range.getKind() == AxisKind::Local);
    if (gpuRange) {
      // A block or thread id: a parallel loop mapped as gpu-map-parallel-loops
      // would map it, for uop-to-gpu.
      std::optional<int64_t> c = getConstantIntValue(range.getEnd());
      Value end = c ? constIndex(*c)
                    : arith::IndexCastOp::create(b, loc, b.getIndexType(), val(op, 0)).getResult();
      auto par = scf::ParallelOp::create(b, loc, ValueRange{constIndex(0)}, ValueRange{end},
                                         ValueRange{constIndex(1)});
      MLIRContext *ctx = b.getContext();
      AffineMap id = b.getDimIdentityMap();
      par->setAttr(kMappingAttrName, b.getArrayAttr({gpu::ParallelLoopDimMappingAttr::get(
                                         ctx, processors.lookup(op), id, id)}));
      par->setAttr(kAxisAttrName, range.getKindAttr());
      loop = par;
      body = par.getBody();
      b.setInsertionPointToStart(body);
      vals[op] = arith::IndexCastOp::create(b, loc, b.getI32Type(), par.getInductionVars()[0]);
    } else if (range.getKind() == AxisKind::Thread && !gpu) {
      // scf.parallel counts in index.
      Value end = arith::IndexCastOp::create(b, loc, b.getIndexType(), val(op, 0));
      auto par = scf::ParallelOp::create(b, loc, ValueRange{constIndex(0)}, ValueRange{end},
                                         ValueRange{constIndex(1)});
      loop = par;
      body = par.getBody();
      b.setInsertionPointToStart(body);
      vals[op] = arith::IndexCastOp::create(b, loc, b.getI32Type(), par.getInductionVars()[0]);
    } else {
      // A serial loop counts in i32, like the seed's `for (int ridx = 0; ...)`.
      Value zero = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
      Value one = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 1);
      int64_t width = jam ? 0 : outerVectorize.lookup(op);
      Value end = val(op, 0);
      if (width > 1) {
        // Unrolled and jammed: jj counts groups of `width` lanes.
        end = arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                           *getConstantIntValue(range.getEnd()) / width);
      }
      auto f = scf::ForOp::create(b, loc, zero, end, one);
      // LLVM's loop vectorizer takes time quadratic in the length of a
      // dependence chain in the body (measured on the dev VM, x*a+b chains:
      // 1000 ops 0.13 s, 4000 ops 2 s, 20000 ops 73 s): a longer body is not
      // vectorized.
      if (jam || bodySize.lookup(op) > kMaxVectorizedBody) {
        // The lanes are the vector: keep LLVM's loop vectorizer off the
        // inner loop (it would reorder the lanes' reductions).
        MLIRContext *ctx = b.getContext();
        auto noVec = LLVM::LoopVectorizeAttr::get(ctx, b.getBoolAttr(true), {}, {}, {}, {}, {}, {});
        f->setAttr("llvm.loop_annotation",
                   LLVM::LoopAnnotationAttr::get(ctx, {}, noVec, {}, {}, {}, {}, {}, {}, {}, {}, {},
                                                 {}, {}, {}, {}));
      }
      b.setInsertionPointToStart(f.getBody());
      if (width > 1) {
        // Lane l of iteration jj is jj * width + l.
        jam = op;
        jamWidth = width;
        Value w = arith::ConstantIntOp::create(b, loc, b.getI32Type(), width);
        Value base =
            arith::MulIOp::create(b, loc, f.getInductionVar(), w, arith::IntegerOverflowFlags::nsw);
        vals[op] = arith::AddIOp::create(b, loc, lanesOf(base), laneSteps(b.getI32Type(), 1),
                                         arith::IntegerOverflowFlags::nsw);
        affine[op] = {base, 1};
      } else {
        vals[op] = f.getInductionVar();
      }
      loop = f;
      body = f.getBody();
    }
    loops.push_back({op, loop, body});
    return success();
  }
  if (auto end = dyn_cast<EndOp>(op)) {
    // The scheduler emits an END exactly when its ranges are the innermost
    // open loops.
    size_t k = std::min<size_t>(end.getRanges().size(), loops.size());
    for (size_t i = loops.size() - k; i < loops.size(); ++i)
      if (loops[i].range == jam)
        jam = nullptr, jamWidth = 1;
    loops.resize(loops.size() - k);
    return success();
  }
  if (isa<SinkOp>(op))
    return success();
  if (isa<BarrierOp>(op) && gpu) {
    gpu::BarrierOp::create(b, loc);
    return success();
  }
  if (isa<BarrierOp>(op))
    return op->emitOpError("uop-linearize: barriers need the GPU path (uop-to-gpu)");
  if (isa<WmmaOp>(op))
    return op->emitOpError("uop-linearize: wmma needs the GPU path (uop-to-gpu)");
  if (isa<ReshapeOp, ExpandOp, PermuteOp, ShrinkOp, ReduceOp, StageOp, StackOp>(op))
    return op->emitOpError("uop-linearize: expects a kernel graph (L2); shaped "
                           "ops are lowered by uop-rangeify");
  if (isa<CallOp>(op))
    return op->emitOpError("uop-linearize: inline calls first (uop-inline-calls)");
  if (isa<ParamOp>(op))
    return op->emitOpError("uop-linearize: kernels take buffers, not params");
  if (op->getNumResults() == 1 && isa<ShapedType>(op->getResult(0).getType()))
    return op->emitOpError("uop-linearize: expects scalar values in a kernel graph, got ")
           << op->getResult(0).getType();
  return emitAlu(op);
}

LogicalResult Emitter::emitAlu(Operation *op) {
  Location loc = op->getLoc();
  for (unsigned i = 0; i < op->getNumOperands(); ++i)
    if (!val(op, i))
      return op->emitOpError("uop-linearize: operand ") << i << " is not a value";
  Type type = op->getResult(0).getType();
  Type in = op->getNumOperands() ? op->getOperand(0).getType() : type;
  bool isFloat = isFloatDType(in);
  bool isBool = in.isInteger(1);
  auto fm = [&](bool fast) {
    // reassoc, for LLVM to vectorize the accumulation, but not nsz: with
    // both, InstCombine also factors sum(c * b[j]) into c * sum(b[j]), which
    // turns the NaN of inf * b[0] + inf * -b[1] into -inf (found by
    // scripts/fuzz-diff.sh; test/Integration/CPU/reduce-no-factoring.uir).
    return arith::FastMathFlagsAttr::get(b.getContext(), fast ? arith::FastMathFlags::reassoc |
                                                                    arith::FastMathFlags::contract
                                                              : arith::FastMathFlags::none);
  };
  bool fast = reductions.contains(op);
  // Inside vector lanes an op of a lane-variant operand is a vector op (its
  // lane-invariant operands broadcast); a lane-invariant one stays scalar.
  bool vec = inJam(op) && llvm::any_of(op->getOperands(), [&](Value v) {
               return isa<VectorType>(vals.lookup(v.getDefiningOp()).getType());
             });
  SmallVector<Value, 3> xs;
  for (unsigned i = 0; i < op->getNumOperands(); ++i)
    xs.push_back(vec ? lanesOf(val(op, i)) : val(op, i));
  Value x = xs.size() > 0 ? xs[0] : Value();
  Value y = xs.size() > 1 ? xs[1] : Value();
  auto shaped = [&](Type t) -> Type { return vec ? Type(laneType(t)) : t; };
  Value r;

  if (isa<AddOp>(op)) {
    if (isFloat)
      r = arith::AddFOp::create(b, loc, x, y, fm(fast));
    else if (isBool)
      r = arith::OrIOp::create(b, loc, x, y); // C: (_Bool)(a + b)
    else
      r = arith::AddIOp::create(b, loc, x, y,
                                addressMath.contains(op) ? arith::IntegerOverflowFlags::nsw
                                                         : arith::IntegerOverflowFlags::none);
  } else if (isa<MulOp>(op)) {
    if (isFloat) {
      auto flags =
          fast ? fm(true)
               : arith::FastMathFlagsAttr::get(b.getContext(), contracted.contains(op)
                                                                   ? arith::FastMathFlags::contract
                                                                   : arith::FastMathFlags::none);
      r = arith::MulFOp::create(b, loc, x, y, flags);
    } else if (isBool)
      r = arith::AndIOp::create(b, loc, x, y);
    else
      r = arith::MulIOp::create(b, loc, x, y,
                                addressMath.contains(op) ? arith::IntegerOverflowFlags::nsw
                                                         : arith::IntegerOverflowFlags::none);
  } else if (isa<MaxOp>(op)) {
    // C's ((a>b)?a:b): with a NaN, the result is b.
    Value gt =
        isFloat ? arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, y).getResult()
                : arith::CmpIOp::create(
                      b, loc, isBool ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt, x, y)
                      .getResult();
    r = arith::SelectOp::create(b, loc, gt, x, y);
  } else if (isa<CmpLtOp>(op)) {
    r = isFloat ? arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, y).getResult()
                : arith::CmpIOp::create(
                      b, loc, isBool ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt, x, y)
                      .getResult();
  } else if (isa<CmpNeOp>(op)) {
    r = isFloat ? arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, x, y).getResult()
                : arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x, y).getResult();
  } else if (isa<FloorDivOp, FloorModOp>(op)) {
    // C division truncates; it equals floor division when both sides are
    // non-negative (render_c's rule: vmin(a) >= 0 and b a positive constant).
    bool plain = nonNegative(op->getOperand(0)) && positiveConst(op, 1);
    if (!isFloat && !plain)
      y = checks.checkDivisor(op, x, y);
    if (isa<FloorDivOp>(op)) {
      r = plain ? arith::DivSIOp::create(b, loc, x, y).getResult()
                : arith::FloorDivSIOp::create(b, loc, x, y).getResult();
    } else if (plain) {
      r = arith::RemSIOp::create(b, loc, x, y);
    } else {
      // floormod_i32: r = a % b; (r != 0 && (r < 0) != (b < 0)) ? r + b : r
      Value rem = arith::RemSIOp::create(b, loc, x, y);
      Value zero = constLike(b, x, b.getIntegerAttr(in, 0));
      Value nz = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, rem, zero);
      Value rneg = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, rem, zero);
      Value bneg = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, y, zero);
      Value diff = arith::XOrIOp::create(b, loc, rneg, bneg);
      Value fix = arith::AndIOp::create(b, loc, nz, diff);
      Value sum = arith::AddIOp::create(b, loc, rem, y);
      r = arith::SelectOp::create(b, loc, fix, sum, rem);
    }
  } else if (isa<WhereOp>(op)) {
    r = arith::SelectOp::create(b, loc, x, y, xs[2]);
  } else if (auto cast = dyn_cast<CastOp>(op)) {
    Type to = cast.getDtype();
    Type from = in;
    if (from == to) {
      r = x;
    } else if (to.isInteger(1)) {
      // (_Bool)x is x != 0 (a NaN is true).
      if (isFloatDType(from)) {
        Value zero = constLike(b, x, b.getFloatAttr(from, 0.0));
        r = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, x, zero);
      } else {
        Value zero = constLike(b, x, b.getIntegerAttr(from, 0));
        r = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x, zero);
      }
    } else if (isFloatDType(to)) {
      if (isFloatDType(from))
        r = to.getIntOrFloatBitWidth() > from.getIntOrFloatBitWidth()
                ? arith::ExtFOp::create(b, loc, shaped(to), x).getResult()
                : arith::TruncFOp::create(b, loc, shaped(to), x).getResult();
      else if (from.isInteger(1))
        r = arith::UIToFPOp::create(b, loc, shaped(to), x);
      else
        r = arith::SIToFPOp::create(b, loc, shaped(to), x);
    } else { // to i32
      if (isFloatDType(from))
        r = arith::FPToSIOp::create(b, loc, shaped(to), x); // C truncation toward zero
      else
        r = arith::ExtUIOp::create(b, loc, shaped(to), x); // bool -> 0/1
    }
  } else if (isa<RecipOp>(op)) {
    Value one = constLike(b, x, b.getFloatAttr(in, 1.0));
    r = arith::DivFOp::create(b, loc, one, x);
  } else if (isa<Exp2Op>(op)) {
    r = math::Exp2Op::create(b, loc, x);
  } else if (isa<Log2Op>(op)) {
    r = math::Log2Op::create(b, loc, x);
  } else if (isa<SqrtOp>(op)) {
    r = math::SqrtOp::create(b, loc, x);
  } else if (isa<SinOp>(op)) {
    r = math::SinOp::create(b, loc, x);
  } else {
    return op->emitOpError("uop-linearize: no lowering for this op");
  }
  vals[op] = r;
  // A lane-variant i32 affine in the lane keeps its lane-0 value and stride,
  // so that memory it indexes is read with vector loads.
  if (vec && !isFloat && !isBool && isa<AddOp, MulOp>(op)) {
    auto form = [&](unsigned i) -> std::optional<std::pair<Value, int64_t>> {
      auto it = affine.find(srcOp(op, i));
      if (it != affine.end())
        return it->second;
      Value v = val(op, i);
      if (isa<VectorType>(v.getType()))
        return std::nullopt;
      return std::pair<Value, int64_t>{v, 0};
    };
    auto fx = form(0), fy = form(1);
    auto flags = addressMath.contains(op) ? arith::IntegerOverflowFlags::nsw
                                          : arith::IntegerOverflowFlags::none;
    if (fx && fy && isa<AddOp>(op)) {
      affine[op] = {arith::AddIOp::create(b, loc, fx->first, fy->first, flags),
                    fx->second + fy->second};
    } else if (fx && fy && isa<MulOp>(op)) {
      APInt c;
      for (auto [f, g] : {std::pair{fx, fy}, std::pair{fy, fx}})
        if (g->second == 0 && matchPattern(g->first, m_ConstantInt(&c))) {
          affine[op] = {arith::MulIOp::create(b, loc, f->first, g->first, flags),
                        f->second * c.getSExtValue()};
          break;
        }
    }
  }
  return success();
}

Value Emitter::lanesOf(Value v) { return mlir::uop::lanesOf(b, v, jamWidth); }

Value Emitter::laneSteps(Type t, int64_t s) {
  SmallVector<int32_t> steps;
  for (int64_t l = 0; l < jamWidth; ++l)
    steps.push_back(static_cast<int32_t>(l * s));
  return arith::ConstantOp::create(b, b.getUnknownLoc(),
                                   DenseElementsAttr::get(laneType(t), ArrayRef(steps)));
}

/// Lane l's index of a lane-variant access.
static Value laneIndex(OpBuilder &b, Location loc, Value idx, int64_t stride, Value lanes,
                       int64_t l) {
  if (lanes)
    return vector::ExtractOp::create(b, loc, lanes, ArrayRef<int64_t>{l});
  return arith::AddIOp::create(b, loc, idx,
                               arith::ConstantIndexOp::create(b, loc, l * stride).getResult());
}

LogicalResult Emitter::emitLoad(Operation *op) {
  Location loc = op->getLoc();
  if (!ptrs.count(srcOp(op, 0)))
    return op->emitOpError("uop-linearize: load of a whole memref is not supported");
  Ptr p = ptrs.lookup(srcOp(op, 0));
  // The same element in every lane (or the lane's own, in a lane-private
  // memref of vectors): one load.
  if (p.priv || (!p.lanes && p.stride == 0)) {
    vals[op] = memref::LoadOp::create(b, loc, p.mem, p.idx);
    return success();
  }
  Type elem = cast<MemRefType>(p.mem.getType()).getElementType();
  if (!p.lanes && p.stride == 1 && !elem.isInteger(1)) {
    vals[op] = vector::LoadOp::create(b, loc, laneType(elem), p.mem, ValueRange{p.idx});
    return success();
  }
  SmallVector<Value> elems;
  for (int64_t l = 0; l < jamWidth; ++l)
    elems.push_back(
        memref::LoadOp::create(b, loc, p.mem, laneIndex(b, loc, p.idx, p.stride, p.lanes, l)));
  vals[op] = vector::FromElementsOp::create(b, loc, laneType(elem), elems);
  return success();
}

LogicalResult Emitter::emitStore(Operation *op) {
  Location loc = op->getLoc();
  if (!ptrs.count(srcOp(op, 0)))
    return op->emitOpError("uop-linearize: store to a whole memref is not supported");
  Ptr p = ptrs.lookup(srcOp(op, 0));
  Value v = val(op, 1);
  if (!v || (isa<ShapedType>(v.getType()) && !inJam(op)))
    return op->emitOpError("uop-linearize: stores a scalar");
  if (p.priv) {
    memref::StoreOp::create(b, loc, lanesOf(v), p.mem, p.idx);
    return success();
  }
  Type elem = cast<MemRefType>(p.mem.getType()).getElementType();
  if (!p.lanes && p.stride == 0) {
    // Every lane stores to the same element: the last lane's value stays.
    memref::StoreOp::create(b, loc, laneOf(b, loc, v, jamWidth - 1), p.mem, p.idx);
    return success();
  }
  if (!p.lanes && p.stride == 1 && !elem.isInteger(1)) {
    vector::StoreOp::create(b, loc, lanesOf(v), p.mem, ValueRange{p.idx});
    return success();
  }
  // Lane after lane, as the loop's iterations would.
  for (int64_t l = 0; l < jamWidth; ++l) {
    memref::StoreOp::create(b, loc, laneOf(b, loc, v, l), p.mem,
                            laneIndex(b, loc, p.idx, p.stride, p.lanes, l));
  }
  return success();
}

struct UopLinearizePass : mlir::uop::impl::UopLinearizePassBase<UopLinearizePass> {
  using Base::Base;
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    bool asGpu =
        gpu || (emulateBarriers &&
                func.walk([](BarrierOp) { return WalkResult::interrupt(); }).wasInterrupted());
    if (failed(linearizeKernel(func, asGpu, checks)))
      signalPassFailure();
  }
};

} // namespace

LogicalResult mlir::uop::linearizeKernel(func::FuncOp func, bool gpu, bool checks) {
  if (func.isExternal() || !llvm::hasSingleElement(func.getBody()))
    return success();
  Block &body = func.getBody().front();
  auto ret = dyn_cast<func::ReturnOp>(body.getTerminator());
  // Only kernel graphs: a function returning the effect of a uop.sink.
  if (!ret || ret.getNumOperands() != 1)
    return success();
  auto sink = ret.getOperand(0).getDefiningOp<SinkOp>();
  if (!sink) {
    // A shaped program (L1) is left as it is, and said so: it needs
    // uop-rangeify first. (A kernelized program's host is uop-lower-host's.)
    if (!isHost(func) && !isa<VoidType>(ret.getOperand(0).getType()))
      emitWarning(func.getLoc(), "uop-linearize: @")
          << func.getSymName()
          << " is a shaped program (L1), not a kernel graph; run uop-rangeify first "
             "(nothing to linearize)";
    return success();
  }
  if (func.getNumArguments() != 0)
    return func.emitOpError("uop-linearize: a kernel graph takes no arguments "
                            "(its inputs are uop.buffer slots)");

  Scheduler sched(sink);
  if (failed(sched.run()))
    return failure();

  // Bounds for the floordiv/floormod fast path, computed on the uop graph.
  DataFlowSolver solver;
  solver.load<dataflow::DeadCodeAnalysis>();
  solver.load<dataflow::SparseConstantPropagation>();
  solver.load<dataflow::IntegerRangeAnalysis>();
  if (failed(solver.initializeAndRun(func)))
    return func.emitOpError("uop-linearize: bounds analysis failed");

  Emitter emitter(func, sched, solver, gpu, checks);
  return emitter.run();
}
