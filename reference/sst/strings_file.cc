#include "docconform/sst/strings_file.h"

#include <cstdint>

#include "docconform/error.h"
#include "docconform/utf8.h"

namespace docconform::sst {
namespace {

constexpr char hex_digits[] = "0123456789ABCDEF";

// A recursive-descent parser for the one JSON line shape we accept.
class LineParser {
 public:
  LineParser(std::string_view line, const std::string& label, std::size_t number, std::uint64_t line_offset)
      : line_(line), label_(label), number_(number), line_offset_(line_offset) {}

  SstString parse() {
    SstString s;
    skip_space();
    if (peek() == '"') {
      s.text = string();
    } else if (peek() == '{') {
      object(s);
    } else {
      fail("expected a JSON string or object");
    }
    skip_space();
    if (at_ != line_.size()) fail("unexpected text after the value");
    return s;
  }

 private:
  [[noreturn]] void fail(const std::string& message) const {
    throw Error(ErrorKind::format, {label_, "line " + std::to_string(number_), line_offset_ + at_}, message);
  }
  char peek() const { return at_ < line_.size() ? line_[at_] : '\0'; }
  void skip_space() {
    while (at_ < line_.size() && (line_[at_] == ' ' || line_[at_] == '\t' || line_[at_] == '\r')) ++at_;
  }
  void expect(char c) {
    skip_space();
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++at_;
  }

  unsigned hex4() {
    unsigned value = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = peek();
      unsigned digit = 0;
      if (c >= '0' && c <= '9') digit = static_cast<unsigned>(c - '0');
      else if (c >= 'a' && c <= 'f') digit = static_cast<unsigned>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') digit = static_cast<unsigned>(c - 'A' + 10);
      else fail("expected 4 hex digits after \\u");
      value = value * 16 + digit;
      ++at_;
    }
    return value;
  }

  std::u16string string() {
    expect('"');
    std::u16string out;
    while (true) {
      const std::size_t start = at_;
      while (at_ < line_.size() && line_[at_] != '"' && line_[at_] != '\\' && static_cast<unsigned char>(line_[at_]) >= 0x20) ++at_;
      if (at_ > start) {
        const auto* bytes = reinterpret_cast<const std::uint8_t*>(line_.data() + start);
        if (!is_valid_utf8(bytes, at_ - start)) {
          at_ = start;
          fail("invalid UTF-8 in a string (use \\u escapes for arbitrary code units)");
        }
        out += decode_utf8(line_.substr(start, at_ - start));
      }
      if (at_ == line_.size()) fail("unterminated string");
      const char c = line_[at_++];
      if (c == '"') return out;
      if (c != '\\') {
        --at_;
        fail("control character in a string");
      }
      const char e = peek();
      ++at_;
      switch (e) {
        case '"': out += u'"'; break;
        case '\\': out += u'\\'; break;
        case '/': out += u'/'; break;
        case 'b': out += u'\b'; break;
        case 'f': out += u'\f'; break;
        case 'n': out += u'\n'; break;
        case 'r': out += u'\r'; break;
        case 't': out += u'\t'; break;
        case 'u': out += static_cast<char16_t>(hex4()); break;
        default: --at_; fail("unknown escape");
      }
    }
  }

  std::uint16_t number16() {
    skip_space();
    const std::size_t start = at_;
    std::uint32_t value = 0;
    while (peek() >= '0' && peek() <= '9' && value <= 0xFFFF) value = value * 10 + static_cast<std::uint32_t>(line_[at_++] - '0');
    if (at_ == start || value > 0xFFFF) fail("expected an integer 0..65535");
    return static_cast<std::uint16_t>(value);
  }

  std::string hex_bytes() {
    const std::u16string text = string();
    if (text.size() % 2 != 0) fail("\"ext\" needs an even number of hex digits");
    std::string bytes;
    for (std::size_t i = 0; i < text.size(); i += 2) {
      unsigned byte = 0;
      for (const char16_t c : {text[i], text[i + 1]}) {
        unsigned digit = 0;
        if (c >= u'0' && c <= u'9') digit = c - u'0';
        else if (c >= u'a' && c <= u'f') digit = c - u'a' + 10;
        else if (c >= u'A' && c <= u'F') digit = c - u'A' + 10;
        else fail("\"ext\" holds a non-hex character");
        byte = byte * 16 + digit;
      }
      bytes += static_cast<char>(byte);
    }
    return bytes;
  }

  void runs(SstString& s) {
    s.runs.emplace();
    expect('[');
    skip_space();
    if (peek() == ']') {
      ++at_;
      return;
    }
    while (true) {
      expect('[');
      FormatRun run;
      run.ich = number16();
      expect(',');
      run.ifnt = number16();
      expect(']');
      s.runs->push_back(run);
      skip_space();
      if (peek() == ']') {
        ++at_;
        return;
      }
      expect(',');
    }
  }

  void object(SstString& s) {
    expect('{');
    bool seen_text = false;
    while (true) {
      skip_space();
      const std::u16string key = string();
      expect(':');
      skip_space();
      if (key == u"s" && !seen_text) {
        s.text = string();
        seen_text = true;
      } else if (key == u"runs" && !s.runs) {
        runs(s);
      } else if (key == u"ext" && !s.ext_rst) {
        s.ext_rst = hex_bytes();
      } else {
        fail("unknown or repeated key (expected \"s\", \"runs\", \"ext\")");
      }
      skip_space();
      if (peek() == '}') {
        ++at_;
        break;
      }
      expect(',');
    }
    if (!seen_text) fail("object without \"s\"");
  }

  std::string_view line_;
  const std::string& label_;
  std::size_t number_;
  std::uint64_t line_offset_;
  std::size_t at_ = 0;
};

void append_escaped(std::string& out, std::u16string_view text) {
  out += '"';
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char16_t c = text[i];
    if (c == u'"' || c == u'\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
    } else if (c >= 0xD800 && c <= 0xDBFF && i + 1 < text.size() && text[i + 1] >= 0xDC00 && text[i + 1] <= 0xDFFF) {
      const std::uint32_t cp = 0x10000 + ((std::uint32_t{c} - 0xD800) << 10) + (text[i + 1] - 0xDC00u);
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
      ++i;
    } else if (c < 0x20 || c == 0x7F || (c >= 0xD800 && c <= 0xDFFF)) {
      out += "\\u";
      for (int shift = 12; shift >= 0; shift -= 4) out += hex_digits[(c >> shift) & 0xF];
    } else if (c < 0x800) {
      out += static_cast<char>(0xC0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
      out += static_cast<char>(0xE0 | (c >> 12));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    }
  }
  out += '"';
}

}  // namespace

SstTable parse_strings_jsonl(std::string_view text, const std::string& label, const Limits& limits) {
  SstTable table(limits);
  std::size_t at = 0;
  std::size_t number = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    ++number;
    const std::string_view line = text.substr(at, end - at);
    if (line.find_first_not_of(" \t\r") != std::string_view::npos) {  // blank lines are skipped
      const SstString s = LineParser(line, label, number, at).parse();
      try {
        table.append(s);
      } catch (const Error& e) {
        throw Error(ErrorKind::limit, {label, "line " + std::to_string(number), at}, e.message());
      }
    }
    at = end + 1;
  }
  table.set_total_refs(table.size());
  return table;
}

std::string format_strings_jsonl(const SstTable& strings) {
  std::string out;
  for (std::size_t i = 0; i < strings.size(); ++i) {
    const SstStringView s = strings[i];
    if (!s.runs && !s.ext_rst) {
      append_escaped(out, s.text);
    } else {
      out += "{\"s\":";
      append_escaped(out, s.text);
      if (s.runs) {
        out += ",\"runs\":[";
        for (std::size_t k = 0; k < s.runs->size(); ++k) {
          if (k > 0) out += ',';
          out += '[' + std::to_string((*s.runs)[k].ich) + ',' + std::to_string((*s.runs)[k].ifnt) + ']';
        }
        out += ']';
      }
      if (s.ext_rst) {
        out += ",\"ext\":\"";
        for (const char b : *s.ext_rst) {
          out += hex_digits[(static_cast<std::uint8_t>(b) >> 4)];
          out += hex_digits[static_cast<std::uint8_t>(b) & 0xF];
        }
        out += '"';
      }
      out += '}';
    }
    out += '\n';
  }
  return out;
}

}  // namespace docconform::sst
