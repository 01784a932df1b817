//===- NN.cpp - uop.nn: layers and optimizers --------------------*- C++ -*-===//
//
// uop::nn's layers and optimizers under the seed's Python names. A layer's
// tensors are attributes (weight, bias) that a Python model may hold among
// its own; uop.nn.parameters (uop/nn.py) walks Python objects as the seed's
// parameters() does and takes a layer's tensors from Module.parameters().
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#include "Uop/Frontend/NN.h"

namespace uop::python {

void bindNN(py::module_ &m) {
  using namespace uop::nn;
  py::class_<Module> module(m, "Module", doc("Module"));
  module.def("parameters", &Module::parameters, doc("Module::parameters"));
  module.def("named_parameters", &Module::namedParameters, doc("Module::namedParameters"));

  py::class_<Linear, Module>(m, "Linear", doc("Linear"))
      .def(py::init<int64_t, int64_t, bool>(), py::arg("n_in"), py::arg("n_out"),
           py::arg("bias") = true)
      .def("__call__", [](const Linear &l, const Tensor &x) { return check(l(x)); }, py::arg("x"))
      .def_readwrite("weight", &Linear::weight)
      // Settable only to another tensor: the registry points into the optional
      // (setting it to None would leave that pointer dangling).
      .def_property(
          "bias", [](const Linear &l) { return l.bias; },
          [](Linear &l, const Tensor &b) {
            if (!l.bias)
              raise("Linear: this layer was made without a bias");
            *l.bias = b;
          });
  py::class_<Conv2d, Module>(m, "Conv2d", doc("Conv2d"))
      .def(py::init<int64_t, int64_t, int64_t, int64_t, int64_t>(), py::arg("c_in"),
           py::arg("c_out"), py::arg("k"), py::arg("padding") = 0, py::arg("stride") = 1)
      .def("__call__", [](const Conv2d &l, const Tensor &x) { return check(l(x)); }, py::arg("x"))
      .def_readwrite("weight", &Conv2d::weight)
      .def_readwrite("bias", &Conv2d::bias)
      .def_readwrite("padding", &Conv2d::padding)
      .def_readwrite("stride", &Conv2d::stride);
  py::class_<LayerNorm, Module>(m, "LayerNorm", doc("LayerNorm"))
      .def(py::init<int64_t, double>(), py::arg("n"), py::arg("eps") = 1e-5)
      .def("__call__", [](const LayerNorm &l, const Tensor &x) { return check(l(x)); },
           py::arg("x"))
      .def_readwrite("weight", &LayerNorm::weight)
      .def_readwrite("bias", &LayerNorm::bias)
      .def_readwrite("eps", &LayerNorm::eps);
  py::class_<Embedding, Module>(m, "Embedding", doc("Embedding"))
      .def(py::init<int64_t, int64_t>(), py::arg("vocab"), py::arg("dim"))
      .def("__call__", [](const Embedding &l, const Tensor &idx) { return check(l(idx)); },
           py::arg("idx"))
      .def_readwrite("weight", &Embedding::weight)
      .def_readonly("vocab", &Embedding::vocab);

  py::class_<Optimizer>(m, "Optimizer", doc("Optimizer"))
      .def("zero_grad", &Optimizer::zeroGrad, doc("Optimizer::zeroGrad"))
      .def(
          "step",
          [](Optimizer &o, py::args extra) {
            std::vector<Tensor> ts;
            for (py::handle h : extra)
              ts.push_back(h.cast<Tensor>());
            raiseIf(o.step(ts));
          },
          doc("Optimizer::step"))
      .def(
          "minimize", [](Optimizer &o, const Tensor &loss) { raiseIf(o.minimize(loss)); },
          py::arg("loss"), doc("Optimizer::minimize"))
      .def_property_readonly("params", &Optimizer::params, "The parameters it updates.");
  py::class_<SGD, Optimizer>(m, "SGD", doc("SGD"))
      .def(py::init<std::vector<Tensor>, double, double>(), py::arg("params"),
           py::arg("lr") = 0.01, py::arg("momentum") = 0.0)
      .def_readwrite("lr", &SGD::lr)
      .def_readwrite("momentum", &SGD::momentum)
      .def_readonly("v", &SGD::v, doc("SGD::v"));
  py::class_<AdamW, Optimizer>(m, "AdamW", doc("AdamW"))
      .def(py::init<std::vector<Tensor>, double, double, double, double, double>(),
           py::arg("params"), py::arg("lr") = 1e-3, py::arg("b1") = 0.9, py::arg("b2") = 0.999,
           py::arg("eps") = 1e-8, py::arg("wd") = 0.0)
      .def("steps", &AdamW::steps, doc("AdamW::steps"))
      .def_readwrite("lr", &AdamW::lr)
      .def_readwrite("b1", &AdamW::b1)
      .def_readwrite("b2", &AdamW::b2)
      .def_readwrite("eps", &AdamW::eps)
      .def_readwrite("wd", &AdamW::wd)
      .def_readonly("t", &AdamW::t, doc("AdamW::t"))
      .def_readonly("m", &AdamW::m)
      .def_readonly("v", &AdamW::v);
}

} // namespace uop::python
