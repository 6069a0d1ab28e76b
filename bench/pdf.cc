// bench pdf: the indexing pass (open, xref chain, page tree, every object resolved) and the
// level-3 digest, per byte source and thread count, with their kernel calls, page faults and
// memory, against zlib alone.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <iostream>
#include <memory>
#include <vector>

#include "cli_util.h"
#include "bench_commands.h"
#include "docconform/canonical.h"
#include "docconform/error.h"
#include "docconform/pdf/document.h"
#include "docconform/pdf/dump.h"
#include "docconform/pdf/source.h"
#include "docconform/pdf/sweep.h"
#include "docconform/sha256.h"
#include "inflater_option.h"
#include "option_ranges.h"
#include "pdf_source_options.h"
#include "process_stats.h"
#include "run_timing.h"

namespace docconform::bench {
namespace {

using namespace docconform::pdf;
using namespace docconform::cli;

struct BenchOptions {
  std::string file;
  std::string sources = "pread,buffered,mapped,whole";
  SourceOptions sizes;  // window, granularity, buffer
  bool cold = false;
  bool warm = false;
  int runs = 3;
  bool json = false;
  std::string threads = "1";
  InflaterOption inflater;

  Limits limits() const {
    Limits l;
    l.inflater = inflater.kind();
    return l;
  }
};

void evict(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw Error(ErrorKind::io, {path, "", std::nullopt}, "cannot open to evict the page cache");
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  ::close(fd);
}

// Puts the file in the page cache as a sequential read from disk does, whatever put it there
// before. The kernel's read-ahead fills the cache in large folios, which a mapping can map 2 MiB
// at a time; a file just written (by `gen pdf`, say) sits in 4 KiB pages, and every mapped read
// of it then pays a fault per page, which on some hosts costs more than pread's copy.
void recache(const std::string& path) {
  evict(path);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw Error(ErrorKind::io, {path, "", std::nullopt}, "cannot open to read into the page cache");
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  std::vector<char> buffer(1 << 20);
  ssize_t got = 0;
  while ((got = ::read(fd, buffer.data(), buffer.size())) > 0) {
  }
  ::close(fd);
  if (got < 0) throw Error(ErrorKind::io, {path, "", std::nullopt}, "cannot read into the page cache");
}

// How fast this host copies the cached file out, window by window, through pread and through a
// fresh mapping of each window: the floor under each source's bulk reads (a level-3 dump copies
// every batch out of the file). A fresh mapping pays a fault per page it maps, 4 KiB at a time
// where the cache holds the file in small pages and 2 MiB where it holds large folios; a
// virtualised host may charge far more per fault than the copy costs.
struct CopyProbe {
  std::uint64_t bytes = 0;
  double pread_s = 0;
  double fresh_mapping_s = 0;
};

CopyProbe probe_copy(const std::string& path, std::uint64_t window, bool cold) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw Error(ErrorKind::io, {path, "", std::nullopt}, std::string("cannot open: ") + std::strerror(errno));
  const auto fail = [&](const char* what) {
    const int error = errno;
    ::close(fd);
    throw Error(ErrorKind::io, {path, "", std::nullopt}, std::string(what) + ": " + std::strerror(error));
  };
  struct stat st {};
  if (::fstat(fd, &st) != 0) fail("cannot stat");
  const auto size = static_cast<std::uint64_t>(st.st_size);
  const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  const std::uint64_t step = std::max(page, window - window % page);
  std::vector<char> buffer(static_cast<std::size_t>(std::min(step, std::max<std::uint64_t>(size, 1))), 1);
  CopyProbe probe;
  probe.bytes = size;
  if (cold) evict(path);
  auto start = std::chrono::steady_clock::now();
  for (std::uint64_t at = 0; at < size;) {
    const ssize_t got = ::pread(fd, buffer.data(), static_cast<std::size_t>(std::min<std::uint64_t>(buffer.size(), size - at)),
                                static_cast<off_t>(at));
    if (got <= 0) fail("cannot read");
    at += static_cast<std::uint64_t>(got);
  }
  probe.pread_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (cold) evict(path);
  start = std::chrono::steady_clock::now();
  for (std::uint64_t at = 0; at < size; at += step) {
    const auto length = static_cast<std::size_t>(std::min(step, size - at));
    void* view = ::mmap(nullptr, length, PROT_READ, MAP_SHARED, fd, static_cast<off_t>(at));
    if (view == MAP_FAILED) fail("cannot map");
    std::memcpy(buffer.data(), view, length);
    ::munmap(view, length);
  }
  probe.fresh_mapping_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ::close(fd);
  return probe;
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
Sample index_once(const std::string& path, const SourceOptions& options, unsigned threads, const Limits& limits) {
  Sample s;
  const PageFaults faults_before = page_faults();
  const auto start = std::chrono::steady_clock::now();
  auto source = open_source(path, options);
  Document document(*source, limits);
  s.pages = document.page_count();
  s.setup_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const SourceCounts before = source->counts();
  s.sweep = sweep_objects(document, threads);
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  s.counts = before;
  s.counts += s.sweep.counts;
  s.rss = status_kib("VmRSS");
  const PageFaults faults_after = page_faults();
  s.faults = {faults_after.minor - faults_before.minor, faults_after.major - faults_before.major};
  return s;
}

// The level-3 digest, the product's main job on a PDF: the pass above, then every object's
// canonical line hashed in number order.
struct DigestSample {
  double seconds = 0;
  double hash_seconds = 0;  // inside SHA-256, the part that grows with the dump's size
  std::uint64_t dump_bytes = 0;
  SourceCounts counts;                     // every worker's source, open and page walk included
  std::uint64_t busiest_map_unmap = 0;     // the worker whose source mapped and unmapped most
  std::uint64_t peak_rss = 0;
  PageFaults faults;  // a mapped source's first touches of a view (a batch copies objects out)
};

DigestSample digest_once(const std::string& path, const SourceOptions& options, unsigned threads, const Limits& limits) {
  DigestSample s;
  reset_peak_rss();
  const PageFaults faults_before = page_faults();
  const auto start = std::chrono::steady_clock::now();
  auto source = open_source(path, options);
  Document document(*source, limits);
  const SourceCounts setup = source->counts();
  Sha256 hash;
  const SweepResult objects = write_pdf_dump(document, max_dump_level, [&](std::string_view piece) {
    const auto before = std::chrono::steady_clock::now();
    hash.update(piece);
    s.hash_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - before).count();
    s.dump_bytes += piece.size();
  }, threads);
  hash.final_hex();
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  s.peak_rss = peak_rss_bytes();
  const PageFaults faults_after = page_faults();
  s.faults = {faults_after.minor - faults_before.minor, faults_after.major - faults_before.major};
  s.counts = setup;
  s.counts += objects.counts;
  for (std::size_t w = 0; w < objects.worker_counts.size(); ++w) {
    const SourceCounts& c = objects.worker_counts[w];
    const std::uint64_t calls = c.map + c.unmap + (w == 0 ? setup.map + setup.unmap : 0);
    s.busiest_map_unmap = std::max(s.busiest_map_unmap, calls);
  }
  return s;
}

// The inflater alone, the floor of the warm pass: every object stream inflated once on `threads`
// threads, the file already in memory and its xref already read. The copy of the file is
// released before the pass that follows, so the pass's rss_kb is its own.
double inflate_floor_seconds(const std::string& path, unsigned threads, InflaterKind inflater) {
  const auto source = open_source(path, SourceOptions{SourceKind::whole});
  Limits limits;
  limits.inflater = inflater;
  Document document(*source, limits);
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
  std::vector<double> one_thread_floors, one_thread_zlib_floors;
  const Limits limits = o.limits();
  std::string out = "{\"file\":";
  out += json_quoted(o.file);
  std::string runs_json;
  std::uint64_t objects = 0, pages = 0, size = 0;
  if (o.warm) recache(o.file);
  for (const SourceKind kind : kinds) {
    for (const unsigned threads : thread_counts) {
      SourceOptions options = o.sizes;
      options.kind = kind;
      std::vector<Sample> samples;
      std::vector<double> floors, ratios, zlib_floors, zlib_ratios;
      if (o.warm) index_once(o.file, options, threads, limits);  // bring the file into the page cache
      for (int r = 0; r < std::max(o.runs, 1); ++r) {
        zlib_floors.push_back(inflate_floor_seconds(o.file, threads, InflaterKind::zlib));
        floors.push_back(inflate_floor_seconds(o.file, threads, limits.inflater));
        if (o.cold) evict(o.file);
        samples.push_back(index_once(o.file, options, threads, limits));
        ratios.push_back(samples.back().seconds / floors.back());
        zlib_ratios.push_back(samples.back().seconds / zlib_floors.back());
        std::cerr << "bench pdf: " << to_string(kind) << ", " << threads << " thread(s), run " << r + 1 << ": "
                  << samples.back().seconds << " s (" << inflater_name(limits.inflater) << " alone " << floors.back()
                  << " s, zlib alone " << zlib_floors.back() << " s)\n";
      }
      if (threads == 1) {
        one_thread_floors.insert(one_thread_floors.end(), floors.begin(), floors.end());
        one_thread_zlib_floors.insert(one_thread_zlib_floors.end(), zlib_floors.begin(), zlib_floors.end());
      }
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
      std::vector<double> digest_times, digest_hash_times;
      DigestSample digest;
      for (int r = 0; r < std::max(o.runs, 1); ++r) {
        if (o.cold) evict(o.file);
        digest = digest_once(o.file, options, threads, limits);
        digest_times.push_back(digest.seconds);
        digest_hash_times.push_back(digest.hash_seconds);
        std::cerr << "bench pdf: " << to_string(kind) << ", " << threads << " thread(s), level-3 digest run " << r + 1 << ": "
                  << digest.seconds << " s\n";
      }
      const Stats time = summarize(times);
      inflate /= static_cast<double>(samples.size());
      if (!runs_json.empty()) runs_json += ",";
      runs_json += "{\"source\":\"" + std::string(to_string(kind)) + "\",\"cache\":\"" + (o.cold ? "cold" : "warm") +
                   "\",\"threads\":" + std::to_string(first.sweep.threads) +
                   ",\"window_bytes\":" + std::to_string(kind == SourceKind::mapped ? o.sizes.window : 0) +
                   ",\"runs\":" + std::to_string(samples.size()) + ",\"median_s\":" + number_text(time.median) +
                   ",\"min_s\":" + number_text(time.min) + ",\"max_s\":" + number_text(time.max) +
                   ",\"setup_s\":" + number_text(summarize(setup_times).median) +
                   ",\"kernel_calls\":" + calls_json(first.counts) + ",\"sweep_kernel_calls\":" + calls_json(first.sweep.counts) +
                   ",\"bytes_copied\":" + std::to_string(first.counts.bytes_copied) +
                   ",\"inflate_s\":" + number_text(inflate) + ",\"inflate_only_s\":" + number_text(summarize(floors).median) +
                   ",\"vs_inflate_only\":" + number_text(summarize(ratios).median) +
                   ",\"zlib_inflate_only_s\":" + number_text(summarize(zlib_floors).median) +
                   ",\"vs_zlib_inflate_only\":" + number_text(summarize(zlib_ratios).median) +
                   ",\"objstm_inflated\":" + std::to_string(first.sweep.stats.objstm_inflated) +
                   ",\"rss_kb\":" + std::to_string(first.rss) + ",\"page_faults\":{\"minor\":" +
                   std::to_string(first.faults.minor) + ",\"major\":" + std::to_string(first.faults.major) + "}" +
                   ",\"digest\":{\"median_s\":" + number_text(summarize(digest_times).median) +
                   ",\"hash_s\":" + number_text(summarize(digest_hash_times).median) +
                   ",\"dump_bytes\":" + std::to_string(digest.dump_bytes) + ",\"kernel_calls\":" + calls_json(digest.counts) +
                   ",\"busiest_worker_map_unmap\":" + std::to_string(digest.busiest_map_unmap) +
                   ",\"peak_rss_kb\":" + std::to_string(digest.peak_rss / 1024) + ",\"page_faults\":{\"minor\":" +
                   std::to_string(digest.faults.minor) + ",\"major\":" + std::to_string(digest.faults.major) + "}}}";
    }
  }
  {
    auto probe = open_source(o.file, SourceOptions{SourceKind::pread});
    size = probe->size();
  }
  const CopyProbe copy = probe_copy(o.file, o.sizes.window, o.cold);
  while (one_thread_floors.size() < static_cast<std::size_t>(std::max(o.runs, 1))) {
    one_thread_zlib_floors.push_back(inflate_floor_seconds(o.file, 1, InflaterKind::zlib));
    one_thread_floors.push_back(inflate_floor_seconds(o.file, 1, limits.inflater));
  }
  out += ",\"bytes\":" + std::to_string(size) + ",\"objects\":" + std::to_string(objects) + ",\"pages\":" +
         std::to_string(pages) + ",\"inflater\":\"" + std::string(inflater_name(limits.inflater)) +
         "\",\"zlib_inflate_only_s\":" + number_text(summarize(one_thread_zlib_floors).median) +
         ",\"inflate_only_s\":" + number_text(summarize(one_thread_floors).median) +
         ",\"copy_probe\":{\"bytes\":" + std::to_string(copy.bytes) + ",\"window_bytes\":" + std::to_string(o.sizes.window) +
         ",\"pread_s\":" + number_text(copy.pread_s) + ",\"fresh_mapping_s\":" + number_text(copy.fresh_mapping_s) +
         "},\"runs\":[" + runs_json + "]}\n";
  if (o.json) {
    std::cout << out;
  } else {
    std::cout << "objects " << objects << ", pages " << pages << ", " << inflater_name(limits.inflater) << " alone "
              << summarize(one_thread_floors).median << " s, zlib alone " << summarize(one_thread_zlib_floors).median
              << " s\n" << out;
  }
}

}  // namespace

void add_pdf_bench(CLI::App& app) {
  auto bench_options = std::make_shared<BenchOptions>();
  auto* bench = app.add_subcommand("pdf", "Indexing pass (xref, page tree, every object) per byte source and thread count");
  bench->add_option("file", bench_options->file, "PDF file")->required();
  bench->add_option("--source", bench_options->sources, "Comma-separated sources")->capture_default_str();
  add_source_size_options(bench, bench_options->sizes);
  bench->add_flag("--cold", bench_options->cold, "Evict the file from the page cache before each run (posix_fadvise)");
  bench->add_flag("--warm", bench_options->warm, "The file read into the page cache as from disk and one untimed run first, then timed runs on the cached file");
  bench->add_option("--runs", bench_options->runs, "Timed runs per source and thread count")
      ->capture_default_str()
      ->transform(integer_range(1, max_repeats_option));
  bench->add_option("--threads", bench_options->threads, "Comma-separated thread counts of the object sweep")
      ->capture_default_str()
      ->transform(count_list_range(1, max_threads_option));
  bench->add_flag("--json", bench_options->json, "JSON on stdout");
  bench_options->inflater.add_to(bench);
  bench->callback([bench_options] { run_bench(*bench_options); });
}

}  // namespace docconform::bench
