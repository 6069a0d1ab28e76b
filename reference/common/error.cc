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

std::string Error::format(ErrorKind kind, const ErrorContext& context, const std::string& message) {
  std::string text;
  if (!context.file.empty()) text += context.file + ": ";
  if (!context.part.empty()) text += context.part + ": ";
  if (context.offset) text += "offset " + std::to_string(*context.offset) + ": ";
  text += to_string(kind);
  text += " error: ";
  text += message;
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
