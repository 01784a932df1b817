//===- UopDialect.h - the uop dialect ----------------------------*- C++ -*-===//

#ifndef UOP_IR_UOPDIALECT_H
#define UOP_IR_UOPDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Dialect.h"

#include "Uop/IR/UopOpsDialect.h.inc"

#endif // UOP_IR_UOPDIALECT_H
