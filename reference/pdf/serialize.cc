#include <charconv>
#include <cmath>

#include "docconform/error.h"
#include "docconform/pdf/writer.h"
#include "parser.h"

namespace docconform::pdf {
namespace {

bool name_byte_plain(unsigned char c) {
  return c > 0x20 && c < 0x7F && c != '#' && c != '(' && c != ')' && c != '<' && c != '>' && c != '[' && c != ']' &&
         c != '{' && c != '}' && c != '/' && c != '%';
}

void append_literal(std::string& out, const std::string& bytes) {
  out += '(';
  for (const char c : bytes) {
    switch (c) {
      case '(': out += "\\("; break;
      case ')': out += "\\)"; break;
      case '\\': out += "\\\\"; break;
      case '\r': out += "\\r"; break;  // a raw CR would be read back as LF (§7.3.4.2)
      default: out += c;
    }
  }
  out += ')';
}

}  // namespace

void append_pdf_name(std::string& out, const std::string& name) {
  static constexpr char hex[] = "0123456789ABCDEF";
  out += '/';
  for (const char ch : name) {
    const auto c = static_cast<unsigned char>(ch);
    if (name_byte_plain(c)) {
      out += ch;
    } else {
      out += '#';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
}

void append_pdf_syntax(std::string& out, const Object& object) {
  switch (object.kind) {
    case Kind::null: out += "null"; return;
    case Kind::boolean: out += object.boolean ? "true" : "false"; return;
    case Kind::integer: out += std::to_string(object.integer); return;
    case Kind::real: {
      if (std::isinf(object.real)) {
        // A number past the double range reads as infinite (the parser's integers too large
        // for 64 bits become reals): write the shortest such, 1e309 in digits, which reads back
        // as the same infinity.
        if (object.real < 0) out += '-';
        out += '1';
        out.append(309, '0');
        return;
      }
      if (std::isnan(object.real)) throw Error(ErrorKind::usage, {}, "NaN has no PDF syntax");
      char buffer[400];
      const auto result = std::to_chars(buffer, buffer + sizeof buffer, object.real, std::chars_format::fixed);
      std::string text(buffer, result.ptr);
      if (text.find('.') == std::string::npos) text += ".0";
      out += text;
      return;
    }
    case Kind::string: append_literal(out, object.bytes); return;
    case Kind::name: append_pdf_name(out, object.bytes); return;
    case Kind::array:
      out += '[';
      for (std::size_t i = 0; i < object.items.size(); ++i) {
        if (i > 0) out += ' ';
        append_pdf_syntax(out, object.items[i]);
      }
      out += ']';
      return;
    case Kind::dict:
      out += "<<";
      for (std::size_t i = 0; i < object.keys.size(); ++i) {
        out += ' ';
        append_pdf_name(out, object.keys[i]);
        out += ' ';
        append_pdf_syntax(out, object.items[i]);
      }
      out += " >>";
      return;
    case Kind::ref:
      out += std::to_string(object.integer) + " " + std::to_string(object.gen) + " R";
      return;
    case Kind::stream: break;
  }
  throw Error(ErrorKind::usage, {}, "a stream cannot be written as a direct object");
}

Object parse_object_text(const std::string& text) {
  const Limits limits;
  const std::string file = "<argument>";
  const std::string part;
  Parser parser(reinterpret_cast<const std::uint8_t*>(text.data()), text.size(), 0, true, limits, file, part);
  try {
    Object object = parser.parse_object();
    parser.skip_ws();
    if (!parser.at_end()) parser.fail("text after the object");
    return object;
  } catch (const Error& e) {
    throw Error(ErrorKind::usage, e.context(), e.message());
  }
}

}  // namespace docconform::pdf
