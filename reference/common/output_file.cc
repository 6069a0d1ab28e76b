#include "docconform/output_file.h"

#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <streambuf>
#include <vector>

#include "common/signal_cleanup.h"
#include "docconform/error.h"

namespace docconform {
namespace {

[[noreturn]] void fail(const std::string& name, const std::string& what, int error) {
  throw Error(ErrorKind::io, {name, "", std::nullopt}, what + ": " + std::strerror(error));
}

// Gives the file open as `to` the extended attributes of `from` (ACLs, SELinux labels, user.*
// attributes): a replaced file keeps them. Only where the file systems have them and the
// process may set them, as with the owner.
void copy_extended_attributes(const std::string& from, int to) {
  const ssize_t list_size = ::listxattr(from.c_str(), nullptr, 0);
  if (list_size <= 0) return;
  std::vector<char> names(static_cast<std::size_t>(list_size));
  const ssize_t listed = ::listxattr(from.c_str(), names.data(), names.size());
  if (listed <= 0) return;
  std::vector<char> value;
  for (const char* key = names.data(); key < names.data() + listed; key += std::strlen(key) + 1) {
    const ssize_t size = ::getxattr(from.c_str(), key, nullptr, 0);
    if (size < 0) continue;
    value.resize(static_cast<std::size_t>(size));
    const ssize_t got = ::getxattr(from.c_str(), key, value.data(), value.size());
    if (got >= 0) ::fsetxattr(to, key, value.data(), static_cast<std::size_t>(got), 0);
  }
}

// ".<target>.<12 random characters>.tmp", the target's name shortened to fit NAME_MAX.
std::string temporary_name(const std::string& target_name) {
  static constexpr char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  unsigned char random[12];
  std::size_t got = 0;
  while (got < sizeof random) {
    const ssize_t n = ::getrandom(random + got, sizeof random - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw Error(ErrorKind::io, {}, std::string("getrandom failed: ") + std::strerror(errno));
    got += static_cast<std::size_t>(n);
  }
  std::string suffix = ".";
  for (const unsigned char byte : random) suffix += alphabet[byte % 64];
  suffix += ".tmp";
  return "." + target_name.substr(0, NAME_MAX - 1 - suffix.size()) + suffix;
}

bool same_file(const struct stat& a, const struct stat& b) { return a.st_dev == b.st_dev && a.st_ino == b.st_ino; }

// Buffers stream() output for OutputFile::write.
class OutputStreamBuffer final : public std::streambuf {
 public:
  explicit OutputStreamBuffer(OutputFile& file) : file_(file), data_(64 << 10) { setp(data_.data(), data_.data() + data_.size()); }

  void drain() {
    const std::size_t size = static_cast<std::size_t>(pptr() - pbase());
    setp(data_.data(), data_.data() + data_.size());
    if (size > 0) file_.write(data_.data(), size);
  }

 protected:
  int_type overflow(int_type c) override {
    drain();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    const auto size = static_cast<std::size_t>(n);
    if (size > static_cast<std::size_t>(epptr() - pptr())) {
      drain();
      if (size >= data_.size()) {
        file_.write(s, size);
        return n;
      }
    }
    std::memcpy(pptr(), s, size);
    pbump(static_cast<int>(n));
    return n;
  }
  int sync() override {
    drain();
    return 0;
  }

 private:
  OutputFile& file_;
  std::vector<char> data_;
};

}  // namespace

struct OutputFile::State {
  std::string path;          // as given
  std::string name;          // in messages: the path, or "standard output"
  std::string written_path;  // the temporary file, or the target written directly
  int fd = -1;
  bool owns_fd = true;  // false for standard output
  // A replaced target: the temporary file (named, or unnamed until commit) and the target,
  // both in `directory`.
  int directory = -1;
  std::string parent;     // the directory as given, for messages
  std::string temporary;  // the temporary file's name, empty while it has none
  std::string target;
  CleanupEntry* cleanup = nullptr;
  bool replaces = false;
  bool reserved = false;
  bool failed = false;
  bool committed = false;
  std::uint64_t position = 0;  // of the next sequential write
  std::uint64_t end = 0;       // one past the last byte written
  std::unique_ptr<OutputStreamBuffer> buffer;
  std::unique_ptr<std::ostream> stream;

  ~State() {
    if (fd >= 0 && owns_fd) ::close(fd);
    if (cleanup != nullptr) {
      ::unlinkat(directory, temporary.c_str(), 0);  // before it is released: a signal in between finds it gone
      release_cleanup(cleanup);
    }
    if (directory >= 0) ::close(directory);
  }

  std::string fd_path() const { return "/proc/self/fd/" + std::to_string(fd); }

  [[noreturn]] void failed_with(const std::string& what, int error) {
    failed = true;
    fail(name, what, error);
  }

  void open_standard_output() {
    if (std::fflush(stdout) != 0) fail(name, "write failed", errno);  // what stdio holds comes first
    fd = STDOUT_FILENO;
    owns_fd = false;
    written_path = "/dev/stdout";
  }

  void open_directly(const std::string& file) {
    fd = ::open(file.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) fail(name, "cannot open", errno);
    written_path = file;
  }

  // Gives the open temporary file a name in the directory, registered for the signal cleanup:
  // a new name, never one that exists, nor through a link at that name. make_at(name) puts the
  // file there (created with O_EXCL, or an unnamed file linked) and says whether it could.
  // Signals wait meanwhile.
  template <class MakeAt>
  void name_temporary(const std::string& what, MakeAt&& make_at) {
    const CleanupSignalsBlocked blocked;
    for (int attempt = 0; temporary.empty(); ++attempt) {
      const std::string candidate = temporary_name(target);
      if (make_at(candidate)) {
        temporary = candidate;
      } else if (errno != EEXIST || attempt == 100) {
        failed_with(what, errno);
      }
    }
    cleanup = register_cleanup(directory, temporary, CleanupKind::file);
    if (cleanup == nullptr) {
      ::unlinkat(directory, temporary.c_str(), 0);
      temporary.clear();
      throw Error(ErrorKind::io, {name, "", std::nullopt}, "more than " + std::to_string(cleanup_capacity) + " outputs open at once");
    }
  }

  // A new temporary file beside `file`, with the mode (and owner) of `replaced` when given.
  // Where the file system allows, it has no name until commit (O_TMPFILE), so that not even a
  // SIGKILL or the OOM killer can leave it behind; elsewhere it is named at once and removed on
  // failure and on the catchable signals.
  void open_temporary(const std::string& file, const struct stat* replaced) {
    const std::filesystem::path where(file);
    target = where.filename().string();
    if (target.empty() || target == "." || target == "..") throw Error(ErrorKind::io, {name, "", std::nullopt}, "not a file name");
    parent = where.has_parent_path() ? where.parent_path().string() : ".";
    directory = ::open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (directory < 0) fail(name, "cannot open its directory " + parent, errno);
    fd = ::openat(directory, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
    // Naming it at commit goes through /proc (linkat with AT_EMPTY_PATH needs a privilege).
    if (fd >= 0 && ::access(fd_path().c_str(), F_OK) != 0) {
      ::close(fd);
      fd = -1;
    }
    if (fd >= 0) {
      written_path = fd_path();
    } else if (errno == EACCES || errno == EROFS || errno == ENOSPC || errno == EDQUOT) {
      fail(name, "cannot create a temporary file in " + parent, errno);
    } else {  // no O_TMPFILE here (EOPNOTSUPP, EISDIR, EINVAL)
      name_temporary("cannot create a temporary file in " + parent, [&](const std::string& candidate) {
        fd = ::openat(directory, candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        return fd >= 0;
      });
      written_path = (std::filesystem::path(parent) / temporary).string();
    }
    replaces = true;
    if (replaced != nullptr) {
      copy_extended_attributes(file, fd);
      if (replaced->st_uid != ::geteuid() || replaced->st_gid != ::getegid()) {
        if (::fchown(fd, replaced->st_uid, replaced->st_gid) != 0) {
          // Only where permitted: a user cannot give a file away.
        }
      }
      if (::fchmod(fd, replaced->st_mode & 07777) != 0) fail(name, "cannot give the new file the mode of the old", errno);
    }
  }

  void write_all(const char* data, std::size_t size, const std::uint64_t* offset) {
    if (committed) throw Error(ErrorKind::usage, {name, "", std::nullopt}, "written after commit");
    std::uint64_t at = offset != nullptr ? *offset : position;
    while (size > 0) {
      const std::size_t chunk = std::min<std::size_t>(size, 1u << 30);
      const ssize_t n = offset != nullptr ? ::pwrite(fd, data, chunk, static_cast<off_t>(at)) : ::write(fd, data, chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {  // a non-blocking descriptor we were given
        pollfd ready{fd, POLLOUT, 0};
        ::poll(&ready, 1, -1);
        continue;
      }
      if (n < 0) failed_with(offset != nullptr ? "pwrite failed" : "write failed", errno);
      if (n == 0) failed_with("write failed", EIO);  // no progress and no reason: do not spin
      data += n;
      size -= static_cast<std::size_t>(n);
      at += static_cast<std::uint64_t>(n);
    }
    if (offset == nullptr) position = at;
    end = std::max(end, at);
  }

  void commit() {
    if (committed) throw Error(ErrorKind::usage, {name, "", std::nullopt}, "committed twice");
    if (buffer) buffer->drain();
    if (failed) throw Error(ErrorKind::io, {name, "", std::nullopt}, "not complete: a write failed");
    if (!replaces) {
      if (owns_fd) {
        // Devices and FIFOs have nothing to sync (EINVAL).
        if (::fsync(fd) != 0 && errno != EINVAL && errno != EROFS && errno != ENOTSUP) failed_with("sync failed", errno);
        const int closing = fd;
        fd = -1;
        if (::close(closing) != 0) failed_with("close failed", errno);
      }
      committed = true;
      return;
    }
    // Truncating to the size the file already has gives back the blocks reserved past its end.
    if (reserved && ::ftruncate(fd, static_cast<off_t>(end)) != 0) failed_with("truncate failed", errno);
    if (::fsync(fd) != 0) failed_with("sync failed", errno);
    if (temporary.empty()) {
      name_temporary("cannot name the temporary file in " + parent, [&](const std::string& candidate) {
        return ::linkat(AT_FDCWD, fd_path().c_str(), directory, candidate.c_str(), AT_SYMLINK_FOLLOW) == 0;
      });
    }
    const int closing = fd;
    fd = -1;
    if (::close(closing) != 0) failed_with("close failed", errno);
    if (::renameat(directory, temporary.c_str(), directory, target.c_str()) != 0) {
      failed_with("cannot rename the temporary file over it", errno);
    }
    release_cleanup(cleanup);
    cleanup = nullptr;
    committed = true;
    // The rename is durable once the directory is.
    if (::fsync(directory) != 0 && errno != EINVAL) fail(name, "written, but syncing its directory failed", errno);
  }
};

OutputFile::OutputFile(std::string path, Accept accept) : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.path = std::move(path);
  s.name = s.path == "-" ? "standard output" : s.path;
  const auto refuse = [&] {
    if (accept == Accept::regular_file) throw Error(ErrorKind::io, {s.name, "", std::nullopt}, "not a regular file: not replaced");
  };
  if (s.path == "-") {
    refuse();
    s.open_standard_output();
    return;
  }
  if (s.path.empty()) throw Error(ErrorKind::usage, {}, "no output file named");
  std::string file = s.path;
  struct stat st {};
  const bool exists = ::lstat(file.c_str(), &st) == 0;
  if (!exists && errno != ENOENT) fail(s.name, "cannot look at it", errno);
  if (exists && S_ISLNK(st.st_mode)) {
    // Written through: the file the link finally names is replaced, the link stays.
    char* resolved = ::realpath(file.c_str(), nullptr);
    if (resolved == nullptr) {
      if (errno == ENOENT) throw Error(ErrorKind::io, {s.name, "", std::nullopt}, "a symbolic link to nothing: not followed");
      fail(s.name, "cannot follow the symbolic link", errno);
    }
    file = resolved;
    std::free(resolved);
    if (::stat(file.c_str(), &st) != 0) fail(s.name, "cannot look at " + file, errno);
  }
  if (!exists) {
    s.open_temporary(file, nullptr);
    return;
  }
  if (S_ISDIR(st.st_mode)) throw Error(ErrorKind::io, {s.name, "", std::nullopt}, "is a directory");
  struct stat out {};
  if (::fstat(STDOUT_FILENO, &out) == 0 && same_file(out, st)) {
    refuse();
    s.open_standard_output();
    return;
  }
  if (!S_ISREG(st.st_mode)) {
    refuse();
    s.open_directly(file);
    return;
  }
  // Refused as opening it would be: a rename needs only the directory's permission.
  if (::faccessat(AT_FDCWD, file.c_str(), W_OK, AT_EACCESS) != 0) fail(s.name, "cannot write", errno);
  s.open_temporary(file, &st);
}

OutputFile::~OutputFile() = default;

void OutputFile::write(std::string_view bytes) { state_->write_all(bytes.data(), bytes.size(), nullptr); }

void OutputFile::write(const void* data, std::size_t size) { state_->write_all(static_cast<const char*>(data), size, nullptr); }

void OutputFile::write_at(const void* data, std::size_t size, std::uint64_t offset) {
  state_->write_all(static_cast<const char*>(data), size, &offset);
}

void OutputFile::reserve(std::uint64_t end) {
  // Writes that find their blocks allocated need not reserve them a page at a time (on this
  // machine's ext4, 40 MiB of SST are written in about a quarter less time). Only a file of our
  // own: on a file given directly (standard output), commit would then truncate it to our count
  // of its bytes. Advice: where fallocate fails (some filesystems), the writes allocate as they go.
  if (state_->replaces && ::fallocate(state_->fd, FALLOC_FL_KEEP_SIZE, 0, static_cast<off_t>(end)) == 0) state_->reserved = true;
}

std::uint64_t OutputFile::size() const { return state_->end; }

void OutputFile::truncate(std::uint64_t size) {
  State& s = *state_;
  if (!s.replaces || s.committed) throw Error(ErrorKind::usage, {s.name, "", std::nullopt}, "truncated, but not a temporary file of ours");
  if (s.buffer) s.buffer->drain();
  if (s.failed) throw Error(ErrorKind::io, {s.name, "", std::nullopt}, "not complete: a write failed");
  if (size > s.end) throw Error(ErrorKind::usage, {s.name, "", std::nullopt}, "truncated past its end");
  if (::ftruncate(s.fd, static_cast<off_t>(size)) != 0) s.failed_with("truncate failed", errno);
  if (::lseek(s.fd, static_cast<off_t>(size), SEEK_SET) < 0) s.failed_with("seek failed", errno);
  s.position = s.end = size;
}

std::ostream& OutputFile::stream() {
  State& s = *state_;
  if (!s.stream) {
    s.buffer = std::make_unique<OutputStreamBuffer>(*this);
    s.stream = std::make_unique<std::ostream>(s.buffer.get());
    s.stream->exceptions(std::ios::badbit);  // the Error a write threw comes out of the stream call
  }
  return *s.stream;
}

void OutputFile::commit() { state_->commit(); }

const std::string& OutputFile::path() const { return state_->path; }

const std::string& OutputFile::written_path() const { return state_->written_path; }

bool OutputFile::replaces_target() const { return state_->replaces; }

void write_output_file(const std::string& path, std::string_view bytes) {
  OutputFile out(path);
  out.write(bytes);
  out.commit();
}

void close_standard_output() {
  const bool failed_before = std::ferror(stdout) != 0;
  if (std::fflush(stdout) != 0) fail("standard output", "write failed", errno);
  if (failed_before) throw Error(ErrorKind::io, {"standard output", "", std::nullopt}, "write failed");
  // EBADF: there was no standard output to close, and nothing was written to it.
  if (std::fclose(stdout) != 0 && errno != EBADF) fail("standard output", "close failed", errno);
}

}  // namespace docconform
