#include "deflated_entry.h"

#include <libdeflate.h>

#include <algorithm>
#include <new>

namespace docconform::xlsx {
namespace {

// Compressed bytes copied out of the archive per refill.
constexpr std::size_t input_bytes = 64 << 10;

}  // namespace

DeflatedEntry::DeflatedEntry(zip_file_t* raw, std::uint32_t crc)
    : raw_(raw), expected_crc_(crc), input_(std::make_unique_for_overwrite<std::uint8_t[]>(input_bytes)) {
  if (inflateInit2(&z_, -MAX_WBITS) != Z_OK) throw std::bad_alloc();  // its only failure with valid arguments
}

DeflatedEntry::~DeflatedEntry() { inflateEnd(&z_); }

std::size_t DeflatedEntry::read(std::uint8_t* out, std::size_t max) {
  if (stream_ended_ || max == 0) return 0;
  z_.next_out = out;
  z_.avail_out = static_cast<uInt>(std::min<std::size_t>(max, 1u << 30));
  const uInt room = z_.avail_out;
  const auto produced = [&] { return static_cast<std::size_t>(room - z_.avail_out); };
  while (z_.avail_out > 0) {
    if (z_.avail_in == 0 && !input_ended_) {
      const zip_int64_t n = zip_fread(raw_, input_.get(), input_bytes);
      if (n < 0) throw CorruptEntry{zip_file_strerror(raw_), produced()};
      input_ended_ = n == 0;
      z_.next_in = input_.get();
      z_.avail_in = static_cast<uInt>(n);
    }
    const int status = inflate(&z_, Z_NO_FLUSH);
    if (status == Z_STREAM_END) {
      stream_ended_ = true;
      break;
    }
    if (status == Z_BUF_ERROR && input_ended_) throw CorruptEntry{"the deflate data ends early", produced()};
    if (status != Z_OK && status != Z_BUF_ERROR) {
      throw CorruptEntry{z_.msg != nullptr ? z_.msg : "inflate error " + std::to_string(status), produced()};
    }
  }
  crc_ = libdeflate_crc32(crc_, out, produced());
  if (stream_ended_ && crc_ != expected_crc_) throw CorruptEntry{"CRC error", produced()};
  return produced();
}

}  // namespace docconform::xlsx
