#include "docconform/input_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "docconform/error.h"

namespace docconform {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw Error(ErrorKind::io, {path, "", std::nullopt}, what + ": " + std::strerror(errno));
}

}  // namespace

void require_random_access(const struct stat& st, const std::string& path) {
  if (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode)) return;
  const char* kind = S_ISDIR(st.st_mode)    ? "a directory"
                     : S_ISFIFO(st.st_mode) ? "a pipe"
                     : S_ISSOCK(st.st_mode) ? "a socket"
                     : S_ISCHR(st.st_mode)  ? "a character device"
                                            : "not a regular file";
  throw Error(ErrorKind::io, {path, "", std::nullopt},
              std::string("is ") + kind + ": the reader needs a file it can read at any offset");
}

std::string read_whole_file(const std::string& path, std::size_t max_bytes, std::string_view limit) {
  const int fd = ::open(path.c_str(), input_open_flags);
  if (fd < 0) fail(path, "cannot open");
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) fail(path, "fstat");
  require_random_access(st, path);
  // A block device's size is where its end is.
  const off_t end = S_ISBLK(st.st_mode) ? ::lseek(fd, 0, SEEK_END) : st.st_size;
  if (end < 0) fail(path, "cannot find its size");
  const auto size = static_cast<std::uint64_t>(end);
  if (size > max_bytes) {
    throw Error(ErrorKind::limit, {path, "", std::nullopt},
                "file of " + std::to_string(size) + " bytes is over " + std::string(limit) + " (" + std::to_string(max_bytes) + ")");
  }
  std::string bytes(static_cast<std::size_t>(size), '\0');
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::pread(fd, bytes.data() + done, bytes.size() - done, static_cast<off_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(path, "read failed");
    if (n == 0) break;  // the file shrank while it was read: what it holds now
    done += static_cast<std::size_t>(n);
  }
  bytes.resize(done);
  return bytes;
}

}  // namespace docconform
