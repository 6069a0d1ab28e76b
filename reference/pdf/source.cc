#include "docconform/pdf/source.h"

#include <cstring>

#include "docconform/error.h"
#include "sources.h"

namespace docconform::pdf {

const char* to_string(SourceKind kind) {
  switch (kind) {
    case SourceKind::mapped: return "mapped";
    case SourceKind::pread: return "pread";
    case SourceKind::buffered: return "buffered";
    case SourceKind::whole: return "whole";
  }
  return "?";
}

SourceKind parse_source_kind(std::string_view name) {
  for (SourceKind kind : {SourceKind::mapped, SourceKind::pread, SourceKind::buffered, SourceKind::whole}) {
    if (name == to_string(kind)) return kind;
  }
  throw Error(ErrorKind::usage, {}, "unknown byte source '" + std::string(name) + "' (mapped, pread, buffered, whole)");
}

SourceCounts& SourceCounts::operator+=(const SourceCounts& other) {
  open += other.open;
  fstat += other.fstat;
  map += other.map;
  unmap += other.unmap;
  pread += other.pread;
  bytes_copied += other.bytes_copied;
  return *this;
}

SourceCounts SourceCounts::operator-(const SourceCounts& earlier) const {
  SourceCounts d;
  d.open = open - earlier.open;
  d.fstat = fstat - earlier.fstat;
  d.map = map - earlier.map;
  d.unmap = unmap - earlier.unmap;
  d.pread = pread - earlier.pread;
  d.bytes_copied = bytes_copied - earlier.bytes_copied;
  return d;
}

void ByteSource::read(std::uint64_t offset, std::size_t size, void* out) {
  const std::uint8_t* bytes = map(offset, size);  // checks the range, also for size 0
  if (size > 0) std::memcpy(out, bytes, size);
}

void ByteSource::check_range(std::uint64_t offset, std::size_t size) const {
  if (offset > size_ || size > size_ - offset) {
    throw Error(ErrorKind::range, {name_, "", offset},
                "request for " + std::to_string(size) + " bytes is outside the file (" + std::to_string(size_) +
                    " bytes)");
  }
}

std::unique_ptr<ByteSource> ByteSource::same_size(std::unique_ptr<ByteSource> fresh) const {
  if (fresh->size() != size_) {
    throw Error(ErrorKind::io, {name_, "", std::nullopt},
                "file changed while open: " + std::to_string(size_) + " bytes, now " + std::to_string(fresh->size()));
  }
  return fresh;
}

std::unique_ptr<ByteSource> open_source(const std::string& path, const SourceOptions& options, std::uint64_t max_memory) {
  switch (options.kind) {
    case SourceKind::mapped: return open_mapped(path, options.window, options.granularity);
    case SourceKind::pread: return open_pread(path);
    case SourceKind::buffered: return open_buffered(path, options.buffer);
    case SourceKind::whole: return open_whole(path, max_memory);
  }
  throw Error(ErrorKind::usage, {path, "", std::nullopt}, "unknown byte source");
}

}  // namespace docconform::pdf
