#include "docconform/utf8_dump.h"

#include "docconform/canonical.h"
#include "docconform/error.h"
#include "docconform/utf8.h"

namespace docconform {

std::string utf8_dump(std::string_view bytes, const Utf8DumpLimits& limits) {
  if (bytes.size() > limits.max_input_bytes) {
    throw Error(ErrorKind::limit, {"", "", std::nullopt},
                "input of " + std::to_string(bytes.size()) + " bytes is over max_input_bytes " +
                    std::to_string(limits.max_input_bytes));
  }
  const std::u16string text = decode_utf8(bytes);
  std::string out = dump_header("utf8", utf8_dump_version) + "\n";
  out += "units " + std::to_string(text.size()) + "\n";
  out += "text ";
  append_quoted(out, text);
  out += '\n';
  return out;
}

}  // namespace docconform
