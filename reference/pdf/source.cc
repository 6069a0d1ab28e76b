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

std::unique_ptr<ByteSource> open_source(const std::string& path, const SourceOptions& options) {
  switch (options.kind) {
    case SourceKind::mapped: return open_mapped(path, options.window, options.granularity);
    case SourceKind::pread: return open_pread(path);
    case SourceKind::buffered: return open_buffered(path, options.buffer);
    case SourceKind::whole: return open_whole(path);
  }
  throw Error(ErrorKind::usage, {path, "", std::nullopt}, "unknown byte source");
}

}  // namespace docconform::pdf
