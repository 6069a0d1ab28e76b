// What the signal cleanup of install_output_cleanup() removes when a signal ends the process:
// the temporary files of outputs not yet committed and the scratch directories, each registered
// by its directory's descriptor and its name. The handler reads the registry through lock-free
// atomics only; a forked child never removes its parent's paths.
#pragma once

#include <signal.h>

#include <cstddef>
#include <string>

namespace docconform {

enum class CleanupKind : int {
  file,
  directory_of_files,  // emptied (its files, no subdirectories), then removed; after every file
};

struct CleanupEntry;

// How many paths may be registered at once.
constexpr std::size_t cleanup_capacity = 256;

// Registers `name` in `directory`, a descriptor the caller keeps open until release_cleanup.
// nullptr when cleanup_capacity paths are registered already.
CleanupEntry* register_cleanup(int directory, const std::string& name, CleanupKind kind);
// Takes the entry back: the caller removed the path, or keeps it.
void release_cleanup(CleanupEntry* entry) noexcept;

// Blocks the cleanup signals on this thread while a path is created and registered, so that a
// signal cannot come between the two.
class CleanupSignalsBlocked {
 public:
  CleanupSignalsBlocked();
  ~CleanupSignalsBlocked();
  CleanupSignalsBlocked(const CleanupSignalsBlocked&) = delete;
  CleanupSignalsBlocked& operator=(const CleanupSignalsBlocked&) = delete;

 private:
  sigset_t previous_;
};

}  // namespace docconform
