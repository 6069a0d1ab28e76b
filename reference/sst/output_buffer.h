// The file sinks' output buffer: a ring of buffers, filled in turn by the writer while a
// second thread writes out the ones handed off (the kernel's copy into the page cache, or a
// compressor), so that work runs beside the serialization instead of after each buffer.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "docconform/sst/sink.h"

namespace docconform::sst {

// The ring: file_sink_buffers buffers of file_sink_buffer_bytes; the writer fills one while the
// second thread writes out those handed off (a record header may straddle a hand-off). Sixteen
// of 1 MiB keep the file sink near the memory sink where two of 4 MiB did not
// (docs/benchmarks.md, SST, "a deeper ring").
inline constexpr std::size_t file_sink_buffer_bytes = 1u << 20;
inline constexpr std::size_t file_sink_buffers = 16;

class OutputBuffer {
 public:
  // write(data, size, at): writes one buffer whose first byte is stream position `at`; runs on
  // the buffer's thread, one call at a time, in stream order.
  using Write = std::function<void(const std::uint8_t* data, std::size_t size, std::uint64_t at)>;
  explicit OutputBuffer(Write write);
  ~OutputBuffer();  // stops after the write in flight; what is not written yet is dropped
  OutputBuffer(const OutputBuffer&) = delete;
  OutputBuffer& operator=(const OutputBuffer&) = delete;

  // `bytes` (at most the buffer's size) in the current buffer, handing it off first when full.
  std::uint8_t* claim(std::size_t bytes) {
    if (file_sink_buffer_bytes - fill_ < bytes) hand_off();
    std::uint8_t* area = current_ + fill_;
    fill_ += bytes;
    return area;
  }
  void retract(std::size_t bytes) { fill_ -= bytes; }
  std::uint64_t position() const { return handed_off_ + fill_; }
  // The byte at stream position `at` while it is still in the current buffer, else nullptr.
  std::uint8_t* unwritten(std::uint64_t at) { return at >= handed_off_ ? current_ + (at - handed_off_) : nullptr; }

  // Hands off the current buffer, unless it is empty.
  void hand_off();
  // Until everything handed off is written; rethrows what a write threw.
  void wait();
  // Hands off the rest and waits for it: all bytes are written.
  void finish() {
    hand_off();
    wait();
  }

 private:
  struct Slot {
    std::unique_ptr<std::uint8_t[]> data;
    std::size_t size = 0;
    std::uint64_t at = 0;
  };
  static std::vector<Slot> make_slots();
  void run();
  void wait_written(std::uint64_t count);  // until `count` buffers are written

  Write write_;
  std::vector<Slot> slots_;
  std::uint8_t* current_;  // the writer's buffer: slots_[handed-off count % size]
  std::size_t fill_ = 0;
  std::uint64_t handed_off_ = 0;  // stream position of the current buffer's first byte

  // Counts of buffers handed off (times 2; the low bit asks the thread to stop) and written.
  std::atomic<std::uint64_t> published_{0};
  std::atomic<std::uint64_t> written_{0};
  std::atomic<bool> failed_{false};
  std::exception_ptr error_;  // set before failed_, by the thread
  std::thread thread_;        // last: started once everything above exists
};

}  // namespace docconform::sst
