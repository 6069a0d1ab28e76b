#include "parser.h"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "docconform/budget.h"
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
  // ISO 32000-2 §7.3.8.1: `stream` is followed by CRLF or LF; trailing spaces before the EOL and
  // a lone CR are common errors that readers accept. Without an EOL the data's first byte is
  // unknown, so that is an error.
  while (peek() == ' ' || peek() == '\t') ++pos_;
  if (peek() != '\r' && peek() != '\n') fail("'stream' is not followed by an end-of-line marker");
  if (peek() == '\r') ++pos_;
  if (peek() == '\n') ++pos_;
}

Object Parser::parse_object() {
  Object object;
  parse_object(object);
  return object;
}

void Parser::parse_object(Object& into) {
  known_counts_.clear();
  try {
    skip_ws();
    parse_value(0, into);
  } catch (const std::bad_alloc&) {
    throw allocation_failure({file_, part_.str(), offset()});
  }
}

void Parser::flush_bytes() {
  const std::uint64_t bytes = std::exchange(pending_bytes_, 0);
  memory_->charge(bytes, [&] { return ErrorContext{file_, part_.str(), offset()}; });
  *charged_ += bytes;
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

void Parser::check_nesting(std::uint32_t depth) const {
  // The container at `depth` is the (depth + 1)-th open one.
  if (depth >= limits_.max_depth) {
    throw Error(ErrorKind::limit, {file_, part_.str(), offset()},
                "nesting deeper than max_depth (" + std::to_string(limits_.max_depth) + ")");
  }
}

void Parser::parse_value(std::uint32_t depth, Object& out) {
  skip_ws();
  const int c = peek();
  if (c < 0) fail("unexpected end of data, expected an object");
  switch (c) {
    case '/': return parse_name(out);
    case '(': return parse_literal_string(out);
    case '[': return parse_array(depth, out);
    case '<': {
      if (pos_ + 1 >= size_ && !at_end_) throw NeedMore{};
      if (pos_ + 1 < size_ && data_[pos_ + 1] == '<') return parse_dict(depth, out);
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

namespace {

// Containers reaching this many elements are counted to their end and allocated once.
constexpr std::size_t large_count = 4096;

}  // namespace

void Parser::parse_array(std::uint32_t depth, Object& out) {
  check_nesting(depth);
  const std::size_t open = pos_++;
  reset(out, Kind::array);
  element_added(0, open, false, out);
  std::size_t n = 0;
  for (;;) {
    skip_ws();
    if (peek() == ']') {
      ++pos_;
      out.items.resize(n);
      return;
    }
    if (peek() < 0) fail("unterminated array");
    if (n == limits_.max_container_elements) {
      throw Error(ErrorKind::limit, {file_, part_.str(), offset()},
                  "array has more than max_container_elements (" + std::to_string(limits_.max_container_elements) +
                      ") elements");
    }
    parse_value(depth + 1, element(out.items, n++));
    add_bytes(sizeof(Object));
    element_added(n, open, false, out);
  }
}

void Parser::parse_dict(std::uint32_t depth, Object& out) {
  check_nesting(depth);
  const std::size_t open = pos_;
  pos_ += 2;
  reset(out, Kind::dict);
  if (out.items.capacity() == 0) {  // a new value: room for a typical dictionary at once
    out.keys.reserve(8);
    out.items.reserve(8);
  }
  element_added(0, open, true, out);
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
    if (n == limits_.max_container_elements) {
      throw Error(ErrorKind::limit, {file_, part_.str(), offset()},
                  "dictionary has more than max_container_elements (" + std::to_string(limits_.max_container_elements) +
                      ") entries");
    }
    std::string& key = element(out.keys, n);
    parse_name_bytes(key);
    skip_ws();
    if (peek() == '>') fail("dictionary key without a value");
    parse_value(depth + 1, element(out.items, n));
    ++n;
    add_bytes(sizeof(Object) + sizeof(std::string) + key.size());
    element_added(n, open, true, out);
  }
}

void Parser::element_added(std::size_t n, std::size_t open, bool dict, Object& out) {
  std::size_t expected = 0;
  const auto known = [&] {
    const auto it = std::lower_bound(known_counts_.begin(), known_counts_.end(), std::pair(open, std::size_t{0}));
    return it != known_counts_.end() && it->first == open ? it->second : 0;
  };
  if (n == 0 && !known_counts_.empty()) {
    expected = known();
  } else if (n == large_count) {
    // Counted once for this container and the large ones inside it: a container whose count
    // was known at its start has its room already.
    if (!known_counts_.empty() && known() != 0) return;
    const std::size_t rest = count_ahead(open, dict);
    if (rest == 0) return;
    std::sort(known_counts_.begin(), known_counts_.end());
    expected = n + rest;
  }
  if (expected == 0) return;
  expected = std::min<std::size_t>(expected, limits_.max_container_elements);
  out.items.reserve(expected);
  if (dict) out.keys.reserve(expected);
}

std::size_t Parser::count_ahead(std::size_t open, bool dict) {
  struct Level {
    std::size_t open;
    std::size_t tokens = 0;  // values (and keys), a reference `N G R` counted once
    int integers = 0;        // unsigned integers just before, up to 2: `N G` before an R
    bool dict = false;
  };
  std::vector<Level> levels{{open, 0, 0, dict}};
  const auto regular_end = [&](std::size_t q) {
    while (q < size_ && byte_classes[data_[q]] == ByteClass::regular) ++q;
    return q;
  };
  std::size_t p = pos_;
  for (;;) {
    for (;;) {  // white space and comments
      while (p < size_ && byte_classes[data_[p]] == ByteClass::whitespace) ++p;
      if (p == size_ || data_[p] != '%') break;
      while (p < size_ && data_[p] != '\r' && data_[p] != '\n') ++p;
    }
    if (p >= size_) return 0;
    Level& top = levels.back();
    const std::uint8_t c = data_[p];
    const bool opens_dict = c == '<' && p + 1 < size_ && data_[p + 1] == '<';
    if (c == '[' || opens_dict) {
      ++top.tokens;
      top.integers = 0;
      if (levels.size() > limits_.max_depth) return 0;  // the parse stops there
      levels.push_back({p, 0, 0, opens_dict});
      p += opens_dict ? 2 : 1;
      continue;
    }
    if (c == ']' || c == '>') {
      if (c == '>' && (p + 1 >= size_ || data_[p + 1] != '>')) return 0;
      if (top.dict != (c == '>')) return 0;
      p += c == '>' ? 2 : 1;
      const Level closed = top;
      levels.pop_back();
      const std::size_t elements = closed.dict ? closed.tokens / 2 : closed.tokens;
      if (levels.empty()) return elements;
      if (elements >= large_count) known_counts_.emplace_back(closed.open, elements);
      continue;
    }
    ++top.tokens;
    const int integers = top.integers;
    top.integers = 0;
    if (c == '(') {
      int nesting = 1;
      for (++p; p < size_ && nesting > 0; ++p) {
        if (data_[p] == '\\') ++p;
        else if (data_[p] == '(') ++nesting;
        else if (data_[p] == ')') --nesting;
      }
      if (nesting > 0 || p > size_) return 0;
    } else if (c == '<') {
      const void* close = std::memchr(data_ + p, '>', size_ - p);
      if (close == nullptr) return 0;
      p = static_cast<std::size_t>(static_cast<const std::uint8_t*>(close) - data_) + 1;
    } else if (c == '/') {
      p = regular_end(p + 1);
    } else if (byte_classes[c] == ByteClass::delimiter) {
      return 0;  // ')', '{' or '}': the parse rejects it
    } else {
      const std::size_t end = regular_end(p);
      if (end - p == 1 && c == 'R' && integers == 2) {
        top.tokens -= 2;  // `N G R` is one element, not three
      } else if (std::all_of(data_ + p, data_ + end, [](std::uint8_t d) { return d >= '0' && d <= '9'; })) {
        top.integers = std::min(integers + 1, 2);
      }
      p = end;
    }
  }
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
  add_bytes(o.bytes.size());
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
  add_bytes(end - start);
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
  add_bytes(o.bytes.size());
}

}  // namespace docconform::pdf
