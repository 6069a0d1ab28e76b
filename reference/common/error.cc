#include "docconform/error.h"

#include <cstdint>

#include "docconform/utf8.h"

namespace docconform {

const char* to_string(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::io: return "io";
    case ErrorKind::format: return "format";
    case ErrorKind::limit: return "limit";
    case ErrorKind::range: return "range";
    case ErrorKind::unsupported: return "unsupported";
    case ErrorKind::usage: return "usage";
  }
  return "unknown";
}

Error::Error(ErrorKind kind, ErrorContext context, std::string message)
    : std::runtime_error(format(kind, context, message)),
      kind_(kind),
      context_(std::move(context)),
      message_(std::move(message)) {}

namespace {

// File and part names come from the input (a zip entry may be named "a\nb"), and so do parts of
// messages: control bytes, and bytes that are not well-formed UTF-8, are written as \xHH, so an
// error stays one line of text that cannot forge another, and every reader can take it.
void append_printable(std::string& out, const std::string& text) {
  static constexpr char hex[] = "0123456789abcdef";
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(text.data());
  for (std::size_t i = 0; i < text.size();) {
    const std::uint8_t byte = bytes[i];
    const std::size_t length = byte >= 0x20 && byte != 0x7f ? utf8_sequence_length(bytes + i, text.size() - i) : 0;
    if (length > 0) {
      out.append(text, i, length);
      i += length;
    } else {
      out += "\\x";
      out += hex[byte >> 4];
      out += hex[byte & 0xf];
      ++i;
    }
  }
}

}  // namespace

std::string Error::format(ErrorKind kind, const ErrorContext& context, const std::string& message) {
  std::string text;
  for (const std::string* name : {&context.file, &context.part}) {
    if (name->empty()) continue;
    append_printable(text, *name);
    text += ": ";
  }
  if (context.offset) text += "offset " + std::to_string(*context.offset) + ": ";
  text += to_string(kind);
  text += " error: ";
  append_printable(text, message);
  return text;
}

Error Error::with_file(const std::string& file) const {
  ErrorContext context = context_;
  if (context.file.empty()) context.file = file;
  return Error(kind_, std::move(context), message_);
}

Error Error::with_part(const std::string& part) const {
  ErrorContext context = context_;
  if (context.part.empty()) context.part = part;
  return Error(kind_, std::move(context), message_);
}

}  // namespace docconform
