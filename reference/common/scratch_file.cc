#include "common/scratch_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "common/signal_cleanup.h"
#include "docconform/error.h"

namespace docconform {

std::string temporary_directory() {
  const char* tmpdir = std::getenv("TMPDIR");
  std::string dir = tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp";
  struct stat st{};
  if (::stat(dir.c_str(), &st) != 0) {
    throw Error(ErrorKind::io, {dir, "", std::nullopt}, std::string("the temporary directory ($TMPDIR): ") + std::strerror(errno));
  }
  if (!S_ISDIR(st.st_mode)) throw Error(ErrorKind::io, {dir, "", std::nullopt}, "the temporary directory ($TMPDIR): not a directory");
  return dir;
}

ScratchFile::ScratchFile(std::string use) : use_(std::move(use)) {
  try {
    dir_ = temporary_directory();
  } catch (const Error& e) {  // named by its use, so that the loader's context (file, part) comes first
    throw Error(ErrorKind::io, {}, use_ + ": cannot be created in " + e.context().file + ": " + e.message());
  }
  fd_ = ::open(dir_.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd_ < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {  // no O_TMPFILE here
    std::string name = dir_ + "/docconform-XXXXXX";
    fd_ = ::mkostemp(name.data(), O_CLOEXEC);
    if (fd_ >= 0) ::unlink(name.c_str());
  }
  if (fd_ < 0) fail("cannot be created", errno);
}

ScratchFile::~ScratchFile() { ::close(fd_); }

void ScratchFile::append(const void* data, std::size_t size) {
  if (buffer_.size() + size > buffer_bytes) flush();
  if (size >= buffer_bytes) {
    buffer_.assign(static_cast<const char*>(data), size);
    flush();
    return;
  }
  buffer_.append(static_cast<const char*>(data), size);
}

void ScratchFile::flush() {
  const char* data = buffer_.data();
  std::size_t left = buffer_.size();
  while (left > 0) {
    const ssize_t n = ::pwrite(fd_, data, std::min<std::size_t>(left, 1u << 30), static_cast<off_t>(written_));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail("write failed", errno);
    if (n == 0) fail("write failed", EIO);  // no progress and no reason: do not spin
    data += n;
    left -= static_cast<std::size_t>(n);
    written_ += static_cast<std::uint64_t>(n);
  }
  buffer_.clear();
}

void ScratchFile::read(std::uint64_t offset, void* out, std::size_t size) {
  if (offset + size > written_) flush();
  auto* to = static_cast<char*>(out);
  while (size > 0) {
    const ssize_t n = ::pread(fd_, to, std::min<std::size_t>(size, 1u << 30), static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail("read failed", errno);
    if (n == 0) fail("read failed (it is shorter than was written)", EIO);
    to += n;
    size -= static_cast<std::size_t>(n);
    offset += static_cast<std::uint64_t>(n);
  }
}

void ScratchFile::read_all(const std::function<void(std::string_view)>& to) {
  if (written_ == 0) {  // all still in the buffer
    if (!buffer_.empty()) to(buffer_);
    return;
  }
  flush();
  std::string piece(static_cast<std::size_t>(std::min<std::uint64_t>(written_, buffer_bytes)), '\0');
  for (std::uint64_t offset = 0; offset < written_;) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(written_ - offset, piece.size()));
    read(offset, piece.data(), n);
    to({piece.data(), n});
    offset += n;
  }
}

void ScratchFile::truncate(std::uint64_t size) {
  if (size >= written_) {
    buffer_.resize(static_cast<std::size_t>(size - written_));
    return;
  }
  buffer_.clear();
  if (::ftruncate(fd_, static_cast<off_t>(size)) != 0) fail("truncate failed", errno);
  written_ = size;
}

void ScratchFile::fail(const std::string& what, int error) const {
  // Where it is: a full or missing $TMPDIR is the usual cause.
  throw Error(ErrorKind::io, {}, use_ + ": " + what + " in " + dir_ + ": " + std::strerror(error));
}

ScratchDirectory::ScratchDirectory(const std::string& prefix, const std::string& parent) {
  const auto fail = [&](const std::string& why) {
    if (parent_ >= 0) ::close(parent_);
    throw Error(ErrorKind::io, {parent, "", std::nullopt}, "cannot make a scratch directory in it: " + why);
  };
  parent_ = ::open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (parent_ < 0) fail(std::strerror(errno));
  const CleanupSignalsBlocked blocked;
  std::string path = parent + "/" + prefix + "XXXXXX";
  if (::mkdtemp(path.data()) == nullptr) fail(std::strerror(errno));
  cleanup_ = register_cleanup(parent_, std::filesystem::path(path).filename().string(), CleanupKind::directory_of_files);
  if (cleanup_ == nullptr) {
    ::rmdir(path.c_str());
    fail("more than " + std::to_string(cleanup_capacity) + " scratch paths at once");
  }
  path_ = std::move(path);
}

ScratchDirectory::~ScratchDirectory() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
  release_cleanup(cleanup_);
  ::close(parent_);
}

}  // namespace docconform
