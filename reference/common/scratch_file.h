// Scratch space that nothing is left of however the process ends.
// ScratchFile: a temporary file in temporary_directory() for data too large to hold in memory,
// read back at offsets. It is created without a name (O_TMPFILE, else removed as soon as it is
// opened). Every call is checked: a failure is Error(io) naming the file's use and the system's
// reason.
// ScratchDirectory: a directory of files that other processes read by name.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace docconform {

struct CleanupEntry;

// Where scratch goes: $TMPDIR, else /tmp. One that is not a directory is Error(io) naming it.
std::string temporary_directory();

class ScratchFile {
 public:
  // use names the file in errors ("the shared string table's temporary file").
  explicit ScratchFile(std::string use);
  ~ScratchFile();
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;

  // Adds bytes at the end, through a buffer of buffer_bytes.
  void append(const void* data, std::size_t size);
  std::uint64_t size() const { return written_ + buffer_.size(); }
  // Copies size bytes from offset (within what was appended) to out.
  void read(std::uint64_t offset, void* out, std::size_t size);
  // Passes everything appended to `to`, in order, in pieces of at most buffer_bytes.
  void read_all(const std::function<void(std::string_view)>& to);
  // Drops the bytes from `size` (at most size()) on.
  void truncate(std::uint64_t size);
  void clear() { truncate(0); }

  static constexpr std::size_t buffer_bytes = 1 << 20;

 private:
  void flush();
  [[noreturn]] void fail(const std::string& what, int error) const;

  std::string use_;
  std::string dir_;  // $TMPDIR or /tmp
  int fd_ = -1;
  std::string buffer_;
  std::uint64_t written_ = 0;
};

// A new directory for scratch files (files only) in `parent`, named <prefix><6 random
// characters>. The destructor removes it with its files, and so does the signal cleanup of
// install_output_cleanup() should a signal end the process. A failure to make it is Error(io)
// naming the parent.
class ScratchDirectory {
 public:
  explicit ScratchDirectory(const std::string& prefix, const std::string& parent = temporary_directory());
  ~ScratchDirectory();
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
  int parent_ = -1;  // which the signal cleanup removes it from
  CleanupEntry* cleanup_ = nullptr;
};

}  // namespace docconform
