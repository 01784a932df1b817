//===- UopAttrs.h - uop attributes and enums ---------------------*- C++ -*-===//

#ifndef UOP_IR_UOPATTRS_H
#define UOP_IR_UOPATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"

#include "Uop/IR/UopEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "Uop/IR/UopAttrs.h.inc"

#endif // UOP_IR_UOPATTRS_H
