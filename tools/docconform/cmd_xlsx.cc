// xlsx subcommands: dump, digest and gen.
#include <iostream>
#include <memory>

#include "cli_util.h"
#include "commands.h"
#include "docconform/output_file.h"
#include "docconform/output_limit.h"
#include "docconform/xlsx/dump.h"
#include "docconform/xlsx/generator.h"
#include "docconform/xlsx/workbook.h"
#include "dump_files.h"
#include "inflater_option.h"
#include "limit_options.h"
#include "option_ranges.h"

namespace docconform::cli {
namespace {

struct LoadFlags {
  FileListOptions files;
  LimitOptions<xlsx::Limits> limits;
  unsigned threads = 0;
  bool serial = false;
  bool no_shortcut = false;
  InflaterOption inflater;
  std::size_t chunk_bytes = xlsx::LoadOptions{}.chunk_bytes;
  std::uint64_t table_memory = xlsx::LoadOptions{}.table_memory;

  unsigned thread_cap() const { return serial ? 1 : threads; }

  xlsx::LoadOptions options(unsigned file_threads) const {
    xlsx::LoadOptions o;
    o.threads = file_threads;
    o.chunk_bytes = chunk_bytes;
    o.table_memory = table_memory;
    o.shortcut = !no_shortcut;
    o.inflater = inflater.kind();
    o.limits = limits.limits();
    return o;
  }
};

void add_load_flags(CLI::App* app, LoadFlags& flags) {
  flags.files.add_to(app);
  app->add_option("--threads", flags.threads, "Thread cap of the run, across files and within each (0 = min(jobs, cores))")
      ->transform(integer_range(0, max_threads_option));
  app->add_flag("--serial", flags.serial, "Load every file on the calling thread only");
  app->add_flag("--no-shortcut", flags.no_shortcut,
                "Read every cell and shared string token by token (the result must not change)");
  app->add_option("--chunk-bytes", flags.chunk_bytes, "Split sheets into chunks of about this much XML (0 = never)")
      ->transform(byte_range(0, max_bytes_option));
  app->add_option("--table-memory", flags.table_memory,
                  "Shared strings held in memory up to this size; a larger table goes to a temporary file in $TMPDIR "
                  "(0 = always held)")
      ->capture_default_str()
      ->transform(byte_range(0, max_bytes_option));
  flags.inflater.add_to(app);
  flags.limits.add_to(app);
}

// The dump of the workbook, streamed as its sheets are parsed, stopped at max_output_bytes.
FileDumper dumper(const LoadFlags& flags) {
  return [&flags](const std::string& path, unsigned threads, const DumpSink& sink) {
    xlsx::write_streamed_dump_file(path, flags.options(threads), sink, flags.limits.output_limits());
  };
}

}  // namespace

void add_xlsx_commands(CommandGroups& groups) {
  auto dump_flags = std::make_shared<LoadFlags>();
  auto* dump = groups.dump.add_subcommand("xlsx", "Canonical dump of a workbook (conformance/SPEC.md, format xlsx)");
  add_load_flags(dump, *dump_flags);
  dump->callback([dump_flags] {
    const LoadFlags& flags = *dump_flags;
    run_dumps(flags.files, flags.thread_cap(), dumper(flags), [&flags](const std::string& path, unsigned threads, RewindableSink& sink) {
      xlsx::write_streamed_dump_file(path, flags.options(threads), sink, flags.limits.output_limits());
    });
  });

  auto digest_flags = std::make_shared<LoadFlags>();
  auto* digest = groups.digest.add_subcommand("xlsx", "SHA-256 of the canonical dump of a workbook");
  add_load_flags(digest, *digest_flags);
  digest->callback([digest_flags] {
    const LoadFlags& flags = *digest_flags;
    run_digests(flags.files, flags.thread_cap(), [&flags](const std::string& path, unsigned threads) {
      return xlsx::streamed_dump_sha256_file(path, flags.options(threads), flags.limits.output_limits());
    });
  });

  auto gen = std::make_shared<xlsx::GenOptions>();
  auto out = std::make_shared<std::string>();
  auto strings = std::make_shared<std::string>("shared");
  auto no_extras = std::make_shared<bool>(false);
  auto* g = groups.gen.add_subcommand("xlsx", "Write a deterministic synthetic workbook with libzip");
  g->add_option("--sheets", gen->sheets, "Number of sheets")
      ->capture_default_str()
      ->transform(integer_range(1, xlsx::Limits{}.max_sheets));
  g->add_option("--rows", gen->rows, "Rows per sheet, header included")
      ->capture_default_str()
      ->transform(integer_range(1, xlsx::max_rows));
  g->add_option("--cols", gen->columns, "Columns per row")->capture_default_str()->transform(integer_range(1, xlsx::max_columns));
  g->add_option("--strings", *strings, "String cells: shared (sharedStrings part) or inline (t=\"inlineStr\")")
      ->check(CLI::IsMember({"shared", "inline"}))->capture_default_str();
  g->add_option("--seed", gen->seed, "Seed of the deterministic generator")->capture_default_str()->transform(integer_range(0, UINT64_MAX));
  g->add_flag("--malformed-utf8", gen->malformed_utf8, "Put ill-formed UTF-8 into some strings");
  g->add_flag("--implicit-refs", gen->implicit_refs, "Omit r on every other row and its cells");
  g->add_flag("--no-extras", *no_extras, "No comment, table or merged range per sheet");
  g->add_option("out", *out, "Output .xlsx path")->required();
  g->callback([gen, out, strings, no_extras] {
    gen->inline_strings = *strings == "inline";
    gen->extras = !*no_extras;
    write_file(*out, xlsx::generate_workbook(*gen));
  });
}

}  // namespace docconform::cli
