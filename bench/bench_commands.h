// The subcommands of docconform-bench: each measurement registers itself on the program.
#pragma once

#include <CLI/CLI.hpp>

namespace docconform::bench {

void add_xlsx_bench(CLI::App& app);
void add_pdf_bench(CLI::App& app);
void add_sst_bench(CLI::App& app);
void add_peers_bench(CLI::App& app);
void add_files_bench(CLI::App& app);

}  // namespace docconform::bench
