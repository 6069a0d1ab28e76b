// PDF commands: dump/digest with a chosen byte source, the synthetic generator and the
// incremental-update writer.
#include <charconv>
#include <fstream>
#include <iostream>
#include <memory>

#include "cli_util.h"
#include "commands.h"
#include "docconform/error.h"
#include "docconform/output_file.h"
#include "docconform/output_limit.h"
#include "docconform/pdf/document.h"
#include "docconform/pdf/dump.h"
#include "docconform/pdf/generate.h"
#include "docconform/pdf/writer.h"
#include "dump_files.h"
#include "inflater_option.h"
#include "limit_options.h"
#include "option_ranges.h"
#include "pdf_source_options.h"

namespace docconform::cli {
namespace {

using namespace docconform::pdf;

struct ReadOptions {
  FileListOptions files;
  LimitOptions<Limits> limits;
  InflaterOption inflater;
  std::string source = to_string(SourceOptions{}.kind);
  SourceOptions sizes;  // window, granularity, buffer
  int level = 2;
  unsigned threads = 0;
  bool serial = false;
  bool recover = false;
  std::string password;

  unsigned thread_cap() const { return serial ? 1 : threads; }

  Limits reader_limits() const {
    Limits l = limits.limits();
    l.inflater = inflater.kind();
    return l;
  }

  SourceOptions source_options() const {
    SourceOptions o = sizes;
    o.kind = parse_source_kind(source);
    return o;
  }
};

void add_read_options(CLI::App* app, ReadOptions& o, bool with_level) {
  o.files.add_to(app);
  app->add_option("--source", o.source, "Byte source: mapped, pread, buffered or whole")->capture_default_str();
  add_source_size_options(app, o.sizes);
  o.limits.add_to(app);
  o.inflater.add_to(app);
  app->add_flag("--recover", o.recover,
                "Rebuild a missing, unreadable or wrong xref from a scan of the file; the dump then starts with a `recovered` line");
  app->add_option("--password", o.password, "Encrypted files: the user or the owner password (default: the empty user password)");
  if (with_level) {
    app->add_option("--level", o.level, "1: version, pages, object count; 2: + merged xref; 3: + sections, trailer, pages, every object")
        ->capture_default_str()
        ->transform(integer_range(1, max_dump_level));
    app->add_option("--threads", o.threads,
                    "Threads reading several files at once, or one file's objects at level 3 (0 = min(jobs, cores)); same "
                    "output at any count")
        ->capture_default_str()
        ->transform(integer_range(0, max_threads_option));
    app->add_flag("--serial", o.serial, "Read every file and object on the calling thread (--threads 1)");
  }
}

// Dumps and digests are made piece by piece and stop at max_output_bytes.
FileDumper dumper(const ReadOptions& o) {
  return [&o](const std::string& path, unsigned threads, const DumpSink& sink) {
    write_pdf_dump_file(path, o.source_options(), o.level, o.reader_limits(), bounded_sink(o.limits.output_limits(), path, sink),
                        threads, o.password, o.recover ? Recovery::rebuild : Recovery::strict);
  };
}

std::pair<std::string, std::string> split_assignment(const std::string& text, const char* what) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0) throw Error(ErrorKind::usage, {}, std::string(what) + " must look like KEY=VALUE: " + text);
  return {text.substr(0, eq), text.substr(eq + 1)};
}

}  // namespace

void add_pdf_commands(CommandGroups& groups) {
  auto dump_options = std::make_shared<ReadOptions>();
  auto* dump = groups.dump.add_subcommand("pdf", "Canonical dump of a PDF (conformance/SPEC.md, format pdf)");
  add_read_options(dump, *dump_options, true);
  dump->callback([dump_options] { run_dumps(dump_options->files, dump_options->thread_cap(), dumper(*dump_options)); });

  auto digest_options = std::make_shared<ReadOptions>();
  auto* digest = groups.digest.add_subcommand("pdf", "SHA-256 of the canonical dump of a PDF");
  add_read_options(digest, *digest_options, true);
  digest->callback([digest_options] { run_digests(digest_options->files, digest_options->thread_cap(), dumper(*digest_options)); });

  auto gen_options = std::make_shared<GenerateOptions>();
  auto gen_out = std::make_shared<std::string>();
  auto* gen = groups.gen.add_subcommand("pdf", "Write a deterministic synthetic PDF");
  // Bounded by what the reader accepts by default, except the object count (hostile sizes).
  const Limits reader;
  gen->add_option("--objects", gen_options->objects, "Payload objects")
      ->capture_default_str()
      ->transform(integer_range(0, max_generated_objects));
  gen->add_option("--payload", gen_options->payload, "Bytes of string data per payload object")
      ->capture_default_str()
      ->transform(integer_range(0, reader.max_object_bytes));
  gen->add_flag("--object-streams", gen_options->object_streams, "Object streams and xref streams instead of a table");
  gen->add_option("--updates", gen_options->updates, "Incremental updates to append")
      ->capture_default_str()
      ->transform(integer_range(0, reader.max_xref_sections - 1));
  gen->add_flag("--shuffle", gen_options->shuffle, "Write objects (clusters) in a shuffled order");
  gen->add_option("--pages", gen_options->pages, "Pages in the page tree")
      ->capture_default_str()
      ->transform(integer_range(1, max_generated_pages));
  gen->add_option("--cluster", gen_options->cluster, "Objects per object stream")
      ->capture_default_str()
      ->transform(integer_range(1, reader.max_objstm_objects));
  gen->add_option("--seed", gen_options->seed, "Seed of the deterministic content")
      ->capture_default_str()
      ->transform(integer_range(0, UINT64_MAX));
  gen->add_option("out", *gen_out, "Output file")->required();
  gen->callback([gen_options, gen_out] {
    OutputFile out(*gen_out);
    generate_pdf(*gen_options, out.stream(), [](std::uint64_t done, std::uint64_t total) {
      std::cerr << "gen pdf: " << done << "/" << total << " objects\n";
    });
    out.commit();
  });

  struct AppendOptions {
    std::string in, out;
    std::vector<std::string> info, objects;
  };
  auto append_options = std::make_shared<AppendOptions>();
  auto* pdf = groups.app.add_subcommand("pdf", "PDF tools beyond dumps");
  pdf->require_subcommand(1);
  auto* append = pdf->add_subcommand(
      "append", "Append an incremental update (original bytes untouched) that sets info entries or replaces/adds objects");
  append->add_option("in", append_options->in, "Input PDF")->required();
  append->add_option("out", append_options->out, "Output PDF")->required();
  append->add_option("--info", append_options->info, "KEY=VALUE: set a document-information entry (text string)");
  append->add_option("--object", append_options->objects, "N=PDF-SYNTAX: replace object N or add it, e.g. '7=<< /A 1 >>'");
  append->callback([append_options] {
    if (append_options->info.empty() && append_options->objects.empty()) {
      throw CLI::RequiredError("--info or --object");
    }
    UpdateChanges changes;
    for (const auto& item : append_options->info) changes.info.push_back(split_assignment(item, "--info"));
    for (const auto& item : append_options->objects) {
      const auto [num, text] = split_assignment(item, "--object");
      std::uint32_t value = 0;
      const auto [end, ec] = std::from_chars(num.data(), num.data() + num.size(), value);
      if (num.empty() || ec != std::errc() || end != num.data() + num.size()) {
        throw Error(ErrorKind::usage, {}, "--object: not an object number (0 to 4294967295): " + num);
      }
      changes.objects.emplace_back(value, parse_object_text(text));
    }
    SourceOptions whole;
    whole.kind = SourceKind::whole;
    auto source = open_source(append_options->in, whole);
    Document document(*source);
    append_incremental_update(document, changes, append_options->out);
  });

}

}  // namespace docconform::cli
