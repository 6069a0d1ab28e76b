// docconform: one CLI for dumps, digests, generators and the conformance suite.
#include "commands.h"
#include "program.h"

int main(int argc, char** argv) {
  docconform::cli::start_program();
  CLI::App app{"docconform: conformance suite and reference implementation for XLSX, PDF and BIFF8 SST"};
  app.require_subcommand(1);
  app.fallthrough();
  auto* dump = app.add_subcommand("dump", "Print the canonical dump of a file (conformance/SPEC.md)");
  auto* digest = app.add_subcommand("digest", "Print the SHA-256 of a file's canonical dump");
  auto* gen = app.add_subcommand("gen", "Write deterministic synthetic inputs");
  for (auto* group : {dump, digest, gen}) group->require_subcommand(1);

  docconform::cli::CommandGroups groups{app, *dump, *digest, *gen};
  docconform::cli::add_version_commands(groups);
  docconform::cli::add_utf8_commands(groups);
  docconform::cli::add_golden_commands(groups);
  docconform::cli::add_conform_commands(groups);
  docconform::cli::add_pdf_commands(groups);
  docconform::cli::add_sst_commands(groups);
  docconform::cli::add_xlsx_commands(groups);
  return docconform::cli::run_program(app, argc, argv, "docconform");
}
