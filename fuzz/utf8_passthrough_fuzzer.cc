// utf8_passthrough: the fast two-pass decoder against a slow, separately written decoder of the
// same passthrough rule, plus properties: pass 1 measures exactly what pass 2 writes, and on
// valid UTF-8 the result equals a strict decoder's (glibc iconv).
#include <iconv.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "docconform/utf8.h"
#include "fuzz_check.h"

namespace {

constexpr std::size_t max_input = 1 << 16;

// The rule read literally: take the generic bit pattern for a sequence length, assemble the
// code point, then reject what Table 3-7 forbids (overlong, surrogate, above U+10FFFF).
std::u16string slow_decode(const std::uint8_t* data, std::size_t size) {
  std::u16string out;
  std::size_t i = 0;
  while (i < size) {
    const std::uint8_t b = data[i];
    std::size_t length = 0;
    std::uint32_t cp = 0;
    if ((b & 0x80) == 0) { length = 1; cp = b; }
    else if ((b & 0xE0) == 0xC0) { length = 2; cp = b & 0x1F; }
    else if ((b & 0xF0) == 0xE0) { length = 3; cp = b & 0x0F; }
    else if ((b & 0xF8) == 0xF0) { length = 4; cp = b & 0x07; }
    bool ok = length != 0 && i + length <= size;
    for (std::size_t k = 1; ok && k < length; ++k) {
      if ((data[i + k] & 0xC0) != 0x80) ok = false;
      cp = (cp << 6) | (data[i + k] & 0x3F);
    }
    if (ok) {
      const std::uint32_t minimum[] = {0, 0, 0x80, 0x800, 0x10000};
      if (cp < minimum[length] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) ok = false;
    }
    if (!ok) {
      out += static_cast<char16_t>(b);
      ++i;
      continue;
    }
    if (cp > 0xFFFF) {
      out += static_cast<char16_t>(0xD800 + ((cp - 0x10000) >> 10));
      out += static_cast<char16_t>(0xDC00 + ((cp - 0x10000) & 0x3FF));
    } else {
      out += static_cast<char16_t>(cp);
    }
    i += length;
  }
  return out;
}

// glibc iconv as the strict decoder; returns false if it refuses the input.
bool strict_decode(const std::uint8_t* data, std::size_t size, std::u16string& out) {
  iconv_t cd = iconv_open("UTF-16LE", "UTF-8");
  if (cd == reinterpret_cast<iconv_t>(-1)) return false;
  std::vector<char> in(data, data + size);
  std::vector<char> buffer(size * 4 + 4);
  char* in_ptr = in.data();
  std::size_t in_left = size;
  char* out_ptr = buffer.data();
  std::size_t out_left = buffer.size();
  const std::size_t result = iconv(cd, &in_ptr, &in_left, &out_ptr, &out_left);
  iconv_close(cd);
  if (result == static_cast<std::size_t>(-1) || in_left != 0) return false;
  const std::size_t bytes = buffer.size() - out_left;
  out.resize(bytes / 2);
  for (std::size_t k = 0; k < out.size(); ++k) {
    out[k] = static_cast<char16_t>(static_cast<std::uint8_t>(buffer[2 * k]) |
                                   (static_cast<std::uint8_t>(buffer[2 * k + 1]) << 8));
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > max_input) return -1;
  const std::size_t measured = docconform::utf16_length(data, size);
  std::vector<char16_t> out(measured + 1, u'\xFFFF');
  const std::size_t written = docconform::decode_utf8_passthrough(data, size, out.data());
  FUZZ_CHECK(written == measured, data, size);
  FUZZ_CHECK(out[measured] == u'\xFFFF', data, size);  // nothing written past the measured length

  const std::u16string fast(out.data(), written);
  FUZZ_CHECK(fast == slow_decode(data, size), data, size);

  const bool valid = docconform::is_valid_utf8(data, size);
  std::u16string strict;
  const bool strict_ok = strict_decode(data, size, strict);
  FUZZ_CHECK(valid == strict_ok, data, size);
  if (valid) FUZZ_CHECK(fast == strict, data, size);
  return 0;
}
