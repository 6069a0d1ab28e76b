#include "dump_files.h"

#include <algorithm>
#include <iostream>
#include <sstream>
#include <new>

#include "cli_util.h"
#include "docconform/error.h"
#include "docconform/output_file.h"
#include "docconform/parallel.h"
#include "docconform/sha256.h"
#include "option_ranges.h"
#include "ordered_output.h"
#include "program.h"

namespace docconform::cli {

void FileListOptions::add_inputs_to(CLI::App* app) {
  app->add_option("files", files, "Input files (several: each one's output framed, conformance/SPEC.md section 1)");
  app->add_option("--files-from", files_from, "Also the files listed in LIST, one path per line ('-' = standard input)")
      ->type_name("LIST");
  app->add_option("--max-list-bytes", max_list_bytes, "Largest LIST accepted (limit error above)")
      ->capture_default_str()
      ->transform(byte_range(1, max_bytes_option));
}

void FileListOptions::add_to(CLI::App* app) {
  add_inputs_to(app);
  app->add_option("--output", output, "Write to FILE, replaced only when complete ('-' = standard output)")
      ->type_name("FILE")
      ->capture_default_str();
  app->add_option("--max-pending-output", pending_bytes,
                  "Several files: bytes of later files' output held while an earlier file is written")
      ->capture_default_str()
      ->transform(byte_range(0, max_bytes_option));
}

std::vector<std::string> FileListOptions::paths() const {
  std::vector<std::string> paths = files;
  if (!files_from.empty()) {
    std::istringstream list(read_file(files_from == "-" ? "/dev/stdin" : files_from, max_list_bytes, "--max-list-bytes"));
    for (std::string line; std::getline(list, line);) {
      if (!line.empty()) paths.push_back(line);
    }
  }
  if (paths.empty()) throw Error(ErrorKind::usage, {}, "no input file: give FILE... or --files-from LIST");
  if (framed()) {
    for (const auto& path : paths) {
      // The frame's lines name the file: a name must fit on one.
      if (path.find('\n') != std::string::npos) throw Error(ErrorKind::usage, {path, "", std::nullopt}, "a file name with a line break");
    }
  }
  return paths;
}

bool FileListOptions::framed() const { return files.size() != 1 || !files_from.empty(); }

void add_file_threads_option(CLI::App* app, unsigned& threads) {
  app->add_option("--threads", threads, "Files read at once (0 = min(files, cores)); same output at any count")
      ->capture_default_str()
      ->transform(integer_range(0, max_threads_option));
}

namespace {

// What became of one file of several.
struct FileFailure {
  int status = 0;  // 0: none
  std::string error_class;
  std::string message;
};

// Runs dump(path) and catches what it throws, as run_program would report it for one file;
// an output that failed is rethrown (it is no file's fault).
FileFailure run_file(const std::string& path, const OrderedOutput& ordered, const std::function<void()>& dump) {
  try {
    dump();
    return {};
  } catch (const Error& e) {
    if (ordered.failed()) throw;
    return {exit_status(e.kind()), to_string(e.kind()), e.with_file(path).what()};
  } catch (const std::bad_alloc&) {
    if (ordered.failed()) throw;
    const Error e(ErrorKind::limit, {path, "", std::nullopt}, "memory allocation failed (out of memory)");
    return {exit_status(e.kind()), to_string(e.kind()), e.what()};
  } catch (const std::exception& e) {
    if (ordered.failed()) throw;
    return {internal_error_status, "internal", path + ": internal error: " + e.what()};
  }
}

// A dump's pieces gathered into writes of about gathered_bytes: a dump may come a line at a time
// (a shuffled PDF's objects), and a write(2) for each line costs more than the line. A piece of
// at least direct_bytes goes straight through. What is gathered when the dump fails is dropped:
// the output is then a prefix of the dump, as it may be in any case.
class GatheredWrites {
 public:
  explicit GatheredWrites(DumpSink write) : write_(std::move(write)) {}

  void add(std::string_view piece) {
    if (gathered_.size() + piece.size() > gathered_bytes || (piece.size() >= direct_bytes && !gathered_.empty())) flush();
    if (piece.size() >= direct_bytes) {
      write_(piece);
    } else {
      gathered_ += piece;
    }
  }

  void flush() {
    if (!gathered_.empty()) write_(gathered_);
    gathered_.clear();
  }

 private:
  static constexpr std::size_t gathered_bytes = 1 << 20;
  static constexpr std::size_t direct_bytes = 64 << 10;
  DumpSink write_;
  std::string gathered_;
};

// With several files, files run in parallel: one thread each when there are at least as many
// files as threads, else the threads shared out among them.
struct ThreadPlan {
  unsigned files;     // files at once
  unsigned per_file;  // each file's thread cap
};
ThreadPlan plan_threads(std::size_t files, unsigned cap) {
  const unsigned at_once = planned_threads(files, cap);
  return {at_once, std::max(1u, planned_threads(SIZE_MAX, cap) / at_once)};
}

// Every file through `one(path, job, threads, output)`, written in input order; a failed file's
// output ends with failure_frame(). An output file is put in place only when every file ran:
// after a failure it keeps its old contents (standard output, written directly, has every part
// with how it ended). Then the exit status of the first failed file is thrown.
void run_many(const FileListOptions& options, const std::vector<std::string>& paths, unsigned threads,
              const std::function<void(const std::string& path, std::size_t job, unsigned threads, OrderedOutput& output)>& one,
              const std::function<std::string(std::size_t job, const FileFailure&)>& failure_frame) {
  OutputFile out(options.output);
  OrderedOutput ordered([&](std::string_view piece) { out.write(piece); }, options.pending_bytes);
  std::vector<int> statuses(paths.size(), 0);
  const ThreadPlan plan = plan_threads(paths.size(), threads);
  parallel_for(paths.size(), plan.files, [&](std::size_t job, unsigned) {
    FileFailure failure = run_file(paths[job], ordered, [&] { one(paths[job], job, plan.per_file, ordered); });
    statuses[job] = failure.status;
    if (failure.status != 0) ordered.write(job, failure_frame(job, failure));
    ordered.finish(job, [message = std::move(failure.message)] {
      if (!message.empty()) std::cerr << "docconform: " << message << "\n";
    });
  });
  const auto failed = static_cast<std::size_t>(std::count_if(statuses.begin(), statuses.end(), [](int s) { return s != 0; }));
  if (failed == 0 || !out.replaces_target()) {
    out.commit();
  } else {
    std::cerr << "docconform: " << out.path() << ": not replaced: " << failed << " of " << paths.size() << " files failed\n";
  }
  for (const int status : statuses) {
    if (status != 0) throw ExitStatus{status};
  }
}

// A temporary output file, truncated to go back; what it held before the sink is kept.
class OutputFileSink final : public RewindableSink {
 public:
  explicit OutputFileSink(OutputFile& out) : out_(out), start_(out.size()), marked_(start_) {}
  void write(std::string_view piece) override { out_.write(piece); }
  void mark() override { marked_ = out_.size(); }
  void go_back() override { out_.truncate(marked_); }
  void restart() override { out_.truncate(marked_ = start_); }

 private:
  OutputFile& out_;
  const std::uint64_t start_;
  std::uint64_t marked_;
};

}  // namespace

void run_dumps(const FileListOptions& options, unsigned threads, const FileDumper& dumper,
               const RewindableDumper& rewindable) {
  const auto paths = options.paths();
  if (!options.framed()) {
    OutputFile out(options.output);
    if (rewindable && out.replaces_target()) {
      OutputFileSink sink(out);
      rewindable(paths.front(), threads, sink);
    } else {
      GatheredWrites gathered([&](std::string_view piece) { out.write(piece); });
      dumper(paths.front(), threads, [&](std::string_view piece) { gathered.add(piece); });
      gathered.flush();
    }
    out.commit();
    return;
  }
  // Whether each file's last byte written ended a line, so its closing frame starts one.
  std::vector<char> at_line_start(paths.size(), 1);
  run_many(
      options, paths, threads,
      [&](const std::string& path, std::size_t job, unsigned file_threads, OrderedOutput& output) {
        output.write(job, "==> " + path + "\n");
        GatheredWrites gathered([&](std::string_view piece) {
          output.write(job, piece);
          at_line_start[job] = piece.back() == '\n';
        });
        dumper(path, file_threads, [&](std::string_view piece) { gathered.add(piece); });
        gathered.flush();
        output.write(job, "<== ok\n");
      },
      [&](std::size_t job, const FileFailure& failure) {
        return std::string(at_line_start[job] ? "" : "\n") + "<== error " + failure.error_class + "\n";
      });
}

void run_digests(const FileListOptions& options, unsigned threads, const FileDigester& digester) {
  const auto paths = options.paths();
  if (!options.framed()) {
    write_output_file(options.output, digester(paths.front(), threads) + "\n");
    return;
  }
  run_many(
      options, paths, threads,
      [&](const std::string& path, std::size_t job, unsigned file_threads, OrderedOutput& output) {
        output.write(job, digester(path, file_threads) + "  " + path + "\n");
      },
      [](std::size_t, const FileFailure&) { return std::string(); });
}

void run_digests(const FileListOptions& options, unsigned threads, const FileDumper& dumper) {
  run_digests(options, threads, [&](const std::string& path, unsigned file_threads) {
    Sha256 hash;
    dumper(path, file_threads, [&](std::string_view piece) { hash.update(piece); });
    return hash.final_hex();
  });
}

}  // namespace docconform::cli
