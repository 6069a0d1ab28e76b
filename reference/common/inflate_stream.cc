#include "common/inflate_stream.h"

#include <libdeflate.h>

#include <algorithm>

#include "docconform/error.h"

namespace docconform {

InflateStream::InflateStream(InflaterKind kind, DeflateWrapper wrapper)
    : wrapper_(wrapper), phase_(wrapper == DeflateWrapper::zlib ? Phase::header : Phase::body) {
  if (!inflater_available(kind)) {
    throw Error(ErrorKind::usage, {}, "inflater " + std::string(inflater_name(kind)) + " is not built");
  }
#ifdef DOCCONFORM_WITH_ISAL
  decoder_ = kind == InflaterKind::isal ? make_isal_decoder() : make_zlib_decoder();
#else
  decoder_ = make_zlib_decoder();
#endif
}

InflateStream::~InflateStream() = default;

InflateStream::Step InflateStream::finish(std::size_t consumed, std::size_t produced, InflateStatus status,
                                          std::string_view detail) {
  total_in_ += consumed;
  if (status != InflateStatus::more) {
    phase_ = Phase::done;
    final_ = status;
    detail_ = detail;
  }
  return {consumed, produced, status};
}

InflateStream::Step InflateStream::inflate(const std::uint8_t* in, std::size_t in_size, std::uint8_t* out,
                                           std::size_t out_size, bool input_ends) {
  if (phase_ == Phase::done) return {0, 0, final_};
  std::size_t consumed = 0;
  std::size_t produced = 0;
  const auto input_ran_out = [&] { return input_ends && consumed == in_size; };

  if (phase_ == Phase::header) {
    // RFC 1950 §2.2, checked in zlib's order: FCHECK, CM, CINFO, FDICT.
    while (wrapper_have_ < 2 && consumed < in_size) wrapper_bytes_[wrapper_have_++] = in[consumed++];
    if (wrapper_have_ < 2) return finish(consumed, 0, input_ran_out() ? InflateStatus::truncated : InflateStatus::more);
    const unsigned cmf = wrapper_bytes_[0];
    const unsigned flg = wrapper_bytes_[1];
    if ((cmf * 256 + flg) % 31 != 0) return finish(consumed, 0, InflateStatus::bad_header, "incorrect header check");
    if ((cmf & 0x0f) != 8) return finish(consumed, 0, InflateStatus::bad_header, "unknown compression method");
    if ((cmf >> 4) + 8 > 15) return finish(consumed, 0, InflateStatus::bad_header, "invalid window size");
    if ((flg & 0x20) != 0) return finish(consumed, 0, InflateStatus::bad_header, "preset dictionary");
    phase_ = Phase::body;
    wrapper_have_ = 0;
  }

  if (phase_ == Phase::body) {
    while (true) {
      const auto step = decoder_->decode(in + consumed, in_size - consumed, out + produced, out_size - produced);
      if (wrapper_ == DeflateWrapper::zlib) adler_ = libdeflate_adler32(adler_, out + produced, step.produced);
      consumed += step.consumed;
      produced += step.produced;
      if (step.status == DeflateDecoder::Status::bad_data) {
        return finish(consumed, produced, InflateStatus::bad_data, step.detail);
      }
      if (step.status == DeflateDecoder::Status::end) {
        std::copy_n(step.carried, step.carried_count, carried_);
        carried_count_ = step.carried_count;
        total_in_ -= carried_count_;  // counted when read ahead; counted again as the trailer takes them
        deflate_ended_ = true;
        break;
      }
      // A decoder takes at most 1 GiB a call: go on while it takes input and has room.
      if (consumed == in_size || produced == out_size || (step.consumed == 0 && step.produced == 0)) {
        const bool stuck = input_ran_out() && produced < out_size;
        return finish(consumed, produced, stuck ? InflateStatus::truncated : InflateStatus::more);
      }
    }
    if (wrapper_ == DeflateWrapper::raw) return finish(consumed, produced, InflateStatus::end);
    phase_ = Phase::trailer;
  }

  // The Adler-32 of the inflated data, most significant byte first (RFC 1950 §2.2).
  while (wrapper_have_ < 4 && carried_used_ < carried_count_) {
    wrapper_bytes_[wrapper_have_++] = carried_[carried_used_++];
    ++total_in_;
  }
  while (wrapper_have_ < 4 && consumed < in_size) wrapper_bytes_[wrapper_have_++] = in[consumed++];
  if (wrapper_have_ < 4) {
    return finish(consumed, produced, input_ran_out() ? InflateStatus::truncated : InflateStatus::more);
  }
  const std::uint32_t expected = (std::uint32_t{wrapper_bytes_[0]} << 24) | (std::uint32_t{wrapper_bytes_[1]} << 16) |
                                 (std::uint32_t{wrapper_bytes_[2]} << 8) | wrapper_bytes_[3];
  if (expected != adler_) return finish(consumed, produced, InflateStatus::bad_check, "incorrect data check");
  return finish(consumed, produced, InflateStatus::end);
}

}  // namespace docconform
