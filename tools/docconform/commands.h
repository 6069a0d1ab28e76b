// Subcommand registration: each component adds its commands to the shared command groups.
#pragma once

#include <CLI/CLI.hpp>

namespace docconform::cli {

struct CommandGroups {
  CLI::App& app;
  CLI::App& dump;    // dump <format> FILE: the canonical dump on stdout
  CLI::App& digest;  // digest <format> FILE: SHA-256 of the canonical dump
  CLI::App& gen;     // gen <format> ...: deterministic synthetic inputs
};

void add_version_commands(CommandGroups& groups);
void add_utf8_commands(CommandGroups& groups);
void add_golden_commands(CommandGroups& groups);
void add_conform_commands(CommandGroups& groups);
void add_pdf_commands(CommandGroups& groups);
void add_sst_commands(CommandGroups& groups);
void add_xlsx_commands(CommandGroups& groups);

}  // namespace docconform::cli
