//===- Npy.h - Reading and writing numpy .npy files -------------*- C++ -*-===//
//
// Part of the uop project. No LLVM or MLIR includes.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_RUNTIME_NPY_H
#define UOP_RUNTIME_NPY_H

#include "Uop/Runtime/Buffer.h"
#include "Uop/Runtime/Result.h"

#include <string>

namespace uop::rt {

/// Reads a .npy file: format versions 1.0, 2.0 and 3.0, dtypes '<f4', '<i4',
/// '<f2' and '|b1' (bool bytes are normalized to 0/1), C order, any shape
/// including () and (n,). Anything else is an error that names the file and
/// what is wrong, e.g. "x.npy: unsupported dtype '<f8' (uop reads bool, i32,
/// f16, f32)"; no input makes it crash. Bytes after the array are ignored, as
/// np.load does; from a pipe, FIFO or device they are not even read (the
/// header says how much to read; each wait for data is bounded).
Result<HostBuffer> readNpy(const std::string &path);

/// Like readNpy, on `size` bytes in memory; `name` prefixes the errors.
Result<HostBuffer> readNpyFromMemory(const void *data, size_t size, const std::string &name);

/// Writes `buf` as a version 1.0 .npy file (2.0 if the header needs it) that
/// np.load reads back with the same dtype and shape, atomically
/// (atomicWriteFile: a temporary beside `path`, renamed when complete; a
/// non-regular `path` is refused).
Result<bool> writeNpy(const std::string &path, const HostBuffer &buf);

/// The bytes writeNpy writes, as a string.
std::string encodeNpy(const HostBuffer &buf);

/// The header part of encodeNpy (the data follows it).
std::string encodeNpyHeader(const HostBuffer &buf);

} // namespace uop::rt

#endif // UOP_RUNTIME_NPY_H
