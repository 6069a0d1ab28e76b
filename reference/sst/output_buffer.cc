#include "output_buffer.h"

#include <utility>

#include "docconform/sst/sink.h"

namespace docconform::sst {

OutputBuffer::OutputBuffer(Write write)
    : write_(std::move(write)),
      // Not zero-filled: every byte is written before it is handed off.
      buffers_{std::make_unique_for_overwrite<std::uint8_t[]>(file_sink_buffer_bytes),
               std::make_unique_for_overwrite<std::uint8_t[]>(file_sink_buffer_bytes)},
      thread_([this] { run(); }) {}

OutputBuffer::~OutputBuffer() {
  {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return job_data_ == nullptr; });
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void OutputBuffer::hand_off() {
  if (fill_ == 0) return;
  {
    // The other buffer is refilled next: its write must be over.
    std::unique_lock lock(mutex_);
    wait_idle(lock);
    job_data_ = buffers_[current_].get();
    job_size_ = fill_;
    job_at_ = handed_off_;
  }
  changed_.notify_all();
  handed_off_ += fill_;
  fill_ = 0;
  current_ ^= 1;
}

void OutputBuffer::wait() {
  std::unique_lock lock(mutex_);
  wait_idle(lock);
}

void OutputBuffer::wait_idle(std::unique_lock<std::mutex>& lock) {
  changed_.wait(lock, [this] { return job_data_ == nullptr; });
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

void OutputBuffer::run() {
  std::unique_lock lock(mutex_);
  while (true) {
    changed_.wait(lock, [this] { return job_data_ != nullptr || stopping_; });
    if (job_data_ == nullptr) return;
    lock.unlock();
    std::exception_ptr error;
    try {
      write_(job_data_, job_size_, job_at_);
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    if (error) error_ = error;
    job_data_ = nullptr;
    changed_.notify_all();
  }
}

}  // namespace docconform::sst
