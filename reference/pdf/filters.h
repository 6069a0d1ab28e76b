// Stream filters the reader needs for its own structures: FlateDecode with the PNG and
// TIFF-less predictors of §7.4.4.4, under the decoded-size and inflate-ratio limits.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "docconform/pdf/limits.h"
#include "docconform/pdf/object.h"

namespace docconform::pdf {

struct FilterContext {
  const std::string& file;
  const std::string& part;
  const Limits& limits;
  // File offset of the stream's first data byte. Errors report file offsets: inside the file's
  // encoded bytes, where they occur; inside decoded bytes (a predictor's rows, a second filter's
  // input), this offset, the decoded position going into the message.
  std::uint64_t data_offset = 0;
  bool input_is_file_bytes = true;  // false for the filters after the first
};

// Applies the stream's /Filter chain (resolved: direct names/arrays) to raw bytes.
// Filters other than FlateDecode are Error(unsupported).
std::string decode_stream(const Object& dict, std::string_view raw, const FilterContext& context);

// FlateDecode (zlib-wrapped deflate) by limits.inflater, under the limits; a stream cut short
// keeps what came. Exposed for tests and the benchmark.
std::string inflate(std::string_view raw, const FilterContext& context);

}  // namespace docconform::pdf
