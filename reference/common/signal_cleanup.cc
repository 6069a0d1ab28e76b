#include "common/signal_cleanup.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>

#include "docconform/output_file.h"

namespace docconform {
namespace {

constexpr int cleanup_signals[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGXFSZ};

}  // namespace

// An entry's fields are written while it is `filling` and left alone while `live`.
enum EntryState : int { free_entry, filling, live };
struct CleanupEntry {
  std::atomic<int> state{free_entry};
  pid_t owner = 0;
  int directory = -1;
  CleanupKind kind = CleanupKind::file;
  char name[NAME_MAX + 1] = {};
};

namespace {

CleanupEntry entries[cleanup_capacity];

// Removes the files of the directory `name` in `parent`, then the directory. Async-signal safe:
// no allocation, the directory read with getdents64 into a buffer on the stack. Files are
// removed while the directory is read, so it is read again until a pass finds none.
void remove_directory_of_files(int parent, const char* name) noexcept {
  const int dir = ::openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (dir >= 0) {
    alignas(dirent64) char buffer[2048];
    for (bool removed = true; removed;) {
      removed = false;
      if (::lseek(dir, 0, SEEK_SET) != 0) break;
      for (ssize_t got; (got = ::getdents64(dir, buffer, sizeof buffer)) > 0;) {
        for (ssize_t at = 0; at < got;) {
          const auto* entry = reinterpret_cast<const dirent64*>(buffer + at);
          at += entry->d_reclen;
          if (std::strcmp(entry->d_name, ".") == 0 || std::strcmp(entry->d_name, "..") == 0) continue;
          if (::unlinkat(dir, entry->d_name, 0) == 0) removed = true;
        }
      }
    }
    ::close(dir);
  }
  ::unlinkat(parent, name, AT_REMOVEDIR);
}

void on_cleanup_signal(int signal) {
  const int saved = errno;
  remove_temporary_outputs();
  errno = saved;
  // SA_RESETHAND put back the default action; the signal, blocked while this handler runs, is
  // delivered with it on return.
  ::raise(signal);
}

}  // namespace

CleanupEntry* register_cleanup(int directory, const std::string& name, CleanupKind kind) {
  if (name.size() > NAME_MAX) return nullptr;
  for (CleanupEntry& entry : entries) {
    int expected = free_entry;
    if (!entry.state.compare_exchange_strong(expected, filling, std::memory_order_acq_rel)) continue;
    entry.owner = ::getpid();
    entry.directory = directory;
    entry.kind = kind;
    std::memcpy(entry.name, name.c_str(), name.size() + 1);
    entry.state.store(live, std::memory_order_release);
    return &entry;
  }
  return nullptr;
}

void release_cleanup(CleanupEntry* entry) noexcept {
  if (entry != nullptr) entry->state.store(free_entry, std::memory_order_release);
}

CleanupSignalsBlocked::CleanupSignalsBlocked() {
  sigset_t set;
  sigemptyset(&set);
  for (const int signal : cleanup_signals) sigaddset(&set, signal);
  ::pthread_sigmask(SIG_BLOCK, &set, &previous_);
}

CleanupSignalsBlocked::~CleanupSignalsBlocked() { ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }

void install_output_cleanup() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction action {};
    action.sa_handler = on_cleanup_signal;
    action.sa_flags = SA_RESETHAND;
    sigemptyset(&action.sa_mask);
    for (const int signal : cleanup_signals) sigaddset(&action.sa_mask, signal);
    for (const int signal : cleanup_signals) {
      struct sigaction current {};
      if (::sigaction(signal, nullptr, &current) != 0) continue;
      if ((current.sa_flags & SA_SIGINFO) == 0 && current.sa_handler == SIG_DFL) ::sigaction(signal, &action, nullptr);
    }
  });
}

void remove_temporary_outputs() noexcept {
  const pid_t self = ::getpid();
  // Files first: a temporary output may be inside a scratch directory.
  for (const CleanupKind kind : {CleanupKind::file, CleanupKind::directory_of_files}) {
    for (CleanupEntry& entry : entries) {
      if (entry.state.load(std::memory_order_acquire) != live || entry.owner != self || entry.kind != kind) continue;
      if (kind == CleanupKind::file) {
        ::unlinkat(entry.directory, entry.name, 0);
      } else {
        remove_directory_of_files(entry.directory, entry.name);
      }
    }
  }
}

}  // namespace docconform
