//===- HandOpt.cpp - the uop-hand-opt strategy pass ------------*- C++ -*-===//
//
// The seed's `hand_opt_choice` (uopc/opt.py) and `gpu_opt_choice`
// (uopc/gpu.py): simple rules that decide how a kernel maps onto the
// machine. They are written here, as a pass that only sets `uop.opts`, so
// that no lowering hides a cost decision: uop-rangeify applies whatever the
// attribute says, whoever chose it (this pass, a search, or a user).
//
//===----------------------------------------------------------------------===//

#include "Uop/Transforms/Passes.h"
#include "Uop/Transforms/GpuOptCandidates.h"

#include "Uop/IR/UopAttrs.h"
#include "Uop/IR/UopDialect.h"
#include "Uop/IR/UopGemm.h"
#include "Uop/IR/UopTarget.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPHANDOPTPASS
#include "Uop/Transforms/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

static int64_t product(ArrayRef<int64_t> dims) {
  int64_t p = 1;
  for (int64_t d : dims)
    p *= d;
  return p;
}

int64_t mlir::uop::getReduceSize(func::FuncOp kernel) {
  int64_t size = 1;
  kernel.walk([&](ReduceOp r) {
    ArrayRef<int64_t> shape = getShape(r.getSrc().getType());
    int64_t pop = std::min<int64_t>(r.getPop(), shape.size());
    size = std::max(size, product(shape.take_back(pop)));
  });
  return size;
}

/// Whether a reduction of `kernel` keeps both of the output's last two axes
/// (gemm: each output element its own reduction), not a row reduction
/// broadcast back over the row (softmax fused into one kernel), whose
/// columns must not be cut into blocks that each redo the row's reduction.
static bool isMatmulShaped(func::FuncOp kernel, ArrayRef<int64_t> shape) {
  int64_t rank = shape.size();
  if (rank < 2 || shape[rank - 1] == 1 || shape[rank - 2] == 1)
    return false;
  return kernel
      .walk([&](ReduceOp r) {
        ArrayRef<int64_t> src = getShape(r.getSrc().getType());
        int64_t kept = (int64_t)src.size() - std::min<int64_t>(r.getPop(), src.size());
        return kept == rank && src.take_front(kept) == shape ? WalkResult::interrupt()
                                                             : WalkResult::advance();
      })
      .wasInterrupted();
}

/// For a kernel that only copies a buffer through a view (uop-layout's panel
/// pack, a transposing stage), the output axis along which the source's
/// stride is largest, if it has two or more elements: its iterations read
/// distinct rows of the source.
static std::optional<int64_t> copyRowAxis(func::FuncOp kernel) {
  auto ret = cast<func::ReturnOp>(kernel.getBody().front().getTerminator());
  if (ret.getNumOperands() != 1)
    return std::nullopt;
  Value view = ret.getOperand(0), v = getMovementBase(view);
  if (v == view || !v.getDefiningOp<BufferOp>())
    return std::nullopt;
  ArrayRef<int64_t> shape = getShape(view.getType());
  std::optional<int64_t> best;
  int64_t bestStride = 1;
  for (int64_t axis = 0; axis < (int64_t)shape.size(); ++axis) {
    int64_t stride = std::abs(getViewAxisStride(view, v, axis));
    if (shape[axis] >= 2 && stride > bestStride) {
      best = axis;
      bestStride = stride;
    }
  }
  return best;
}

/// Whether a transcendental of `kernel` (exp2, log2, sin, sqrt) feeds both a
/// reduction and, not through one, the kernel's value: fused softmax's
/// exp2, summed and then divided by the sum. uop-linearize computes it once
/// in each loop; `stash` has the store loop read it back instead.
static bool recomputesTranscendental(func::FuncOp kernel) {
  auto ret = cast<func::ReturnOp>(kernel.getBody().front().getTerminator());
  // The ops a value reaches through elementwise and movement ops only.
  auto slice = [](ValueRange roots) {
    llvm::SmallPtrSet<Operation *, 32> ops;
    SmallVector<Value> work(roots.begin(), roots.end());
    while (!work.empty()) {
      Operation *def = work.pop_back_val().getDefiningOp();
      if (!def || isa<ReduceOp>(def) || !ops.insert(def).second)
        continue;
      llvm::append_range(work, def->getOperands());
    }
    return ops;
  };
  llvm::SmallPtrSet<Operation *, 32> stored = slice(ret.getOperands());
  return kernel
      .walk([&](ReduceOp r) {
        for (Operation *op : slice(r.getSrc()))
          if (isa<Exp2Op, Log2Op, SinOp, SqrtOp>(op) && stored.contains(op))
            return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

/// The reductions of `kernel` if each reduces its source's last axis alone
/// and reads every buffer along that axis one element apart or not at all
/// (a broadcast): row reductions (softmax's max and sum, layernorm's mean
/// and variance), whose loops LLVM vectorizes along the row. Empty
/// otherwise.
static SmallVector<ReduceOp> rowReductions(func::FuncOp kernel) {
  SmallVector<ReduceOp> reduces;
  kernel.walk([&](ReduceOp r) { reduces.push_back(r); });
  for (ReduceOp r : reduces) {
    if (r.getPop() != 1)
      return {};
    // The views the reduction reads through elementwise ops (a nested
    // reduction is checked on its own).
    SmallVector<Value> work{r.getSrc()};
    llvm::SmallPtrSet<Operation *, 16> seen;
    while (!work.empty()) {
      Value v = work.pop_back_val();
      Operation *def = v.getDefiningOp();
      if (!def || !seen.insert(def).second)
        continue;
      if (isMovement(def)) {
        Value base = getMovementBase(v);
        int64_t rank = getShape(v.getType()).size();
        if (rank == 0 || std::abs(getViewAxisStride(v, base, rank - 1)) > 1)
          return {};
        work.push_back(base);
      } else if (isALU(def)) {
        llvm::append_range(work, def->getOperands());
      } else if (!isa<ReduceOp, BufferOp, ConstOp>(def)) {
        return {};
      }
    }
  }
  return reduces;
}

/// The strip (elements) that uop-prefetch-next prefetches the next row in,
/// a fused row kernel's second loop over each row. Measured on Zen 5
/// (4096 x 4096 f32 softmax, 2 threads): 128 3.3-3.4 ms, 256 2.5, 512
/// 2.8, none 2.9-3.2; the copy of the same data 2.5.
static constexpr int64_t kPrefetchNextStrip = 256;

/// The vector unit a register tile is sized for (bits 0: none).
struct VectorUnit {
  int64_t bits = 0, registers = 16;
};

/// f32 lanes of a register tile's row: two vectors of the unit.
static int64_t tileLanes(VectorUnit unit) { return 2 * unit.bits / 32; }

/// The vector unit of a CPU target (its registers: 32 with 512-bit vectors,
/// else 16, where the target does not say).
static VectorUnit vectorUnitOf(TargetAttr target) {
  VectorUnit unit;
  unit.bits = target.getVectorBits();
  unit.registers = target.getVectorRegisters() > 0 ? target.getVectorRegisters()
                   : unit.bits == 512                 ? 32
                                                      : 16;
  return unit;
}

/// The accumulators past which more rows of a register tile were not seen
/// to pay. Each k step loads the tile's vectors of B once for all its rows,
/// so r rows load B 1/r times per FMA; in a gemm B streams from L2. Measured
/// on Zen 3 (AVX2), the 2048^3 gemm on 2 threads, best of 5 interleaved
/// runs: 4x16 (8 accumulators) 130-133 GFLOP/s, 6x16 (12) 136-142. From L1
/// both reach the FMA peak (uop-bench-register-tile), and on one thread
/// they tie (73 GFLOP/s): what the rows save is traffic the two cores share.
static constexpr int64_t kTileAccumulators = 12;

/// The rows of a register tile over `span` rows (the row block, or the
/// whole axis): of 2, 4, 8 and the most the registers hold (two vectors of
/// accumulators a row, 4 registers left for the operands, at most 12), the
/// one that loads B the fewest times per useful FMA, up to
/// kTileAccumulators, less the rows a ragged last tile (a count that does
/// not divide the span, see uop-rangeify; not with `ragged` false)
/// computes twice. 0 if none fits.
static int64_t tileRows(int64_t span, VectorUnit unit, bool ragged) {
  int64_t most = std::min<int64_t>(12, (unit.registers - 4) / 2);
  int64_t best = 0;
  double bestScore = 0;
  for (int64_t rows : {most, int64_t(8), int64_t(4), int64_t(2)}) {
    if (rows < 2 || rows > most || rows > span || (span % rows != 0 && (!ragged || span <= rows)))
      continue;
    double useful = double(span) / double(llvm::divideCeil(span, rows) * rows);
    double score = useful * std::min(1.0, double(2 * rows) / double(kTileAccumulators));
    // (On a tie, a count that divides: no rows computed twice.)
    bool tie = std::abs(score - bestScore) <= 1e-9;
    if (score > bestScore + 1e-9 || (tie && span % rows == 0 && span % best != 0)) {
      best = rows;
      bestScore = score;
    }
  }
  return best;
}

/// A register tile for `unit`: two vectors of f32 lanes on the last output
/// axis (uop-linearize's vector lanes), rows upcast on the axis before it
/// (tileRows). False (the seed's choice then) without two output axes that
/// allow it: a row reduction's one output axis is better upcast, as the
/// seed does.
static bool registerTile(ArrayRef<int64_t> shape, VectorUnit unit, bool matmul, bool ragged,
                         OptsBuilder &o) {
  int64_t rank = shape.size();
  int64_t lanes = tileLanes(unit);
  if (rank < 2 || lanes < 2 || shape[rank - 1] < lanes || shape[rank - 1] % lanes != 0)
    return false;
  int64_t m = shape[rank - 2];
  // Rows in blocks (256 at most, at least two of them, a power of two of 16
  // or more that divides the rows): the tile loop sweeps one block of A's
  // rows across all of B's panels before the next, so each panel is read
  // from L2 a block of rows at a time, and the threads take whole blocks.
  // Measured on Zen 3: 2048^3 from 88 to 123 GFLOP/s with 256; the MLP's
  // weight gradient (128 x 784 outputs, 128 deep) from 0.39 to 0.21 ms
  // with 64 (128 / 2).
  int64_t block = 0;
  if (matmul)
    for (int64_t b = 256; b >= 16; b /= 2)
      if (m % b == 0 && m / b >= 2) {
        block = b;
        break;
      }
  int64_t rows = tileRows(block ? block : m, unit, ragged);
  if (!rows)
    return false;
  o.upcast[rank - 2] = rows;
  o.vector = lanes;
  // A gemm's columns in blocks of one tile: each block reads one panel of B
  // (uop-layout packs B's panels `lanes` wide), and the lanes' index is
  // then affine in the block's column loop.
  if (!matmul)
    return true;
  if (shape[rank - 1] > lanes)
    o.tile[rank - 1] = lanes;
  if (block)
    o.tile[rank - 2] = block;
  return true;
}

/// The seed's thread axis: the first that keeps two or more iterations
/// past its upcast, when there is enough work to amortize waking threads.
static void chooseThread(ArrayRef<int64_t> shape, int64_t rsize, OptsBuilder &o) {
  o.thread = -1;
  if (product(shape) * rsize < (int64_t(1) << 16))
    return;
  for (int64_t axis = 0; axis < (int64_t)shape.size(); ++axis)
    if (shape[axis] / o.upcastOf(axis) >= 2) {
      o.thread = axis;
      return;
    }
}

/// hand_opt_choice, with the register tile sized for `unit` where it has one
/// (ragged where `ragged` allows).
static OptsBuilder handOptChoice(ArrayRef<int64_t> shape, int64_t rsize, bool matmul,
                                 VectorUnit unit, bool ragged) {
  OptsBuilder o;
  int64_t rank = shape.size();
  if (rsize > 1 && unit.bits > 0 && registerTile(shape, unit, matmul, ragged, o)) {
    // (the register tile replaces the seed's 4x4 below)
  } else if (rsize > 1) {
    // A 4x4 register tile on the last two output axes (the seed tuned it for
    // AVX2's 16 vector registers).
    int64_t budget = 16;
    for (auto [axis, want] : {std::pair<int64_t, int64_t>{rank - 1, 4}, {rank - 2, 4}}) {
      if (axis < 0)
        continue;
      for (int64_t f : {want, int64_t(4), int64_t(2)}) {
        if (f <= budget && shape[axis] % f == 0 && shape[axis] >= f && f > 1) {
          o.upcast[axis] = f;
          budget /= f;
          break;
        }
      }
    }
    if (o.upcast.empty() && rsize % 4 == 0 && rsize < 64)
      o.unroll = 4;
  }
  chooseThread(shape, rsize, o);
  return o;
}

/// The `merge` groups (first axis -> count) that put the blocks of `blocks`
/// (per output axis) into at most 3 grid dimensions within the grid's
/// limits (`maxGrid`: x, y, z): the last group with more than one block is
/// x, the one before it y, then z. Groups are contiguous runs of axes; an
/// axis on its own needs no entry. Of the partitions of the axes with more
/// than one block into the most groups that fit, the one whose leading
/// groups are the largest (the grid fills z, then y, as the seed's axes
/// do); nullopt if none fits (more blocks than x takes).
static std::optional<std::map<int64_t, int64_t>> mergeGroups(ArrayRef<int64_t> blocks,
                                                             ArrayRef<int64_t> maxGrid) {
  SmallVector<int64_t> axes;
  for (auto [k, n] : llvm::enumerate(blocks))
    if (n > 1)
      axes.push_back(k);
  int64_t m = axes.size();
  if (m == 0)
    return std::map<int64_t, int64_t>(); // one block
  // Groups as the index of the first non-trivial axis of each, ascending.
  auto fits = [&](ArrayRef<int64_t> starts) {
    int64_t s = starts.size();
    for (int64_t g = 0; g < s; ++g) {
      int64_t end = g + 1 < s ? starts[g + 1] : m, product = 1;
      for (int64_t i = starts[g]; i < end; ++i)
        product *= blocks[axes[i]];
      // Group g of s is grid dimension s-1-g: x, y, z from the last.
      if (product > maxGrid[s - 1 - g])
        return false;
    }
    return true;
  };
  for (int64_t s = std::min<int64_t>(m, 3); s >= 1; --s) {
    // Cut points c1 < c2 (s = 3) or c1 (s = 2), earliest first: the
    // leading groups are the largest that fit when scanned from the back.
    SmallVector<int64_t> best;
    std::function<void(SmallVector<int64_t>)> scan = [&](SmallVector<int64_t> starts) {
      if (!best.empty())
        return;
      if ((int64_t)starts.size() == s) {
        if (fits(starts))
          best = starts;
        return;
      }
      int64_t from = starts.back() + 1, left = s - starts.size();
      for (int64_t c = m - left; c >= from; --c) {
        starts.push_back(c);
        scan(starts);
        starts.pop_back();
      }
    };
    scan({0});
    if (best.empty())
      continue;
    std::map<int64_t, int64_t> merge;
    for (int64_t g = 0; g < s; ++g) {
      int64_t first = axes[best[g]];
      int64_t last = axes[(g + 1 < s ? best[g + 1] : m) - 1];
      if (last > first)
        merge[first] = last - first + 1;
    }
    return merge;
  }
  return std::nullopt;
}

/// gpu_opt_choice: threads on the last axes by powers of two within a block
/// of `maxThreads` (16 per axis when there are several; at most 3 axes,
/// the block's dimensions), a 2x upcast of long axes when the kernel
/// reduces; then, where the axes with blocks are more than the grid's 3
/// dimensions or overflow y or z (`maxGrid`), adjacent axes merged into
/// one grid dimension (`merge`; the seed stops there with an error).
///
/// uop's addition, for reduces with fewer outputs than the threads the GPU
/// runs at once (`fill`: multiprocessors x max_threads, 135,168 on an H200):
/// the innermost reduce loop unrolled by up to 8, so that a thread has that
/// many loads in flight instead of waiting on one per iteration; and below
/// an eighth of that, no upcast either (a thread an output: GPT's 1024-output
/// row statistics over 64 features, which uop-split-reduce leaves whole,
/// had 512 threads). On an H200 the GPT step went 3.13 ms (the seed's rule)
/// -> 1.54 (the second part alone) -> 1.37 (both); without the upcast for
/// every reduce under `fill`, 1.43. Below an eighth, too, the blocks are
/// made smaller (down to a warp) until there are as many as the GPU has
/// multiprocessors: 1024 outputs in blocks of 256 threads ran on 4 of an
/// H200's 132, each thread walking its row alone (GPT's layernorm
/// gradients, 10-30 us a launch).
static FailureOr<OptsBuilder> gpuOptChoice(func::FuncOp kernel, ArrayRef<int64_t> shape,
                                           bool reduces, int64_t maxThreads,
                                           ArrayRef<int64_t> maxGrid, int64_t fill,
                                           int64_t multiprocessors, int64_t warp) {
  OptsBuilder o;
  o.gpu = true;
  SmallVector<int64_t> axes;
  for (auto [k, s] : llvm::enumerate(shape))
    if (s > 1)
      axes.push_back(k);
  // Fewer outputs than the GPU runs threads: unroll; fewer than an eighth:
  // no upcast either.
  bool unrolled = reduces && fill > 0 && product(shape) < fill;
  bool few = unrolled && product(shape) * 8 < fill;
  if (unrolled) {
    int64_t inner = 1;
    kernel.walk([&](ReduceOp r) {
      ArrayRef<int64_t> src = getShape(r.getSrc().getType());
      if (r.getPop() >= 1 && !src.empty())
        inner = std::max(inner, src.back());
    });
    for (int64_t u : {8, 4, 2})
      if (inner % u == 0 && inner > u) {
        o.unroll = u;
        break;
      }
  }
  int64_t budget = maxThreads;
  if (few && multiprocessors > 0)
    while (budget / 2 >= std::max<int64_t>(warp, 1) && product(shape) / budget < multiprocessors)
      budget /= 2;
  int64_t localAxes = 0;
  for (int64_t k : llvm::reverse(axes)) {
    if (reduces && !few && shape[k] % 2 == 0 && shape[k] >= 32)
      o.upcast[k] = 2;
    int64_t rest = shape[k] / (o.upcast.count(k) ? o.upcast[k] : 1);
    int64_t cap = std::min<int64_t>(budget, axes.size() > 1 ? 16 : budget);
    int64_t t = 1;
    while (localAxes < 3 && t * 2 <= cap && rest % (t * 2) == 0)
      t *= 2;
    if (t > 1) {
      o.local[k] = t;
      budget /= t;
      ++localAxes;
    }
  }
  SmallVector<int64_t> blocks;
  for (auto [k, s] : llvm::enumerate(shape))
    blocks.push_back(s / (o.upcastOf(k) * (o.local.count(k) ? o.local[k] : 1)));
  std::optional<std::map<int64_t, int64_t>> merge = mergeGroups(blocks, maxGrid);
  if (!merge)
    return emitError(kernel.getLoc(), "uop-hand-opt: the kernel's blocks do not fit the GPU's "
                                      "grid (x up to ")
           << maxGrid[0] << " blocks)";
  o.merge = *merge;
  return o;
}

/// target=cuda: gpu_opt_choice, except for a large two-axis reduce (a gemm),
/// which gets a register tile the seed's 2x2 upcast leaves on the table:
/// 16x8 outputs per thread, blocks of 8x16 threads (a 128x128 tile). Chosen
/// by measurement on an H200 (bench/gpu/gemm.py prepare-opts, fp32, N=8192:
/// 25.5 TFLOP/s against 11.1 for 2x2 in 16x16;
/// bench/results/h200-2026-12-01-session5.txt). Each
/// iteration of its reduce loop reads a new row of B from L2; prefetching
/// it 8 iterations ahead (`prefetch = 8`) took the same kernel from 24.8 to
/// 31.6 TFLOP/s (distances 4 to 32 within 1%).
static std::optional<OptsBuilder> cudaGemmChoice(ArrayRef<int64_t> shape, int64_t reduce) {
  if (shape.size() != 2 || shape[0] < 1024 || shape[1] < 1024 || shape[0] % 128 || shape[1] % 128 ||
      reduce < 256)
    return std::nullopt;
  OptsBuilder o;
  o.gpu = true;
  o.upcast[0] = 16;
  o.upcast[1] = 8;
  o.local[0] = 8;
  o.local[1] = 16;
  o.prefetch = 8;
  return o;
}

/// A block tile of the staged CUDA-core GEMM: threads (lm x ln), outputs
/// a thread (tm x tn), elements along K a stage (bk), and the most stages
/// worth having.
struct SimtTile {
  int64_t lm, ln, tm, tn, bk, stages;
};

/// The staged CUDA-core GEMM's tiles, in the hand's order of preference.
/// 64 x 128 x 32 in 8 x 16 threads of 8 x 8, 2 stages (48 KiB): on an
/// H200 48.3 TFLOP/s at 8192^3 and 46.5 at 4096 (3 stages 1% and 4 stages
/// 8% slower), the GPU search's choice over 23 candidates
/// (bench/results/h200-2026-12-04-issue30.md); 128 x 64 x 32 in 16 x 16
/// threads of 8 x 4, 4 stages (96 KiB), 46.0 and 44.4, against 33.2 for
/// the register tile without shared memory; 128 x 128 x 32 45.7 (2 or 4
/// stages), 44.8 (3); BK 8 40.4-41.3, BK 16 41.4-41.9; threads of a warp
/// in 4 x 8 instead of 2 x 16, or 2 blocks an SM forced (128 registers), no
/// better (bench/results/h200-2026-12-03-simt-gemm.md).
static const SimtTile kSimtTiles[] = {
    {8, 16, 8, 8, 32, 2},  // 64 x 128 x 32
    {16, 16, 8, 4, 32, 4}, // 128 x 64 x 32
    {16, 16, 8, 8, 32, 4}, // 128 x 128 x 32
    {16, 16, 8, 8, 16, 4}, // 128 x 128 x 16
    {16, 16, 8, 8, 8, 4},  // 128 x 128 x 8
    {8, 16, 8, 8, 16, 4},  // 64 x 128 x 16
};

/// The staged CUDA-core GEMM's opts for `g` with tile `t` and `stages`
/// buffers, if the tile divides the GEMM and the buffers fit `limit`
/// bytes of shared memory.
static std::optional<OptsBuilder> simtOpts(const GemmMatch &g, const SimtTile &t, int64_t stages,
                                           int64_t limit, int64_t maxThreads) {
  int64_t bm = t.lm * t.tm, bn = t.ln * t.tn, threads = t.lm * t.ln;
  if (g.m % bm || g.n % bn || g.k % t.bk || (bm * t.bk / 4) % threads ||
      (t.bk * bn / 4) % threads || threads > maxThreads || stages * (bm + bn) * t.bk * 4 > limit)
    return std::nullopt;
  OptsBuilder o;
  o.gpu = true;
  o.local[0] = t.lm;
  o.local[1] = t.ln;
  o.upcast[0] = t.tm;
  o.upcast[1] = t.tn;
  o.unroll = t.bk;
  o.stages = stages;
  return o;
}

/// target=cuda, a large f32 GEMM uop-lower-gemm stages on CUDA cores
/// (explainNotStagedGemm): the first of kSimtTiles that divides the GEMM
/// with as many stages (2 to the tile's most, at most K's steps) as fit the
/// block's shared memory.
static std::optional<OptsBuilder> cudaStagedGemmChoice(const GemmMatch &g, TargetAttr target) {
  if (!explainNotStagedGemm(g).empty())
    return std::nullopt;
  int64_t limit = std::max(target.getSharedMemory(), target.getSharedMemoryOptin());
  for (const SimtTile &t : kSimtTiles)
    for (int64_t stages = std::clamp<int64_t>(g.k / t.bk, 2, t.stages); stages >= 2; --stages)
      if (auto o = simtOpts(g, t, stages, limit, target.getMaxThreads()))
        return o;
  return std::nullopt;
}

/// A tensor-core block tile: warps (wm x wn), instruction tiles a warp
/// (tm x tn), instruction steps a stage (ku).
struct TcTile {
  int64_t wm, wn, tm, tn, ku;
};

/// The tensor-core GEMM's tiles, in the hand's order of preference. The
/// largest is 128 x 128 x 32 in 2 x 2 warps of 64 x 64 (4 x 8 instructions
/// of 16 x 8, 128 accumulators a thread), 4 stages: 64 KiB (3 stages, 48
/// KiB, where the target has no opt-in). Larger tiles fit now but were
/// slower on an H200 (8192^3 f16, 2026-12-03: 128x128x32 with 4 stages 446
/// TFLOP/s, 3 stages 438; 128x256x64 x 3 433; 128x256x32 x 4, 8 warps, 404;
/// 256x128x32 x 4 350): mma.sync issue, not the tile's reuse, bounds this
/// kernel.
static const TcTile kTcTiles[] = {
    {2, 2, 4, 8, 2}, // 128 x 128 x 32
    {2, 2, 2, 8, 2}, // 64 x 128 x 32
    {2, 2, 4, 4, 2}, // 128 x 64 x 32
    {2, 2, 2, 4, 2}, // 64 x 64 x 32
    {2, 2, 1, 2, 2}, // 32 x 32 x 32
    {1, 1, 2, 2, 1}, // 32 x 16 x 16
    {1, 1, 1, 2, 1}, // 16 x 16 x 16
};

/// The `tc` opts for `g` with instruction `mma`, tile `t` and `stages`
/// buffers, if the tile divides the GEMM and the buffers fit `limit` bytes.
static std::optional<OptsBuilder> tcOpts(const GemmMatch &g, MmaAttr mma, const TcTile &t,
                                         int64_t stages, int64_t limit) {
  int64_t bm = t.wm * t.tm * mma.getM(), bn = t.wn * t.tn * mma.getN(), bk = t.ku * mma.getK();
  int64_t threads = 32 * t.wm * t.wn;
  int64_t elemBytes = g.inType.getIntOrFloatBitWidth() / 8;
  if (g.m % bm || g.n % bn || g.k % bk || (bm * bk / 8) % threads || (bk * bn / 8) % threads ||
      stages * (bm + bn) * bk * elemBytes > limit)
    return std::nullopt;
  OptsBuilder o;
  o.gpu = true;
  o.tc = mma;
  o.local[0] = t.wm;
  o.local[1] = t.wn;
  o.upcast[0] = t.tm;
  o.upcast[1] = t.tn;
  o.unroll = t.ku;
  o.stages = stages;
  return o;
}

/// target=cuda, a GEMM the target's tensor cores compute (fitsTensorCore):
/// the `tc` opt with the first of kTcTiles that divides the GEMM and whose
/// `stages` buffers (up to 4, at least 2) fit the shared memory a block may
/// have: the target's opt-in limit (227 KiB on sm_90), past the 48 KiB a
/// block may declare statically (uop-to-gpu then makes it dynamic shared
/// memory, which the runtime opts into).
static std::optional<OptsBuilder> cudaTensorCoreChoice(const GemmMatch &g, MmaAttr mma,
                                                       TargetAttr target) {
  int64_t limit = std::max(target.getSharedMemory(), target.getSharedMemoryOptin());
  for (const TcTile &t : kTcTiles) {
    int64_t steps = g.k / (t.ku * mma.getK());
    for (int64_t stages = std::clamp<int64_t>(steps, 2, 4); stages >= 2; --stages)
      if (auto o = tcOpts(g, mma, t, stages, limit))
        return o;
  }
  return std::nullopt;
}

/// The mma.sync shapes of `target` that compute `g`.
static SmallVector<MmaAttr> mmaSyncShapes(const GemmMatch &g, TargetAttr target) {
  SmallVector<MmaAttr> shapes;
  for (MmaAttr mma : target.getMma())
    if (mma.getM() == 16 && mma.getN() == 8 && mma.getK() == 16 && fitsTensorCore(g, mma))
      shapes.push_back(mma);
  return shapes;
}

/// Hopper's warpgroup MMA `mma` (64 x n x 16 from the target's list) for
/// `g` with an f32 result: 2 warpgroups a block, each 64 rows by `n`
/// columns, 64 of K a stage (unroll 4), `stages` (0: as many, up to 4 and at
/// least 2, as K has steps and the target's shared memory holds); M and K
/// multiples of 128, N of `n`.
static std::optional<OptsBuilder> warpgroupOpts(const GemmMatch &g, MmaAttr mma, int64_t n,
                                                int64_t stages, TargetAttr target) {
  if (!g.outType.isF32() || g.m % 128 || g.k % 128 || !n || g.n % n || n > mma.getN())
    return std::nullopt;
  MLIRContext *ctx = mma.getContext();
  MmaAttr inst = MmaAttr::get(ctx, 64, n, 16, mma.getA(), mma.getC(), /*warpgroup=*/true);
  if (!fitsWarpgroupMma(g, inst))
    return std::nullopt;
  int64_t bm = 128, bk = 64, steps = g.k / bk;
  int64_t stageBytes = (bm + n) * bk * 2;
  int64_t limit = std::max(target.getSharedMemory(), target.getSharedMemoryOptin());
  if (!stages) {
    stages = std::clamp<int64_t>(steps, 2, 4);
    while (stages > 2 && stages * stageBytes > limit)
      --stages;
  }
  if (stages * stageBytes > limit || stages > steps)
    return std::nullopt;
  OptsBuilder o;
  o.gpu = true;
  o.tc = inst;
  o.local[0] = 2;
  o.unroll = 4;
  o.stages = stages;
  return o;
}

/// The target's warpgroup MMA shapes (sm_90a) that take `g`'s types.
static SmallVector<MmaAttr> warpgroupShapes(const GemmMatch &g, TargetAttr target) {
  SmallVector<MmaAttr> shapes;
  if (!target.getChip().starts_with("sm_90"))
    return shapes;
  for (MmaAttr mma : target.getMma())
    if (mma.getWarpgroup() && mma.getM() == 64 && mma.getK() == 16 && mma.getA().isF16() &&
        mma.getC().isF32() && mma.getA() == g.inType && mma.getC() == g.accType)
      shapes.push_back(mma);
  return shapes;
}

/// target=cuda with Hopper's warpgroup MMA (sm_90a), a GEMM it computes
/// (fitsWarpgroupMma): the instruction's n 256 where N is a multiple of 256,
/// else 128 (smaller and odd GEMMs keep mma.sync).
static std::optional<OptsBuilder> warpgroupChoice(const GemmMatch &g, MmaAttr mma,
                                                  TargetAttr target) {
  int64_t n = g.n % 256 == 0 ? 256 : g.n % 128 == 0 ? 128 : 0;
  return warpgroupOpts(g, mma, n, /*stages=*/0, target);
}

/// The tensor-core opt for `kernel` on `target`, if it is a GEMM one of the
/// target's `mma` shapes computes: Hopper's warpgroup MMA first (with
/// `warpgroup`), then mma.sync.
static std::optional<OptsBuilder> tensorCoreChoice(func::FuncOp kernel, TargetAttr target,
                                                   bool warpgroup) {
  std::optional<GemmMatch> g = matchGemm(kernel);
  if (!g)
    return std::nullopt;
  if (warpgroup)
    for (MmaAttr mma : warpgroupShapes(*g, target))
      if (std::optional<OptsBuilder> o = warpgroupChoice(*g, mma, target))
        return o;
  for (MmaAttr mma : mmaSyncShapes(*g, target))
    if (std::optional<OptsBuilder> o = cudaTensorCoreChoice(*g, mma, target))
      return o;
  return std::nullopt;
}

SmallVector<OptsAttr> mlir::uop::getGpuOptCandidates(func::FuncOp kernel, TargetAttr target) {
  MLIRContext *ctx = kernel.getContext();
  SmallVector<OptsAttr> out;
  auto ret = dyn_cast<func::ReturnOp>(kernel.getBody().front().getTerminator());
  if (!target || !target.isCUDA() || !ret || ret.getNumOperands() == 0 ||
      isa<VoidType>(ret.getOperand(0).getType()))
    return out;
  auto add = [&](const OptsBuilder &o) {
    OptsAttr a = o.get(ctx);
    if (!llvm::is_contained(out, a))
      out.push_back(a);
  };
  ArrayRef<int64_t> shape = getShape(ret.getOperand(0).getType());
  bool reduces = kernel.walk([](ReduceOp) { return WalkResult::interrupt(); }).wasInterrupted();
  int64_t limit = std::max(target.getSharedMemory(), target.getSharedMemoryOptin());
  std::optional<GemmMatch> g = reduces ? matchGemm(kernel) : std::nullopt;
  if (g) {
    for (MmaAttr mma : warpgroupShapes(*g, target))
      for (int64_t n : {128, 256})
        for (int64_t stages = 2; stages <= 4; ++stages)
          if (auto o = warpgroupOpts(*g, mma, n, stages, target))
            add(*o);
    for (MmaAttr mma : mmaSyncShapes(*g, target))
      for (const TcTile &t : kTcTiles)
        for (int64_t stages = 2; stages <= 4; ++stages)
          if (auto o = tcOpts(*g, mma, t, stages, limit))
            add(*o);
    if (explainNotStagedGemm(*g).empty())
      for (const SimtTile &t : kSimtTiles)
        for (int64_t stages = 2; stages <= 4; ++stages)
          if (auto o = simtOpts(*g, t, stages, limit, target.getMaxThreads()))
            add(*o);
  }
  // The register tile without shared memory (a large two-axis reduce).
  if (reduces)
    if (std::optional<OptsBuilder> o = cudaGemmChoice(shape, getReduceSize(kernel)))
      add(*o);
  // The hand's rule with other block budgets, 32 threads to the target's
  // most (its errors, a grid the blocks do not fit, are no candidate).
  ScopedDiagnosticHandler quiet(ctx, [](Diagnostic &) { return success(); });
  for (int64_t budget = std::max<int64_t>(target.getWarp(), 32); budget <= target.getMaxThreads();
       budget *= 2) {
    FailureOr<OptsBuilder> c = gpuOptChoice(
        kernel, shape, reduces, budget, target.getMaxGrid(),
        target.getMultiprocessors() * target.getMaxThreads(), target.getMultiprocessors(),
        target.getWarp());
    if (succeeded(c))
      add(*c);
  }
  return out;
}

namespace {
struct UopHandOptPass : uop::impl::UopHandOptPassBase<UopHandOptPass> {
  using Base::Base;
  void runOnOperation() override {
    if (maxThreads < 1) {
      emitError(getOperation().getLoc(), "uop-hand-opt: max-threads must be >= 1, got ")
          << maxThreads;
      return signalPassFailure();
    }
    TargetAttr target = getTarget(getOperation());
    if (!target)
      target = getDefaultTarget(&getContext(), TargetKind::CPU);
    bool gpu = target.isCUDA();
    VectorUnit unit = gpu ? VectorUnit() : vectorUnitOf(target);
    int64_t blockThreads = gpu ? std::min<int64_t>(maxThreads, target.getMaxThreads()) : 0;
    for (auto kernel : getOperation().getOps<func::FuncOp>()) {
      if (!isKernel(kernel) || kernel->hasAttr(kOptsAttrName) || kernel.isDeclaration())
        continue;
      auto ret = dyn_cast<func::ReturnOp>(kernel.getBody().front().getTerminator());
      if (!ret || ret.getNumOperands() == 0 || isa<VoidType>(ret.getOperand(0).getType()))
        continue; // already a kernel graph (L2): nothing left to choose
      // A multi-output kernel's values share one shape: its opts are theirs.
      ArrayRef<int64_t> shape = getShape(ret.getOperand(0).getType());
      OptsBuilder choice;
      if (gpu) {
        bool reduces =
            kernel.walk([](ReduceOp) { return WalkResult::interrupt(); }).wasInterrupted();
        std::optional<OptsBuilder> tuned;
        if (reduces)
          tuned = tensorCoreChoice(kernel, target, warpgroup);
        if (reduces && !tuned) {
          tuned = cudaGemmChoice(shape, getReduceSize(kernel));
          // A large GEMM whose operands cp.async can copy: staged through
          // shared memory instead.
          if (tuned)
            if (std::optional<GemmMatch> g = matchGemm(kernel))
              if (std::optional<OptsBuilder> staged = cudaStagedGemmChoice(*g, target))
                tuned = staged;
        }
        FailureOr<OptsBuilder> c = tuned ? FailureOr<OptsBuilder>(*tuned)
                                         : gpuOptChoice(kernel, shape, reduces, blockThreads,
                                                        target.getMaxGrid(),
                                                        target.getMultiprocessors() *
                                                            target.getMaxThreads(),
                                                        target.getMultiprocessors(),
                                                        target.getWarp());
        if (failed(c))
          return signalPassFailure();
        choice = *c;
      } else {
        int64_t rsize = getReduceSize(kernel);
        // A stashing kernel reads back its output: no ragged register tile.
        bool stash = recomputesTranscendental(kernel);
        bool matmul = isMatmulShaped(kernel, shape);
        // Row reductions: LLVM vectorizes their loops along the row, and
        // upcast rows (the seed's 4x4, or a register tile) share no loads,
        // they only multiply the live values (spills: on Zen 5, 4096 x
        // 4096 f32, the sum of exp2 1.5 ms without, 2.5 with 2 or 4 rows;
        // fused softmax 2.9 ms without, 4.1 with 8x32). They are threaded
        // over rows, as the seed's rule is without an upcast. A fused row
        // kernel (two or more reductions, each row walked by two or more
        // loops) fetches the next row while it computes on this one.
        // (Rows shorter than a tile's lanes keep the seed's upcast: LLVM
        // has little to vectorize in them.)
        SmallVector<ReduceOp> rows;
        if (unit.bits > 0 && !matmul && rsize >= tileLanes(unit))
          rows = rowReductions(kernel);
        if (!rows.empty()) {
          chooseThread(shape, rsize, choice);
          if (rows.size() >= 2 && rsize >= 4 * kPrefetchNextStrip)
            choice.prefetchNext = kPrefetchNextStrip;
        } else {
          choice = handOptChoice(shape, rsize, matmul, unit, !stash);
        }
        choice.stash = stash;
        // A threaded copy (uop-layout's pack of B's panels) is threaded over
        // the axis that walks the source's rows, four rows an iteration:
        // each thread then reads whole rows instead of a column strip of
        // every row (2048^3's pack, [1, 128, 2048, 16] from B's 2048
        // rows: thread = 1 10.3 ms, thread = 2 4.1, with upcast {2: 4}
        // 3.1). With a vector unit only: the seed's choice without one.
        if (unit.bits > 0 && choice.thread >= 0 && rsize <= 1)
          if (std::optional<int64_t> axis = copyRowAxis(kernel)) {
            choice.thread = *axis;
            choice.upcast.clear();
            if (shape[*axis] % 4 == 0 && shape[*axis] / 4 >= 2)
              choice.upcast[*axis] = 4;
          }
      }
      kernel->setAttr(kOptsAttrName, choice.get(&getContext()));
      ++numChosen;
    }
  }
};
} // namespace
