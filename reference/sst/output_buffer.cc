#include "output_buffer.h"

#include <utility>

#include "docconform/sst/sink.h"

namespace docconform::sst {

std::vector<OutputBuffer::Slot> OutputBuffer::make_slots() {
  std::vector<Slot> slots(file_sink_buffers);
  // Not zero-filled: every byte is written before it is handed off.
  for (Slot& s : slots) s.data = std::make_unique_for_overwrite<std::uint8_t[]>(file_sink_buffer_bytes);
  return slots;
}

OutputBuffer::OutputBuffer(Write write)
    : write_(std::move(write)), slots_(make_slots()), current_(slots_[0].data.get()), thread_([this] { run(); }) {}

OutputBuffer::~OutputBuffer() {
  published_.fetch_or(1, std::memory_order_release);
  published_.notify_one();
  thread_.join();
}

void OutputBuffer::hand_off() {
  if (fill_ == 0) return;
  const std::uint64_t count = published_.load(std::memory_order_relaxed) / 2;
  Slot& slot = slots_[count % slots_.size()];
  slot.size = fill_;
  slot.at = handed_off_;
  published_.store((count + 1) * 2, std::memory_order_release);
  published_.notify_one();
  handed_off_ += fill_;
  fill_ = 0;
  // The next buffer is free once the write of the one that last used it is over.
  const std::uint64_t next = count + 1;
  if (next >= slots_.size()) wait_written(next + 1 - slots_.size());
  current_ = slots_[next % slots_.size()].data.get();
}

void OutputBuffer::wait() { wait_written(published_.load(std::memory_order_relaxed) / 2); }

void OutputBuffer::wait_written(std::uint64_t count) {
  std::uint64_t seen = written_.load(std::memory_order_acquire);
  while (seen < count) {
    written_.wait(seen, std::memory_order_acquire);
    seen = written_.load(std::memory_order_acquire);
  }
  if (failed_.load(std::memory_order_acquire)) std::rethrow_exception(error_);
}

void OutputBuffer::run() {
  std::uint64_t done = 0;
  while (true) {
    std::uint64_t word = published_.load(std::memory_order_acquire);
    while (word / 2 == done && (word & 1) == 0) {
      published_.wait(word, std::memory_order_acquire);
      word = published_.load(std::memory_order_acquire);
    }
    if ((word & 1) != 0) return;
    const Slot& slot = slots_[done % slots_.size()];
    if (!failed_.load(std::memory_order_relaxed)) {
      try {
        write_(slot.data.get(), slot.size, slot.at);
      } catch (...) {
        error_ = std::current_exception();
        failed_.store(true, std::memory_order_release);
      }
    }
    written_.store(++done, std::memory_order_release);
    written_.notify_one();
  }
}

}  // namespace docconform::sst
