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

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

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
/// readers see the old file or the new one, never a partial one. A `path`
/// that exists must be a regular file (a symbolic link is followed: its
/// target is replaced), which keeps its permissions; a directory, FIFO,
/// device or socket is refused. On failure `path` is unchanged, the
/// temporary removed, and the error is "cannot write PATH: REASON".
Result<bool> atomicWriteFile(const std::string &path, std::string_view data, unsigned mode = 0644);

/// "a directory", "a FIFO", "a character device", ... for a `st_mode` that
/// is not a regular file; "" for a regular file.
std::string nonRegularKind(unsigned stMode);

/// Whether `path` can be an output, checked before anything is computed or
/// written: absent (in a directory that exists), or a regular file (through
/// symbolic links) that is none of the files `inputs` name. The error is
/// "PATH: REASON", e.g. "p.uir: is also an input (uop never writes over an
/// input)" or "f: is a FIFO, not a regular file (uop writes only regular
/// files)".
Result<bool> checkOutputPath(const std::string &path, const std::vector<std::string> &inputs = {});

/// One file for writeFilesAtomically: where, and its bytes as pieces
/// written in order (views, not copied: a large buffer is written from
/// where it is).
struct FileContents {
  std::string path;
  std::vector<std::string_view> pieces;
};

/// Writes every file or none, as atomicWriteFile does each: all are written
/// to temporaries beside them first, and only when every one is complete
/// are they renamed into place, so a failure (a bad path, a full disk)
/// leaves no file changed and no temporary behind. (Only a rename that fails
/// after earlier ones succeeded, which needs the directory to change under
/// us, leaves those earlier files written.)
Result<bool> writeFilesAtomically(const std::vector<FileContents> &files, unsigned mode = 0644);

/// Reads all of the file `path` ("-": standard input) for a tool: a regular
/// file whole, anything else (a pipe, a FIFO, a device) only up to
/// `maxBytes` and with at most `timeoutSeconds` between bytes, so that
/// /dev/zero, a terminal or a FIFO nobody writes cannot hang or exhaust the
/// tool. The error is "PATH: REASON".
Result<std::string> readInputFile(const std::string &path, uint64_t maxBytes = uint64_t(256) << 20,
                                  int timeoutSeconds = 10);

/// A descriptor open for reading `path` whose open never blocks (a FIFO
/// without a writer; O_NONBLOCK, cleared again for a regular file): read it
/// with readSome. -1 and errno on failure.
int openForReading(const std::string &path);

/// Reads up to `n` bytes from `fd` into `dst` (fewer only at the end of
/// the data), waiting at most `timeoutSeconds` for each chunk (a pipe, a
/// FIFO, a terminal). The bytes read, or -1 with errno set (ETIMEDOUT when
/// a wait ran out).
int64_t readSome(int fd, void *dst, uint64_t n, int timeoutSeconds = 10);

} // namespace uop::rt

#endif // UOP_RUNTIME_FILE_H
