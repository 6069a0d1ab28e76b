#include "docconform/output_limit.h"

#include <cstdint>
#include <memory>
#include <utility>

#include "docconform/error.h"

namespace docconform {

OutputLimits OutputLimits::fuzz() {
  OutputLimits l;
  l.max_output_bytes = 64 << 20;
  return l;
}

void check_output_bytes(const OutputLimits& limits, const std::string& file, std::uint64_t bytes) {
  if (bytes <= limits.max_output_bytes) return;
  throw Error(ErrorKind::limit, {file, "", std::nullopt},
              "the dump is larger than max_output_bytes (" + std::to_string(limits.max_output_bytes) + ")");
}

DumpSink bounded_sink(const OutputLimits& limits, const std::string& file, DumpSink sink) {
  auto written = std::make_shared<std::uint64_t>(0);  // shared by the copies of the sink
  return [limits, file, sink = std::move(sink), written](std::string_view piece) {
    check_output_bytes(limits, file, piece.size() > limits.max_output_bytes - *written ? UINT64_MAX : *written + piece.size());
    *written += piece.size();
    sink(piece);
  };
}

}  // namespace docconform
