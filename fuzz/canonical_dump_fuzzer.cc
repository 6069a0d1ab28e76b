// canonical_dump: the two primitives every canonical dump is made of (canonical.h).
//
// Strings: the input read as UTF-16LE code units (a trailing odd byte ignored) is quoted with
// append_quoted. The result must be ASCII, and a separately written strict reader of the
// quoted grammar (conformance/SPEC.md "Strings": printable ASCII other than '"' and '\' as
// itself, \" and \\, every other unit as \uXXXX with upper-case hex, nothing else) must read it
// back to exactly the input. The strict reader also rejects a \u escape of a unit that has to
// stand as itself, so the form is unique, not only decodable.
//
// Numbers: every 8 bytes give three doubles: the raw bits, an integer of the safe range, and a
// short decimal m x 10^e (|m| < 2^15, |e| <= 280, exact through strtod). For each, number_text
//   - NaN, Infinity, -Infinity, 0 and -0 are written as such;
//   - otherwise reads back (strtod) to the same bits;
//   - has the shape ECMAScript Number::toString picks from its digits k and point position n
//     (integer when k <= n <= 21, a point inside when 0 < n <= 21, "0.000ddd" when -6 < n <= 0,
//     d.ddde+x / d.ddde-x otherwise), with no redundant zero anywhere;
//   - uses as few digits as any round-tripping decimal (no k-1 digit neighbour of glibc's
//     correctly rounded k-1 digits reads back to the value) and, when glibc's correctly rounded
//     k digits read back, exactly those;
//   - for an integer of magnitude below 2^53 equals its decimal integer (glibc %.0f);
//   - for m x 10^e carries exactly the significant digits of m.
// append_* must append, not overwrite. Inputs above 64 KiB are skipped.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "docconform/canonical.h"
#include "fuzz_check.h"

namespace {

constexpr std::size_t max_input = 1 << 16;

int upper_hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;  // lower case is not canonical
}

bool stands_as_itself(char16_t unit) { return unit >= 0x20 && unit <= 0x7E && unit != u'"' && unit != u'\\'; }

// The strict reader of the quoted form; false on anything outside the grammar.
bool unquote(std::string_view q, std::u16string& out) {
  if (q.size() < 2 || q.front() != '"' || q.back() != '"') return false;
  for (std::size_t i = 1; i + 1 < q.size();) {
    const char c = q[i];
    if (c == '"') return false;  // an unescaped quote before the end
    if (c != '\\') {
      if (!stands_as_itself(static_cast<unsigned char>(c))) return false;
      out += static_cast<char16_t>(c);
      ++i;
      continue;
    }
    if (i + 2 >= q.size()) return false;
    const char e = q[i + 1];
    if (e == '"' || e == '\\') {
      out += static_cast<char16_t>(e);
      i += 2;
      continue;
    }
    if (e != 'u' || i + 6 >= q.size()) return false;
    unsigned value = 0;
    for (std::size_t k = 2; k < 6; ++k) {
      const int h = upper_hex(q[i + k]);
      if (h < 0) return false;
      value = value * 16 + static_cast<unsigned>(h);
    }
    const auto unit = static_cast<char16_t>(value);
    if (stands_as_itself(unit) || unit == u'"' || unit == u'\\') return false;
    out += unit;
    i += 6;
  }
  return true;
}

void check_string(const std::uint8_t* data, std::size_t size) {
  std::u16string text(size / 2, u'\0');
  for (std::size_t i = 0; i < text.size(); ++i) text[i] = static_cast<char16_t>(data[2 * i] | (data[2 * i + 1] << 8));
  std::string out = "x";
  docconform::append_quoted(out, text);
  FUZZ_CHECK(out[0] == 'x', data, size);
  const std::string_view quoted = std::string_view(out).substr(1);
  FUZZ_CHECK(quoted == docconform::canonical_string(text), data, size);
  for (const char c : quoted) FUZZ_CHECK(static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7F, data, size);
  std::u16string back;
  FUZZ_CHECK(unquote(quoted, back), data, size);
  FUZZ_CHECK(back == text, data, size);
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// A number text split as ECMAScript describes it: value = 0.digits x 10^n, digits without
// leading or trailing zeros. form: 'i' integer, 'p' point inside, 'z' "0.000ddd", 'e' exponent.
struct Shape {
  bool negative = false;
  std::string digits;
  int n = 0;
  char form = 0;
};

bool all_digits(std::string_view s) { return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos; }

bool parse_shape(std::string_view s, Shape& shape) {
  if (!s.empty() && s[0] == '-') {
    shape.negative = true;
    s.remove_prefix(1);
  }
  if (s.empty() || (s[0] == '0' && (s.size() < 2 || s[1] != '.'))) return false;  // no leading zero
  const std::size_t e = s.find('e');
  const std::size_t dot = s.find('.');
  if (e != std::string_view::npos) {
    const std::string_view mantissa = s.substr(0, e), exponent = s.substr(e + 1);
    if (exponent.size() < 2 || (exponent[0] != '+' && exponent[0] != '-') || !all_digits(exponent.substr(1)) ||
        exponent[1] == '0' || exponent.size() > 5) {
      return false;
    }
    if (mantissa.size() != 1 && (mantissa.size() < 3 || mantissa[1] != '.' || !all_digits(mantissa.substr(2)) ||
                                 mantissa.back() == '0')) {
      return false;
    }
    if (!all_digits(mantissa.substr(0, 1)) || mantissa[0] == '0') return false;
    shape.digits = std::string(1, mantissa[0]) + std::string(mantissa.size() > 2 ? mantissa.substr(2) : "");
    const int x = std::atoi(std::string(exponent.substr(1)).c_str());
    shape.n = (exponent[0] == '-' ? -x : x) + 1;
    shape.form = 'e';
    return true;
  }
  if (dot == std::string_view::npos) {
    if (!all_digits(s)) return false;
    const std::size_t last = s.find_last_not_of('0');
    shape.digits = std::string(s.substr(0, last + 1));
    shape.n = static_cast<int>(s.size());
    shape.form = 'i';
    return true;
  }
  const std::string_view whole = s.substr(0, dot), fraction = s.substr(dot + 1);
  if (!all_digits(whole) || !all_digits(fraction) || fraction.back() == '0') return false;
  if (whole == "0") {
    const std::size_t first = fraction.find_first_not_of('0');
    shape.digits = std::string(fraction.substr(first));
    shape.n = -static_cast<int>(first);
    shape.form = 'z';
  } else {
    shape.digits = std::string(whole) + std::string(fraction);
    shape.n = static_cast<int>(whole.size());
    shape.form = 'p';
  }
  return true;
}

char expected_form(int k, int n) {
  if (k <= n && n <= 21) return 'i';
  if (0 < n && n <= 21) return 'p';
  if (-6 < n && n <= 0) return 'z';
  return 'e';
}

// glibc's correctly rounded significant digits of |value| with `count` digits, and the
// decimal exponent of the first.
std::string rounded_digits(double value, int count, int& exponent) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*e", count - 1, std::fabs(value));
  std::string digits;
  const char* p = buffer;
  for (; *p != 'e'; ++p) {
    if (*p != '.') digits += *p;
  }
  exponent = std::atoi(p + 1);
  return digits;
}

bool reads_back(const std::string& digits, int exponent, double value) {
  const std::string text = (std::signbit(value) ? "-0." : "0.") + digits + "e" + std::to_string(exponent + 1);
  return same_bits(std::strtod(text.c_str(), nullptr), value);
}

// digits + delta in its last place (digits of the same length, or one more on a carry).
std::string step(std::string digits, int delta) {
  if (delta > 0) {
    std::size_t i = digits.size();
    while (i > 0 && digits[i - 1] == '9') digits[--i] = '0';
    if (i == 0) return "1" + digits;
    ++digits[i - 1];
  } else {
    std::size_t i = digits.size();
    while (i > 0 && digits[i - 1] == '0') digits[--i] = '9';
    if (i == 0) return {};
    --digits[i - 1];
  }
  return digits;
}

void check_number(double value, const std::uint8_t* data, std::size_t size) {
  std::string out = "y";
  docconform::append_number(out, value);
  FUZZ_CHECK(out[0] == 'y', data, size);
  const std::string text = out.substr(1);
  FUZZ_CHECK(text == docconform::number_text(value), data, size);
  if (std::isnan(value)) {
    FUZZ_CHECK(text == "NaN", data, size);
    return;
  }
  if (std::isinf(value)) {
    FUZZ_CHECK(text == (value < 0 ? "-Infinity" : "Infinity"), data, size);
    return;
  }
  if (value == 0) {
    FUZZ_CHECK(text == (std::signbit(value) ? "-0" : "0"), data, size);
    return;
  }
  FUZZ_CHECK(same_bits(std::strtod(text.c_str(), nullptr), value), data, size);
  Shape shape;
  FUZZ_CHECK(parse_shape(text, shape), data, size);
  FUZZ_CHECK(shape.negative == std::signbit(value), data, size);
  const int k = static_cast<int>(shape.digits.size());
  FUZZ_CHECK(shape.form == expected_form(k, shape.n), data, size);

  int exponent = 0;
  if (k > 1) {
    // The k-1 digit decimals nearest the value: none may read back.
    const std::string shorter = rounded_digits(value, k - 1, exponent);
    for (const int delta : {-1, 0, 1}) {
      const std::string candidate = delta == 0 ? shorter : step(shorter, delta);
      if (candidate.empty() || candidate == "0") continue;
      const int shift = static_cast<int>(candidate.size() - shorter.size());  // a carry adds a digit
      FUZZ_CHECK(!reads_back(candidate, exponent + shift, value), data, size);
    }
  }
  const std::string nearest = rounded_digits(value, k, exponent);
  if (reads_back(nearest, exponent, value)) {
    std::string stripped = nearest.substr(0, nearest.find_last_not_of('0') + 1);
    FUZZ_CHECK(stripped == shape.digits && exponent + 1 == shape.n, data, size);
  }
  if (std::fabs(value) < 0x1p53 && std::trunc(value) == value) {
    char integer[32];
    std::snprintf(integer, sizeof integer, "%.0f", value);
    FUZZ_CHECK(text == integer, data, size);
  }
}

void check_numbers(const std::uint8_t* data, std::size_t size) {
  for (std::size_t at = 0; at + 8 <= size; at += 8) {
    double raw = 0;
    std::memcpy(&raw, data + at, 8);
    check_number(raw, data, size);

    std::int64_t bits = 0;
    std::memcpy(&bits, data + at, 8);
    check_number(static_cast<double>(bits >> 11), data, size);  // |x| <= 2^52

    const auto m = static_cast<std::int16_t>(bits & 0xFFFF);
    const int e = static_cast<int>(static_cast<std::int16_t>(bits >> 16) % 281);
    if (m == 0) continue;
    const std::string literal = std::to_string(m) + "e" + std::to_string(e);
    const double decimal = std::strtod(literal.c_str(), nullptr);
    check_number(decimal, data, size);
    Shape shape;
    if (!parse_shape(docconform::number_text(decimal), shape)) continue;  // already reported above
    std::string digits = std::to_string(m < 0 ? -m : m);
    digits.erase(digits.find_last_not_of('0') + 1);
    FUZZ_CHECK(shape.digits == digits, data, size);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > max_input) return -1;
  check_string(data, size);
  check_numbers(data, size);
  return 0;
}
