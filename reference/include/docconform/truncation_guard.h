// Reading a memory-mapped file that another process truncates raises SIGBUS on the lost pages.
// The guard turns that into an error the reader reports: views register here, and a SIGBUS
// handler (opt-in: a library does not take over a signal on its own; the CLI installs it)
// answers a fault inside a registered view with zero-filled pages for the rest of the view and
// marks it truncated, so the reader can throw instead of crashing and never reports what it
// read from the zeros. Faults anywhere else go on to the handler installed before.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "docconform/error.h"

namespace docconform {

// Installs the SIGBUS handler. Idempotent and thread-safe; call it before mapping files that
// other processes may shrink in place.
void install_truncation_guard();

// Registers the view [begin, begin + length) whose truncation sets *truncated; returns a slot
// for unwatch(), or -1 when every slot is taken (the view is then read unguarded). Unwatch
// before unmapping.
int watch_mapping(const void* begin, std::size_t length, std::atomic<bool>* truncated);
void unwatch_mapping(int slot);

// A read-only mapping of part of an open file, watched by the guard while it lives: the one
// mmap wrapper of the readers. One view at a time (map() replaces the last one); truncated()
// stays true once the guard has answered a fault in any view of this object.
class WatchedMapping {
 public:
  WatchedMapping() = default;
  ~WatchedMapping() { unmap(); }
  WatchedMapping(const WatchedMapping&) = delete;
  WatchedMapping& operator=(const WatchedMapping&) = delete;

  // Maps size (> 0) bytes of fd from offset (a multiple of the page size); throws Error(io) at
  // where when the kernel refuses.
  void map(int fd, std::uint64_t offset, std::size_t size, const ErrorContext& where);
  void unmap() noexcept;

  const std::uint8_t* data() const { return data_; }
  std::size_t size() const { return size_; }
  bool truncated() const { return truncated_.load(std::memory_order_acquire); }

 private:
  const std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
  int slot_ = -1;
  std::atomic<bool> truncated_{false};  // set by the guard's SIGBUS handler
};

}  // namespace docconform
