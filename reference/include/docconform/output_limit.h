// A small input can describe an enormous dump (a workbook of 27 KB whose one 1 MiB shared string
// 12,000 cells use has a 12.6 GB dump), so whatever prints, hashes or keeps a dump stops it at a
// named limit.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace docconform {

struct OutputLimits {
  // Bytes of one dump. The suite's largest (a 300,000-object PDF at level 3) has 724 MB.
  std::uint64_t max_output_bytes = 4ull << 30;

  // Tight limits for fuzzing.
  static OutputLimits fuzz();
};

using DumpSink = std::function<void(std::string_view)>;

// A dump's output that can drop what it was given after a point it passed: a digest, a file not
// yet in place. Given one, the streamed XLSX dump parses each sheet once where it can.
class RewindableSink {
 public:
  virtual ~RewindableSink() = default;
  virtual void write(std::string_view piece) = 0;
  virtual void mark() = 0;     // the point go_back() returns to (the start, before any mark)
  virtual void go_back() = 0;  // drops what was written since the last mark
  virtual void restart() = 0;  // drops everything written
};

// Error(limit) naming `file` (the input dumped) and the limit when a dump of `bytes` is too large.
void check_output_bytes(const OutputLimits& limits, const std::string& file, std::uint64_t bytes);

// Passes pieces on to sink while they add up to at most max_output_bytes; the piece that would
// go past it is not passed on: Error(limit) naming `file` (the input dumped) and the limit.
DumpSink bounded_sink(const OutputLimits& limits, const std::string& file, DumpSink sink);

}  // namespace docconform
