//===- TensorFunctional.cpp - uop.Tensor's linear algebra, losses -*- C++ -*-===//
//
// matmul (also `@`, in TensorClass.cpp), linear, conv2d, pooling, one-hot
// and cross entropy.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

namespace uop::python {

void bindFunctional(py::class_<Tensor> &t) {
  UOP_METHOD(t, "matmul", matmul, py::arg("w"));
  t.def(
      "linear",
      [](const Tensor &self, const Tensor &w, const std::optional<Tensor> &b) {
        return check(b ? self.linear(w, *b) : self.linear(w));
      },
      py::arg("w"), py::arg("b") = py::none(), doc("Tensor::linear"));
  UOP_METHOD(t, "conv2d", conv2d, py::arg("w"), py::arg("b") = py::none(), py::arg("padding") = 0,
             py::arg("stride") = 1, py::arg("dilation") = 1, py::arg("groups") = 1);
  UOP_METHOD(t, "max_pool2d", maxPool2d, py::arg("k") = 2, py::arg("stride") = py::none(),
             py::arg("dilation") = 1, py::arg("padding") = 0, py::arg("ceil_mode") = false);
  UOP_METHOD(t, "one_hot", oneHot, py::arg("n"));
  UOP_METHOD(t, "cross_entropy", crossEntropy, py::arg("labels"), py::arg("reduction") = "mean",
             py::arg("label_smoothing") = 0.0);
}

} // namespace uop::python
