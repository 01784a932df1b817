//===- File.h - writing files whole -----------------------------*- C++ -*-===//
//
// Part of the uop project. No LLVM or MLIR includes.
//
// The runtime's file writes: all of a buffer to a descriptor, a new file
// (made durable with fsync), and the replacement of a file that readers may
// have open (a temporary file beside it, then rename(2)), as bundles and
// the code cache write theirs.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_RUNTIME_FILE_H
#define UOP_RUNTIME_FILE_H

#include "Uop/Runtime/Result.h"

#include <string>
#include <string_view>

namespace uop::rt {

/// Writes all of `data` to `fd` (short writes continued, EINTR retried);
/// false, with errno set, when a write fails.
bool writeAll(int fd, std::string_view data);

/// Creates the file `path`, which must not exist (O_EXCL), with permissions
/// `mode`, writes `data` to it and, when `durable`, fsyncs it (a filesystem
/// that cannot sync, EINVAL, is no error). On failure nothing is left at
/// `path` and the error is "cannot write PATH: REASON".
Result<bool> writeNewFile(const std::string &path, std::string_view data, unsigned mode = 0644,
                          bool durable = true);

/// Replaces `path` with `data` atomically: a new temporary file beside it
/// (on the same filesystem), written durably, then renamed over it, so that
/// readers see the old file or the new one, never a partial one. On failure
/// `path` is unchanged, the temporary removed, and the error is "cannot
/// write PATH: REASON".
Result<bool> atomicWriteFile(const std::string &path, std::string_view data, unsigned mode = 0644);

} // namespace uop::rt

#endif // UOP_RUNTIME_FILE_H
