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
// Every entry has a checksum file, "checksums/<key><ext>.sha256" in the cache
// directory, holding the entry's size and SHA-256 ("uop-cache-checksum 1 SIZE
// HEX\n"); the subdirectory keeps the cache's own listing to the entries.
// cacheInstall writes both and publishes them together (under an flock(2) of
// the cache directory, so concurrent installers cannot pair one's data with
// another's checksum); cacheLookup verifies the size and checksum before
// returning a path. An entry that fails (truncated by a full disk or a crash, a
// flipped byte, a foreign file, an entry of an older uop without a checksum) is
// removed and reported, and the lookup is a miss, so the caller rebuilds it.
// What is in the place of the cache's own files is healed the same way: a
// directory where an entry or its checksum file belongs is removed, and a
// file where tmp/ or checksums/ belongs is replaced by the directory.
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

/// Like cacheDir(), but checks that the directory can hold new entries: it
/// is (or can be created as) a directory, its tmp/ can be created, a file can
/// be created there, and the filesystem has space left. Returns the directory
/// or one line saying what is wrong, naming the directory and where it came
/// from, e.g. "the cache directory /x ($UOP_CACHE) is not a directory; set
/// UOP_CACHE to a writable directory". Call it before compiling into
/// cacheTempPath() files; lookups work in a read-only cache without it.
Result<std::string> cacheDirChecked();

/// The path of the cached artifact `key` + `ext` if it exists and its size
/// and checksum verify, else "". `ext` is like ".so"; a missing leading dot
/// is added. An entry that exists but does not verify is removed and a
/// warning is printed to stderr ("uop: warning: the cache entry PATH is
/// corrupted (checksum mismatch); rebuilding it"); use the overload below to
/// report it yourself.
std::string cacheLookup(const std::string &key, const std::string &ext);

/// Like cacheLookup(key, ext), but instead of printing, sets `*warning` (when
/// `warning` is not null) to one line that names the entry's path and what
/// was wrong with it, without a "warning:" prefix, e.g. "the cache entry
/// /root/.cache/uop/ab12...so is truncated (1200 bytes, expected 16384);
/// rebuilding it". `*warning` is cleared when there is nothing to report.
std::string cacheLookup(const std::string &key, const std::string &ext, std::string *warning);

/// The checksum file of the cache entry at `entryPath` ("DIR/NAME"):
/// "DIR/checksums/NAME.sha256".
std::string cacheChecksumPath(const std::string &entryPath);

/// Checks the file at `entryPath` against its checksum file: true when the
/// size and SHA-256 match; otherwise an error that names the path and says
/// what is wrong (no checksum file, truncated, checksum mismatch, unreadable).
/// Removes nothing.
Result<bool> cacheVerify(const std::string &entryPath);

/// Atomically installs the file at `tmpPath` as `key` + `ext`, with its
/// checksum file, and returns the final path. `tmpPath` should be on the
/// cache's filesystem (as cacheTempPath() files are); otherwise it is copied
/// there first. Safe when several processes install the same key at once: each
/// rename(2) replaces the entry whole, so the result is one complete file with
/// its own checksum. The temporary file is gone afterwards, on success and on
/// failure. Errors are one line naming the cache directory and the system's
/// reason (e.g. "No space left on device").
Result<std::string> cacheInstall(const std::string &tmpPath, const std::string &key,
                                 const std::string &ext);

/// A fresh file name in cacheDir()/tmp (created on demand, healed when
/// something else is in its place), unique across processes and threads,
/// ending in `ext`. The file itself is not created. The name carries this
/// process's claim: the first call for a directory creates the hidden lock
/// file ".TOKEN.lock" there, held with flock(2) while the process lives, and
/// names its temporaries "TOKEN-N.ext"; it also removes every temporary of a
/// claim whose lock it can take (a process killed mid-compile), and at a
/// normal exit the process removes its own claim and leftovers.
std::string cacheTempPath(const std::string &ext);

/// Removes the cached artifact `key` + `ext` (e.g. one that failed to load)
/// and its checksum file; true if the artifact existed.
bool cacheRemove(const std::string &key, const std::string &ext);

/// Removes from cacheDir()/tmp the temporaries of processes that are gone
/// (their claims' locks are free; see cacheTempPath) and any other file
/// last modified more than `maxAgeSeconds` ago. Young files of a live
/// process may belong to a compile in progress and are kept. Returns the
/// number of files removed.
size_t cachePruneTemps(int64_t maxAgeSeconds = 24 * 3600);

} // namespace uop::rt

#endif // UOP_RUNTIME_CACHE_H
