// docconform-bench files: many small files digested in one process (`docconform digest FORMAT
// --files-from LIST`) against one process per file, the two timed in turn, whole processes
// included (start-up is what the first saves).
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bench_commands.h"
#include "cli_util.h"
#include "common/scratch_file.h"
#include "docconform/error.h"
#include "dump_files.h"
#include "option_ranges.h"
#include "peers.h"

extern char** environ;

namespace docconform::bench {
namespace {

namespace fs = std::filesystem;
using namespace docconform::cli;

struct FilesFlags {
  std::string format = "xlsx";
  FileListOptions files;
  unsigned threads = 2;
  unsigned repeat = 3;
};

// Runs argv with stdout to `out` (replaced) and waits: its wall seconds. Throws unless it exits 0.
double run_timed(const std::vector<std::string>& argv, const std::string& out) {
  std::vector<char*> args;
  for (const auto& word : argv) args.push_back(const_cast<char*>(word.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  const auto start = std::chrono::steady_clock::now();
  pid_t pid = 0;
  const int failed = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (failed != 0) throw Error(ErrorKind::io, {argv[0], "", std::nullopt}, "cannot start");
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    const std::string how = WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status))
                                              : "signal " + std::to_string(WTERMSIG(status));
    throw Error(ErrorKind::io, {argv[0], "", std::nullopt}, how + " on " + argv.back());
  }
  return seconds;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

void run_files_bench(const FilesFlags& flags) {
  const std::vector<std::string> paths = flags.files.paths();
  const std::string docconform = sibling_docconform();
  const ScratchDirectory scratch_dir("docconform-bench-files-");
  const fs::path scratch = scratch_dir.path();
  const std::string list = (scratch / "list").string(), one_out = (scratch / "one").string(), each_out = (scratch / "each").string();
  {
    std::string listed;
    for (const auto& path : paths) listed += path + "\n";
    write_file(list, listed);
  }
  const std::vector<std::string> one_process{docconform, "digest", flags.format, "--threads", std::to_string(flags.threads),
                                             "--files-from", list};
  std::vector<double> one_s, each_s, ratios;
  std::string each_digests;
  for (unsigned round = 0; round < flags.repeat; ++round) {
    one_s.push_back(run_timed(one_process, one_out));
    double each = 0;
    each_digests.clear();
    for (const auto& path : paths) {
      each += run_timed({docconform, "digest", flags.format, path}, each_out);
      each_digests += read_file(each_out);
    }
    each_s.push_back(each);
    ratios.push_back(each / one_s.back());
  }
  // The same digests both ways, in the same order.
  std::istringstream lines(read_file(one_out));
  std::string one_digests;
  for (std::string line; std::getline(lines, line);) one_digests += line.substr(0, line.find(' ')) + "\n";
  if (one_digests != each_digests) throw Error(ErrorKind::format, {}, "the digests of one process and of a process per file differ");

  const nlohmann::json out{{"bench", "files"},
                           {"format", flags.format},
                           {"files", paths.size()},
                           {"threads", flags.threads},
                           {"one_process_s", one_s},
                           {"process_per_file_s", each_s},
                           {"one_process_median_s", median(one_s)},
                           {"process_per_file_median_s", median(each_s)},
                           {"speedup_median", median(ratios)},
                           {"digests_agree", true}};
  std::cout << out.dump(2) << "\n";
}

}  // namespace

void add_files_bench(CLI::App& app) {
  auto flags = std::make_shared<FilesFlags>();
  auto* bench = app.add_subcommand(
      "files", "digest over many files: one process (--files-from) vs a process per file, in turn; JSON on stdout");
  bench->add_option("--format", flags->format, "Dump format: xlsx, pdf, sst or utf8")
      ->capture_default_str()
      ->check(CLI::IsMember({"xlsx", "pdf", "sst", "utf8"}));
  flags->files.add_inputs_to(bench);
  bench->add_option("--threads", flags->threads, "Threads of the one process")
      ->capture_default_str()
      ->transform(integer_range(1, max_threads_option));
  bench->add_option("--repeat", flags->repeat, "Rounds (each: one process, then a process per file)")
      ->capture_default_str()
      ->transform(integer_range(1, max_repeats_option));
  bench->callback([flags] { run_files_bench(*flags); });
}

}  // namespace docconform::bench
