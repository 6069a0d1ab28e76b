#include "parser.h"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "docconform/error.h"

namespace docconform::pdf {

namespace {

// Bytes a literal string must interpret: ( ) \ and CR; everything else is copied as is.
bool string_special(std::uint8_t c) {
  static const auto table = [] {
    std::array<bool, 256> t{};
    t['('] = t[')'] = t['\\'] = t['\r'] = true;
    return t;
  }();
  return table[c];
}

// The bytes a literal string must interpret, found 64 at a time (binary payloads have a few per
// hundred bytes): next(from) is the first at or after `from`, or size when there is none. One
// block's bit mask is kept, so walking forward through a string tests each byte once.
class SpecialBytes {
 public:
  SpecialBytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  std::size_t next(std::size_t from) {
    for (;;) {
      if (from >= size_) return size_;
      if (from < block_ || from >= block_ + 64) load(from);
      if (const std::uint64_t m = mask_ & (~std::uint64_t{0} << (from - block_)); m != 0) return block_ + std::countr_zero(m);
      from = block_ + 64;
    }
  }

 private:
  void load(std::size_t at) {
    block_ = at;
    mask_ = 0;
    const std::size_t n = std::min<std::size_t>(64, size_ - at);
#if defined(__SSE2__)
    if (n == 64) {
      const __m128i open = _mm_set1_epi8('('), close = _mm_set1_epi8(')');
      const __m128i backslash = _mm_set1_epi8('\\'), cr = _mm_set1_epi8('\r');
      for (int i = 0; i < 4; ++i) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data_ + at + 16 * i));
        const __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, open), _mm_cmpeq_epi8(v, close)),
                                         _mm_or_si128(_mm_cmpeq_epi8(v, backslash), _mm_cmpeq_epi8(v, cr)));
        mask_ |= static_cast<std::uint64_t>(static_cast<std::uint16_t>(_mm_movemask_epi8(hit))) << (16 * i);
      }
      return;
    }
#endif
    for (std::size_t i = 0; i < n; ++i) mask_ |= static_cast<std::uint64_t>(string_special(data_[at + i])) << i;
  }

  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t block_ = SIZE_MAX - 64;  // no block loaded
  std::uint64_t mask_ = 0;
};

int hex_value(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

Parser::Parser(const std::uint8_t* data, std::size_t size, std::uint64_t base, bool at_end, const Limits& limits,
               const std::string& file, PartName part)
    : data_(data), size_(size), base_(base), at_end_(at_end), limits_(limits), file_(file), part_(part) {}

std::string object_part(std::uint32_t num, std::uint32_t gen) {
  return "object " + std::to_string(num) + " " + std::to_string(gen);
}

std::string PartName::str() const {
  if (!is_object_) return std::string(text_);
  std::string text = object_part(num_, gen_);
  if (object_stream_ >= 0) text += " in object stream " + std::to_string(object_stream_);
  return text;
}

void Parser::fail(const std::string& message) const {
  throw Error(ErrorKind::format, {file_, part_.str(), offset()}, message);
}

// Both scanners walk a local position and ask peek_end() only where the buffer ends, so the loop
// keeps the position in a register instead of storing it for each byte.
void Parser::skip_ws() {
  std::size_t p = pos_;
  for (;;) {
    while (p < size_ && byte_classes[data_[p]] == ByteClass::whitespace) ++p;
    if (p == size_ || data_[p] != '%') break;
    while (p < size_ && data_[p] != '\r' && data_[p] != '\n') ++p;  // a comment, to the end of its line
  }
  pos_ = p;
  peek_end();  // at the end of a buffer that is not the end of the data: NeedMore
}

std::string_view Parser::regular_token() {
  const std::size_t start = pos_;
  std::size_t p = pos_;
  while (p < size_ && byte_classes[data_[p]] == ByteClass::regular) ++p;
  pos_ = p;
  peek_end();
  return {reinterpret_cast<const char*>(data_ + start), p - start};
}

bool Parser::try_keyword(std::string_view keyword) {
  skip_ws();
  const std::size_t start = pos_;
  if (regular_token() == keyword) return true;
  pos_ = start;
  return false;
}

void Parser::expect_keyword(std::string_view keyword) {
  if (!try_keyword(keyword)) fail("expected '" + std::string(keyword) + "'");
}

std::uint64_t Parser::parse_uint(const char* what) {
  skip_ws();
  const std::size_t start = pos_;
  const std::string_view token = regular_token();
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (token.empty() || ec != std::errc() || end != token.data() + token.size()) {
    pos_ = start;
    fail(std::string("expected ") + what + " (an unsigned integer)");
  }
  return value;
}

void Parser::skip_stream_eol() {
  // ISO 32000-1 §7.3.8.1: `stream` is followed by CRLF or LF; trailing spaces before the EOL and
  // a lone CR are common errors that readers accept.
  while (peek() == ' ' || peek() == '\t') ++pos_;
  if (peek() == '\r') ++pos_;
  if (peek() == '\n') ++pos_;
}

Object Parser::parse_object() {
  Object object;
  parse_object(object);
  return object;
}

void Parser::parse_object(Object& into) {
  skip_ws();
  parse_value(0, into);
}

namespace {

// Makes `o` an empty value of `kind`, keeping the storage its strings and lists own, so a
// reader that parses object after object into one Object allocates only when one outgrows the
// last. Arrays and dictionaries keep their elements too: the parser writes over them in place.
void reset(Object& o, Kind kind) {
  o.kind = kind;
  o.boolean = false;
  o.integer = 0;
  o.real = 0;
  o.gen = 0;
  o.bytes.clear();
  if (kind != Kind::dict) o.keys.clear();
  if (kind != Kind::dict && kind != Kind::array) o.items.clear();
  o.stream_offset = 0;
  o.stream_length = 0;
}

// The element of `list` at `n` to write over, appended when the list is that short.
template <typename T>
T& element(std::vector<T>& list, std::size_t n) {
  if (n == list.size()) list.emplace_back();
  return list[n];
}

}  // namespace

void Parser::parse_value(std::uint32_t depth, Object& out) {
  if (depth > limits_.max_depth) {
    throw Error(ErrorKind::limit, {file_, part_.str(), offset()},
                "nesting deeper than max_depth (" + std::to_string(limits_.max_depth) + ")");
  }
  skip_ws();
  const int c = peek();
  if (c < 0) fail("unexpected end of data, expected an object");
  switch (c) {
    case '/': return parse_name(out);
    case '(': return parse_literal_string(out);
    case '[': {
      ++pos_;
      reset(out, Kind::array);
      std::size_t n = 0;
      for (;;) {
        skip_ws();
        if (peek() == ']') {
          ++pos_;
          out.items.resize(n);
          return;
        }
        if (peek() < 0) fail("unterminated array");
        parse_value(depth + 1, element(out.items, n++));
      }
    }
    case '<': {
      if (pos_ + 1 >= size_ && !at_end_) throw NeedMore{};
      if (pos_ + 1 < size_ && data_[pos_ + 1] == '<') {
        pos_ += 2;
        reset(out, Kind::dict);
        if (out.items.capacity() == 0) {  // a new value: room for a typical dictionary at once
          out.keys.reserve(8);
          out.items.reserve(8);
        }
        std::size_t n = 0;
        for (;;) {
          skip_ws();
          const int k = peek();
          if (k == '>') {
            if (pos_ + 1 >= size_ && !at_end_) throw NeedMore{};
            if (pos_ + 1 < size_ && data_[pos_ + 1] == '>') {
              pos_ += 2;
              out.keys.resize(n);
              out.items.resize(n);
              return;
            }
            fail("expected '>>'");
          }
          if (k < 0) fail("unterminated dictionary");
          if (k != '/') fail("dictionary key is not a name");
          parse_name_bytes(element(out.keys, n));
          skip_ws();
          if (peek() == '>') fail("dictionary key without a value");
          parse_value(depth + 1, element(out.items, n));
          ++n;
        }
      }
      return parse_hex_string(out);
    }
    case '+': case '-': case '.': case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7':
    case '8': case '9': {
      parse_number(out);
      if (out.kind != Kind::integer || out.integer < 0 || c == '+') return;
      // Two unsigned integers followed by R form an indirect reference.
      const std::size_t after_first = pos_;
      try {
        skip_ws();
        const std::size_t gen_start = pos_;
        const std::string_view gen = regular_token();
        std::uint32_t gen_value = 0;
        const auto [end, ec] = std::from_chars(gen.data(), gen.data() + gen.size(), gen_value);
        if (!gen.empty() && ec == std::errc() && end == gen.data() + gen.size() && data_[gen_start] != '+') {
          skip_ws();
          if (regular_token() == "R") {
            out.kind = Kind::ref;
            out.gen = gen_value;
            return;
          }
        }
      } catch (const NeedMore&) {
        if (!at_end_) throw;
      }
      pos_ = after_first;
      return;
    }
    default: break;
  }
  const std::size_t start = pos_;
  const std::string_view token = regular_token();
  if (token == "null") return reset(out, Kind::null);
  if (token == "true" || token == "false") {
    reset(out, Kind::boolean);
    out.boolean = token == "true";
    return;
  }
  pos_ = start;
  if (token.empty()) fail(std::string("unexpected delimiter '") + static_cast<char>(c) + "'");
  fail("unexpected token '" + std::string(token.substr(0, 32)) + "'");
}

void Parser::parse_number(Object& o) {
  const std::size_t start = pos_;
  const std::string_view token = regular_token();
  bool real = false;
  std::size_t digits = 0;
  std::uint64_t magnitude = 0;  // the integer's digits as read; up to 18 of them cannot overflow
  for (std::size_t i = 0; i < token.size(); ++i) {
    const char ch = token[i];
    if (ch >= '0' && ch <= '9') {
      ++digits;
      magnitude = magnitude * 10 + static_cast<std::uint64_t>(ch - '0');
    } else if (ch == '.' && !real) {
      real = true;
    } else if ((ch == '+' || ch == '-') && i == 0) {
    } else {
      pos_ = start;
      fail("malformed number '" + std::string(token.substr(0, 32)) + "'");
    }
  }
  if (digits == 0) {
    pos_ = start;
    fail("malformed number '" + std::string(token.substr(0, 32)) + "'");
  }
  if (!real && digits <= 18) {  // the common case, without from_chars
    reset(o, Kind::integer);
    const auto value = static_cast<std::int64_t>(magnitude);
    o.integer = token[0] == '-' ? -value : value;
    return;
  }
  if (!real) {
    const char* first = token.data() + (token[0] == '+' ? 1 : 0);
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(first, token.data() + token.size(), value);
    if (ec == std::errc()) {
      reset(o, Kind::integer);
      o.integer = value;
      return;
    }
    // An integer too large for 64 bits is read as a real, as readers commonly do.
  }
  const std::string text(token);
  reset(o, Kind::real);
  o.real = std::strtod(text.c_str(), nullptr);
}

void Parser::parse_name(Object& o) {
  reset(o, Kind::name);
  parse_name_bytes(o.bytes);
}

void Parser::parse_name_bytes(std::string& out) {
  ++pos_;  // '/'
  const std::string_view raw = regular_token();
  if (raw.find('#') == std::string_view::npos) {  // most names: one copy
    out.assign(raw);
    return;
  }
  out.clear();
  out.reserve(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '#' && i + 2 < raw.size() && hex_value(raw[i + 1]) >= 0 && hex_value(raw[i + 2]) >= 0) {
      out += static_cast<char>(hex_value(raw[i + 1]) * 16 + hex_value(raw[i + 2]));
      i += 2;
    } else {
      out += raw[i];
    }
  }
}

void Parser::parse_literal_string(Object& o) {
  const std::size_t start = pos_;
  // Find the closing parenthesis first, so the value is sized once and a string without escapes
  // or CRs (balanced parentheses stay as they are) is one copy. The bytes to interpret that this
  // finds are where decoding stops next; the first ones are remembered, not searched again.
  SpecialBytes specials(data_, size_);
  std::array<std::size_t, 64> stops;
  std::size_t stop_count = 0;
  std::size_t end = start + 1;
  bool plain = true;
  for (int depth = 1; depth > 0;) {
    end = specials.next(end);
    if (end >= size_) {
      if (!at_end_) throw NeedMore{};
      fail("unterminated literal string");  // offset: the opening parenthesis
    }
    if (stop_count < stops.size()) stops[stop_count++] = end;
    const std::uint8_t c = data_[end++];
    if (c == '(') {
      ++depth;
    } else if (c == ')') {
      --depth;
    } else {
      plain = false;
      if (c == '\\') ++end;  // an escaped byte never opens or closes
    }
  }
  reset(o, Kind::string);
  if (plain) {
    o.bytes.assign(reinterpret_cast<const char*>(data_ + start + 1), end - start - 2);
    pos_ = end;
    return;
  }
  // From here every byte up to the closing parenthesis at end - 1 is in the buffer. Decoding
  // never lengthens (an escape or CR LF becomes one byte or none), so the value is written
  // through a pointer into its final buffer and cut to length at the end.
  o.bytes.resize(end - start - 2);
  char* out = o.bytes.data();
  ++pos_;  // '('
  int nesting = 1;
  for (std::size_t next_stop = 0;;) {
    // Copy the run of bytes that need no interpretation in one go, up to the next byte to
    // interpret (escapes consume the bytes they escape, so the stops stay in step).
    const std::size_t stop = next_stop < stop_count ? stops[next_stop++] : specials.next(pos_);
    std::memcpy(out, data_ + pos_, stop - pos_);
    out += stop - pos_;
    pos_ = stop;
    const std::uint8_t c = data_[pos_++];
    if (c == '(') {
      ++nesting;
    } else if (c == ')') {
      if (--nesting == 0) {
        o.bytes.resize(static_cast<std::size_t>(out - o.bytes.data()));
        return;
      }
    } else if (c == '\r') {
      // An unescaped end-of-line inside a string reads as one LF (§7.3.4.2).
      if (data_[pos_] == '\n') ++pos_;
      *out++ = '\n';
      continue;
    } else if (c == '\\') {
      const std::uint8_t e = data_[pos_++];
      switch (e) {
        case 'n': *out++ = '\n'; break;
        case 'r': *out++ = '\r'; break;
        case 't': *out++ = '\t'; break;
        case 'b': *out++ = '\b'; break;
        case 'f': *out++ = '\f'; break;
        case '\r':
          if (data_[pos_] == '\n') ++pos_;
          break;
        case '\n': break;
        default:
          if (e >= '0' && e <= '7') {
            int value = e - '0';
            for (int k = 0; k < 2 && data_[pos_] >= '0' && data_[pos_] <= '7'; ++k) {
              value = value * 8 + (data_[pos_++] - '0');
            }
            *out++ = static_cast<char>(value & 0xFF);
          } else {
            *out++ = static_cast<char>(e);  // \( \) \\ and unknown escapes: the character itself
          }
      }
      continue;
    }
    *out++ = static_cast<char>(c);
  }
}

void Parser::parse_hex_string(Object& o) {
  const std::size_t start = pos_;
  ++pos_;  // '<'
  reset(o, Kind::string);
  int high = -1;
  for (;;) {
    if (peek_end()) {
      pos_ = start;
      fail("unterminated hex string");
    }
    const std::uint8_t c = data_[pos_++];
    if (c == '>') break;
    if (is_pdf_whitespace(c)) continue;
    const int v = hex_value(c);
    if (v < 0) {
      --pos_;
      fail("invalid character in hex string");
    }
    if (high < 0) {
      high = v;
    } else {
      o.bytes += static_cast<char>(high * 16 + v);
      high = -1;
    }
  }
  if (high >= 0) o.bytes += static_cast<char>(high * 16);  // odd digit count: final 0 assumed
}

}  // namespace docconform::pdf
