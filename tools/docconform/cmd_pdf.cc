// PDF commands: dump/digest with a chosen byte source, the synthetic generator, the
// incremental-update writer and the IO benchmark.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <fstream>
#include <iostream>
#include <memory>

#include "cli_util.h"
#include "commands.h"
#include "docconform/canonical.h"
#include "docconform/error.h"
#include "docconform/output_file.h"
#include "docconform/output_limit.h"
#include "docconform/pdf/document.h"
#include "docconform/pdf/dump.h"
#include "docconform/pdf/generate.h"
#include "docconform/pdf/sweep.h"
#include "docconform/pdf/writer.h"
#include "docconform/sha256.h"
#include "limit_options.h"
#include "run_timing.h"
#include "option_ranges.h"

namespace docconform::cli {
namespace {

using namespace docconform::pdf;

struct ReadOptions {
  std::string file;
  LimitOptions<Limits> limits;
  std::string source = "mapped";
  std::uint64_t window = 64ull << 20;
  std::uint64_t granularity = 64ull << 10;
  std::uint64_t buffer = 256ull << 10;
  int level = 2;
  unsigned threads = 0;
  bool serial = false;

  unsigned thread_cap() const { return serial ? 1 : threads; }

  SourceOptions source_options() const {
    SourceOptions o;
    o.kind = parse_source_kind(source);
    o.window = window;
    o.granularity = granularity;
    o.buffer = buffer;
    return o;
  }
};

// --window, --granularity and --buffer, shared by the dumps and the benchmark.
void add_source_size_options(CLI::App* app, std::uint64_t& window, std::uint64_t& granularity, std::uint64_t& buffer) {
  app->add_option("--window", window, "mapped: view size in bytes")->capture_default_str()->transform(byte_range(1, max_bytes_option));
  const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  app->add_option("--granularity", granularity, "mapped: view alignment, a multiple of the page size")
      ->capture_default_str()
      ->transform(byte_range(page, max_bytes_option, page));
  app->add_option("--buffer", buffer, "buffered: read-ahead size in bytes")->capture_default_str()->transform(byte_range(1, max_bytes_option));
}

void add_read_options(CLI::App* app, ReadOptions& o, bool with_level) {
  app->add_option("file", o.file, "PDF file")->required();
  app->add_option("--source", o.source, "Byte source: mapped, pread, buffered or whole")->capture_default_str();
  add_source_size_options(app, o.window, o.granularity, o.buffer);
  o.limits.add_to(app);
  if (with_level) {
    app->add_option("--level", o.level, "1: version, pages, object count; 2: + merged xref; 3: + sections, trailer, pages, every object")
        ->capture_default_str()
        ->transform(integer_range(1, max_dump_level));
    app->add_option("--threads", o.threads, "Level 3: threads reading the objects (0 = min(jobs, cores)); same dump at any count")
        ->capture_default_str()
        ->transform(integer_range(0, max_threads_option));
    app->add_flag("--serial", o.serial, "Level 3: read every object on the calling thread (--threads 1)");
  }
}

// A dump is printed only once complete (a level-3 dump can fail at any object); a digest is
// computed piece by piece. Both stop at max_output_bytes.
void dump_with(const ReadOptions& o, const DumpSink& sink) {
  write_pdf_dump_file(o.file, o.source_options(), o.level, o.limits.limits(), bounded_sink(o.limits.output_limits(), o.file, sink),
                      o.thread_cap());
}

std::pair<std::string, std::string> split_assignment(const std::string& text, const char* what) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0) throw Error(ErrorKind::usage, {}, std::string(what) + " must look like KEY=VALUE: " + text);
  return {text.substr(0, eq), text.substr(eq + 1)};
}

// ---- bench ---------------------------------------------------------------------------------

struct BenchOptions {
  std::string file;
  std::string sources = "pread,buffered,mapped,whole";
  std::uint64_t window = 64ull << 20;
  std::uint64_t granularity = 64ull << 10;
  std::uint64_t buffer = 256ull << 10;
  bool cold = false;
  bool warm = false;
  int runs = 3;
  bool json = false;
  std::string threads = "1";
};

void evict(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw Error(ErrorKind::io, {path, "", std::nullopt}, "cannot open to evict the page cache");
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  ::close(fd);
}

long rss_kb() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  }
  return -1;
}

struct Sample {
  double seconds = 0;
  double setup_seconds = 0;  // open (the whole xref chain) and the page walk: serial at any thread count
  SourceCounts counts;  // the whole pass, every worker's source
  SweepResult sweep;    // the object sweep alone (after the xref and page-tree walk)
  std::uint64_t pages = 0;
  long rss = 0;
  PageFaults faults;  // the whole pass, every thread
};

// The indexing pass: open, read the xref chain, walk the page tree, then resolve and parse every
// object the xref lists, in file order (one forward sweep), on `threads` threads.
Sample index_once(const std::string& path, const SourceOptions& options, unsigned threads) {
  Sample s;
  const PageFaults faults_before = page_faults();
  const auto start = std::chrono::steady_clock::now();
  auto source = open_source(path, options);
  Document document(*source);
  s.pages = document.page_count();
  s.setup_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const SourceCounts before = source->counts();
  s.sweep = sweep_objects(document, threads);
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  s.counts = before;
  s.counts += s.sweep.counts;
  s.rss = rss_kb();
  const PageFaults faults_after = page_faults();
  s.faults = {faults_after.minor - faults_before.minor, faults_after.major - faults_before.major};
  return s;
}

// zlib alone, the floor of the warm pass: every object stream inflated once on `threads`
// threads, the file already in memory and its xref already read. The copy of the file is
// released before the pass that follows, so the pass's rss_kb is its own.
double inflate_floor_seconds(const std::string& path, unsigned threads) {
  const auto source = open_source(path, SourceOptions{SourceKind::whole});
  Document document(*source);
  return time_once([&] { inflate_object_streams(document, threads); }).first;
}

std::string calls_json(const SourceCounts& c) {
  return "{\"open\":" + std::to_string(c.open) + ",\"fstat\":" + std::to_string(c.fstat) + ",\"map\":" +
         std::to_string(c.map) + ",\"unmap\":" + std::to_string(c.unmap) + ",\"pread\":" + std::to_string(c.pread) +
         ",\"total\":" + std::to_string(c.total_calls()) + "}";
}

void run_bench(const BenchOptions& o) {
  if (o.cold == o.warm) throw Error(ErrorKind::usage, {}, "bench pdf: give exactly one of --cold or --warm");
  std::vector<SourceKind> kinds;
  for (const std::string& name : split(o.sources, ',')) kinds.push_back(parse_source_kind(name));
  const std::vector<unsigned> thread_counts = parse_thread_list(o.threads);

  // Each timed pass follows a run of the floor on as many threads, so that a pass and its floor
  // see the same state of the shared host: the ratio is the median of those pairs.
  std::vector<double> one_thread_floors;
  std::string out = "{\"file\":";
  out += json_quoted(o.file);
  std::string runs_json;
  std::uint64_t objects = 0, pages = 0, size = 0;
  for (const SourceKind kind : kinds) {
    for (const unsigned threads : thread_counts) {
      SourceOptions options;
      options.kind = kind;
      options.window = o.window;
      options.granularity = o.granularity;
      options.buffer = o.buffer;
      std::vector<Sample> samples;
      std::vector<double> floors, ratios;
      if (o.warm) index_once(o.file, options, threads);  // bring the file into the page cache
      for (int r = 0; r < std::max(o.runs, 1); ++r) {
        floors.push_back(inflate_floor_seconds(o.file, threads));
        if (o.cold) evict(o.file);
        samples.push_back(index_once(o.file, options, threads));
        ratios.push_back(samples.back().seconds / floors.back());
        std::cerr << "bench pdf: " << to_string(kind) << ", " << threads << " thread(s), run " << r + 1 << ": "
                  << samples.back().seconds << " s (zlib alone " << floors.back() << " s)\n";
      }
      if (threads == 1) one_thread_floors.insert(one_thread_floors.end(), floors.begin(), floors.end());
      const Sample& first = samples.front();
      objects = first.sweep.items;
      pages = first.pages;
      std::vector<double> times, setup_times;
      double inflate = 0;
      for (const auto& s : samples) {
        times.push_back(s.seconds);
        setup_times.push_back(s.setup_seconds);
        inflate += s.sweep.stats.inflate_seconds;
      }
      const Stats time = summarize(times);
      inflate /= static_cast<double>(samples.size());
      if (!runs_json.empty()) runs_json += ",";
      runs_json += "{\"source\":\"" + std::string(to_string(kind)) + "\",\"cache\":\"" + (o.cold ? "cold" : "warm") +
                   "\",\"threads\":" + std::to_string(first.sweep.threads) +
                   ",\"window_bytes\":" + std::to_string(kind == SourceKind::mapped ? o.window : 0) +
                   ",\"runs\":" + std::to_string(samples.size()) + ",\"median_s\":" + number_text(time.median) +
                   ",\"min_s\":" + number_text(time.min) + ",\"max_s\":" + number_text(time.max) +
                   ",\"setup_s\":" + number_text(summarize(setup_times).median) +
                   ",\"kernel_calls\":" + calls_json(first.counts) + ",\"sweep_kernel_calls\":" + calls_json(first.sweep.counts) +
                   ",\"bytes_copied\":" + std::to_string(first.counts.bytes_copied) +
                   ",\"inflate_s\":" + number_text(inflate) + ",\"inflate_only_s\":" + number_text(summarize(floors).median) +
                   ",\"vs_inflate_only\":" + number_text(summarize(ratios).median) +
                   ",\"objstm_inflated\":" + std::to_string(first.sweep.stats.objstm_inflated) +
                   ",\"rss_kb\":" + std::to_string(first.rss) + ",\"page_faults\":{\"minor\":" +
                   std::to_string(first.faults.minor) + ",\"major\":" + std::to_string(first.faults.major) + "}}";
    }
  }
  {
    auto probe = open_source(o.file, SourceOptions{SourceKind::pread});
    size = probe->size();
  }
  while (one_thread_floors.size() < static_cast<std::size_t>(std::max(o.runs, 1))) one_thread_floors.push_back(inflate_floor_seconds(o.file, 1));
  const double one_thread_floor = summarize(one_thread_floors).median;
  out += ",\"bytes\":" + std::to_string(size) + ",\"objects\":" + std::to_string(objects) + ",\"pages\":" +
         std::to_string(pages) + ",\"inflate_only_s\":" + number_text(one_thread_floor) + ",\"runs\":[" + runs_json + "]}\n";
  if (o.json) {
    std::cout << out;
  } else {
    std::cout << "objects " << objects << ", pages " << pages << ", zlib alone " << one_thread_floor << " s\n" << out;
  }
}

}  // namespace

void add_pdf_commands(CommandGroups& groups) {
  auto dump_options = std::make_shared<ReadOptions>();
  auto* dump = groups.dump.add_subcommand("pdf", "Canonical dump of a PDF (conformance/SPEC.md, format pdf)");
  add_read_options(dump, *dump_options, true);
  dump->callback([dump_options] {
    std::string text;
    dump_with(*dump_options, [&](std::string_view piece) { text += piece; });
    write_file("-", text);
  });

  auto digest_options = std::make_shared<ReadOptions>();
  auto* digest = groups.digest.add_subcommand("pdf", "SHA-256 of the canonical dump of a PDF");
  add_read_options(digest, *digest_options, true);
  digest->callback([digest_options] {
    Sha256 hash;
    dump_with(*digest_options, [&](std::string_view piece) { hash.update(piece); });
    std::cout << hash.final_hex() << "\n";
  });

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

  auto bench_options = std::make_shared<BenchOptions>();
  auto* bench = groups.bench.add_subcommand("pdf", "Indexing pass (xref, page tree, every object) per byte source and thread count");
  bench->add_option("file", bench_options->file, "PDF file")->required();
  bench->add_option("--source", bench_options->sources, "Comma-separated sources")->capture_default_str();
  add_source_size_options(bench, bench_options->window, bench_options->granularity, bench_options->buffer);
  bench->add_flag("--cold", bench_options->cold, "Evict the file from the page cache before each run (posix_fadvise)");
  bench->add_flag("--warm", bench_options->warm, "One untimed run first, then timed runs on a cached file");
  bench->add_option("--runs", bench_options->runs, "Timed runs per source and thread count")
      ->capture_default_str()
      ->transform(integer_range(1, max_repeats_option));
  bench->add_option("--threads", bench_options->threads, "Comma-separated thread counts of the object sweep")
      ->capture_default_str()
      ->transform(count_list_range(1, max_threads_option));
  bench->add_flag("--json", bench_options->json, "JSON on stdout");
  bench->callback([bench_options] { run_bench(*bench_options); });
}

}  // namespace docconform::cli
