//===- TensorReduce.cpp - uop.Tensor's reductions ---------------*- C++ -*-===//
//
// `axis` is None (every axis), an int or a sequence of ints, as the seed's.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

namespace uop::python {

/// `t.NAME(axis=None, keepdim=False)` -> Tensor::METHOD(axes, keepdim).
#define UOP_REDUCE(cls, name, method)                                                              \
  cls.def(                                                                                         \
      name,                                                                                        \
      [](const Tensor &self, const py::object &axis, bool keepdim) {                               \
        return check(self.method(axesArg(axis), keepdim));                                         \
      },                                                                                           \
      py::arg("axis") = py::none(), py::arg("keepdim") = false, doc("Tensor::" #method))

void bindReduce(py::class_<Tensor> &t) {
  UOP_REDUCE(t, "sum", sum);
  UOP_REDUCE(t, "max", max);
  UOP_REDUCE(t, "min", min);
  UOP_REDUCE(t, "mean", mean);
  // The seed's var is the population variance (PyTorch's, and the C++
  // API's, default is correction 1).
  t.def(
      "var",
      [](const Tensor &self, const py::object &axis, bool keepdim, double correction) {
        return check(self.var(axesArg(axis), keepdim, correction));
      },
      py::arg("axis") = py::none(), py::arg("keepdim") = false, py::arg("correction") = 0.0,
      doc("Tensor::var"));
  UOP_METHOD(t, "softmax", softmax, py::arg("axis") = -1);
  UOP_METHOD(t, "log_softmax", logSoftmax, py::arg("axis") = -1);
  // The seed's defaults: over the last axis, keeping it.
  t.def(
      "logsumexp",
      [](const Tensor &self, int64_t axis, bool keepdim) { return check(self.logsumexp(axis, keepdim)); },
      py::arg("axis") = -1, py::arg("keepdim") = true, doc("Tensor::logsumexp"));
  UOP_METHOD(t, "argmax", argmax, py::arg("axis") = -1, py::arg("keepdim") = false);
  UOP_METHOD(t, "argmin", argmin, py::arg("axis") = -1, py::arg("keepdim") = false);
}

} // namespace uop::python
