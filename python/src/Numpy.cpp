//===- Numpy.cpp - numpy arrays in and out, without copies ------*- C++ -*-===//
//
// In: a C-contiguous array of a uop dtype becomes a borrowed host buffer
// (uop::rt::HostBuffer::borrow) that keeps the array alive; uop never writes
// a tensor's data, so the array is only read. Out: numpy() is a read-only
// view of the buffer holding the value, which the view keeps alive (the
// buffer pool does not reuse it while the view lives).
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#include <cstring>

namespace uop::python {

py::dtype numpyDType(DType dtype) {
  switch (dtype) {
  case DType::Bool:
    return py::dtype::of<bool>();
  case DType::I32:
    return py::dtype::of<int32_t>();
  case DType::F16:
    return py::dtype("float16");
  case DType::F32:
    break;
  }
  return py::dtype::of<float>();
}

/// The seed's dtype of an array: floats f32, bools bool, anything else i32.
static DType seedDType(const py::dtype &dt) {
  char kind = dt.kind();
  return kind == 'f' ? DType::F32 : kind == 'b' ? DType::Bool : DType::I32;
}

/// The data's alignment a borrowed buffer needs: the CPU code needs the
/// element's; 16 bytes keeps vector loads of the runtime's own copies fast.
static constexpr uintptr_t kBorrowAlign = 16;

std::shared_ptr<rt::HostBuffer> borrowArray(py::array arr, DType dtype) {
  Shape shape(arr.shape(), arr.shape() + arr.ndim());
  void *ptr = const_cast<void *>(arr.data());
  PyObject *obj = arr.release().ptr();
  std::shared_ptr<void> owner(obj, [](void *o) {
    if (!Py_IsInitialized())
      return; // at exit: the array goes with the interpreter
    py::gil_scoped_acquire gil;
    Py_DECREF(static_cast<PyObject *>(o));
  });
  auto b = rt::HostBuffer::borrow(dtype, shape, ptr, std::move(owner));
  if (!b.ok())
    raise(b.error());
  return std::make_shared<rt::HostBuffer>(b.take());
}

std::shared_ptr<rt::HostBuffer> bufferFromNumpy(const py::handle &data, std::optional<DType> dtype,
                                                bool copy) {
  py::array arr = py::array::ensure(data);
  if (!arr)
    throw py::type_error("uop: cannot make a tensor of a " +
                         std::string(py::str(py::type::handle_of(data).attr("__name__"))));
  DType target = dtype ? *dtype : seedDType(arr.dtype());
  py::dtype want = numpyDType(target);
  if (!arr.dtype().equal(want) || !(arr.flags() & py::array::c_style)) {
    arr = arr.attr("astype")(want, py::arg("order") = "C");
  } else if (copy) {
    arr = arr.attr("copy")();
  }
  void *ptr = const_cast<void *>(arr.data());
  if (reinterpret_cast<uintptr_t>(ptr) % kBorrowAlign == 0)
    return borrowArray(std::move(arr), target);
  Shape shape(arr.shape(), arr.shape() + arr.ndim());
  auto b = rt::HostBuffer::create(target, shape);
  if (!b.ok())
    raise(b.error());
  std::memcpy(b->data(), ptr, b->bytes());
  return std::make_shared<rt::HostBuffer>(b.take());
}

Tensor tensorFromPython(const py::handle &data, std::optional<DType> dtype, bool copy) {
  std::shared_ptr<rt::HostBuffer> buffer = bufferFromNumpy(data, dtype, copy);
  return check(Tensor::fromBuffer(std::move(buffer)));
}

py::array numpyView(std::shared_ptr<const rt::HostBuffer> buffer, const Shape &shape) {
  auto *keep = new std::shared_ptr<const rt::HostBuffer>(std::move(buffer));
  py::capsule base(keep, [](void *p) {
    delete static_cast<std::shared_ptr<const rt::HostBuffer> *>(p);
  });
  const rt::HostBuffer &b = **keep;
  std::vector<py::ssize_t> strides(shape.size());
  py::ssize_t stride = static_cast<py::ssize_t>(rt::dtypeSize(b.dtype()));
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= shape[i];
  }
  std::vector<py::ssize_t> dims(shape.begin(), shape.end());
  py::array a(numpyDType(b.dtype()), dims, strides, b.data(), base);
  py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return a;
}

py::array numpyView(const Tensor &t) { return numpyView(unwrap(t.buffer()), t.shape()); }

} // namespace uop::python
