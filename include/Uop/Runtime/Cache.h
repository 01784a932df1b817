//===- Cache.h - The on-disk cache of compiled code -------------*- C++ -*-===//
//
// Part of the uop project. No LLVM or MLIR includes.
//
// Compiled artifacts live in cacheDir() under "<key><ext>", where the key is
// hashKey() of everything that determines the artifact (IR, target, flags).
// Writers build into cacheTempPath() and publish with cacheInstall(), an
// atomic rename(2), so readers never see a partial file and any number of
// processes may compile and install the same key at once.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_RUNTIME_CACHE_H
#define UOP_RUNTIME_CACHE_H

#include "Uop/Runtime/Result.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace uop::rt {

/// Incremental SHA-256 (FIPS 180-4).
class Sha256 {
public:
  Sha256();
  /// Hashes `data` after what was hashed before.
  Sha256 &update(std::string_view data);
  /// The digest; the object must not be updated afterwards.
  std::array<uint8_t, 32> final();
  /// The digest as 64 lower-case hex characters.
  std::string finalHex();

private:
  void block(const uint8_t *p);
  uint32_t h[8];
  uint8_t buf[64];
  size_t bufLen = 0;
  uint64_t totalLen = 0;
};

/// Lower-case hex SHA-256 of `data` (64 characters).
std::string sha256Hex(std::string_view data);

/// The cache key of `data`: the first 32 hex characters of its SHA-256.
std::string hashKey(std::string_view data);

/// The cache directory: $UOP_CACHE if set and non-empty, else
/// $HOME/.cache/uop. Created (with parents) on demand; if that fails the path
/// is still returned and the failure shows up when installing.
std::string cacheDir();

/// The path of the cached artifact `key` + `ext` if it exists, else "".
/// `ext` is like ".so"; a missing leading dot is added.
std::string cacheLookup(const std::string &key, const std::string &ext);

/// Atomically installs the file at `tmpPath` as `key` + `ext` and returns the
/// final path. `tmpPath` should be on the cache's filesystem (as
/// cacheTempPath() files are); otherwise it is copied there first. Safe when
/// several processes install the same key at once: each rename(2) replaces
/// the entry whole, so the result is one complete file. The temporary file is
/// gone afterwards, on success and on failure.
Result<std::string> cacheInstall(const std::string &tmpPath,
                                 const std::string &key,
                                 const std::string &ext);

/// A fresh file name in cacheDir()/tmp (created on demand), unique across
/// processes and threads (pid, counter and random bits), ending in `ext`. The
/// file itself is not created.
std::string cacheTempPath(const std::string &ext);

/// Removes the cached artifact `key` + `ext` (e.g. one that failed to load);
/// true if it existed.
bool cacheRemove(const std::string &key, const std::string &ext);

/// Removes files in cacheDir()/tmp last modified more than `maxAgeSeconds`
/// ago: the leftovers of processes that died between cacheTempPath() and
/// cacheInstall(). Young files may belong to a compile in progress and are
/// kept. Returns the number removed.
size_t cachePruneTemps(int64_t maxAgeSeconds = 24 * 3600);

} // namespace uop::rt

#endif // UOP_RUNTIME_CACHE_H
