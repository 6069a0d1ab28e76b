// BIFF8 SST commands: gen strings, sst write, sst dump, xls write, dump/digest sst, dump/digest sstw.
#include <cstdlib>
#include <iostream>
#include <memory>

#include "cli_util.h"
#include "commands.h"
#include "docconform/error.h"
#include "docconform/input_file.h"
#include "docconform/output_limit.h"
#include "docconform/sha256.h"
#include "docconform/sst/generate.h"
#include "docconform/sst/reader.h"
#include "docconform/sst/strings_file.h"
#include "docconform/sst/writer.h"
#include "docconform/sst/xls.h"
#include "dump_files.h"
#include "limit_options.h"
#include "phases.h"
#include "option_ranges.h"

namespace docconform::cli {
namespace {

using namespace docconform::sst;

SstTable load_strings(const std::string& path) {
  return parse_strings_jsonl(read_file(path, Limits{}.max_memory, "max_memory"), path);
}

std::string dump_file(const std::string& path, const LimitOptions<Limits>& limits) {
  std::string text;
  try {
    text = sst_dump(read_whole_file(path, limits.limits().max_memory, "max_memory"), sst_file_kind(path), limits.limits(), path);
  } catch (const Error& e) {
    throw e.with_file(path);
  }
  check_output_bytes(limits.output_limits(), path, text.size());
  return text;
}

void add_gen(CommandGroups& groups) {
  struct Options {
    std::size_t count = 1000;
    std::string mix = "mixed";
    std::uint64_t seed = 1;
    bool text_only = false;
    std::string out;
  };
  auto o = std::make_shared<Options>();
  auto* gen = groups.gen.add_subcommand("strings", "Write a deterministic strings file (JSON Lines, one string per line)");
  gen->add_option("--count", o->count, "Number of (unique) strings")
      ->capture_default_str()
      ->transform(integer_range(0, Limits{}.max_strings));
  gen->add_option("--mix", o->mix, "ascii, latin1, cjk, emoji, rich or mixed")->capture_default_str();
  gen->add_option("--seed", o->seed, "Random seed")->capture_default_str()->transform(integer_range(0, UINT64_MAX));
  gen->add_flag("--text-only", o->text_only,
                "The same texts without their format runs and phonetic blocks (what writers given only text write)");
  gen->add_option("out", o->out, "Output strings file")->required();
  gen->callback([o] {
    const SstTable generated = generate_strings(o->count, parse_mix(o->mix), o->seed);
    if (!o->text_only) return write_file(o->out, format_strings_jsonl(generated));
    SstTable texts(generated.limits());
    texts.reserve(generated.size(), generated.texts().size());
    for (std::size_t i = 0; i < generated.size(); ++i) texts.append({generated.text(i), std::nullopt, std::nullopt});
    texts.set_total_refs(generated.total_refs());
    write_file(o->out, format_strings_jsonl(texts));
  });
}

void add_sst(CommandGroups& groups) {
  auto* sst = groups.app.add_subcommand("sst", "BIFF8 shared string table: serialize strings, dump the strings of a file");
  sst->require_subcommand(1);

  struct WriteOptions {
    std::string strings;
    std::string writer = "fast";
    std::string sink = "memory";
    std::string out;
  };
  auto w = std::make_shared<WriteOptions>();
  auto* write = sst->add_subcommand("write", "Serialize a strings file as SST + CONTINUE + EXTSST records");
  write->add_option("--strings", w->strings, "Strings file (JSON Lines)")->required();
  write->add_option("--writer", w->writer, "naive (one call per byte, the oracle) or fast")->capture_default_str();
  write->add_option("--sink", w->sink, "memory, file (pwrite, back-patched lengths), stream (sequential), zlib or lz4")
      ->capture_default_str();
  write->add_option("out", w->out, "Output file, named .sst to be read back as records (zlib: deflated record bytes)")->required();
  write->callback([w] {
    const SstTable table = load_strings(w->strings);
    const WriterKind writer = parse_writer_kind(w->writer);
    const SinkKind kind = parse_sink_kind(w->sink);
    if (kind == SinkKind::memory) {
      auto sink = make_memory_sink();
      write_sst(writer, table, *sink);
      sink->finish();
      write_file(w->out, sink->bytes());
    } else {
      auto sink = make_file_sink(kind, w->out);
      write_sst(writer, table, *sink);
      sink->finish();
    }
  });

  struct DumpOptions {
    std::string file;
    bool check_extsst = false;
    LimitOptions<Limits> limits;
  };
  auto d = std::make_shared<DumpOptions>();
  auto* dump = sst->add_subcommand("dump", "Print the string list of a workbook or a raw SST record file (canonical dump)");
  dump->add_option("file", d->file, "A BIFF8 workbook, or a raw SST record file when named .sst")->required();
  dump->add_flag("--check-extsst", d->check_extsst, "Raw record files: report EXTSST entries that disagree with the strings");
  d->limits.add_to(dump);
  dump->callback([d] {
    if (!d->check_extsst) {
      write_file("-", dump_file(d->file, d->limits));
      return;
    }
    ReadOptions options;
    options.label = d->file;
    options.limits = d->limits.limits();
    const SstFile file = read_sst_file(read_whole_file(d->file, options.limits.max_memory, "max_memory"), options);
    const std::string text = sst_dump_table(file.table);
    check_output_bytes(d->limits.output_limits(), d->file, text.size());
    write_file("-", text);
    if (!file.extsst) throw Error(ErrorKind::format, {d->file, "EXTSST", std::nullopt}, "no EXTSST record");
    const auto problems = check_extsst(*file.extsst, file.string_starts);
    for (const auto& problem : problems) std::cerr << "extsst: " << problem << "\n";
    if (!problems.empty()) throw Error(ErrorKind::format, {d->file, "EXTSST", std::nullopt}, "EXTSST disagrees with the strings");
  });
}

void add_xls(CommandGroups& groups) {
  auto* xls = groups.app.add_subcommand("xls", "Minimal BIFF8 workbooks");
  xls->require_subcommand(1);
  struct Options {
    std::string strings;
    std::string writer = "fast";
    std::size_t rows = xls_rows_per_sheet;
    std::size_t columns = xls_columns_per_sheet;
    std::string out;
  };
  auto o = std::make_shared<Options>();
  auto* write = xls->add_subcommand("write", "Write a .xls whose cells hold the strings (column A first, 65,536 rows per column)");
  write->add_option("--strings", o->strings, "Strings file (JSON Lines)")->required();
  write->add_option("--writer", o->writer, "SST writer: naive or fast")->capture_default_str();
  write->add_option("out", o->out, "Output .xls")->required();
  write->add_option("--rows-per-sheet", o->rows, "Rows per column before the next column")
      ->capture_default_str()
      ->transform(integer_range(1, xls_rows_per_sheet));
  write->add_option("--columns-per-sheet", o->columns, "Columns per sheet before the next sheet")
      ->capture_default_str()
      ->transform(integer_range(1, xls_columns_per_sheet));
  write->callback([o] {
    XlsOptions options;
    options.writer = parse_writer_kind(o->writer);
    options.rows_per_sheet = o->rows;
    options.columns_per_sheet = o->columns;
    write_file(o->out, write_xls(load_strings(o->strings), options));
  });
}

}  // namespace

void add_sst_commands(CommandGroups& groups) {
  add_gen(groups);
  add_sst(groups);
  add_xls(groups);

  struct FileOptions {
    FileListOptions files;
    LimitOptions<Limits> limits;
    unsigned threads = 0;
  };
  for (CLI::App* group : {&groups.dump, &groups.digest}) {
    const bool wants_digest = group == &groups.digest;
    auto o = std::make_shared<FileOptions>();
    auto* command = group->add_subcommand(
        "sst", wants_digest ? "SHA-256 of the sst canonical dump of a file" : "Canonical string list of a .xls or raw SST record file");
    o->files.add_to(command);
    o->limits.add_to(command);
    add_file_threads_option(command, o->threads);
    command->callback([o, wants_digest] {
      // The table is read whole, so its dump is made whole (it is about the size of the file).
      const FileDumper dumper = [&o](const std::string& path, unsigned, const DumpSink& sink) { sink(dump_file(path, o->limits)); };
      wants_digest ? run_digests(o->files, o->threads, dumper) : run_dumps(o->files, o->threads, dumper);
    });
  }

  // sstw: the reference writer judged by the reference reader (conformance/SPEC.md, format sstw).
  struct WrittenOptions {
    std::string path;
    std::string writer = "fast";
  };
  for (CLI::App* group : {&groups.dump, &groups.digest}) {
    const bool wants_digest = group == &groups.digest;
    auto o = std::make_shared<WrittenOptions>();
    auto* command = group->add_subcommand(
        "sstw", wants_digest ? "SHA-256 of the sstw dump of a strings file"
                             : "The SST of the .xls our writer makes from a strings file, as our reader dumps it");
    command->add_option("file", o->path, "Strings file (JSON Lines), one cell per line")->required();
    command->add_option("--writer", o->writer, "SST writer: naive (the oracle) or fast")->capture_default_str();
    command->callback([o, wants_digest] {
      // Run by the conformance runner, it reports the phase sst_serialize where it is asked to.
      const char* phase_file = std::getenv(phase_file_variable);
      PhaseLog phases;
      const std::string text = written_sst_dump_timed(o->path, parse_writer_kind(o->writer), phase_file ? &phases : nullptr);
      if (phase_file != nullptr) append_phase_file(phase_file, phases);
      std::cout << (wants_digest ? sha256_hex(text) + "\n" : text);
    });
  }
}

}  // namespace docconform::cli
