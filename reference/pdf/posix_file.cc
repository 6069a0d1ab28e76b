#include "posix_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "docconform/input_file.h"
#include "docconform/error.h"

namespace docconform::pdf {

PosixFile::PosixFile(const std::string& path, SourceCounts& counts) : path_(path), counts_(counts) {
  ++counts_.open;
  fd_ = ::open(path.c_str(), input_open_flags);
  if (fd_ < 0) throw Error(ErrorKind::io, {path, "", std::nullopt}, std::string("cannot open: ") + std::strerror(errno));
}

PosixFile::~PosixFile() {
  if (fd_ >= 0) ::close(fd_);
}

std::uint64_t PosixFile::stat_size() {
  struct stat st {};
  ++counts_.fstat;
  if (::fstat(fd_, &st) != 0) throw Error(ErrorKind::io, {path_, "", std::nullopt}, std::string("fstat: ") + std::strerror(errno));
  if (!have_stamp_) {
    require_random_access(st, path_);
    mtime_ = st.st_mtim;
    have_stamp_ = true;
  } else if (st.st_mtim.tv_sec != mtime_.tv_sec || st.st_mtim.tv_nsec != mtime_.tv_nsec) {
    throw Error(ErrorKind::io, {path_, "", std::nullopt}, "file was modified while open");
  }
  return static_cast<std::uint64_t>(st.st_size);
}

void PosixFile::check_unchanged(std::uint64_t expected_size) {
  const std::uint64_t now = stat_size();
  if (now != expected_size) {
    throw Error(ErrorKind::io, {path_, "", now},
                "file changed size while open (was " + std::to_string(expected_size) + " bytes)");
  }
}

void PosixFile::pread_exact(std::uint64_t offset, std::size_t size, void* out) {
  auto* dest = static_cast<char*>(out);
  std::size_t done = 0;
  while (done < size) {
    ++counts_.pread;
    const ssize_t got = ::pread(fd_, dest + done, size - done, static_cast<off_t>(offset + done));
    if (got < 0) {
      if (errno == EINTR) continue;
      throw Error(ErrorKind::io, {path_, "", offset + done}, std::string("pread: ") + std::strerror(errno));
    }
    if (got == 0) throw Error(ErrorKind::io, {path_, "", offset + done}, "file was truncated while open");
    done += static_cast<std::size_t>(got);
    counts_.bytes_copied += static_cast<std::uint64_t>(got);
  }
}

}  // namespace docconform::pdf
