// Constructors of the concrete byte sources (source_mapped.cc, source_read.cc).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "docconform/pdf/source.h"

namespace docconform::pdf {

std::unique_ptr<ByteSource> open_mapped(const std::string& path, std::uint64_t window, std::uint64_t granularity);
std::unique_ptr<ByteSource> open_pread(const std::string& path);
std::unique_ptr<ByteSource> open_buffered(const std::string& path, std::uint64_t buffer);
std::unique_ptr<ByteSource> open_whole(const std::string& path, std::uint64_t max_memory);

}  // namespace docconform::pdf
