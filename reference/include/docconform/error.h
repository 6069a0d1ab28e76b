// One error type for every component: it says which file and part failed, where, and what was
// expected, so a user can find the offending byte without a debugger.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace docconform {

enum class ErrorKind {
  io,           // the operating system refused (open, read, map, write)
  format,       // the bytes do not follow the format
  limit,        // a configured limit was exceeded (size, depth, count, ratio)
  range,        // a request outside the data (offset past EOF, index out of range)
  unsupported,  // valid but not implemented (encryption, an unknown filter)
  usage,        // the caller passed something invalid
};

const char* to_string(ErrorKind kind);

struct ErrorContext {
  std::string file;                     // path or a label for an in-memory buffer
  std::string part;                     // zip entry, PDF object, BIFF record...; empty when whole-file
  std::optional<std::uint64_t> offset;  // byte offset inside the part (or the file when part is empty)
};

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, ErrorContext context, std::string message);

  ErrorKind kind() const noexcept { return kind_; }
  const ErrorContext& context() const noexcept { return context_; }
  const std::string& message() const noexcept { return message_; }

  // Returns a copy with the file (and part, when still empty) filled in; used when an error
  // raised deep inside a parser travels up to the layer that knows the names.
  Error with_file(const std::string& file) const;
  Error with_part(const std::string& part) const;

 private:
  static std::string format(ErrorKind kind, const ErrorContext& context, const std::string& message);

  ErrorKind kind_;
  ErrorContext context_;
  std::string message_;
};

}  // namespace docconform
