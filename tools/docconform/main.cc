// docconform: one CLI for dumps, digests, generators, benchmarks and the conformance suite.
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "commands.h"
#include "docconform/error.h"
#include "docconform/truncation_guard.h"

namespace {

// Exit statuses follow the adapter protocol (conformance/SPEC.md): 1 = input rejected.
int exit_status(docconform::ErrorKind kind) {
  switch (kind) {
    case docconform::ErrorKind::format:
    case docconform::ErrorKind::limit:
    case docconform::ErrorKind::range: return 1;
    case docconform::ErrorKind::unsupported: return 2;
    case docconform::ErrorKind::io: return 74;
    case docconform::ErrorKind::usage: return 64;
  }
  return 1;
}

// A large load spends a tenth of its time in page faults on fresh model memory (the 1M-row
// benchmark file: 55,000 faults). With malloc's memory eligible for transparent huge pages
// (glibc.malloc.hugetlb=1) it takes a few thousand. glibc 2.36 gives that advice to the main
// arena and to mmapped chunks only, not to the heaps of the arenas it makes for other threads,
// so a worker's cells and buffers would still fault in 4 KiB at a time: one arena for every
// thread (glibc.malloc.arena_max=1) puts them on huge pages too, and costs no contention at the
// loader's few allocations per thousand cells. glibc reads tunables only at startup, so the
// CLI runs itself again once with the tunables set, unless GLIBC_TUNABLES is set already (the
// caller's choice, which also turns this off). The second run restores the environment, so
// the programs it starts (adapters, compared readers) see the caller's.
void run_with_malloc_huge_pages(char** argv) {
  static constexpr char marker[] = "DOCCONFORM_MALLOC_HUGE_PAGES";
  if (std::getenv(marker) == nullptr) {
    if (std::getenv("GLIBC_TUNABLES") != nullptr) return;
    char self[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
      self[n] = '\0';
      ::setenv("GLIBC_TUNABLES", "glibc.malloc.hugetlb=1:glibc.malloc.arena_max=1", 1);
      ::setenv(marker, "1", 1);
      ::execv(self, argv);  // returns only on failure: go on as we are
    }
  }
  ::unsetenv("GLIBC_TUNABLES");
  ::unsetenv(marker);
}

}  // namespace

int main(int argc, char** argv) {
  run_with_malloc_huge_pages(argv);
  // Files mapped by the PDF and XLSX readers may be truncated by another process while they are
  // read: an error naming the file, not a SIGBUS crash.
  docconform::install_truncation_guard();
  CLI::App app{"docconform: conformance suite and reference implementation for XLSX, PDF and BIFF8 SST"};
  app.require_subcommand(1);
  app.fallthrough();
  auto* dump = app.add_subcommand("dump", "Print the canonical dump of a file (conformance/SPEC.md)");
  auto* digest = app.add_subcommand("digest", "Print the SHA-256 of a file's canonical dump");
  auto* gen = app.add_subcommand("gen", "Write deterministic synthetic inputs");
  auto* bench = app.add_subcommand("bench", "Measure speed, kernel calls and allocations");
  for (auto* group : {dump, digest, gen, bench}) group->require_subcommand(1);

  docconform::cli::CommandGroups groups{app, *dump, *digest, *gen, *bench};
  docconform::cli::add_version_commands(groups);
  docconform::cli::add_utf8_commands(groups);
  docconform::cli::add_golden_commands(groups);
  docconform::cli::add_conform_commands(groups);
  docconform::cli::add_pdf_commands(groups);
  docconform::cli::add_sst_commands(groups);
  docconform::cli::add_xlsx_commands(groups);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const docconform::Error& e) {
    std::fflush(stdout);
    std::cerr << "docconform: " << e.what() << "\n";
    const int status = exit_status(e.kind());
    // The adapter protocol's last line, so the CLI serves as an adapter (conformance/SPEC.md).
    if (status == 1 || status == 2) std::cerr << "error: " << docconform::to_string(e.kind()) << "\n";
    return status;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::cerr << "docconform: internal error: " << e.what() << "\n";
    return 70;
  }
  return 0;
}
