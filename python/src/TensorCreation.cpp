//===- TensorCreation.cpp - uop.Tensor's creation functions -----*- C++ -*-===//
//
// The seed's creation functions and their Python signatures: shapes as
// *args (`Tensor.zeros(2, 3)`) or one sequence, random ones from the
// context's seeded generator (Tensor.manual_seed).
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

namespace uop::python {

void bindTensorCreation(py::class_<Tensor> &t) {
  t.def_static(
      "full",
      [](const std::vector<int64_t> &shape, Scalar v, DType dtype) {
        return check(Tensor::full(shape, v, dtype));
      },
      py::arg("shape"), py::arg("value"), py::arg("dtype") = DType::F32, doc("Tensor::full"));
  t.def_static(
      "zeros", [](py::args shape, DType dtype) { return check(Tensor::zeros(intArgs(shape), dtype)); },
      py::arg("dtype") = DType::F32, "Zeros of `shape` (a constant, no data).");
  t.def_static(
      "ones", [](py::args shape, DType dtype) { return check(Tensor::ones(intArgs(shape), dtype)); },
      py::arg("dtype") = DType::F32, "Ones of `shape` (a constant, no data).");
  t.def_static(
      "arange", [](int64_t n) { return check(Tensor::arange(n)); }, py::arg("n"),
      doc("Tensor::arange"));
  t.def_static(
      "randn",
      [](py::args shape, bool requiresGrad) {
        return check(Tensor::randn(intArgs(shape))).setRequiresGrad(requiresGrad);
      },
      py::arg("requires_grad") = false, doc("Tensor::randn"));
  t.def_static(
      "uniform",
      [](py::args shape, double low, double high, bool requiresGrad) {
        return check(Tensor::uniform(intArgs(shape), low, high)).setRequiresGrad(requiresGrad);
      },
      py::arg("low") = -1.0, py::arg("high") = 1.0, py::arg("requires_grad") = false,
      doc("Tensor::uniform"));
  t.def_static(
      "kaiming",
      [](py::args shape, bool requiresGrad) {
        return check(Tensor::kaiming(intArgs(shape))).setRequiresGrad(requiresGrad);
      },
      py::arg("requires_grad") = true, doc("Tensor::kaiming"));
  t.def_static(
      "load", [](const std::string &path) { return check(Tensor::load(path)); }, py::arg("path"),
      doc("Tensor::load"));
}

} // namespace uop::python
