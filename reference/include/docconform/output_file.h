// Every file the project writes goes through OutputFile, so that no output is ever lost:
//  * A regular file (or a path where nothing exists yet) is written to a new temporary file in
//    the same directory, and commit() syncs it and renames it over the target. The temporary file
//    has no name until commit (O_TMPFILE, so not even SIGKILL can leave it behind); it is then
//    linked under an unpredictable name, never an existing one nor through a link. Where the file
//    system has no O_TMPFILE it gets that name at once. Until commit, and after any failure, the
//    target keeps its old contents and the temporary file is removed. The new file gets the mode
//    (and, where permitted, the owner and the extended attributes: ACLs, security labels) of the
//    file it replaces; a new file gets 0666 less the umask. A target the process may not write is refused, as opening it would be. (A file with
//    other hard links gets a new inode: its other names keep the old contents.)
//  * A symbolic link at the target is followed to the file it finally names, which is replaced
//    as above while the link stays; a link to nothing is refused.
//  * A target that is not a regular file (standard output, named "-" or by a path to the same
//    file; a device such as /dev/null; a FIFO) is never replaced: it is written directly.
// Every write is checked (short writes, EINTR, ENOSPC, EIO), and so are the sync and close.
// Every failure is Error(io) naming the output as given and the system's reason.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>

namespace docconform {

class OutputFile {
 public:
  enum class Accept {
    any,           // as above
    regular_file,  // a target that is not a regular file is refused (Error(io)), before it is opened
  };
  explicit OutputFile(std::string path, Accept accept = Accept::any);
  // Without commit(): the temporary file is removed and the target is left as it was.
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  void write(std::string_view bytes);
  void write(const void* data, std::size_t size);
  // At an offset (pwrite): the output must be seekable (not a FIFO or a terminal).
  void write_at(const void* data, std::size_t size, std::uint64_t offset);
  // Advice: the output will end near `end`, so its blocks can be allocated at once; what is
  // not written is given back at commit.
  void reserve(std::uint64_t end);
  // One past the last byte written.
  std::uint64_t size() const;
  // Drops the bytes from `size` on, where the next write goes: only a file of our own
  // (replaces_target()), never one given directly.
  void truncate(std::uint64_t size);
  // A buffered stream over write(); a failed write throws the Error from the stream call.
  std::ostream& stream();

  // Flushes, syncs and closes, then puts the temporary file in place. Nothing is written after.
  void commit();

  const std::string& path() const;  // as given ("-" is standard output)
  // The file holding the bytes until commit(): the temporary file, or the target itself when it
  // is written directly. Readable before commit(), e.g. to check what was written.
  const std::string& written_path() const;
  // Whether commit() renames a temporary file over the target (false: written directly).
  bool replaces_target() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The whole content of `path`, through OutputFile.
void write_output_file(const std::string& path, std::string_view bytes);

// For the end of a program that printed with stdio or iostreams: flushes and closes stdio's
// standard output, and throws Error(io) naming it when a write, the flush or the close failed
// (a full disk behind `> file`, /dev/full, a closed pipe with SIGPIPE ignored).
void close_standard_output();

// On SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE and SIGXFSZ, removes the temporary files of the
// outputs not yet committed (and the library's scratch directories), then ends the process as
// the signal would. Installed only for the
// signals whose action is still the default (a program's own handler or an ignored signal is
// left alone). Opt-in, like the truncation guard: a library does not take over signals on its
// own; the CLI installs it. Idempotent and thread-safe.
void install_output_cleanup();

// Removes the temporary files of every output of this process not yet committed, and its
// scratch directories. Async-signal safe: for programs that handle those signals themselves.
void remove_temporary_outputs() noexcept;

}  // namespace docconform
