#include "docconform/utf8.h"

#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace docconform {
namespace {

// Per lead byte: sequence length and the allowed range of the second byte (Table 3-7).
// Length 0 marks a byte that never starts a well-formed sequence.
struct Lead {
  std::uint8_t length;
  std::uint8_t lo;
  std::uint8_t hi;
};

constexpr Lead lead_of(unsigned b) {
  if (b < 0x80) return {1, 0, 0};
  if (b < 0xC2) return {0, 0, 0};
  if (b < 0xE0) return {2, 0x80, 0xBF};
  if (b == 0xE0) return {3, 0xA0, 0xBF};
  if (b == 0xED) return {3, 0x80, 0x9F};
  if (b < 0xF0) return {3, 0x80, 0xBF};
  if (b == 0xF0) return {4, 0x90, 0xBF};
  if (b < 0xF4) return {4, 0x80, 0xBF};
  if (b == 0xF4) return {4, 0x80, 0x8F};
  return {0, 0, 0};
}

struct LeadTable {
  Lead entries[256];
  constexpr LeadTable() : entries{} {
    for (unsigned b = 0; b < 256; ++b) entries[b] = lead_of(b);
  }
};
constexpr LeadTable lead_table;

constexpr std::uint64_t high_bits = 0x8080808080808080ULL;

inline bool is_continuation(std::uint8_t b) { return (b & 0xC0) == 0x80; }

// Decodes one sequence at p; on anything ill-formed it yields the byte itself, length 1.
inline unsigned decode_one(const std::uint8_t* p, const std::uint8_t* end, std::uint32_t& cp) {
  const std::uint8_t b0 = p[0];
  const Lead lead = lead_table.entries[b0];
  const std::size_t available = static_cast<std::size_t>(end - p);
  cp = b0;
  if (lead.length <= 1 || available < lead.length) return 1;
  const std::uint8_t b1 = p[1];
  if (b1 < lead.lo || b1 > lead.hi) return 1;
  if (lead.length == 2) {
    cp = (static_cast<std::uint32_t>(b0 & 0x1F) << 6) | (b1 & 0x3F);
    return 2;
  }
  const std::uint8_t b2 = p[2];
  if (!is_continuation(b2)) return 1;
  if (lead.length == 3) {
    cp = (static_cast<std::uint32_t>(b0 & 0x0F) << 12) | (static_cast<std::uint32_t>(b1 & 0x3F) << 6) | (b2 & 0x3F);
    return 3;
  }
  const std::uint8_t b3 = p[3];
  if (!is_continuation(b3)) return 1;
  cp = (static_cast<std::uint32_t>(b0 & 0x07) << 18) | (static_cast<std::uint32_t>(b1 & 0x3F) << 12) |
       (static_cast<std::uint32_t>(b2 & 0x3F) << 6) | (b3 & 0x3F);
  return 4;
}

// Eight ASCII bytes to eight UTF-16 units.
inline void widen_ascii(const std::uint8_t* p, char16_t* o) {
#if defined(__SSE2__)
  const __m128i bytes = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(o), _mm_unpacklo_epi8(bytes, _mm_setzero_si128()));
#else
  for (int i = 0; i < 8; ++i) o[i] = p[i];
#endif
}

// Length of the ASCII run at p, checked a word at a time.
inline std::size_t ascii_run(const std::uint8_t* p, const std::uint8_t* end) {
  const std::uint8_t* start = p;
  while (end - p >= 8) {
    std::uint64_t word;
    std::memcpy(&word, p, 8);
    if (word & high_bits) break;
    p += 8;
  }
  while (p < end && *p < 0x80) ++p;
  return static_cast<std::size_t>(p - start);
}

}  // namespace

std::size_t utf16_length(const std::uint8_t* data, std::size_t size) noexcept {
  const std::uint8_t* p = data;
  const std::uint8_t* end = data + size;
  std::size_t units = 0;
  while (p < end) {
    const std::size_t run = ascii_run(p, end);
    units += run;
    p += run;
    if (p == end) break;
    std::uint32_t cp;
    p += decode_one(p, end, cp);
    units += cp > 0xFFFF ? 2 : 1;
  }
  return units;
}

std::size_t decode_utf8_passthrough(const std::uint8_t* data, std::size_t size, char16_t* out) noexcept {
  const std::uint8_t* p = data;
  const std::uint8_t* end = data + size;
  char16_t* o = out;
  while (p < end) {
    // ASCII is widened eight bytes at a time; a shorter ASCII tail of a run of at least eight
    // bytes is widened by redoing the last eight (the overlap rewrites the same units).
    std::uint64_t word;
    for (; end - p >= 8; p += 8, o += 8) {
      std::memcpy(&word, p, 8);
      if (word & high_bits) break;
      widen_ascii(p, o);
    }
    if (p != end && end - p < 8 && p - data >= 8) {
      std::memcpy(&word, end - 8, 8);
      if ((word & high_bits) == 0) {
        widen_ascii(end - 8, o + (end - p) - 8);
        o += end - p;
        break;
      }
    }
    while (p < end && *p < 0x80) *o++ = *p++;
    if (p == end) break;
    std::uint32_t cp;
    p += decode_one(p, end, cp);
    if (cp > 0xFFFF) {
      cp -= 0x10000;
      *o++ = static_cast<char16_t>(0xD800 + (cp >> 10));
      *o++ = static_cast<char16_t>(0xDC00 + (cp & 0x3FF));
    } else {
      *o++ = static_cast<char16_t>(cp);
    }
  }
  return static_cast<std::size_t>(o - out);
}

std::u16string decode_utf8(std::string_view bytes) {
  const auto* data = reinterpret_cast<const std::uint8_t*>(bytes.data());
  std::u16string text(utf16_length(data, bytes.size()), u'\0');
  decode_utf8_passthrough(data, bytes.size(), text.data());
  return text;
}

bool is_valid_utf8(const std::uint8_t* data, std::size_t size) noexcept {
  const std::uint8_t* p = data;
  const std::uint8_t* end = data + size;
  while (p < end) {
    p += ascii_run(p, end);
    if (p == end) break;
    std::uint32_t cp;
    const unsigned length = decode_one(p, end, cp);
    if (length == 1) return false;  // a non-ASCII byte standing alone never is well-formed
    p += length;
  }
  return true;
}

std::size_t utf8_sequence_length(const std::uint8_t* data, std::size_t size) noexcept {
  if (size == 0) return 0;
  if (data[0] < 0x80) return 1;
  std::uint32_t cp;
  const unsigned length = decode_one(data, data + size, cp);
  return length > 1 ? length : 0;
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

std::string to_utf8_lossy(std::u16string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    std::uint32_t cp = text[i];
    if (cp >= 0xD800 && cp <= 0xDBFF && i + 1 < text.size() && text[i + 1] >= 0xDC00 && text[i + 1] <= 0xDFFF) {
      cp = 0x10000 + ((cp - 0xD800) << 10) + (text[i + 1] - 0xDC00);
      ++i;
    } else if (cp >= 0xD800 && cp <= 0xDFFF) {
      cp = 0xFFFD;
    }
    append_utf8(out, cp);
  }
  return out;
}

}  // namespace docconform
