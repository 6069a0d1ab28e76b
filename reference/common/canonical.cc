#include "docconform/canonical.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace docconform {

namespace {

constexpr char hex_digits[] = "0123456789ABCDEF";

// The quoted form of every code unit below 0x100, padded to 8 bytes so it is stored with one
// unconditional copy: binary PDF strings mix plain and escaped bytes at random, and a branch per
// unit mispredicts on them.
struct Escape {
  char text[8] = {};
  std::uint8_t size = 0;
};
constexpr std::array<Escape, 256> make_escapes() {
  std::array<Escape, 256> table{};
  for (unsigned unit = 0; unit < 256; ++unit) {
    Escape& e = table[unit];
    if (unit >= 0x20 && unit < 0x7F && unit != '"' && unit != '\\') {
      e.text[0] = static_cast<char>(unit);
      e.size = 1;
    } else if (unit == '"' || unit == '\\') {
      e.text[0] = '\\';
      e.text[1] = static_cast<char>(unit);
      e.size = 2;
    } else {
      const char escaped[6] = {'\\', 'u', '0', '0', hex_digits[unit >> 4], hex_digits[unit & 0xF]};
      for (int i = 0; i < 6; ++i) e.text[i] = escaped[i];
      e.size = 6;
    }
  }
  return table;
}
constexpr std::array<Escape, 256> escapes = make_escapes();

// Dumps hold millions of strings (a 300,000-object PDF dumps 700 MB of them): the exact size is
// counted first, so each string is one resize and a run of 8-byte stores.
template <typename Unit>
void append_quoted_units(std::string& out, const Unit* units, std::size_t n) {
  const auto size_of = [](unsigned unit) -> std::size_t { return unit < 0x100 ? escapes[unit].size : 6; };
  std::size_t size = 2;
  for (std::size_t i = 0; i < n; ++i) size += size_of(units[i]);
  const std::size_t start = out.size();
  out.resize(start + size + 8);  // slack for the last 8-byte store
  char* p = out.data() + start;
  *p++ = '"';
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned unit = units[i];
    if (unit < 0x100) {
      std::memcpy(p, escapes[unit].text, 8);
      p += escapes[unit].size;
    } else {
      const char escaped[8] = {'\\', 'u', hex_digits[unit >> 12], hex_digits[(unit >> 8) & 0xF],
                               hex_digits[(unit >> 4) & 0xF], hex_digits[unit & 0xF]};
      std::memcpy(p, escaped, 8);
      p += 6;
    }
  }
  *p = '"';
  out.resize(start + size);
}

}  // namespace

void append_quoted(std::string& out, std::u16string_view text) { append_quoted_units(out, text.data(), text.size()); }

void append_quoted_bytes(std::string& out, std::string_view bytes) {
  append_quoted_units(out, reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
}

std::string canonical_string(std::u16string_view text) {
  std::string out;
  append_quoted(out, text);
  return out;
}

void append_number(std::string& out, double value) {
  if (std::isnan(value)) {
    out += "NaN";
    return;
  }
  if (std::isinf(value)) {
    out += value < 0 ? "-Infinity" : "Infinity";
    return;
  }
  if (value == 0) {
    out += std::signbit(value) ? "-0" : "0";
    return;
  }
  // Shortest round-trip digits from to_chars' scientific form d.ddde±x, then ECMAScript layout.
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
  std::string_view sci(buffer, static_cast<std::size_t>(result.ptr - buffer));
  if (sci.front() == '-') {
    out += '-';
    sci.remove_prefix(1);
  }
  const std::size_t e_pos = sci.find('e');
  // At most 17 significant digits: kept on the stack, no allocation per number.
  char digit_buffer[32];
  std::size_t digit_count = 0;
  for (const char c : sci.substr(0, e_pos)) {
    if (c != '.') digit_buffer[digit_count++] = c;
  }
  const std::string_view digits(digit_buffer, digit_count);
  int exponent = 0;
  const char* exponent_text = sci.data() + e_pos + 1;
  std::from_chars(exponent_text + (*exponent_text == '+'), sci.data() + sci.size(), exponent);
  const int k = static_cast<int>(digits.size());
  const int n = exponent + 1;  // position of the decimal point relative to the digits
  if (k <= n && n <= 21) {
    out += digits;
    out.append(static_cast<std::size_t>(n - k), '0');
  } else if (0 < n && n <= 21) {
    out.append(digits, 0, static_cast<std::size_t>(n));
    out += '.';
    out.append(digits, static_cast<std::size_t>(n));
  } else if (-6 < n && n <= 0) {
    out += "0.";
    out.append(static_cast<std::size_t>(-n), '0');
    out += digits;
  } else {
    out += digits[0];
    if (k > 1) {
      out += '.';
      out.append(digits.substr(1));
    }
    out += 'e';
    out += n - 1 < 0 ? '-' : '+';
    out += std::to_string(std::abs(n - 1));
  }
}

std::string dump_header(std::string_view format, int version) {
  return "docconform-dump " + std::string(format) + " " + std::to_string(version);
}

std::string number_text(double value) {
  std::string out;
  append_number(out, value);
  return out;
}

}  // namespace docconform
