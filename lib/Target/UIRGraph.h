//===- UIRGraph.h - the seed's hash-consed UOp graph ------------*- C++ -*-===//
//
// A small mirror of the seed's `UOp` (uopc/uop.py) for the `.uir` exporter:
// nodes are hash-consed on (op, sources, argument), so structurally equal
// nodes are one node, and the printer is the seed's `to_uir` over the seed's
// iterative toposort. (The importer builds uop ops directly and does not use
// it.) Nothing here recurses on graph depth.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_LIB_TARGET_UIRGRAPH_H
#define UOP_LIB_TARGET_UIRGRAPH_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::uop::uir {

/// The seed's `Ops`, in the seed's order.
enum class OpKind : uint8_t {
  Param,
  Call,
  Const,
  Stack,
  Index,
  Cast,
  Recip,
  Add,
  Mul,
  CmpLt,
  FloorDiv,
  FloorMod,
  Where,
  CmpNe,
  Max,
  Exp2,
  Log2,
  Sqrt,
  Sin,
  Buffer,
  Alloc,
  Load,
  Store,
  After,
  Sink,
  Range,
  End,
  Reshape,
  Expand,
  Permute,
  Shrink,
  Reduce,
  Stage,
  Barrier,
  Wmma
};

/// The lower-case name the seed prints (`Ops.X.name.lower()`).
llvm::StringRef opName(OpKind op);

/// The seed's dtypes.
enum class DType : uint8_t { Void, Bool, I32, F32, F16 };
llvm::StringRef dtypeName(DType d);

/// The seed's AddrSpace (Alu is a plain value).
enum class Space : uint8_t { Alu, Global, Local, Shared };

/// The seed's AxisType, in the order of `#uop.axis`.
enum class Axis : uint8_t { Loop, Reduce, Upcast, Thread, Global, Local };
llvm::StringRef axisName(Axis a);

/// A scalar constant: the seed's CONST arg, with its dtype (bool, i32, f32; an
/// f16 constant is the seed's CAST of an f32 CONST).
struct ConstVal {
  DType dtype = DType::I32;
  int64_t i = 0;  ///< bool (0/1) and i32 values
  float f = 0.0f; ///< f32 values
  /// The value is an f16 value (the seed's f16 constant is an f32 CONST cast
  /// to f16): printed as the shortest decimal that reads back as that f16.
  bool half = false;
};

/// Python-repr of a float value that is exact in `half ? f16 : f32`: the
/// shortest decimal that reads back to the same value of that type, printed
/// as `repr` prints it (`2.0`, `0.1`, `1e-05`, `inf`, `-inf`, `nan`).
std::string formatFloat(double value, bool half);

/// The seed's `_fmt_lit` of a constant.
std::string formatConst(const ConstVal &c);

/// One hash-consed node.
struct Node {
  OpKind op = OpKind::Const;
  std::vector<uint32_t> src;
  // ---- the argument (what the seed keeps in `arg`) ----
  DType argDType = DType::F32;   ///< PARAM/BUFFER/ALLOC dtype, CAST target
  int64_t slot = 0;              ///< PARAM/BUFFER/ALLOC slot, RANGE idx, REDUCE pop
  std::vector<int64_t> argShape; ///< PARAM shape, BUFFER/ALLOC (n,), movement arg
                                 ///< (SHRINK: flat [b0, e0, b1, e1, ...])
  Space space = Space::Alu;      ///< ALLOC: Local or Shared
  Axis axis = Axis::Loop;        ///< RANGE kind
  bool reduceMax = false;        ///< REDUCE op: add or max
  std::string name;              ///< CALL name
  ConstVal cval;                 ///< CONST value
  // ---- the node's dtype (for typing inline literals) ----
  DType dtype = DType::Void;
};

/// The hash-consed graph: node ids are in creation order, so sources always
/// have smaller ids than their users.
class Graph {
public:
  /// Returns the id of the node structurally equal to `n`, adding it if new.
  /// `added` says whether it was new.
  uint32_t intern(Node n, bool *added = nullptr);

  const Node &operator[](uint32_t id) const { return nodes[id]; }
  Node &operator[](uint32_t id) { return nodes[id]; }
  size_t size() const { return nodes.size(); }

  /// The seed's `UOp.toposort`: every node reachable from `root`, sources
  /// before users, iteratively.
  std::vector<uint32_t> toposort(uint32_t root) const;

  /// The seed's `call_params`: the PARAMs of a body, not looking inside the
  /// bodies of nested calls. In discovery order.
  std::vector<uint32_t> callParams(uint32_t body) const;

  /// The seed's `to_uir(root)`.
  void print(uint32_t root, llvm::raw_ostream &os) const;

private:
  std::vector<Node> nodes;
  llvm::StringMap<uint32_t> table;
};

/// `(1, 2)`, `(4,)`, `()`: the seed's tuple printing.
std::string formatTuple(llvm::ArrayRef<int64_t> xs);

} // namespace mlir::uop::uir

#endif // UOP_LIB_TARGET_UIRGRAPH_H
