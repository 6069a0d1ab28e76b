#include <sys/mman.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "docconform/truncation_guard.h"

namespace docconform {

void WatchedMapping::map(int fd, std::uint64_t offset, std::size_t size, const ErrorContext& where) {
  unmap();
  void* view = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, static_cast<off_t>(offset));
  if (view == MAP_FAILED) throw Error(ErrorKind::io, where, std::string("cannot map: ") + std::strerror(errno));
  data_ = static_cast<const std::uint8_t*>(view);
  size_ = size;
  slot_ = watch_mapping(data_, size_, &truncated_);
}

void WatchedMapping::unmap() noexcept {
  if (data_ == nullptr) return;
  unwatch_mapping(slot_);
  slot_ = -1;
  ::munmap(const_cast<std::uint8_t*>(data_), size_);
  data_ = nullptr;
  size_ = 0;
}

}  // namespace docconform
