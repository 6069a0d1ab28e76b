// How a command line CLI11 cannot parse ends the program: --help and --version print and exit
// 0, a command's own failure status (CLI::RuntimeError) is kept, and every other parse error is
// a usage error (exit 64) whose message names the command and the unknown subcommand, option or
// value.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace docconform::cli {

inline constexpr int usage_exit_status = 64;

// Prints what the user needs to stderr (help to stdout) and returns the exit status; program is
// the executable's name ("docconform", "docconform-bench").
int exit_for_parse_error(const CLI::App& app, const CLI::ParseError& error, const std::string& program);

}  // namespace docconform::cli
