// The file sinks' output buffer: two buffers of file_sink_buffer_bytes, one filled by the
// writer while a second thread writes out the other (the kernel's copy into the page cache,
// or a compressor), so that work runs beside the serialization instead of after each buffer.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "docconform/sst/sink.h"

namespace docconform::sst {

class OutputBuffer {
 public:
  // write(data, size, at): writes one buffer whose first byte is stream position `at`; runs on
  // the buffer's thread, one call at a time, in stream order.
  using Write = std::function<void(const std::uint8_t* data, std::size_t size, std::uint64_t at)>;
  explicit OutputBuffer(Write write);
  ~OutputBuffer();  // waits for the write in flight; its error is dropped
  OutputBuffer(const OutputBuffer&) = delete;
  OutputBuffer& operator=(const OutputBuffer&) = delete;

  // `bytes` (at most the buffer's size) in the current buffer, handing it off first when full.
  std::uint8_t* claim(std::size_t bytes) {
    if (file_sink_buffer_bytes - fill_ < bytes) hand_off();
    std::uint8_t* area = buffers_[current_].get() + fill_;
    fill_ += bytes;
    return area;
  }
  void retract(std::size_t bytes) { fill_ -= bytes; }
  std::uint64_t position() const { return handed_off_ + fill_; }
  // The byte at stream position `at` while it is still in the current buffer, else nullptr.
  std::uint8_t* unwritten(std::uint64_t at) {
    return at >= handed_off_ ? buffers_[current_].get() + (at - handed_off_) : nullptr;
  }

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
  void run();
  void wait_idle(std::unique_lock<std::mutex>& lock);

  Write write_;
  std::unique_ptr<std::uint8_t[]> buffers_[2];  // file_sink_buffer_bytes each
  int current_ = 0;
  std::size_t fill_ = 0;
  std::uint64_t handed_off_ = 0;  // stream position of the current buffer's first byte

  std::mutex mutex_;
  std::condition_variable changed_;
  const std::uint8_t* job_data_ = nullptr;  // the buffer being written, nullptr when idle
  std::size_t job_size_ = 0;
  std::uint64_t job_at_ = 0;
  bool stopping_ = false;
  std::exception_ptr error_;
  std::thread thread_;  // last: started once everything above exists
};

}  // namespace docconform::sst
