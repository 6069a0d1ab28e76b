#include "docconform/error.h"

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

// File and part names come from the input (a zip entry may be named "a\nb"): control bytes are
// written as \xHH so that an error stays one line and cannot forge another.
void append_printable(std::string& out, const std::string& text) {
  static constexpr char hex[] = "0123456789abcdef";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte != 0x7f) {
      out += c;
    } else {
      out += "\\x";
      out += hex[byte >> 4];
      out += hex[byte & 0xf];
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
