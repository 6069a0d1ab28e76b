#include "parse_errors.h"

#include <iostream>
#include <string>
#include <vector>

namespace docconform::cli {
namespace {

// The subcommands the command line selected, outermost first.
std::vector<const CLI::App*> selected_path(const CLI::App& app) {
  std::vector<const CLI::App*> path{&app};
  for (;;) {
    const auto chosen = path.back()->get_subcommands();
    if (chosen.empty()) return path;
    path.push_back(chosen.front());
  }
}

std::string command_name(const std::string& program, const std::vector<const CLI::App*>& path) {
  std::string name = program;
  for (std::size_t i = 1; i < path.size(); ++i) name += " " + path[i]->get_name();
  return name;
}

std::string subcommand_names(const CLI::App& app) {
  std::string names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    names += (names.empty() ? "" : ", ") + sub->get_name();
  }
  return names;
}

}  // namespace

int exit_for_parse_error(const CLI::App& app, const CLI::ParseError& error, const std::string& program) {
  if (error.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) {
    return const_cast<CLI::App&>(app).exit(error);  // help or version: printed, exit 0
  }
  if (dynamic_cast<const CLI::RuntimeError*>(&error) != nullptr) return error.get_exit_code();
  const auto path = selected_path(app);
  const CLI::App& command = *path.back();
  const std::string name = command_name(program, path);
  const std::vector<std::string> unknown = app.remaining(true);
  std::string message;
  if (!unknown.empty() && unknown.front().rfind('-', 0) == 0) {
    message = "unknown option '" + unknown.front() + "' for '" + name + "'";
  } else if (!unknown.empty() && command.get_require_subcommand_min() > 0) {
    message = "unknown subcommand '" + unknown.front() + "' of '" + name + "' (one of: " + subcommand_names(command) + ")";
  } else if (!unknown.empty()) {
    message = "unexpected argument '" + unknown.front() + "' for '" + name + "'";
  } else if (command.get_require_subcommand_min() > 0 && command.get_subcommands().empty()) {
    message = "'" + name + "' needs a subcommand (one of: " + subcommand_names(command) + ")";
  } else {
    message = name + ": " + error.what();
  }
  std::cerr << program << ": usage error: " << message << "\n"
            << "Run '" << name << " --help' for the options.\n";
  return usage_exit_status;
}

}  // namespace docconform::cli
