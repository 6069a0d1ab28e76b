// One deflate stream inflated in bounded pieces by the chosen inflater (docconform/inflater.h).
// The zlib wrapper (RFC 1950 header and Adler-32 trailer) is read here, the same for every
// inflater (the Adler-32 by libdeflate's vectorised one); the inflaters decode the raw deflate
// data (RFC 1951) only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "docconform/inflater.h"

namespace docconform {

enum class DeflateWrapper : unsigned char { raw, zlib };

// How a stream stopped. The classes an inflater reports are the same for every inflater.
enum class InflateStatus : unsigned char {
  more,       // needs more input or more output room
  end,        // the stream (and its trailer) is complete; later input is not consumed
  truncated,  // the input ended (input_ends) before the stream did
  bad_header, // the zlib header is wrong or asks for a preset dictionary
  bad_data,   // the deflate data is invalid
  bad_check,  // the Adler-32 trailer does not match
};

// Decodes raw deflate data; one implementation per inflater.
class DeflateDecoder {
 public:
  enum class Status : unsigned char { more, end, bad_data };
  struct Step {
    std::size_t consumed = 0;
    std::size_t produced = 0;
    Status status = Status::more;
    // For bad_data: "invalid block", "invalid code set" (zlib only: ISA-L accepts incomplete
    // code-length, literal/length and distance codes), "invalid code", "distance too far back".
    std::string_view detail;
    // At end: bytes after the deflate data that earlier calls consumed (read ahead), in order.
    std::uint8_t carried[8] = {};
    unsigned carried_count = 0;
  };
  virtual ~DeflateDecoder() = default;
  // At end, consumed stops at the last byte of the deflate data (or, when an earlier call read
  // past it, is 0 and the bytes it read past are carried).
  virtual Step decode(const std::uint8_t* in, std::size_t in_size, std::uint8_t* out, std::size_t out_size) = 0;
};

class InflateStream {
 public:
  struct Step {
    std::size_t consumed = 0;
    std::size_t produced = 0;
    InflateStatus status = InflateStatus::more;
  };

  InflateStream(InflaterKind kind, DeflateWrapper wrapper);
  ~InflateStream();
  InflateStream(const InflateStream&) = delete;
  InflateStream& operator=(const InflateStream&) = delete;

  // Inflates from in into out. input_ends: no input follows this piece, so a stream that has
  // not ended once this piece is consumed (with output room left) is truncated. After end or an
  // error, every call returns that status again and consumes nothing.
  Step inflate(const std::uint8_t* in, std::size_t in_size, std::uint8_t* out, std::size_t out_size,
               bool input_ends);

  // Input bytes consumed so far: where an error lies, near enough for a message.
  std::uint64_t total_in() const { return total_in_; }
  // Whether the deflate data has ended (a truncated stream may have lost only its trailer).
  // Inside the deflate data, invalid and cut-short input can be told apart at different bytes
  // by different inflaters: one may see a bad code where the other still waits for input.
  bool deflate_ended() const { return phase_ == Phase::trailer || (phase_ == Phase::done && deflate_ended_); }
  // What went wrong, for a message: "incorrect header check", "invalid block", ...
  std::string_view error_detail() const { return detail_; }

 private:
  Step finish(std::size_t consumed, std::size_t produced, InflateStatus status, std::string_view detail = {});

  std::unique_ptr<DeflateDecoder> decoder_;
  DeflateWrapper wrapper_;
  enum class Phase : unsigned char { header, body, trailer, done } phase_;
  InflateStatus final_ = InflateStatus::more;
  std::uint8_t wrapper_bytes_[4] = {};
  unsigned wrapper_have_ = 0;
  std::uint8_t carried_[8] = {};  // read past the deflate data by an earlier call
  unsigned carried_count_ = 0;
  unsigned carried_used_ = 0;
  std::uint32_t adler_ = 1;
  std::uint64_t total_in_ = 0;
  bool deflate_ended_ = false;
  std::string_view detail_;
};

// The decoders, for InflateStream and the differential tests.
std::unique_ptr<DeflateDecoder> make_zlib_decoder();
std::unique_ptr<DeflateDecoder> make_isal_decoder();  // defined only when ISA-L is built

}  // namespace docconform
