//===- IndexArith.h - index arithmetic that folds as it builds ----*- C++ -*-===//
//
// What the GEMM lowerings (lib/Conversion, GemmLowering.h) and the GPU
// emulators (lib/Codegen, uop-emulate-mma) write their addresses with:
// index constants, sums, products, quotients and remainders, folded where
// the operands are constants, as the builder makes them.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_CODEGEN_INDEXARITH_H
#define UOP_CODEGEN_INDEXARITH_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"

#include <algorithm>

namespace mlir::uop {

/// Index arithmetic with the constants folded as they are built.
class Ix {
public:
  Ix(OpBuilder &b, Location loc) : b(b), loc(loc) {}
  Value c(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  static std::optional<int64_t> cst(Value v) { return getConstantIntValue(v); }
  Value add(Value x, Value y) {
    if (auto cx = cst(x); cx && *cx == 0)
      return y;
    if (auto cy = cst(y); cy && *cy == 0)
      return x;
    if (cst(x) && cst(y))
      return c(*cst(x) + *cst(y));
    return arith::AddIOp::create(b, loc, x, y);
  }
  Value add(Value x, int64_t y) { return add(x, c(y)); }
  Value mul(Value x, int64_t y) {
    if (y == 0)
      return c(0);
    if (y == 1)
      return x;
    if (auto cx = cst(x))
      return c(*cx * y);
    return arith::MulIOp::create(b, loc, x, c(y));
  }
  Value div(Value x, int64_t y) {
    if (y == 1)
      return x;
    if (auto cx = cst(x))
      return c(*cx / y);
    return arith::DivUIOp::create(b, loc, x, c(y));
  }
  Value rem(Value x, int64_t y) {
    if (y == 1)
      return c(0);
    if (auto cx = cst(x))
      return c(*cx % y);
    return arith::RemUIOp::create(b, loc, x, c(y));
  }
  Value xorI(Value x, Value y) {
    if (auto cy = cst(y); cy && *cy == 0)
      return x;
    return arith::XOrIOp::create(b, loc, x, y);
  }
  Value minI(Value x, Value y) { return arith::MinSIOp::create(b, loc, x, y); }

  /// The 16-byte chunk where chunk `chunk` of row `row` of a tile with
  /// `perRow` chunks a row (a power of two) is stored: XOR-swizzled so that
  /// 8 consecutive rows at one chunk fall in 8 different 16-byte bank groups
  /// of a 128-byte line (the rows `8 / perRow` to a line share one XOR).
  Value swizzle(Value row, Value chunk, int64_t perRow) {
    if (perRow == 1)
      return chunk;
    int64_t rowsPerLine = std::max<int64_t>(1, 8 / perRow);
    int64_t period = std::min<int64_t>(perRow, 8);
    return xorI(chunk, rem(div(row, rowsPerLine), period));
  }

private:
  OpBuilder &b;
  Location loc;
};

} // namespace mlir::uop

#endif // UOP_CODEGEN_INDEXARITH_H
