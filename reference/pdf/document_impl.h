// State of a Document that callers never see: the object-stream cluster cache and the stack of
// objects being fetched (to report self-dependencies instead of recursing forever).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "docconform/pdf/document.h"

namespace docconform::pdf {

struct Cluster {
  std::uint32_t stream = 0;
  std::string data;  // decoded object stream
  std::uint64_t first = 0;
  std::vector<std::pair<std::uint32_t, std::uint64_t>> slots;  // (object number, offset from /First)
  // (object number, slot) sorted, built on the first lookup whose xref index misses: a file
  // whose every index is wrong costs a binary search per object, not a scan of the header.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> by_number;
  std::uint64_t last_use = 0;

  // What the cache charges for it: the decoded bytes and the header's index (by_number, built
  // later, is at most the size of slots again: the charge covers it by counting slots twice).
  std::uint64_t held_bytes() const { return data.size() + 2 * slots.size() * sizeof(slots[0]); }
};

// The (object number, offset from /First) pairs of object stream stream_num's header, read as
// the reader reads them. Throws Error.
std::vector<std::pair<std::uint32_t, std::uint64_t>> object_stream_slots(Document& doc, std::uint32_t stream_num);

struct Document::Impl {
  std::vector<Cluster> clusters;
  std::uint64_t cluster_bytes = 0;  // the clusters' held_bytes()
  std::uint64_t clock = 0;
  std::vector<std::uint32_t> fetching;
  std::uint64_t source_charge = 0;  // charged to memory() for the file the source holds
  std::uint64_t object_charge = 0;  // charged to memory() for the objects of the current request
};

}  // namespace docconform::pdf
