// The OPC package: a zip archive read with libzip over bytes in memory (a read-only mapping
// or a buffer). Part names are looked up case-insensitively with '\' read as '/'; every byte
// inflated is charged against one budget so a zip bomb stops at the limit.
#pragma once

#include <zip.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "docconform/error.h"
#include "docconform/truncation_guard.h"
#include "deflated_entry.h"
#include "docconform/xlsx/workbook.h"

namespace docconform::xlsx {

class Package {
 public:
  Package(const std::uint8_t* data, std::size_t size, std::string label, const Limits& limits,
          InflaterKind inflater);
  ~Package();
  Package(const Package&) = delete;
  Package& operator=(const Package&) = delete;

  const std::string& label() const { return label_; }
  const Limits& limits() const { return limits_; }
  InflaterKind inflater() const { return inflater_; }

  // The entry index of a part (name without a leading '/'), if present.
  std::optional<std::uint64_t> find(std::string_view part) const;
  const std::string& entry_name(std::uint64_t index) const { return names_[index]; }
  bool has(std::string_view part) const { return find(part).has_value(); }

  // The whole inflated part; throws Error naming the part when it is missing or bad. charge =
  // false re-reads a part whose bytes were already counted against the budget.
  std::string read(std::string_view part, bool charge = true) const;

  // A libzip handle over the same bytes for one stream at a time (handles are not shared
  // between threads): a spare one when there is one, else a new one. Opening parses the whole
  // central directory, so handles are reused rather than opened per part.
  zip_t* acquire_handle() const;
  void release_handle(zip_t* zip) const;

  // Charges inflated bytes against the budget; throws Error(limit) when it is exhausted.
  void charge(std::uint64_t bytes, const std::string& part, std::uint64_t offset) const;
  std::uint64_t budget() const { return budget_; }
  // "the inflate budget of N bytes for a M-byte file (...)", for the errors that enforce it.
  std::string budget_text() const;
  std::uint64_t inflated() const { return inflated_.load(std::memory_order_relaxed); }
  std::uint64_t declared_size(std::uint64_t index) const { return sizes_[index]; }
  // The entry's declared size; throws Error(limit) naming it when the size alone is over
  // max_part_bytes or the inflate budget.
  std::uint64_t check_declared_size(std::uint64_t index) const;

  // Error helpers naming file and part.
  [[noreturn]] void fail(ErrorKind kind, const std::string& part, std::optional<std::uint64_t> offset,
                         const std::string& message) const;

 private:
  std::optional<std::uint64_t> record_offset(std::uint64_t index) const;
  void check_local_header(std::uint64_t index) const;

  const std::uint8_t* data_;
  std::size_t size_;
  std::string label_;
  Limits limits_;
  InflaterKind inflater_;
  std::uint64_t budget_;
  mutable std::mutex spare_mutex_;
  mutable std::vector<zip_t*> spare_;
  std::vector<std::string> names_;
  std::vector<std::uint64_t> sizes_;
  std::vector<std::uint64_t> records_;  // where each entry's central directory record starts
  std::unordered_map<std::string, std::uint64_t> lookup_;
  mutable std::atomic<std::uint64_t> inflated_{0};
};

// Incremental inflation of one part through its own libzip handle.
class PartStream {
 public:
  PartStream(const Package& package, const std::string& part, bool charge = true);
  ~PartStream();
  PartStream(const PartStream&) = delete;
  PartStream& operator=(const PartStream&) = delete;

  // Appends up to max bytes to out; returns the count, 0 at the end of the part.
  std::size_t read(std::string& out, std::size_t max);
  bool done() const { return done_; }
  std::uint64_t position() const { return position_; }
  std::uint64_t declared_size() const { return declared_; }

 private:
  // Where zlib stops on this deflated part read from its start, and why: the reported error
  // whatever the inflater, which may stop a few bytes away (common/inflate_stream.h).
  CorruptEntry zlib_verdict(const CorruptEntry& seen) const;

  const Package& package_;
  std::string part_;
  std::uint64_t index_ = 0;
  zip_t* zip_ = nullptr;
  zip_file_t* file_ = nullptr;
  std::unique_ptr<DeflatedEntry> deflated_;  // set when file_ is a deflated entry's raw bytes
  std::uint64_t position_ = 0;
  std::uint64_t declared_ = 0;
  bool done_ = false;
  bool charge_ = true;
};

// A read-only memory mapping of a whole file, watched by the truncation guard
// (docconform/truncation_guard.h).
class FileMapping {
 public:
  explicit FileMapping(const std::string& path);
  ~FileMapping();
  FileMapping(const FileMapping&) = delete;
  FileMapping& operator=(const FileMapping&) = delete;
  std::string_view bytes() const { return {reinterpret_cast<const char*>(view_.data()), size_}; }
  // Throws Error(io) when the file shrank under the mapping (its size changed, or the guard
  // answered a fault in it): what was read from it must not be reported.
  void verify_unchanged() const;
  bool truncated() const { return view_.truncated(); }
  // Lets the kernel drop the pages read so far from this process (they are read again from the
  // page cache when touched): a file read once from end to end then does not grow the RSS.
  void drop_resident_pages() const;

 private:
  std::string path_;
  int fd_ = -1;
  std::size_t size_ = 0;
  WatchedMapping view_;  // empty for an empty file
};

// Normalized lookup key of a part name: lowercase ASCII, '\' as '/', no leading '/'.
std::string part_key(std::string_view name);

struct Relationship {
  std::string id;
  std::string type;      // the kind: worksheet, sharedStrings, comments...; empty for a type URI
                         // outside the SpreadsheetML namespaces
  std::string type_uri;  // as written
  std::string target;  // resolved part name (no leading '/'); empty for external targets
  bool external = false;
  std::uint64_t offset = 0;  // of its <Relationship> element in the .rels part
};

// The .rels part name of a part: dir/name.xml -> dir/_rels/name.xml.rels.
std::string rels_part_of(std::string_view part);

// Resolves a relationship target against the folder of its source part (RFC 3986 style:
// a leading '/' is absolute from the package root, '.' and '..' segments are removed,
// %XX is decoded, '\' is read as '/'). Throws Error(format) when '..' leaves the package.
std::string resolve_target(const Package& package, std::string_view source_part, std::string_view target);

// The relationships of a part; an absent .rels part means none.
std::vector<Relationship> read_relationships(const Package& package, std::string_view source_part);

}  // namespace docconform::xlsx
