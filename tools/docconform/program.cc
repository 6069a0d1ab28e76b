#include "program.h"

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <new>
#include <string>

#include "docconform/error.h"
#include "docconform/output_file.h"
#include "docconform/truncation_guard.h"
#include "parse_errors.h"

namespace docconform::cli {
int exit_status(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::format:
    case ErrorKind::limit:
    case ErrorKind::range: return 1;
    case ErrorKind::unsupported: return 2;
    case ErrorKind::io: return 74;
    case ErrorKind::usage: return usage_exit_status;
  }
  return 1;
}

namespace {

// The chosen subcommand's words, e.g. "gen strings": what was being done when memory ran out.
std::string command_words(const CLI::App& app) {
  std::string words;
  for (const CLI::App* command = &app;;) {
    const auto chosen = command->get_subcommands();
    if (chosen.empty()) return words;
    command = chosen.front();
    if (!words.empty()) words += ' ';
    words += command->get_name();
  }
}

int report(const Error& e, const char* name) {
  std::fflush(stdout);
  std::cerr << name << ": " << e.what() << "\n";
  const int status = exit_status(e.kind());
  // The adapter protocol's last line, so the CLI serves as an adapter (conformance/SPEC.md).
  if (status == 1 || status == 2) std::cerr << "error: " << to_string(e.kind()) << "\n";
  return status;
}

}  // namespace

void start_program() {
  // Past the file-size limit (RLIMIT_FSIZE) a write then fails with EFBIG and is reported with
  // the file's name, as a full disk is, instead of the signal killing the process unexplained.
  struct sigaction file_size {};
  if (::sigaction(SIGXFSZ, nullptr, &file_size) == 0 && (file_size.sa_flags & SA_SIGINFO) == 0 &&
      file_size.sa_handler == SIG_DFL) {
    ::signal(SIGXFSZ, SIG_IGN);
  }
  install_truncation_guard();
  // A signal that ends the process first removes the temporary files of unfinished outputs.
  install_output_cleanup();
}

int run_program(CLI::App& app, int argc, char** argv, const char* name) {
  try {
    app.parse(argc, argv);
    close_standard_output();  // what was printed reached it, or the exit status says so
  } catch (const CLI::ParseError& e) {
    return exit_for_parse_error(app, e, name);
  } catch (const ExitStatus& e) {
    return e.status;
  } catch (const Error& e) {
    return report(e, name);
  } catch (const std::bad_alloc&) {
    // Outside a load (which reports its own, with the file and part): a limit error naming the
    // command. The failed request was large; these few small strings still fit.
    return report(Error(ErrorKind::limit, {}, "memory allocation failed while running `" + command_words(app) +
                                                  "` (out of memory)"),
                  name);
  } catch (const std::filesystem::filesystem_error& e) {
    // A directory that cannot be made or listed, a file that cannot be removed: the system's
    // reason, with the path it concerns.
    return report(Error(ErrorKind::io, {e.path1().string(), "", std::nullopt}, e.code().message()), name);
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::cerr << name << ": internal error: " << e.what() << "\n";
    return internal_error_status;
  }
  return 0;
}

}  // namespace docconform::cli
