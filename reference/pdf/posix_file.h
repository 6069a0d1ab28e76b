// A read-only POSIX file descriptor that counts its kernel calls into a SourceCounts.
#pragma once

#include <sys/stat.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "docconform/pdf/source.h"

namespace docconform::pdf {

class PosixFile {
 public:
  PosixFile(const std::string& path, SourceCounts& counts);
  ~PosixFile();
  PosixFile(const PosixFile&) = delete;
  PosixFile& operator=(const PosixFile&) = delete;

  int fd() const { return fd_; }
  // fstat; returns the current size and remembers the modification stamp of the first call.
  std::uint64_t stat_size();
  // Throws Error(io) if the file's size or modification time differs from when it was opened.
  void check_unchanged(std::uint64_t expected_size);
  // Reads exactly size bytes at offset (one pread; loops only on a short read from a signal);
  // throws Error(io) if the file ends early, which means it was truncated while open.
  void pread_exact(std::uint64_t offset, std::size_t size, void* out);

 private:
  std::string path_;
  SourceCounts& counts_;
  int fd_ = -1;
  bool have_stamp_ = false;
  struct timespec mtime_ {};
};

}  // namespace docconform::pdf
