// Byte sources for the PDF reader: one interface, four interchangeable implementations
// (sliding-window mmap, pread per fetch, read-ahead buffer, whole file in memory). Every source
// counts the kernel calls it makes and the bytes it copies, so IO strategies can be compared.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "docconform/pdf/limits.h"

namespace docconform::pdf {

// Explicit kernel transitions and copies made by a source since it was opened.
struct SourceCounts {
  std::uint64_t open = 0;
  std::uint64_t fstat = 0;
  std::uint64_t map = 0;     // mmap
  std::uint64_t unmap = 0;   // munmap
  std::uint64_t pread = 0;
  std::uint64_t bytes_copied = 0;  // bytes moved from the kernel into user buffers (pread)

  std::uint64_t total_calls() const { return open + fstat + map + unmap + pread; }
  SourceCounts& operator+=(const SourceCounts& other);
  SourceCounts operator-(const SourceCounts& earlier) const;
};

enum class SourceKind { mapped, pread, buffered, whole };

const char* to_string(SourceKind kind);
// Parses "mapped", "pread", "buffered" or "whole"; throws Error(usage) otherwise.
SourceKind parse_source_kind(std::string_view name);

struct SourceOptions {
  SourceKind kind = SourceKind::mapped;
  std::uint64_t window = 64ull << 20;       // mapped: default view size
  std::uint64_t granularity = 64ull << 10;  // mapped: view alignment, a multiple of the page size
  std::uint64_t buffer = 256ull << 10;      // buffered: read-ahead size
};

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  ByteSource(const ByteSource&) = delete;
  ByteSource& operator=(const ByteSource&) = delete;

  // Returns a pointer to bytes [offset, offset + size) of the file, valid until the next call to
  // map() or read() on this source. size 0 is allowed for offset <= size(). Throws Error(range)
  // for a request outside the file and Error(io) when the file shrank or changed underneath.
  virtual const std::uint8_t* map(std::uint64_t offset, std::size_t size) = 0;

  // Copies [offset, offset + size) into out (same errors as map()).
  void read(std::uint64_t offset, std::size_t size, void* out);

  // read() for bytes that are copied once and not wanted in a view: a windowed source drops its
  // view and has the kernel copy them from the page cache (one pread), which costs less than
  // mapping pages only to copy them. Same errors as map().
  virtual void copy_out(std::uint64_t offset, std::size_t size, void* out) { read(offset, size, out); }

  // From a source that holds only parts of the file in memory: how many bytes from offset on it
  // holds in one piece (a request past them costs a kernel call). 0 when it does not hold offset
  // or is not such a source.
  virtual std::uint64_t held_from(std::uint64_t /*offset*/) const { return 0; }

  // Bytes of the file this source read into memory and holds for its whole life (the source
  // `whole`): a reader charges them to its max_memory. Bytes a caller handed over are the caller's.
  virtual std::uint64_t held_bytes() const { return 0; }

  // Throws Error(io) if the file is no longer what this source opened (its size changed, or a
  // mapped view was found truncated under it). Call it before reporting anything read as a
  // success: a file another process shrinks mid-read must not yield a result.
  virtual void verify_unchanged() {}

  // A second, independent source of the same kind over the same bytes (its own view or buffer,
  // its own counts), so another thread can read them. A file is opened again; Error(io) if its
  // size changed since this source opened it.
  virtual std::unique_ptr<ByteSource> another() const = 0;

  std::uint64_t size() const { return size_; }
  const std::string& name() const { return name_; }
  const SourceCounts& counts() const { return counts_; }
  virtual SourceKind kind() const = 0;

 protected:
  ByteSource(std::string name, std::uint64_t size) : name_(std::move(name)), size_(size) {}
  // Throws Error(range) unless [offset, offset + size) lies inside the file.
  void check_range(std::uint64_t offset, std::size_t size) const;
  // Returns fresh, or throws Error(io) when it sees a different file size than this source.
  std::unique_ptr<ByteSource> same_size(std::unique_ptr<ByteSource> fresh) const;

  std::string name_;
  std::uint64_t size_;
  SourceCounts counts_;
};

// Opens path with the given strategy. A zero-length file is an Error(range); with the source
// `whole`, a file larger than max_memory is an Error(limit) before anything is read.
std::unique_ptr<ByteSource> open_source(const std::string& path, const SourceOptions& options,
                                        std::uint64_t max_memory = Limits{}.max_memory);

// A source over bytes already in memory (kind whole; no kernel calls). The bytes are copied.
std::unique_ptr<ByteSource> memory_source(std::string bytes, std::string name = "<memory>");

}  // namespace docconform::pdf
