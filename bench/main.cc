// docconform-bench: the reference implementation's benchmarks (speed, kernel calls, page faults,
// allocations, memory), JSON for machines, and third-party implementations timed through their
// conformance adapters beside it. Not part of the shipped CLI: it replaces the global operator
// new to count allocations.
#include "bench_commands.h"
#include "program.h"

int main(int argc, char** argv) {
  docconform::cli::start_program();
  CLI::App app{"docconform-bench: measurements of the docconform reference implementation"};
  app.require_subcommand(1);
  docconform::bench::add_xlsx_bench(app);
  docconform::bench::add_pdf_bench(app);
  docconform::bench::add_sst_bench(app);
  docconform::bench::add_peers_bench(app);
  docconform::bench::add_files_bench(app);
  return docconform::cli::run_program(app, argc, argv, "docconform-bench");
}
