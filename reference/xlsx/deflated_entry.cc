#include "deflated_entry.h"

#include <libdeflate.h>

#include <cstdio>

namespace docconform::xlsx {
namespace {

// Compressed bytes copied out of the archive per refill.
constexpr std::size_t input_bytes = 64 << 10;

}  // namespace

DeflatedEntry::DeflatedEntry(zip_file_t* raw, std::uint32_t crc, InflaterKind inflater)
    : raw_(raw),
      expected_crc_(crc),
      stream_(inflater, DeflateWrapper::raw),
      input_(std::make_unique_for_overwrite<std::uint8_t[]>(input_bytes)) {}

std::size_t DeflatedEntry::read(std::uint8_t* out, std::size_t max) {
  if (stream_ended_ || max == 0) return 0;
  std::size_t produced = 0;
  while (produced < max) {
    if (input_at_ == input_size_ && !input_ended_) {
      const zip_int64_t n = zip_fread(raw_, input_.get(), input_bytes);
      if (n < 0) throw CorruptEntry{std::string("corrupt compressed data: ") + zip_file_strerror(raw_), produced};
      input_ended_ = n == 0;
      input_at_ = 0;
      input_size_ = static_cast<std::size_t>(n);
    }
    const auto step = stream_.inflate(input_.get() + input_at_, input_size_ - input_at_, out + produced,
                                      max - produced, input_ended_);
    input_at_ += step.consumed;
    consumed_ += step.consumed;
    produced += step.produced;
    if (step.status == InflateStatus::end) {
      stream_ended_ = true;
      break;
    }
    if (step.status == InflateStatus::truncated) {
      throw CorruptEntry{"corrupt compressed data: the deflate data ends early, after " + std::to_string(consumed_) +
                             (consumed_ == 1 ? " compressed byte" : " compressed bytes"),
                         produced};
    }
    if (step.status != InflateStatus::more) {
      throw CorruptEntry{"corrupt compressed data: " + std::string(stream_.error_detail()) + " (by compressed byte " +
                             std::to_string(consumed_) + ")",
                         produced};
    }
  }
  crc_ = libdeflate_crc32(crc_, out, produced);
  if (stream_ended_ && crc_ != expected_crc_) {
    char text[96];
    std::snprintf(text, sizeof text, "CRC-32 mismatch: the inflated data's is %08x, the zip directory states %08x", crc_, expected_crc_);
    throw CorruptEntry{text, produced};
  }
  return produced;
}

}  // namespace docconform::xlsx
