//===- TensorElementwise.cpp - uop.Tensor's elementwise ops -----*- C++ -*-===//
//
// One line per op (Bindings.h): UOP_UNARY for t.op(), UOP_BINARY for
// t.op(x) with x a Tensor or a Python scalar. The operators (+ - * / < > @)
// are in TensorClass.cpp.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

namespace uop::python {

void bindElementwise(py::class_<Tensor> &t) {
  UOP_BINARY(t, "eq", eq);
  UOP_BINARY(t, "lt", lt);
  UOP_BINARY(t, "gt", gt);
  UOP_BINARY(t, "le", le);
  UOP_BINARY(t, "ge", ge);
  UOP_BINARY(t, "ne", ne);
  UOP_BINARY(t, "maximum", maximum);
  UOP_BINARY(t, "minimum", minimum);
  UOP_UNARY(t, "logical_not", logicalNot);
  UOP_UNARY(t, "float", toFloat);
  UOP_UNARY(t, "reciprocal", reciprocal);
  UOP_UNARY(t, "exp2", exp2);
  UOP_UNARY(t, "log2", log2);
  UOP_UNARY(t, "exp", exp);
  UOP_UNARY(t, "log", log);
  UOP_UNARY(t, "sqrt", sqrt);
  UOP_UNARY(t, "rsqrt", rsqrt);
  UOP_UNARY(t, "sin", sin);
  UOP_UNARY(t, "cos", cos);
  UOP_UNARY(t, "square", square);
  UOP_UNARY(t, "abs", abs);
  UOP_UNARY(t, "relu", relu);
  UOP_UNARY(t, "sigmoid", sigmoid);
  UOP_UNARY(t, "tanh", tanh);
  UOP_UNARY(t, "gelu", gelu);
  UOP_UNARY(t, "silu", silu);
  UOP_METHOD(t, "cast", cast, py::arg("dtype"));
  t.def(
      "where",
      [](const Tensor &self, const Operand &a, const Operand &b) {
        return check(std::visit([&](const auto &x, const auto &y) { return self.where(x, y); }, a, b));
      },
      py::arg("a"), py::arg("b"), doc("Tensor::where"));
}

} // namespace uop::python
