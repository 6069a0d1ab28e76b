// `dump FORMAT` and `digest FORMAT` over one file or many (conformance/SPEC.md section 1,
// "Output of the CLI"): the output is written as it is produced, to standard output or through
// OutputFile; several files run in parallel and are written in input order, each framed.
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "docconform/output_limit.h"

namespace docconform::cli {

// Bytes of later files' output that may wait for an earlier file's (OrderedOutput's budget).
inline constexpr std::size_t default_pending_output_bytes = std::size_t{64} << 20;

struct FileListOptions {
  std::vector<std::string> files;
  std::string files_from;  // a list of paths, one per line; "-" = standard input
  std::size_t max_list_bytes = std::size_t{64} << 20;  // of files_from, which may be a pipe that never ends
  std::string output = "-";
  std::size_t pending_bytes = default_pending_output_bytes;

  // The positional files and --files-from.
  void add_inputs_to(CLI::App* app);
  // Those, --output and --max-pending-output.
  void add_to(CLI::App* app);
  // The files, then the list's; Error(usage) when there are none.
  std::vector<std::string> paths() const;
  // Whether the output is framed per file (several files, or a list).
  bool framed() const;
};

// --threads for formats whose files are read on one thread each: files read at once.
void add_file_threads_option(CLI::App* app, unsigned& threads);

// Writes one file's dump to sink, on up to `threads` threads (0 = auto); throws Error.
using FileDumper = std::function<void(const std::string& path, unsigned threads, const DumpSink& sink)>;

// The same into an output that can go back to a point it passed (a file not yet in place).
using RewindableDumper = std::function<void(const std::string& path, unsigned threads, RewindableSink& sink)>;

// One file, unframed: the dump, or an Error propagated as the CLI reports it; through
// `rewindable`, when given, if the output is a file of our own until it is complete. Several:
// each file's dump framed, errors reported per file on stderr, then ExitStatus (program.h) of
// the first failed file when any failed. `threads` caps the threads of the whole run.
void run_dumps(const FileListOptions& files, unsigned threads, const FileDumper& dumper,
               const RewindableDumper& rewindable = {});
// The same for digests: `<hex>` for one file, `<hex>  <path>` per file otherwise.
void run_digests(const FileListOptions& files, unsigned threads, const FileDumper& dumper);
// The same for a format that takes its own digest (lowercase hex) of a file's dump.
using FileDigester = std::function<std::string(const std::string& path, unsigned threads)>;
void run_digests(const FileListOptions& files, unsigned threads, const FileDigester& digester);

}  // namespace docconform::cli
