// bench xlsx: wall time, CPU utilisation, allocations and peak RSS of the loader per thread
// count, against the inflate-only floor and this machine's parallel ceiling.
#include <malloc.h>
#include <sys/resource.h>

#include <algorithm>
#include <barrier>
#include <chrono>
#include <cmath>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <sstream>
#include <thread>
#include <utility>
#include <zip.h>

#include "alloc_counter.h"
#include "bench_commands.h"
#include "cli_util.h"
#include "common/inflate_stream.h"
#include "docconform/error.h"
#include "docconform/parallel.h"
#include "docconform/sha256.h"
#include "docconform/xlsx/dump.h"
#include "docconform/xlsx/row_reader.h"
#include "docconform/xlsx/workbook.h"
#include "inflater_option.h"
#include "process_stats.h"
#include "run_timing.h"
#include "option_ranges.h"

namespace docconform::bench {
namespace {

using namespace docconform::cli;

using Clock = std::chrono::steady_clock;

struct BenchFlags {
  std::string file;
  std::string threads = "1,2";
  unsigned repeat = 5;
  bool json = false;
  std::string inflate = "workers";
  InflaterOption inflater;
  std::size_t chunk_bytes = xlsx::LoadOptions{}.chunk_bytes;
  bool compare_inflate = false;
  bool stream = false;
  bool dump = false;
};

double now_s() { return std::chrono::duration<double>(Clock::now().time_since_epoch()).count(); }

double median(std::vector<double> v) { return summarize(std::move(v)).median; }

struct StreamRun {
  double median_s = 0;
  std::uint64_t peak_rss = 0, peak_buffer = 0, rows = 0, cells = 0;
};

// The streaming row reader over every worksheet: its memory must not grow with the sheet.
StreamRun measure_stream(const std::string& path, std::size_t sheets, unsigned repeat) {
  StreamRun out;
  std::vector<double> times;
  for (unsigned i = 0; i < repeat; ++i) {
    reset_peak_rss();
    out.rows = out.cells = 0;
    const double t0 = now_s();
    for (std::size_t s = 0; s < sheets; ++s) {
      xlsx::RowReader reader(path, s);
      xlsx::RowView row;
      while (reader.next(row)) {
        ++out.rows;
        out.cells += row.cell_count;
      }
      out.peak_buffer = std::max<std::uint64_t>(out.peak_buffer, reader.peak_buffer_bytes());
    }
    times.push_back(now_s() - t0);
    out.peak_rss = std::max(out.peak_rss, peak_rss_bytes());
  }
  out.median_s = median(times);
  return out;
}

struct Run {
  unsigned threads = 1;
  std::vector<double> wall, cpu, cpu_ratio, a, b, c, minor_faults;
  // The floor timed just before each load, and each load over it (wall and CPU).
  std::vector<double> floor, floor_cpu, vs_floor, cpu_vs_floor_cpu;
  std::vector<double> zlib_floor, vs_zlib_floor;  // zlib alone on the same parts, timed beside them
  double allocs_per_cell = 0, bytes_per_cell = 0;
  std::uint64_t peak_rss = 0;
  bool shared_strings_beside_sheets = false;
};

// A timing of the floor: wall and CPU seconds.
using Floor = std::function<std::pair<double, double>()>;

// One load into run; with a floor, after a run of it, so that a load and its floor see the same
// state of the shared host.
void load_once(const std::string& bytes, const xlsx::LoadOptions& options, std::size_t& cells, Run& run,
               const Floor& floor = {}) {
  if (floor) {
    const auto [wall, cpu] = floor();
    run.floor.push_back(wall);
    run.floor_cpu.push_back(cpu);
  }
  xlsx::LoadStats stats;
  const AllocStats before = alloc_snapshot();
  const PageFaults faults0 = page_faults();
  const double cpu0 = process_cpu_seconds();
  const double t0 = now_s();
  const xlsx::Workbook wb = xlsx::load_workbook(bytes, options, "bench", &stats);
  const double t1 = now_s();
  const double cpu1 = process_cpu_seconds();
  const AllocStats used = alloc_snapshot() - before;
  run.minor_faults.push_back(static_cast<double>(page_faults().minor - faults0.minor));
  cells = wb.cell_count();
  run.wall.push_back(t1 - t0);
  run.cpu.push_back(cpu1 - cpu0);
  if (!run.zlib_floor.empty()) run.vs_zlib_floor.push_back(run.wall.back() / run.zlib_floor.back());
  if (floor) {
    run.vs_floor.push_back(run.wall.back() / run.floor.back());
    run.cpu_vs_floor_cpu.push_back(run.cpu.back() / run.floor_cpu.back());
  }
  run.cpu_ratio.push_back((cpu1 - cpu0) / std::max(t1 - t0, 1e-9));
  run.a.push_back(stats.phase_a_s);
  run.b.push_back(stats.phase_b_s);
  run.shared_strings_beside_sheets = stats.shared_strings_beside_sheets;
  run.c.push_back(stats.phase_c_s);
  const double n = static_cast<double>(std::max<std::size_t>(cells, 1));
  run.allocs_per_cell = static_cast<double>(used.total_count()) / n;
  run.bytes_per_cell = static_cast<double>(used.total_bytes()) / n;
}

xlsx::LoadOptions with_threads(xlsx::LoadOptions options, unsigned threads) {
  options.threads = threads;
  return options;
}

// The digest of the canonical dump three ways, per thread count: the full load then the dump of
// its model; the streamed digest (one pass where it can go back, as `digest xlsx` and `dump xlsx
// --output FILE` run); the streamed dump hashed as it is passed on (what `dump xlsx` runs to
// standard output, which cannot go back: the one pass into a temporary file, spooled out once
// complete). Times side by side in each round, peak RSS of each.
struct DumpRun {
  unsigned threads = 1;
  std::vector<double> full, streamed, spooled;
  std::vector<double> ratio, spooled_ratio;  // full time / the other's, per round
  std::uint64_t full_peak_rss = 0, streamed_peak_rss = 0, spooled_peak_rss = 0;
  bool digests_equal = true;
};

std::string full_digest(const std::string& bytes, const xlsx::LoadOptions& options) {
  return xlsx::dump_sha256(xlsx::load_workbook(bytes, options, "bench"));
}

std::string streamed_digest(const std::string& bytes, const xlsx::LoadOptions& options) {
  return xlsx::streamed_dump_sha256(bytes, options, "bench");
}

std::string spooled_digest(const std::string& bytes, const xlsx::LoadOptions& options) {
  Sha256 hash;
  xlsx::write_streamed_dump(bytes, options, "bench", [&](std::string_view piece) { hash.update(piece); });
  return hash.final_hex();
}

DumpRun measure_dump(const std::string& bytes, const xlsx::LoadOptions& options, unsigned repeat) {
  DumpRun run;
  run.threads = options.threads;
  const auto peak = [&](auto digest) {
    ::malloc_trim(0);
    reset_peak_rss();
    const std::string d = digest(bytes, options);
    return std::pair(d, peak_rss_bytes());
  };
  const auto [full, full_rss] = peak(full_digest);
  const auto [streamed, streamed_rss] = peak(streamed_digest);
  const auto [spooled, spooled_rss] = peak(spooled_digest);
  run.full_peak_rss = full_rss;
  run.streamed_peak_rss = streamed_rss;
  run.spooled_peak_rss = spooled_rss;
  run.digests_equal = full == streamed && full == spooled;
  const auto timed = [&](auto digest) {
    const double t0 = now_s();
    digest(bytes, options);
    return now_s() - t0;
  };
  for (unsigned i = 0; i < repeat; ++i) {
    run.full.push_back(timed(full_digest));
    run.streamed.push_back(timed(streamed_digest));
    run.spooled.push_back(timed(spooled_digest));
    run.ratio.push_back(run.full.back() / run.streamed.back());
    run.spooled_ratio.push_back(run.full.back() / run.spooled.back());
  }
  return run;
}

Run measure(const std::string& bytes, const xlsx::LoadOptions& options, unsigned repeat, std::size_t& cells) {
  Run run;
  run.threads = options.threads;
  for (unsigned i = 0; i < repeat; ++i) load_once(bytes, options, cells, run);
  return run;
}

// Reads one entry into a reused buffer: a deflated one raw, inflated by `inflater` as the loader
// does (CRC aside), any other through libzip.
void drain_entry(zip_t* zip, const std::string& name, InflaterKind inflater, const std::string& label,
                 std::vector<std::uint8_t>& raw, std::vector<std::uint8_t>& out) {
  zip_stat_t stat;
  zip_stat_init(&stat);
  const bool deflated = zip_stat(zip, name.c_str(), 0, &stat) == 0 && (stat.valid & ZIP_STAT_COMP_METHOD) &&
                        stat.comp_method == ZIP_CM_DEFLATE;
  zip_file_t* f = zip_fopen(zip, name.c_str(), deflated ? ZIP_FL_COMPRESSED : 0);
  if (f == nullptr) throw Error(ErrorKind::format, {label, name, std::nullopt}, "the floor cannot open this entry");
  if (!deflated) {
    while (zip_fread(f, out.data(), out.size()) > 0) {
    }
    zip_fclose(f);
    return;
  }
  InflateStream stream(inflater, DeflateWrapper::raw);
  std::size_t at = 0, size = 0;
  bool input_ended = false;
  for (;;) {
    if (at == size && !input_ended) {
      const zip_int64_t n = zip_fread(f, raw.data(), raw.size());
      input_ended = n <= 0;
      at = 0;
      size = static_cast<std::size_t>(std::max<zip_int64_t>(n, 0));
    }
    const auto step = stream.inflate(raw.data() + at, size - at, out.data(), out.size(), input_ended);
    at += step.consumed;
    if (step.status == InflateStatus::end) break;
    if (step.status != InflateStatus::more) {
      zip_fclose(f);
      throw Error(ErrorKind::format, {label, name, std::nullopt}, "the floor cannot inflate this entry");
    }
  }
  zip_fclose(f);
}

// Inflating parts one after the other into a reused buffer of the loader's piece size. parts
// empty: every entry of the package.
double inflate_parts(const std::string& bytes, const std::string& label, const std::vector<std::string>& parts,
                     InflaterKind inflater, double& cpu_s) {
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* source = zip_source_buffer_create(bytes.data(), bytes.size(), 0, &error);
  zip_t* zip = source ? zip_open_from_source(source, ZIP_RDONLY, &error) : nullptr;
  zip_error_fini(&error);
  if (zip == nullptr) {
    if (source) zip_source_free(source);
    throw Error(ErrorKind::format, {label, "", 0}, "not a readable zip archive");
  }
  std::vector<std::string> names = parts;
  if (names.empty()) {
    for (zip_int64_t i = 0; i < zip_get_num_entries(zip, 0); ++i) names.emplace_back(zip_get_name(zip, i, 0));
  }
  std::vector<std::uint8_t> raw(64 << 10), out(512 << 10);
  const double cpu0 = process_cpu_seconds();
  const double t0 = now_s();
  try {
    for (const auto& name : names) drain_entry(zip, name, inflater, label, raw, out);
  } catch (...) {
    zip_discard(zip);
    throw;
  }
  const double t = now_s() - t0;
  cpu_s = process_cpu_seconds() - cpu0;
  zip_discard(zip);
  return t;
}

// The worksheet parts the loader reads (the floor of any load): the workbook's sheets, found by
// a plain load.
std::vector<std::string> worksheet_parts(const std::string& bytes, const std::string& label) {
  std::vector<std::string> parts;
  for (const auto& sheet : xlsx::load_workbook(bytes, xlsx::LoadOptions{}, label).sheets) {
    if (sheet.kind != xlsx::SheetKind::chartsheet) parts.push_back(sheet.entry);
  }
  return parts;
}

struct Ceiling {
  double one_thread_s = 0, n_threads_s = 0;
  double speedup() const { return one_thread_s / n_threads_s; }
};

// This machine's parallel limit for the same work, in one round: n threads each loading its
// own copy (nothing shared) against one thread loading all n copies. The copies exist only
// here, so that they are not in the loads' peak RSS. Each side loads once untimed first: the
// one thread's later copies reuse the memory its first one freed, and without a first load of
// their own the n threads would each fault in fresh memory in a fresh malloc arena (on a
// virtual machine whose page faults are dear, that alone put the threads behind the one thread).
Ceiling ceiling_round(const std::string& bytes, unsigned n, const xlsx::LoadOptions& base) {
  const std::vector<std::string> copies(n, bytes);
  xlsx::LoadOptions serial = base;
  serial.threads = 1;
  xlsx::load_workbook(copies.front(), serial, "ceiling");
  double t0 = now_s();
  for (const auto& copy : copies) xlsx::load_workbook(copy, serial, "ceiling");
  const double one = now_s() - t0;
  std::barrier warmed(static_cast<std::ptrdiff_t>(n) + 1);
  std::vector<std::thread> threads;
  for (const auto& copy : copies) {
    threads.emplace_back([&copy, &serial, &warmed] {
      xlsx::load_workbook(copy, serial, "ceiling");
      warmed.arrive_and_wait();
      xlsx::load_workbook(copy, serial, "ceiling");
    });
  }
  warmed.arrive_and_wait();
  t0 = now_s();
  for (auto& t : threads) t.join();
  return {one, now_s() - t0};
}

std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string one;
  in >> one;
  return one.empty() ? "0" : one;
}

std::string number(double v) {
  if (!std::isfinite(v)) return "null";  // e.g. a ratio over a zero-time floor: JSON has no inf
  std::ostringstream s;
  s.precision(6);
  s << v;
  return s.str();
}

void run_bench(const BenchFlags& flags) {
  const std::string bytes = read_file(flags.file);
  const std::vector<unsigned> thread_counts = parse_thread_list(flags.threads);
  const unsigned repeat = std::max(1u, flags.repeat);
  xlsx::LoadOptions base;
  base.inflate = flags.inflate == "serial" ? xlsx::InflateMode::serial : xlsx::InflateMode::workers;
  base.chunk_bytes = flags.chunk_bytes;
  base.inflater = flags.inflater.kind();

  std::cerr << "bench xlsx: " << flags.file << ", " << repeat << " repeats\n";
  const std::vector<std::string> sheet_parts = worksheet_parts(bytes, flags.file);
  std::vector<double> package_times;
  for (unsigned i = 0; i < repeat; ++i) {
    double cpu = 0;
    package_times.push_back(inflate_parts(bytes, flags.file, {}, base.inflater, cpu));
  }
  const Floor sheets_inflated = [&] {
    double cpu = 0;
    const double wall = inflate_parts(bytes, flags.file, sheet_parts, base.inflater, cpu);
    return std::pair(wall, cpu);
  };
  const auto zlib_sheets_inflated = [&] {
    double cpu = 0;
    return inflate_parts(bytes, flags.file, sheet_parts, InflaterKind::zlib, cpu);
  };

  // Every timed load starts from the same memory state: warm, as the floor's reused buffer and
  // the ceiling's loads are. One untimed load per thread count first, and no trim between timed
  // loads; a trim before one of them would leave its threads to fault in every page again (dear
  // on a virtual machine) while the others reuse what the previous load freed.
  std::vector<Run> runs(thread_counts.size());
  for (std::size_t k = 0; k < thread_counts.size(); ++k) {
    runs[k].threads = thread_counts[k];
    xlsx::load_workbook(bytes, with_threads(base, thread_counts[k]), "warm-up");
  }

  // Rounds: in each, every thread count's load (after its floor), then the ceiling, so that the
  // speedups and the ceiling they are judged against see the same state of the host.
  std::size_t cells = 0;
  const std::size_t widest = static_cast<std::size_t>(std::max_element(thread_counts.begin(), thread_counts.end()) - thread_counts.begin());
  const unsigned max_threads = thread_counts[widest];
  std::vector<double> ceilings, of_ceiling;
  for (unsigned i = 0; i < repeat; ++i) {
    std::cerr << "  round " << i + 1 << ":";
    for (std::size_t k = 0; k < thread_counts.size(); ++k) {
      runs[k].zlib_floor.push_back(zlib_sheets_inflated());
      load_once(bytes, with_threads(base, thread_counts[k]), cells, runs[k], sheets_inflated);
      std::cerr << " " << thread_counts[k] << (thread_counts[k] == 1 ? " thread " : " threads ") << number(runs[k].wall.back())
                << " s (floor " << number(runs[k].floor.back()) << " s)";
    }
    if (max_threads > 1) {
      const Ceiling c = ceiling_round(bytes, max_threads, base);
      const double speedup = runs.front().wall.back() / runs[widest].wall.back();
      ceilings.push_back(c.speedup());
      of_ceiling.push_back(speedup / c.speedup());
      std::cerr << "; ceiling " << number(c.speedup()) << " (" << number(c.one_thread_s) << " s / " << number(c.n_threads_s)
                << " s), speedup " << number(speedup);
    }
    std::cerr << "\n";
  }
  // Peak RSS from loads of their own, each after the free memory of every malloc arena has been
  // given back, so that a load's peak is its own and not what earlier loads left cached.
  for (Run& r : runs) {
    ::malloc_trim(0);
    reset_peak_rss();
    xlsx::load_workbook(bytes, with_threads(base, r.threads), "peak RSS");
    r.peak_rss = peak_rss_bytes();
  }

  std::vector<double> floor_times, floor_cpu, zlib_floor_times;
  for (const Run& r : runs) {
    floor_times.insert(floor_times.end(), r.floor.begin(), r.floor.end());
    zlib_floor_times.insert(zlib_floor_times.end(), r.zlib_floor.begin(), r.zlib_floor.end());
    floor_cpu.insert(floor_cpu.end(), r.floor_cpu.begin(), r.floor_cpu.end());
  }
  const double floor = median(floor_times);
  const double floor_cpu_s = median(floor_cpu);
  const double ceiling = ceilings.empty() ? 1 : median(ceilings);

  // Both inflate modes side by side at every thread count (the default is the faster one).
  std::vector<std::pair<std::string, std::vector<double>>> modes;
  if (flags.compare_inflate) {
    for (const auto mode : {xlsx::InflateMode::serial, xlsx::InflateMode::workers}) {
      std::vector<double> medians;
      for (const unsigned t : thread_counts) {
        xlsx::LoadOptions o = base;
        o.inflate = mode;
        o.threads = t;
        std::size_t ignored = 0;
        medians.push_back(median(measure(bytes, o, repeat, ignored).wall));
      }
      modes.emplace_back(mode == xlsx::InflateMode::serial ? "serial" : "workers", medians);
    }
  }

  StreamRun stream;
  if (flags.stream) {
    std::cerr << "  streaming row reader\n";
    const std::size_t sheets = xlsx::load_workbook(bytes, base, flags.file).sheets.size();  // freed before measuring
    ::malloc_trim(0);
    stream = measure_stream(flags.file, sheets, repeat);
  }

  std::vector<DumpRun> dumps;
  if (flags.dump) {
    std::cerr << "  digest: full load against streamed dump\n";
    for (const unsigned t : thread_counts) dumps.push_back(measure_dump(bytes, with_threads(base, t), repeat));
  }

  const double base_median = median(runs.front().wall);
  if (flags.json) {
    std::ostringstream j;
    j << "{\n  \"file\": " << json_quoted(flags.file) << ",\n  \"bytes\": " << bytes.size() << ",\n  \"cells\": " << cells
      << ",\n  \"repeat\": " << repeat << ",\n  \"inflate_mode\": \"" << flags.inflate << "\",\n  \"chunk_bytes\": "
      << flags.chunk_bytes << ",\n  \"hardware_threads\": " << hardware_threads()
      << ",\n  \"load_average_1min\": " << load_average() << ",\n  \"inflater\": \"" << inflater_name(base.inflater)
      << "\",\n  \"zlib_inflate_only_s\": " << number(median(zlib_floor_times)) << ",\n  \"inflate_only_s\": " << number(floor) << ",\n  \"inflate_only_cpu_s\": " << number(floor_cpu_s)
      << ",\n  \"inflate_package_s\": " << number(median(package_times)) << ",\n  \"ceiling_speedup\": " << number(ceiling)
      << ",\n  \"runs\": [\n";
    for (std::size_t i = 0; i < runs.size(); ++i) {
      const Run& r = runs[i];
      const double m = median(r.wall);
      j << "    {\"threads\": " << r.threads << ", \"median_s\": " << number(m)
        << ", \"min_s\": " << number(*std::min_element(r.wall.begin(), r.wall.end()))
        << ", \"max_s\": " << number(*std::max_element(r.wall.begin(), r.wall.end()))
        << ", \"speedup\": " << number(base_median / m) << ", \"cpu_utilization\": " << number(median(r.cpu_ratio))
        << ", \"cpu_s\": " << number(median(r.cpu)) << ", \"cpu_vs_inflate_only_cpu\": " << number(median(r.cpu_vs_floor_cpu))
        << ", \"allocs_per_cell\": " << number(r.allocs_per_cell) << ", \"bytes_per_cell\": " << number(r.bytes_per_cell)
        << ", \"peak_rss_bytes\": " << r.peak_rss << ", \"minor_faults\": " << number(median(r.minor_faults))
        << ", \"cells_per_s\": " << number(static_cast<double>(cells) / m)
        << ", \"phase_a_s\": " << number(median(r.a)) << ", \"phase_b_s\": " << number(median(r.b))
        << ", \"phase_c_s\": " << number(median(r.c))
        << ", \"shared_strings_beside_sheets\": " << (r.shared_strings_beside_sheets ? "true" : "false")
        << ", \"inflate_only_s\": " << number(median(r.floor)) << ", \"vs_inflate_only\": " << number(median(r.vs_floor))
        << ", \"zlib_inflate_only_s\": " << number(median(r.zlib_floor))
        << ", \"vs_zlib_inflate_only\": " << number(median(r.vs_zlib_floor))
        // The ceiling is measured for the largest thread count only, in every round: the median
        // of each round's speedup over that round's ceiling. One thread is its own ceiling.
        << ", \"fraction_of_ceiling\": "
        << (r.threads == max_threads && !of_ceiling.empty() ? number(median(of_ceiling))
            : r.threads == 1                                 ? number(base_median / m)
                                                             : "null")
        << "}"
        << (i + 1 < runs.size() ? "," : "") << "\n";
    }
    j << "  ]";
    if (!modes.empty()) {
      j << ",\n  \"inflate_modes\": {";
      for (std::size_t m = 0; m < modes.size(); ++m) {
        j << (m ? ", " : "") << "\"" << modes[m].first << "\": [";
        for (std::size_t i = 0; i < modes[m].second.size(); ++i) j << (i ? ", " : "") << number(modes[m].second[i]);
        j << "]";
      }
      j << "}";
    }
    if (flags.stream) {
      j << ",\n  \"stream\": {\"median_s\": " << number(stream.median_s) << ", \"rows\": " << stream.rows
        << ", \"cells\": " << stream.cells << ", \"peak_rss_bytes\": " << stream.peak_rss
        << ", \"peak_buffer_bytes\": " << stream.peak_buffer << "}";
    }
    if (flags.dump) {
      j << ",\n  \"dump\": [\n";
      for (std::size_t i = 0; i < dumps.size(); ++i) {
        const DumpRun& d = dumps[i];
        j << "    {\"threads\": " << d.threads << ", \"full_median_s\": " << number(median(d.full))
          << ", \"streamed_median_s\": " << number(median(d.streamed))
          << ", \"streamed_speed_vs_full\": " << number(median(d.ratio))
          << ", \"spooled_median_s\": " << number(median(d.spooled))
          << ", \"spooled_speed_vs_full\": " << number(median(d.spooled_ratio))
          << ", \"full_peak_rss_bytes\": " << d.full_peak_rss << ", \"streamed_peak_rss_bytes\": " << d.streamed_peak_rss
          << ", \"spooled_peak_rss_bytes\": " << d.spooled_peak_rss
          << ", \"digests_equal\": " << (d.digests_equal ? "true" : "false") << "}" << (i + 1 < dumps.size() ? "," : "")
          << "\n";
      }
      j << "  ]";
    }
    j << "\n}\n";
    std::cout << j.str();
    return;
  }
  std::cout << "cells " << cells << ", inflater " << inflater_name(base.inflater) << ", zlib inflate-only "
            << number(median(zlib_floor_times)) << " s, inflate-only " << number(floor) << " s (every part: "
            << number(median(package_times)) << " s), ceiling speedup " << number(ceiling) << "\n";
  for (const Run& r : runs) {
    const double m = median(r.wall);
    std::cout << "threads " << r.threads << ": median " << number(m) << " s (min "
              << number(*std::min_element(r.wall.begin(), r.wall.end())) << ", max "
              << number(*std::max_element(r.wall.begin(), r.wall.end())) << "), speedup " << number(base_median / m)
              << ", cpu " << number(median(r.cpu_ratio)) << ", allocs/cell " << number(r.allocs_per_cell)
              << ", bytes/cell " << number(r.bytes_per_cell) << ", peak RSS " << r.peak_rss / (1 << 20) << " MiB\n";
  }
  if (flags.stream) {
    std::cout << "stream: " << number(stream.median_s) << " s, " << stream.rows << " rows, peak RSS "
              << stream.peak_rss / (1 << 20) << " MiB, peak buffer " << stream.peak_buffer << " bytes\n";
  }
  for (const DumpRun& d : dumps) {
    std::cout << "digest threads " << d.threads << ": full load " << number(median(d.full)) << " s, peak RSS "
              << d.full_peak_rss / (1 << 20) << " MiB; streamed " << number(median(d.streamed)) << " s, peak RSS "
              << d.streamed_peak_rss / (1 << 20) << " MiB; speed vs full " << number(median(d.ratio)) << "; spooled "
              << number(median(d.spooled)) << " s, peak RSS " << d.spooled_peak_rss / (1 << 20) << " MiB, speed vs full "
              << number(median(d.spooled_ratio))
              << (d.digests_equal ? "" : "; DIGESTS DIFFER") << "\n";
  }
  for (const auto& [name, medians] : modes) {
    std::cout << "inflate " << name << ":";
    for (std::size_t i = 0; i < medians.size(); ++i) std::cout << " " << thread_counts[i] << "t=" << number(medians[i]);
    std::cout << "\n";
  }
}

}  // namespace

void add_xlsx_bench(CLI::App& app) {
  auto flags = std::make_shared<BenchFlags>();
  auto* bench = app.add_subcommand(
      "xlsx", "Load a workbook repeatedly per thread count: wall time, speedup, CPU utilisation, allocations, "
              "peak RSS, against the inflate-only floor and this machine's parallel ceiling");
  bench->add_option("file", flags->file, "Input .xlsx")->required();
  bench->add_option("--threads", flags->threads, "Comma-separated thread counts; the first is the speedup base")
      ->capture_default_str()->transform(count_list_range(1, max_threads_option));
  bench->add_option("--repeat", flags->repeat, "Loads per thread count (median, min, max)")->capture_default_str()->transform(integer_range(1, max_repeats_option));
  bench->add_flag("--json", flags->json, "Machine-readable output");
  bench->add_option("--inflate", flags->inflate, "workers or serial (phase A)")
      ->check(CLI::IsMember({"workers", "serial"}))->capture_default_str();
  bench->add_option("--chunk-bytes", flags->chunk_bytes, "Split sheets into chunks of about this much XML")
      ->capture_default_str()->transform(byte_range(0, max_bytes_option));
  flags->inflater.add_to(bench);
  bench->add_flag("--compare-inflate", flags->compare_inflate, "Also time both inflate modes at every thread count");
  bench->add_flag("--stream", flags->stream, "Also time the streaming row reader and report its peak memory");
  bench->add_flag("--dump", flags->dump,
                  "Also time the dump's digest per thread count: full load and dump, streamed digest, streamed dump");
  bench->callback([flags] { run_bench(*flags); });
}

}  // namespace docconform::bench
