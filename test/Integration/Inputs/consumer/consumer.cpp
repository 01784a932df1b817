// Builds `stack(1, 2) * stack(1, 2)` with the uop C++ API and prints it.
#include "Uop/IR/UopOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

int main() {
  MLIRContext context;
  context.loadDialect<uop::UopDialect>();
  OpBuilder b(&context);
  Location loc = b.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());
  Value one = uop::ConstOp::create(b, loc, b.getI32IntegerAttr(1));
  Value two = uop::ConstOp::create(b, loc, b.getI32IntegerAttr(2));
  Value s = uop::StackOp::create(b, loc, ValueRange{one, two});
  uop::MulOp::create(b, loc, s, s);
  if (failed(verify(*module)))
    return 1;
  module->print(llvm::outs());
  return 0;
}
