//===- BundleFormat.h - the .uopx container, for Bundle.cpp and Step.cpp -===//
//
// Private to lib/Runtime. Both kinds of bundle share one container (Bundle.h
// describes it): a header (magic, format version, entry count, size),
// named entries, and a SHA-256 of every byte before it. Format 1 holds a
// program (Bundle.cpp), format 2 a training step (Step.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef UOP_LIB_RUNTIME_BUNDLEFORMAT_H
#define UOP_LIB_RUNTIME_BUNDLEFORMAT_H

#include "Uop/Runtime/Result.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace uop::rt::detail {

/// A container's entries, in file order.
using BundleEntries = std::vector<std::pair<std::string, std::string>>;

/// The entries of a checked container: its format version and each entry's
/// bytes by name (views into the bytes decoded).
struct BundleContents {
  uint32_t version = 0;
  std::map<std::string, std::string_view> entries;
};

/// The bytes of a container of format `version` holding `entries`.
std::string encodeContainer(uint32_t version, const BundleEntries &entries);

/// Checks `bytes` (magic, a known version: 1 or 2, size, checksum, entries
/// at most 64 in format 1 and 65536 in format 2, each name 1 to 64 bytes
/// and once) and returns its entries; errors start with `name` (Bundle.h
/// lists them).
Result<BundleContents> decodeContainer(std::string_view bytes, const std::string &name);

/// The bytes of the container file at `path`: its header first, so a
/// foreign file (however large) is refused unread, then what the header
/// announces (and one byte more, to notice trailing data).
Result<std::string> readContainerFile(const std::string &path);

/// An entry's text (or a line of it) as an error quotes it: printable
/// (others '?'), one line, at most `max` characters (then "...").
std::string quoteEntry(std::string_view text, size_t max = 64);

} // namespace uop::rt::detail

#endif // UOP_LIB_RUNTIME_BUNDLEFORMAT_H
