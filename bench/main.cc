// docconform-bench: the reference implementation's benchmarks (speed, kernel calls, page faults,
// allocations, memory), JSON for machines, and third-party implementations timed through their
// conformance adapters beside it. Not part of the shipped CLI: it replaces the global operator
// new to count allocations.
#include <malloc.h>

#include "bench_commands.h"
#include "program.h"

int main(int argc, char** argv) {
  // The library on the system allocator, set for warm rounds: what one load frees stays in the
  // heap for the next (by default glibc gives buffers over its mmap threshold back to the kernel,
  // and each round pays their page faults again), in one arena as the CLI's jemalloc has it.
  // Measured side by side, full XLSX loads run 1.2-1.35x slower on the CLI's jemalloc settings.
  mallopt(M_ARENA_MAX, 1);
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
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
