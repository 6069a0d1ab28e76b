#include "ordered_output.h"

#include <algorithm>

namespace docconform::cli {

OrderedOutput::OrderedOutput(Write out, std::size_t budget) : out_(std::move(out)), budget_(budget) {}

void OrderedOutput::put(std::string_view piece) {
  try {
    out_(piece);
  } catch (...) {
    failure_ = std::current_exception();
    moved_.notify_all();
    throw;
  }
}

void OrderedOutput::write(std::size_t job, std::string_view piece) {
  std::unique_lock lock(mutex_);
  moved_.wait(lock, [&] { return failure_ || job == next_ || pending_bytes_ + piece.size() <= budget_; });
  if (failure_) std::rethrow_exception(failure_);
  if (job == next_) return put(piece);
  pending_[job].bytes += piece;
  pending_bytes_ += piece.size();
  peak_pending_bytes_ = std::max(peak_pending_bytes_, pending_bytes_);
}

void OrderedOutput::finish(std::size_t job, std::function<void()> written) {
  std::lock_guard lock(mutex_);
  if (failure_) std::rethrow_exception(failure_);
  Pending& entry = pending_[job];
  entry.finished = true;
  entry.written = std::move(written);
  if (job == next_) drain();
}

void OrderedOutput::drain() {
  for (auto it = pending_.find(next_); it != pending_.end(); it = pending_.find(next_)) {
    Pending& entry = it->second;
    if (!entry.bytes.empty()) {
      put(entry.bytes);
      pending_bytes_ -= entry.bytes.size();
      std::string().swap(entry.bytes);
    }
    if (!entry.finished) break;  // the new lowest job runs on and writes through from now on
    if (entry.written) entry.written();
    pending_.erase(it);
    ++next_;
  }
  moved_.notify_all();
}

bool OrderedOutput::failed() const {
  std::lock_guard lock(mutex_);
  return failure_ != nullptr;
}

std::size_t OrderedOutput::peak_pending_bytes() const {
  std::lock_guard lock(mutex_);
  return peak_pending_bytes_;
}

}  // namespace docconform::cli
