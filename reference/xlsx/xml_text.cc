#include "xml_text.h"

#include <charconv>

#include "docconform/error.h"
#include "docconform/utf8.h"

namespace docconform::xlsx {
namespace {

[[noreturn]] void bad_reference(std::uint64_t offset, const char* message) {
  throw Error(ErrorKind::format, {"", "", offset}, message);
}

bool is_xml_char(std::uint32_t cp) {
  return cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF) || (cp >= 0xE000 && cp <= 0xFFFD) ||
         (cp >= 0x10000 && cp <= 0x10FFFF);
}

int hex_value(char16_t c) {
  if (c >= u'0' && c <= u'9') return c - u'0';
  if (c >= u'a' && c <= u'f') return c - u'a' + 10;
  if (c >= u'A' && c <= u'F') return c - u'A' + 10;
  return -1;
}

}  // namespace

void append_resolved(Span raw, bool attribute, std::uint64_t offset, std::string& out) {
  const auto* p = raw.data;
  const auto* end = raw.data + raw.size;
  while (p < end) {
    // Bytes that need nothing are appended as one run.
    const auto* run = p;
    while (p < end && *p != '&' && *p != '\r' && !(attribute && (*p == '\t' || *p == '\n'))) ++p;
    out.append(reinterpret_cast<const char*>(run), static_cast<std::size_t>(p - run));
    if (p == end) break;
    const std::uint8_t c = *p;
    if (c == '\r') {
      out += attribute ? ' ' : '\n';
      ++p;
      if (p < end && *p == '\n') ++p;
      continue;
    }
    if (attribute && (c == '\t' || c == '\n')) {
      out += ' ';
      ++p;
      continue;
    }
    const std::uint64_t at = offset + static_cast<std::uint64_t>(p - raw.data);
    const auto* semi = static_cast<const std::uint8_t*>(std::memchr(p, ';', static_cast<std::size_t>(end - p)));
    // No cap on the length: a character reference may carry any number of leading zeros, and
    // each reference consumes the bytes up to its ';', so the work stays linear.
    if (semi == nullptr) bad_reference(at, "malformed reference: '&' without ';'");
    const std::string_view name(reinterpret_cast<const char*>(p + 1), static_cast<std::size_t>(semi - p - 1));
    if (name == "amp") out += '&';
    else if (name == "lt") out += '<';
    else if (name == "gt") out += '>';
    else if (name == "quot") out += '"';
    else if (name == "apos") out += '\'';
    else if (!name.empty() && name[0] == '#') {
      const bool hex = name.size() > 1 && name[1] == 'x';
      const std::string_view digits = name.substr(hex ? 2 : 1);
      std::uint32_t cp = 0;
      const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), cp, hex ? 16 : 10);
      if (digits.empty() || r.ec != std::errc() || r.ptr != digits.data() + digits.size()) {
        bad_reference(at, "malformed character reference");
      }
      if (!is_xml_char(cp)) bad_reference(at, "character reference to a character XML does not allow");
      append_utf8(out, cp);
    } else {
      bad_reference(at, "undefined entity (user-defined entities are never expanded)");
    }
    p = semi + 1;
  }
}

void TextCollector::add(const XmlScanner& scanner, Token token) {
  const Span raw = scanner.text();
  const bool plain = scanner.text_plain();
  if (pieces_ == 0 && plain) {
    single_ = raw;
    pieces_ = 1;
    resolved_ = false;
    return;
  }
  if (!resolved_) {
    scratch_.clear();
    if (single_.size > 0) scratch_.append(reinterpret_cast<const char*>(single_.data), single_.size);
    resolved_ = true;
  }
  ++pieces_;
  if (token == Token::cdata) {
    // Literal content; only line ends are normalized.
    for (std::size_t i = 0; i < raw.size; ++i) {
      const char c = static_cast<char>(raw.data[i]);
      if (c == '\r') {
        scratch_ += '\n';
        if (i + 1 < raw.size && raw.data[i + 1] == '\n') ++i;
      } else {
        scratch_ += c;
      }
    }
  } else {
    append_resolved(raw, false, scanner.token_offset(), scratch_);
  }
}

std::size_t append_utf16(Span utf8, std::u16string& arena) {
  const std::size_t start = arena.size();
  if (utf8.size == 0) return start;
  // A byte never yields more than one unit (four bytes yield two): one pass, not a measuring one first.
  arena.resize(start + utf8.size);
  arena.resize(start + decode_utf8_passthrough(utf8.data, utf8.size, arena.data() + start));
  return start;
}

std::size_t decode_ooxml_escapes(char16_t* text, std::size_t length) noexcept {
  std::size_t out = 0;
  std::size_t i = 0;
  while (i < length) {
    if (text[i] == u'_' && i + 6 < length && text[i + 1] == u'x' && text[i + 6] == u'_') {
      int value = 0;
      bool ok = true;
      for (std::size_t k = 2; k < 6; ++k) {
        const int h = hex_value(text[i + k]);
        if (h < 0) {
          ok = false;
          break;
        }
        value = value * 16 + h;
      }
      if (ok) {
        text[out++] = static_cast<char16_t>(value);
        i += 7;
        continue;
      }
    }
    text[out++] = text[i++];
  }
  return out;
}

std::string attribute_bytes(const Attribute& a, std::uint64_t offset) {
  if (a.plain) return std::string(a.value.view());
  std::string out;
  append_resolved(a.value, true, offset, out);
  return out;
}

std::u16string attribute_text(const Attribute& a, std::uint64_t offset) {
  if (a.plain) return decode_utf8(a.value.view());
  return decode_utf8(attribute_bytes(a, offset));
}

}  // namespace docconform::xlsx
