// What every docconform program (the CLI, docconform-bench) does around its subcommands.
#pragma once

#include <CLI/CLI.hpp>

#include "docconform/error.h"

namespace docconform::cli {

// The exit status of an Error (the adapter protocol's, conformance/SPEC.md: 1 = input rejected).
int exit_status(ErrorKind kind);
inline constexpr int internal_error_status = 70;  // a bug: any exception but docconform::Error

// Thrown by a command that has reported its errors on stderr itself (one per file of several):
// run_program returns the status.
struct ExitStatus {
  int status;
};

// Process set-up, first thing in main(): the truncation guard (a mapped file that another
// process truncates is an error naming it, not a SIGBUS crash) and the removal of unfinished
// outputs' temporary files when a signal ends the process.
void start_program();

// Parses the command line and runs the chosen subcommand. Returns the exit status: 0, CLI11's
// for a bad command line, the adapter protocol's for a docconform::Error (conformance/SPEC.md)
// and for running out of memory (a limit error naming the command, 1), 70 for an internal error
// (a bug: any other exception). Errors are printed on stderr after `name: `.
int run_program(CLI::App& app, int argc, char** argv, const char* name);

}  // namespace docconform::cli
