// The reference inflater: zlib's inflate on raw deflate data.
#include <zlib.h>

#include <algorithm>
#include <new>

#include "common/inflate_stream.h"

namespace docconform {
namespace {

constexpr std::size_t max_call = 1u << 30;  // zlib counts in uInt

// zlib's messages in the classes every inflater reports.
std::string_view detail_of(const char* message) {
  const std::string_view text = message != nullptr ? message : "";
  if (text.find("too far back") != std::string_view::npos) return "distance too far back";
  if (text == "invalid literal/length code" || text == "invalid distance code") return "invalid code";
  if (text == "invalid code lengths set" || text == "invalid literal/lengths set" || text == "invalid distances set") {
    return "invalid code set";
  }
  return "invalid block";
}

class ZlibDecoder final : public DeflateDecoder {
 public:
  ZlibDecoder() {
    if (inflateInit2(&z_, -MAX_WBITS) != Z_OK) throw std::bad_alloc();  // its only failure with valid arguments
  }
  ~ZlibDecoder() override { inflateEnd(&z_); }
  ZlibDecoder(const ZlibDecoder&) = delete;
  ZlibDecoder& operator=(const ZlibDecoder&) = delete;

  Step decode(const std::uint8_t* in, std::size_t in_size, std::uint8_t* out, std::size_t out_size) override {
    const auto in_room = static_cast<uInt>(std::min(in_size, max_call));
    const auto out_room = static_cast<uInt>(std::min(out_size, max_call));
    z_.next_in = const_cast<Bytef*>(in);
    z_.avail_in = in_room;
    z_.next_out = out;
    z_.avail_out = out_room;
    const int status = ::inflate(&z_, Z_NO_FLUSH);
    Step step{in_room - z_.avail_in, out_room - z_.avail_out, Status::more, {}};
    if (status == Z_STREAM_END) step.status = Status::end;
    if (status == Z_MEM_ERROR) throw std::bad_alloc();
    if (status == Z_DATA_ERROR || status == Z_STREAM_ERROR || status == Z_NEED_DICT) {
      step.status = Status::bad_data;
      step.detail = detail_of(z_.msg);
    }
    return step;
  }

 private:
  z_stream z_{};
};

}  // namespace

std::unique_ptr<DeflateDecoder> make_zlib_decoder() { return std::make_unique<ZlibDecoder>(); }

}  // namespace docconform
