//===- LanesToLoops.cpp - vector lanes as loops over the lanes --*- C++ -*-===//
//
// uop-lanes-to-loops: the vector lanes of a linearized kernel become scalar
// loops over the lanes, for the C path, which has no vector types. A run of
// lane-wise vector ops is one loop whose body is the run's ops on one lane;
// a vector value that leaves its run lives in a memref<W x T>. See
// Passes.td.
//
//===----------------------------------------------------------------------===//

#include "Uop/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPLANESTOLOOPSPASS
#include "Uop/Codegen/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;

namespace {

/// The lanes of `type` if it is a vector this pass can take apart (1-D,
/// fixed), else 0.
int64_t lanesOf(Type type) {
  auto vt = dyn_cast<VectorType>(type);
  if (!vt || vt.getRank() != 1 || vt.isScalable())
    return 0;
  return vt.getNumElements();
}

/// Whether `op` has a vector operand or result.
bool touchesVectors(Operation *op) {
  auto isVector = [](Type t) { return isa<VectorType>(t); };
  return llvm::any_of(op->getOperandTypes(), isVector) ||
         llvm::any_of(op->getResultTypes(), isVector);
}

/// The splat value of a vector constant, or null.
TypedAttr splatOf(Value v) {
  DenseElementsAttr dense;
  if (!matchPattern(v, m_Constant(&dense)) || !dense.isSplat())
    return {};
  return dyn_cast<TypedAttr>(dense.getSplatValue<Attribute>());
}

/// `b - a` if it is a constant (through index casts and adds of constants
/// to one value).
std::optional<int64_t> constantDifference(Value a, Value b) {
  auto split = [](Value v) -> std::pair<Value, int64_t> {
    int64_t offset = 0;
    while (true) {
      if (auto cast = v.getDefiningOp<arith::IndexCastOp>()) {
        v = cast.getIn();
        continue;
      }
      auto add = v.getDefiningOp<arith::AddIOp>();
      APInt c;
      if (add && matchPattern(add.getRhs(), m_ConstantInt(&c))) {
        offset += c.getSExtValue();
        v = add.getLhs();
        continue;
      }
      if (add && matchPattern(add.getLhs(), m_ConstantInt(&c))) {
        offset += c.getSExtValue();
        v = add.getRhs();
        continue;
      }
      return {v, offset};
    }
  };
  auto [va, oa] = split(a);
  auto [vb, ob] = split(b);
  APInt ca, cb;
  if (va == vb)
    return ob - oa;
  if (matchPattern(va, m_ConstantInt(&ca)) && matchPattern(vb, m_ConstantInt(&cb)))
    return (cb.getSExtValue() + ob) - (ca.getSExtValue() + oa);
  return std::nullopt;
}

/// For an integer vector constant whose lanes are `first + lane * step`
/// (the lane offsets uop-linearize checks and gathers with), the pair.
std::optional<std::pair<APInt, APInt>> progressionOf(Value v) {
  DenseIntElementsAttr dense;
  if (!matchPattern(v, m_Constant(&dense)) || dense.getNumElements() < 2)
    return std::nullopt;
  Type elem = dense.getElementType();
  if (!elem.isIndex() && elem.getIntOrFloatBitWidth() < 32)
    return std::nullopt;
  SmallVector<APInt> values(dense.getValues<APInt>());
  APInt step = values[1] - values[0];
  for (size_t i = 1; i < values.size(); ++i)
    if (values[i] - values[i - 1] != step)
      return std::nullopt;
  return std::make_pair(values[0], step);
}

/// One memory access of a run: the memref, the index its lane 0 reads or
/// writes (null for a gather, which can read anywhere), and whether it
/// writes.
struct Access {
  Value memref;
  Value base;
  bool write;
};

/// The rewrite of one function.
class LaneLowering {
public:
  explicit LaneLowering(func::FuncOp func) : func(func) {}

  LogicalResult run() {
    if (failed(flattenVectorAllocas()))
      return failure();
    if (failed(processRegion(func.getBody())))
      return failure();
    return eraseVectorOps();
  }

private:
  func::FuncOp func;
  /// Old `memref<N x vector<W x T>>` alloca -> the new `memref<N*W x T>`.
  DenseMap<Value, Value> flatAllocas;
  /// A vector value kept for use outside its run -> its memref<W x T>.
  DenseMap<Value, Value> arrays;
  /// The current run of lane-wise ops (in one block), its lanes and the
  /// memory it touches.
  SmallVector<Operation *> runOps;
  llvm::SmallPtrSet<Operation *, 16> inRun;
  int64_t runLanes = 0;
  SmallVector<Access> runAccesses;

  /// An error at `op` (at the kernel where `op` has no location: a
  /// constant uop-linearize made).
  InFlightDiagnostic laneError(Operation *op, const Twine &message) {
    Location loc = op->getLoc();
    if (isa<UnknownLoc>(loc))
      loc = func.getLoc();
    return emitError(loc) << "'" << op->getName() << "' op uop-lanes-to-loops: " << message;
  }

  //===--------------------------------------------------------------------===//
  // Vector accumulators
  //===--------------------------------------------------------------------===//

  /// `memref.alloca() : memref<N x vector<W x T>>` -> `memref<N*W x T>`;
  /// its loads and stores are lane ops at index i*W + lane.
  LogicalResult flattenVectorAllocas() {
    SmallVector<memref::AllocaOp> allocas;
    func.walk([&](memref::AllocaOp a) {
      if (isa<VectorType>(a.getType().getElementType()))
        allocas.push_back(a);
    });
    for (memref::AllocaOp a : allocas) {
      MemRefType type = a.getType();
      int64_t lanes = lanesOf(type.getElementType());
      if (!lanes || type.getRank() != 1 || !type.hasStaticShape())
        return laneError(a.getOperation(), "only 1-D static allocas of 1-D vectors "
                                           "have a lane form, not ")
               << type;
      for (Operation *user : a->getUsers())
        if (!isa<memref::LoadOp, memref::StoreOp>(user))
          return laneError(user, "a vector accumulator may only be "
                                 "loaded and stored");
      OpBuilder b(a);
      auto flat = MemRefType::get({type.getNumElements() * lanes},
                                  cast<VectorType>(type.getElementType()).getElementType(),
                                  MemRefLayoutAttrInterface(), type.getMemorySpace());
      flatAllocas[a.getResult()] = memref::AllocaOp::create(b, a.getLoc(), flat);
    }
    return success();
  }

  //===--------------------------------------------------------------------===//
  // Classifying ops
  //===--------------------------------------------------------------------===//

  /// Whether `op` computes lane by lane and can join a run (a splat
  /// constant or broadcast is not: it is its scalar in every lane).
  bool isLaneOp(Operation *op) {
    if (op->getNumRegions() || isSplatSource(op))
      return false;
    if (isa<vector::LoadOp, vector::StoreOp, vector::FMAOp, vector::GatherOp, vector::StepOp>(op))
      return true;
    if (auto load = dyn_cast<memref::LoadOp>(op))
      return flatAllocas.count(load.getMemref());
    if (auto store = dyn_cast<memref::StoreOp>(op))
      return flatAllocas.count(store.getMemref());
    return op->hasTrait<OpTrait::Elementwise>() && touchesVectors(op) &&
           !isa<arith::ConstantOp>(op);
  }

  /// A vector that is one scalar in every lane: a splat constant or a
  /// broadcast of a scalar.
  bool isSplatSource(Operation *op) {
    if (auto c = dyn_cast<arith::ConstantOp>(op))
      return isa<VectorType>(c.getType()) &&
             (splatOf(c.getResult()) || progressionOf(c.getResult()));
    if (auto bc = dyn_cast<vector::BroadcastOp>(op))
      return !isa<VectorType>(bc.getSourceType());
    return false;
  }

  /// The lanes every vector `op` touches have (0 if they differ or one is
  /// not a 1-D fixed vector).
  int64_t lanesOfOp(Operation *op) {
    int64_t lanes = -1;
    auto visit = [&](Type t) {
      int64_t n = 0;
      if (isa<VectorType>(t))
        n = lanesOf(t);
      else if (auto m = dyn_cast<MemRefType>(t); m && isa<VectorType>(m.getElementType()))
        n = lanesOf(m.getElementType());
      else
        return;
      lanes = (lanes == -1 || lanes == n) ? n : 0;
    };
    for (Type t : op->getOperandTypes())
      visit(t);
    for (Type t : op->getResultTypes())
      visit(t);
    return lanes < 0 ? 0 : lanes;
  }

  /// The memory `op` (a lane op) reads or writes, if any.
  std::optional<Access> accessOf(Operation *op) {
    if (auto l = dyn_cast<vector::LoadOp>(op))
      return Access{l.getBase(), l.getIndices().back(), false};
    if (auto s = dyn_cast<vector::StoreOp>(op))
      return Access{s.getBase(), s.getIndices().back(), true};
    if (auto g = dyn_cast<vector::GatherOp>(op))
      return Access{g.getBase(), Value(), false};
    if (auto l = dyn_cast<memref::LoadOp>(op))
      return Access{l.getMemref(), l.getIndices().back(), false};
    if (auto s = dyn_cast<memref::StoreOp>(op))
      return Access{s.getMemref(), s.getIndices().back(), true};
    return std::nullopt;
  }

  /// Whether `a` may touch, in some lane, what the run touches in another
  /// lane while one of them writes: then the run's order (lane by lane)
  /// could differ from the vectors' (op by op), and the run must end first.
  bool conflictsWithRun(const Access &a) {
    for (const Access &r : runAccesses) {
      if (r.memref != a.memref || (!r.write && !a.write))
        continue;
      if (!r.base || !a.base)
        return true; // a gather reads anywhere
      if (r.base == a.base)
        continue; // the same element in each lane
      // Slots of a flattened accumulator are W elements apart.
      if (flatAllocas.count(a.memref) && matchPattern(a.base, m_Constant()) &&
          matchPattern(r.base, m_Constant()))
        continue;
      // Accesses at least W elements apart touch no element in common.
      if (std::optional<int64_t> d = constantDifference(r.base, a.base);
          d && (*d >= runLanes || *d <= -runLanes))
        continue;
      return true;
    }
    return false;
  }

  /// Whether a scalar op (no vector types, no regions) may stay where it is
  /// while the run's loop goes after it: it has no effect, or it only reads
  /// memory the run has not written.
  bool staysBeforeRun(Operation *op) {
    if (op->getNumRegions() || op->hasTrait<OpTrait::IsTerminator>())
      return false;
    if (isMemoryEffectFree(op))
      return true;
    if (auto load = dyn_cast<memref::LoadOp>(op))
      return llvm::none_of(
          runAccesses, [&](const Access &r) { return r.write && r.memref == load.getMemref(); });
    return false;
  }

  //===--------------------------------------------------------------------===//
  // Walking the kernel
  //===--------------------------------------------------------------------===//

  LogicalResult processRegion(Region &region) {
    for (Block &block : region)
      if (failed(processBlock(block)))
        return failure();
    return success();
  }

  LogicalResult processBlock(Block &block) {
    for (Operation &opRef : llvm::make_early_inc_range(block)) {
      Operation *op = &opRef;
      if (isSplatSource(op))
        continue; // used where its lanes are needed, erased at the end
      if (isLaneOp(op)) {
        int64_t lanes = lanesOfOp(op);
        if (!lanes)
          return laneError(op, "the lane form needs 1-D fixed vectors "
                               "of one width");
        std::optional<Access> access = accessOf(op);
        if (!runOps.empty() && (lanes != runLanes || (access && conflictsWithRun(*access))))
          if (failed(flush()))
            return failure();
        runLanes = lanes;
        runOps.push_back(op);
        inRun.insert(op);
        if (access)
          runAccesses.push_back(*access);
        continue;
      }
      if (!touchesVectors(op) && staysBeforeRun(op))
        continue;
      if (failed(flush()))
        return failure();
      if (touchesVectors(op)) {
        if (failed(lowerNonLaneOp(op)))
          return failure();
        continue;
      }
      for (Region &r : op->getRegions())
        if (failed(processRegion(r)))
          return failure();
    }
    return flush();
  }

  //===--------------------------------------------------------------------===//
  // One lane's value
  //===--------------------------------------------------------------------===//

  /// The memref<W x T> that holds `v`'s lanes, made where `v` is needed
  /// (at `b`) for a splat (filled by a loop); null after a diagnostic.
  Value arrayOf(Value v, OpBuilder &b, Location loc) {
    if (Value a = arrays.lookup(v))
      return a;
    Operation *def = v.getDefiningOp();
    if (def && isSplatSource(def)) {
      int64_t lanes = lanesOf(v.getType());
      auto type = MemRefType::get({lanes}, cast<VectorType>(v.getType()).getElementType());
      Value a = memref::AllocaOp::create(b, loc, type);
      auto loop = laneLoop(b, loc, lanes);
      OpBuilder body = OpBuilder::atBlockTerminator(loop.getBody());
      IRMapping none;
      Value lane = loop.getInductionVar();
      Value s = laneValue(v, body, loc, lane, none);
      memref::StoreOp::create(body, loc, s, a, laneOnly(body, loc, lane));
      arrays[v] = a;
      return a;
    }
    laneError((def ? def : v.getParentBlock()->getParentOp()),
              "a vector value that is carried by a loop or region "
              "has no lane form");
    return {};
  }

  /// `v`'s value in `lane` (inside a lane loop at `b`): the scalar the run
  /// computed, the splat, or a load from its array.
  Value laneValue(Value v, OpBuilder &b, Location loc, Value lane, IRMapping &mapping) {
    if (Value s = mapping.lookupOrNull(v))
      return s;
    if (TypedAttr splat = splatOf(v))
      return arith::ConstantOp::create(b, loc, splat);
    if (std::optional<std::pair<APInt, APInt>> p = progressionOf(v)) {
      // first + lane * step, in the element type.
      Type elem = cast<VectorType>(v.getType()).getElementType();
      Value i = lane;
      if (elem != lane.getType())
        i = isa<IndexType>(elem) ? Value(arith::IndexCastOp::create(b, loc, elem, lane))
                                 : Value(arith::ExtSIOp::create(b, loc, elem, lane));
      auto c = [&](const APInt &x) {
        return arith::ConstantOp::create(b, loc, IntegerAttr::get(elem, x)).getResult();
      };
      if (!p->second.isOne())
        i = arith::MulIOp::create(b, loc, i, c(p->second));
      if (!p->first.isZero())
        i = arith::AddIOp::create(b, loc, c(p->first), i);
      return i;
    }
    if (auto bc = v.getDefiningOp<vector::BroadcastOp>();
        bc && !isa<VectorType>(bc.getSourceType()))
      return bc.getSource();
    Value a = arrays.lookup(v);
    if (!a) {
      Operation *def = v.getDefiningOp();
      laneError((def ? def : v.getParentBlock()->getParentOp()),
                "a vector value that is carried by a loop or "
                "region has no lane form");
      return {};
    }
    return memref::LoadOp::create(b, loc, a, laneOnly(b, loc, lane));
  }

  /// The index `base + lane`, or `slot * scale + lane` for a flattened
  /// accumulator (`slot` given as `base`, `scale` its lanes). An i32 base that
  /// was cast to index is added to in i32, so that C indexes with the int.
  Value laneIndex(OpBuilder &b, Location loc, Value lane, Value base, int64_t scale) {
    Type i32 = b.getI32Type();
    if (scale > 1) {
      APInt c;
      if (matchPattern(base, m_ConstantInt(&c))) {
        int64_t offset = c.getSExtValue() * scale;
        Value sum = offset ? Value(arith::AddIOp::create(
                                 b, loc, lane,
                                 arith::ConstantOp::create(b, loc, b.getIntegerAttr(i32, offset)),
                                 arith::IntegerOverflowFlagsAttr::get(
                                     b.getContext(), arith::IntegerOverflowFlags::nsw)))
                           : lane;
        return arith::IndexCastOp::create(b, loc, b.getIndexType(), sum);
      }
      Value scaled = arith::MulIOp::create(
          b, loc, base, arith::ConstantOp::create(b, loc, b.getIndexAttr(scale)));
      return arith::AddIOp::create(b, loc, scaled,
                                   arith::IndexCastOp::create(b, loc, b.getIndexType(), lane));
    }
    // The lane's index, in i32 as the loop it came from computed it (a
    // buffer's index fits an int: nsw).
    if (auto cast = base.getDefiningOp<arith::IndexCastOp>(); cast && cast.getIn().getType() == i32)
      return arith::IndexCastOp::create(
          b, loc, b.getIndexType(),
          arith::AddIOp::create(b, loc, cast.getIn(), lane,
                                arith::IntegerOverflowFlagsAttr::get(
                                    b.getContext(), arith::IntegerOverflowFlags::nsw)));
    return arith::AddIOp::create(b, loc, base,
                                 arith::IndexCastOp::create(b, loc, b.getIndexType(), lane));
  }
  /// The index of `lane` in a memref<W x T>.
  Value laneOnly(OpBuilder &b, Location loc, Value lane) {
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), lane);
  }

  /// `for (int32_t lane = 0; lane < lanes; lane += 1)` at `b`, from `first`.
  scf::ForOp laneLoop(OpBuilder &b, Location loc, int64_t lanes, int64_t first = 0,
                      ValueRange inits = {}) {
    Type i32 = b.getI32Type();
    auto c = [&](int64_t v) { return arith::ConstantOp::create(b, loc, b.getIntegerAttr(i32, v)); };
    return scf::ForOp::create(b, loc, c(first), c(lanes), c(1), inits);
  }

  //===--------------------------------------------------------------------===//
  // A run -> one loop
  //===--------------------------------------------------------------------===//

  LogicalResult flush() {
    if (runOps.empty())
      return success();
    auto clear = [&] {
      runOps.clear();
      inRun.clear();
      runAccesses.clear();
    };
    Operation *last = runOps.back();
    Location loc = runOps.front()->getLoc();
    OpBuilder b(last->getContext());
    b.setInsertionPointAfter(last);
    // Values used outside the run get an array, declared before the loop.
    for (Operation *op : runOps)
      for (Value r : op->getResults())
        if (isa<VectorType>(r.getType()) &&
            llvm::any_of(r.getUsers(), [&](Operation *u) { return !inRun.contains(u); }))
          arrays[r] = memref::AllocaOp::create(
              b, loc, MemRefType::get({runLanes}, cast<VectorType>(r.getType()).getElementType()));
    scf::ForOp loop = laneLoop(b, loc, runLanes);
    OpBuilder body = OpBuilder::atBlockTerminator(loop.getBody());
    Value lane = loop.getInductionVar();
    IRMapping mapping;
    for (Operation *op : runOps) {
      if (failed(emitLane(op, body, lane, mapping)))
        return clear(), failure();
      for (Value r : op->getResults())
        if (Value a = arrays.lookup(r))
          memref::StoreOp::create(body, op->getLoc(), mapping.lookup(r), a,
                                  laneOnly(body, op->getLoc(), lane));
    }
    clear();
    return success();
  }

  /// Emits lane `lane` of the lane op `op` at `b`, mapping its results.
  LogicalResult emitLane(Operation *op, OpBuilder &b, Value lane, IRMapping &mapping) {
    Location loc = op->getLoc();
    // Every vector operand's value in this lane, first (a diagnostic if one
    // has none).
    DenseMap<Value, Value> operandLanes;
    for (Value v : op->getOperands()) {
      if (!isa<VectorType>(v.getType()) || operandLanes.count(v))
        continue;
      Value s = laneValue(v, b, loc, lane, mapping);
      if (!s)
        return failure();
      operandLanes[v] = s;
    }
    auto scalar = [&](Value v) { return operandLanes.lookup(v); };
    auto mapResult = [&](Value s) {
      mapping.map(op->getResult(0), s);
      return success();
    };

    if (auto l = dyn_cast<vector::LoadOp>(op)) {
      SmallVector<Value> idx(l.getIndices());
      idx.back() = laneIndex(b, loc, lane, idx.back(), 1);
      return mapResult(memref::LoadOp::create(b, loc, l.getBase(), idx));
    }
    if (auto s = dyn_cast<vector::StoreOp>(op)) {
      SmallVector<Value> idx(s.getIndices());
      idx.back() = laneIndex(b, loc, lane, idx.back(), 1);
      memref::StoreOp::create(b, loc, scalar(s.getValueToStore()), s.getBase(), idx);
      return success();
    }
    if (auto l = dyn_cast<memref::LoadOp>(op)) {
      Value flat = flatAllocas.lookup(l.getMemref());
      return mapResult(memref::LoadOp::create(
          b, loc, flat, laneIndex(b, loc, lane, l.getIndices().back(), runLanes)));
    }
    if (auto s = dyn_cast<memref::StoreOp>(op)) {
      Value flat = flatAllocas.lookup(s.getMemref());
      memref::StoreOp::create(b, loc, scalar(s.getValueToStore()), flat,
                              laneIndex(b, loc, lane, s.getIndices().back(), runLanes));
      return success();
    }
    if (auto fma = dyn_cast<vector::FMAOp>(op))
      return mapResult(math::FmaOp::create(b, loc, scalar(fma.getLhs()), scalar(fma.getRhs()),
                                           scalar(fma.getAcc())));
    if (isa<vector::StepOp>(op))
      return mapResult(laneOnly(b, loc, lane));
    if (auto g = dyn_cast<vector::GatherOp>(op)) {
      // mask[lane] ? base[offsets + index[lane]] : pass[lane]
      if (!isa<MemRefType>(g.getBase().getType()) || g.getOffsets().empty())
        return laneError(g.getOperation(), "only gathers from memrefs have a lane form");
      SmallVector<Value> idx(g.getOffsets());
      Value i = scalar(g.getIndices());
      if (!isa<IndexType>(i.getType()))
        i = arith::IndexCastOp::create(b, loc, b.getIndexType(), i);
      idx.back() = arith::AddIOp::create(b, loc, idx.back(), i);
      Type elem = g.getVectorType().getElementType();
      DenseElementsAttr maskConst;
      if (matchPattern(g.getMask(), m_Constant(&maskConst)) && maskConst.isSplat() &&
          maskConst.getSplatValue<bool>())
        return mapResult(memref::LoadOp::create(b, loc, g.getBase(), idx));
      auto ifOp = scf::IfOp::create(b, loc, TypeRange{elem}, scalar(g.getMask()), true);
      OpBuilder thenB = ifOp.getThenBodyBuilder();
      scf::YieldOp::create(thenB, loc,
                           ValueRange{memref::LoadOp::create(thenB, loc, g.getBase(), idx)});
      OpBuilder elseB = ifOp.getElseBodyBuilder();
      scf::YieldOp::create(elseB, loc, ValueRange{scalar(g.getPassThru())});
      return mapResult(ifOp.getResult(0));
    }
    // Elementwise arith and math: the same op on one lane.
    SmallVector<Value> operands;
    for (Value v : op->getOperands())
      operands.push_back(isa<VectorType>(v.getType()) ? scalar(v) : v);
    SmallVector<Type> types;
    for (Type t : op->getResultTypes())
      types.push_back(isa<VectorType>(t) ? cast<VectorType>(t).getElementType() : t);
    OperationState state(loc, op->getName(), operands, types, op->getAttrs());
    Operation *clone = b.create(state);
    for (auto [r, s] : llvm::zip(op->getResults(), clone->getResults()))
      mapping.map(r, s);
    return success();
  }

  //===--------------------------------------------------------------------===//
  // Ops across lanes
  //===--------------------------------------------------------------------===//

  /// Lowers a vector op that is not lane-wise (its vector operands are in
  /// arrays by now) to scalar code at the op.
  LogicalResult lowerNonLaneOp(Operation *op) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    if (op->getNumRegions())
      return laneError(op, "vector values carried by loops or yielded by "
                           "regions have no lane form");
    if (auto red = dyn_cast<vector::ReductionOp>(op)) {
      int64_t lanes = lanesOf(red.getVector().getType());
      if (!lanes)
        return laneError(red.getOperation(), "only 1-D reductions have a lane form");
      Value arr = arrayOf(red.getVector(), b, loc);
      if (!arr)
        return failure();
      // In lane order, from the accumulator or lane 0: LLVM's ordered reduction.
      Value init = red.getAcc();
      int64_t first = 0;
      if (!init) {
        init = memref::LoadOp::create(b, loc, arr,
                                      ValueRange{arith::ConstantIndexOp::create(b, loc, 0)});
        first = 1;
      }
      // (A loop with iter_args gets no default terminator.)
      scf::ForOp loop = laneLoop(b, loc, lanes, first, init);
      OpBuilder body = OpBuilder::atBlockEnd(loop.getBody());
      Value x = memref::LoadOp::create(body, loc, arr, laneOnly(body, loc, loop.getInductionVar()));
      Value next = vector::makeArithReduction(body, loc, red.getKind(), loop.getRegionIterArg(0), x,
                                              red.getFastmathAttr());
      scf::YieldOp::create(body, loc, next);
      red.getResult().replaceAllUsesWith(loop.getResult(0));
      return success();
    }
    if (auto ex = dyn_cast<vector::ExtractOp>(op)) {
      if (isa<VectorType>(ex.getType()) || !lanesOf(ex.getSource().getType()))
        return laneError(ex.getOperation(), "only lanes of 1-D vectors can be extracted");
      Value arr = arrayOf(ex.getSource(), b, loc);
      if (!arr)
        return failure();
      OpFoldResult pos = ex.getMixedPosition()[0];
      Value idx = isa<Value>(pos) ? cast<Value>(pos)
                                  : Value(arith::ConstantIndexOp::create(
                                        b, loc, cast<IntegerAttr>(cast<Attribute>(pos)).getInt()));
      if (!isa<IndexType>(idx.getType()))
        idx = arith::IndexCastOp::create(b, loc, b.getIndexType(), idx);
      ex.getResult().replaceAllUsesWith(memref::LoadOp::create(b, loc, arr, idx));
      return success();
    }
    if (auto fe = dyn_cast<vector::FromElementsOp>(op)) {
      int64_t lanes = lanesOf(fe.getType());
      if (!lanes)
        return laneError(fe.getOperation(), "only 1-D vectors have a lane form");
      Value arr =
          memref::AllocaOp::create(b, loc, MemRefType::get({lanes}, fe.getType().getElementType()));
      for (auto [i, e] : llvm::enumerate(fe.getElements()))
        memref::StoreOp::create(b, loc, e, arr,
                                ValueRange{arith::ConstantIndexOp::create(b, loc, i)});
      arrays[fe.getResult()] = arr;
      return success();
    }
    return laneError(op, "this vector op has no lane form");
  }

  /// Erases every op that still has a vector type (all of them replaced by
  /// now), users first; fails if one is still used.
  LogicalResult eraseVectorOps() {
    SmallVector<Operation *> ops;
    func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op == func.getOperation())
        return;
      bool vectorMemref = false;
      for (Type t : op->getResultTypes())
        if (auto m = dyn_cast<MemRefType>(t); m && isa<VectorType>(m.getElementType()))
          vectorMemref = true;
      if (touchesVectors(op) || vectorMemref ||
          llvm::any_of(op->getOperands(), [&](Value v) { return flatAllocas.count(v); }))
        ops.push_back(op);
    });
    for (Operation *op : llvm::reverse(ops)) {
      if (!op->use_empty())
        return laneError(op, "a vector value is still used by ")
               << *op->getUses().begin()->getOwner();
      op->erase();
    }
    return success();
  }
};

struct UopLanesToLoopsPass : mlir::uop::impl::UopLanesToLoopsPassBase<UopLanesToLoopsPass> {
  using Base::Base;
  void runOnOperation() override {
    LaneLowering lowering(getOperation());
    if (failed(lowering.run()))
      signalPassFailure();
  }
};

} // namespace
