//===- TensorMovement.cpp - uop.Tensor's movement ops -----------*- C++ -*-===//
//
// Shapes and axis orders as *args or one sequence, as the seed takes them
// (`t.reshape(2, -1)`, `t.permute((1, 0))`).
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

namespace uop::python {

/// (begin, end) pairs; None keeps an axis whole (the seed's shrink).
static std::vector<std::pair<int64_t, int64_t>> pairsArg(const Tensor &t, const py::object &arg) {
  std::vector<std::pair<int64_t, int64_t>> out;
  Shape shape = t.shape();
  size_t d = 0;
  for (py::handle p : arg) {
    if (p.is_none())
      out.push_back({0, d < shape.size() ? shape[d] : 0});
    else
      out.push_back(p.cast<std::pair<int64_t, int64_t>>());
    ++d;
  }
  return out;
}

void bindMovement(py::class_<Tensor> &t) {
  t.def(
      "reshape", [](const Tensor &self, py::args shape) { return check(self.reshape(intArgs(shape))); },
      doc("Tensor::reshape"));
  t.def(
      "permute", [](const Tensor &self, py::args order) { return check(self.permute(intArgs(order))); },
      doc("Tensor::permute"));
  t.def(
      "expand", [](const Tensor &self, py::args shape) { return check(self.expand(intArgs(shape))); },
      doc("Tensor::expand"));
  t.def(
      "broadcast_to",
      [](const Tensor &self, py::args shape) { return check(self.broadcastTo(intArgs(shape))); },
      doc("Tensor::broadcastTo"));
  UOP_METHOD(t, "transpose", transpose, py::arg("a") = -1, py::arg("b") = -2);
  t.def_property_readonly(
      "T", [](const Tensor &self) { return check(self.T()); }, "transpose(): the last two axes swapped.");
  UOP_METHOD(t, "flatten", flatten, py::arg("start") = 0, py::arg("end") = -1);
  UOP_METHOD(t, "unsqueeze", unsqueeze, py::arg("dim"));
  t.def(
      "squeeze",
      [](const Tensor &self, std::optional<int64_t> dim) {
        return check(dim ? self.squeeze(*dim) : self.squeeze());
      },
      py::arg("dim") = py::none(), doc("Tensor::squeeze"));
  t.def(
      "slice",
      [](const Tensor &self, int64_t axis, int64_t begin, int64_t end) {
        return check(self.slice(axis, begin, end));
      },
      py::arg("axis"), py::arg("begin"), py::arg("end"), doc("Tensor::slice"));
  UOP_METHOD(t, "select", select, py::arg("axis"), py::arg("index"));
  t.def(
      "flip",
      [](const Tensor &self, const std::variant<int64_t, std::vector<int64_t>> &axis) {
        return check(std::visit([&](const auto &a) { return self.flip(a); }, axis));
      },
      py::arg("axis"), doc("Tensor::flip"));
  t.def(
      "shrink", [](const Tensor &self, const py::object &arg) { return check(self.shrink(pairsArg(self, arg))); },
      py::arg("arg"), doc("Tensor::shrink"));
  t.def(
      "pad", [](const Tensor &self, const py::object &arg) { return check(self.pad(pairsArg(self, arg))); },
      py::arg("arg"), doc("Tensor::pad"));
  t.def_static(
      "cat",
      [](const std::vector<Tensor> &ts, int64_t dim) { return check(Tensor::cat(ts, dim)); },
      py::arg("tensors"), py::arg("dim") = 0, doc("Tensor::cat"));
  t.def_static(
      "stack",
      [](const std::vector<Tensor> &ts, int64_t dim) { return check(Tensor::stack(ts, dim)); },
      py::arg("tensors"), py::arg("dim") = 0, doc("Tensor::stack"));
  t.def(
      "stack_with",
      [](const Tensor &self, py::args others) {
        std::vector<Tensor> ts{self};
        for (py::handle h : others)
          ts.push_back(h.cast<Tensor>());
        return check(Tensor::stack(ts));
      },
      "The seed's stack_with: self and `others` stacked on a new leading axis.");
}

} // namespace uop::python
