// bench sst: every writer x sink serializing the same generated strings, timed side by side,
// plus Apache POI serializing the same SST (tools/poi/PoiSst.java) in the same run.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

#include "cli_util.h"
#include "run_timing.h"
#include "commands.h"
#include "docconform/canonical.h"
#include "docconform/error.h"
#include "docconform/sha256.h"
#include "docconform/sst/generate.h"
#include "docconform/sst/writer.h"

namespace docconform::cli {
namespace {

using namespace docconform::sst;
namespace fs = std::filesystem;

struct BenchOptions {
  std::size_t count = 1u << 20;
  std::string mix = "mixed";
  std::uint64_t seed = 1;
  std::vector<std::string> writers = {"naive", "fast"};
  std::vector<std::string> sinks = {"memory", "file", "stream", "zlib", "lz4"};
  int repeat = 7;
  int poi_repeat = 7;
  int poi_workbook_repeat = 3;
  bool poi = true;
  bool json = false;
  std::string dir = fs::temp_directory_path().string();
  std::string root = default_root();
  std::string classpath =
      "/usr/share/java/poi.jar:/usr/share/java/commons-collections4.jar:/usr/share/java/commons-math3.jar:"
      "/usr/share/java/commons-codec.jar";
};

struct Run {
  std::string writer, sink;
  Stats stats;      // wall-clock seconds
  Stats cpu_stats;  // CPU seconds of the process, all threads (user + system): what the machine's load does not inflate
  std::string sha256;
  std::uint64_t stored_bytes = 0;  // what the sink left: in memory, or on disk (compressed for zlib, lz4)
};

// One writer x sink: sink creation, writing, finish. The previous run's sink is destroyed and
// its file deleted before the clock starts: unmapping 40 MB, or truncating 40 MB of page cache
// in open(O_TRUNC), is not part of writing an SST (POI's timing leaves its array to the GC).
Run measure(const SstTable& table, WriterKind writer, SinkKind kind, const BenchOptions& o) {
  const std::string path = (fs::path(o.dir) / ("docconform-bench-sst-" + std::to_string(::getpid()) + "." + to_string(kind))).string();
  // The last run's sink outlives the timing: its output is what is hashed.
  std::unique_ptr<RecordSink> previous;
  MemorySink* memory = nullptr;
  const auto [stats, cpu_stats] = time_runs(
      Repeats{o.repeat},
      [&] {
        previous.reset();
        if (kind != SinkKind::memory) fs::remove(path);
      },
      [&] {
        std::unique_ptr<RecordSink> sink;
        if (kind == SinkKind::memory) {
          auto m = make_memory_sink();
          memory = m.get();
          sink = std::move(m);
        } else {
          sink = make_file_sink(kind, path);
        }
        write_sst(writer, table, *sink);
        sink->finish();
        previous = std::move(sink);
      });
  std::string logical = memory != nullptr ? std::string(memory->bytes()) : std::string();
  previous.reset();
  std::uint64_t stored = logical.size();
  if (kind != SinkKind::memory) {
    logical = read_sink_file(kind, path);
    stored = fs::file_size(path);
    fs::remove(path);
  }
  return {to_string(writer), to_string(kind), stats, cpu_stats, sha256_hex(logical), stored};
}

// The floor of any writer into memory: the finished bytes copied into a new memory sink in
// record-sized pieces, with no string handling at all.
Run measure_copy_floor(const std::string& bytes, int repeat) {
  std::unique_ptr<MemorySink> previous;  // after the timing, the last run's
  const auto [stats, cpu_stats] = time_runs(Repeats{repeat}, [&] { previous.reset(); }, [&] {
    auto sink = make_memory_sink();
    sink->expect(bytes.size());  // as the writers do
    for (std::size_t at = 0; at < bytes.size(); at += max_record_data) {
      const std::size_t n = std::min<std::size_t>(max_record_data, bytes.size() - at);
      std::memcpy(sink->claim(n), bytes.data() + at, n);
    }
    sink->finish();
    previous = std::move(sink);
  });
  const std::string logical(previous->bytes());
  return {"copy", "memory", stats, cpu_stats, sha256_hex(logical), logical.size()};
}

// Runs the Java harness on the SST records; returns its key=value output.
std::map<std::string, std::string> run_poi(const std::string& sst_records, const BenchOptions& o) {
  const std::string base = (fs::path(o.dir) / ("docconform-bench-sst-" + std::to_string(::getpid()))).string();
  write_file(base + ".poi.sst", sst_records);
  const std::string harness = (fs::path(o.root) / "tools" / "poi" / "PoiSst.java").string();
  const std::string command = "java -Xmx12g -cp '" + o.classpath + "' '" + harness + "' bench '" + base + ".poi.sst' " +
                              std::to_string(o.poi_repeat) + " " + std::to_string(o.poi_workbook_repeat) + " > '" +
                              base + ".poi.out' 2> '" + base + ".poi.err'";
  const int status = std::system(command.c_str());
  std::map<std::string, std::string> values;
  std::istringstream out(fs::exists(base + ".poi.out") ? read_file(base + ".poi.out") : "");
  std::string pair;
  while (out >> pair) {
    const auto eq = pair.find('=');
    if (eq != std::string::npos) values[pair.substr(0, eq)] = pair.substr(eq + 1);
  }
  if (status != 0 || values.count("median_s") == 0) {
    std::string err = fs::exists(base + ".poi.err") ? read_file(base + ".poi.err") : "";
    values.clear();
    values["error"] = "java exited with status " + std::to_string(status) + ": " + err.substr(0, 400);
  }
  for (const char* ext : {".poi.sst", ".poi.out", ".poi.err"}) fs::remove(base + ext);
  return values;
}

void bench(const BenchOptions& o) {
  std::cerr << "bench sst: generating " << o.count << " strings (" << o.mix << ", seed " << o.seed << ")\n";
  const SstTable table = generate_strings(o.count, parse_mix(o.mix), o.seed);
  const std::string reference = sst_bytes(table, WriterKind::fast);
  const std::size_t extsst_record = 4 + 2 + 8 * extsst_bucket_count(table.size());
  const std::string sst_records = reference.substr(0, reference.size() - extsst_record);

  std::vector<Run> runs;
  for (const auto& w : o.writers) {
    for (const auto& s : o.sinks) {
      std::cerr << "bench sst: " << w << " -> " << s << "\n";
      runs.push_back(measure(table, parse_writer_kind(w), parse_sink_kind(s), o));
    }
  }
  std::cerr << "bench sst: copy floor\n";
  const Run floor = measure_copy_floor(reference, o.repeat);
  const std::string expected = sha256_hex(reference);
  bool identical = floor.sha256 == expected;
  for (const Run& r : runs) identical = identical && r.sha256 == expected;

  std::map<std::string, std::string> poi;
  if (o.poi) {
    std::cerr << "bench sst: Apache POI\n";
    poi = run_poi(reference, o);
  }
  const double mb = static_cast<double>(reference.size()) / 1e6;
  const auto median_of = [&runs](const std::string& w, const std::string& s, bool cpu = false) -> double {
    for (const Run& r : runs) {
      if (r.writer == w && r.sink == s) return cpu ? r.cpu_stats.median : r.stats.median;
    }
    return 0;
  };

  std::string out = "{\"format\":\"sst\",\"count\":" + std::to_string(o.count);
  out += ",\"mix\":";
  out += json_quoted(o.mix);
  out += ",\"seed\":" + std::to_string(o.seed) + ",\"repeat\":" + std::to_string(o.repeat);
  out += ",\"sst_bytes\":" + std::to_string(reference.size());
  out += ",\"sha256\":\"" + expected + "\",\"identical\":" + (identical ? "true" : "false");
  out += ",\"runs\":[";
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const Run& r = runs[i];
    if (i > 0) out += ',';
    out += "{\"writer\":\"" + r.writer + "\",\"sink\":\"" + r.sink + "\",\"median_s\":" + number_text(r.stats.median) +
           ",\"min_s\":" + number_text(r.stats.min) + ",\"max_s\":" + number_text(r.stats.max) +
           ",\"mb_per_s\":" + number_text(mb / r.stats.median) + ",\"cpu_median_s\":" + number_text(r.cpu_stats.median) +
           ",\"cpu_min_s\":" + number_text(r.cpu_stats.min) + ",\"mb_per_cpu_s\":" + number_text(mb / r.cpu_stats.median) +
           ",\"stored_bytes\":" + std::to_string(r.stored_bytes) + ",\"sha256\":\"" + r.sha256 + "\"}";
  }
  out += "],\"copy_floor\":{\"median_s\":" + number_text(floor.stats.median) + ",\"min_s\":" + number_text(floor.stats.min) +
         ",\"max_s\":" + number_text(floor.stats.max) + ",\"cpu_median_s\":" + number_text(floor.cpu_stats.median) + "}";
  out += ",\"ratios\":{";
  std::vector<std::pair<std::string, double>> ratios;
  const double fast_memory = median_of("fast", "memory");
  if (fast_memory > 0) {
    if (const double naive = median_of("naive", "memory"); naive > 0) ratios.push_back({"naive_over_fast_memory", naive / fast_memory});
    for (const char* s : {"file", "stream", "zlib", "lz4"}) {
      if (const double t = median_of("fast", s); t > 0) ratios.push_back({std::string("fast_") + s + "_over_memory", t / fast_memory});
    }
    if (poi.count("median_s")) ratios.push_back({"poi_over_fast_memory", std::stod(poi["median_s"]) / fast_memory});
    ratios.push_back({"fast_memory_over_copy_floor", fast_memory / floor.stats.median});
  }
  // The same ratios in CPU time: on a loaded machine, wall time also counts waiting for a core.
  if (const double fast_cpu = median_of("fast", "memory", true); fast_cpu > 0) {
    if (const double naive = median_of("naive", "memory", true); naive > 0) ratios.push_back({"cpu_naive_over_fast_memory", naive / fast_cpu});
    for (const char* s : {"file", "stream", "zlib", "lz4"}) {
      if (const double t = median_of("fast", s, true); t > 0) ratios.push_back({std::string("cpu_fast_") + s + "_over_memory", t / fast_cpu});
    }
    if (poi.count("cpu_median_s")) ratios.push_back({"cpu_poi_over_fast_memory", std::stod(poi["cpu_median_s"]) / fast_cpu});
    ratios.push_back({"cpu_fast_memory_over_copy_floor", fast_cpu / floor.cpu_stats.median});
  }
  for (std::size_t i = 0; i < ratios.size(); ++i) {
    if (i > 0) out += ',';
    out += "\"" + ratios[i].first + "\":" + number_text(ratios[i].second);
  }
  out += "},\"poi\":";
  if (!o.poi) {
    out += "null";
  } else if (poi.count("error")) {
    out += "{\"error\":";
    out += json_quoted(poi["error"]);
    out += "}";
  } else {
    out += "{\"median_s\":" + poi["median_s"] + ",\"min_s\":" + poi["min_s"] + ",\"max_s\":" + poi["max_s"] +
           ",\"cpu_median_s\":" + poi["cpu_median_s"] +
           ",\"sst_bytes\":" + poi["sst_bytes"] + ",\"sha256\":\"" + poi["sha256"] + "\"" +
           ",\"same_bytes_as_ours\":" + (poi["sha256"] == sha256_hex(sst_records) ? "true" : "false");
    if (poi.count("workbook_median_s")) {
      out += ",\"workbook_median_s\":" + poi["workbook_median_s"] + ",\"workbook_min_s\":" + poi["workbook_min_s"] +
             ",\"workbook_max_s\":" + poi["workbook_max_s"] + ",\"workbook_bytes\":" + poi["workbook_bytes"] +
             ",\"workbook_build_s\":" + poi["workbook_build_s"];
    }
    out += "}";
  }
  out += "}\n";
  if (o.json) {
    std::cout << out;
    return;
  }
  std::cout << "sst: " << o.count << " strings, " << reference.size() << " bytes, outputs identical: " << (identical ? "yes" : "NO") << "\n";
  for (const Run& r : runs) {
    std::cout << "  " << r.writer << " -> " << r.sink << ": median " << r.stats.median << " s (min " << r.stats.min << ", max "
              << r.stats.max << "), " << mb / r.stats.median << " MB/s; CPU median " << r.cpu_stats.median << " s, "
              << mb / r.cpu_stats.median << " MB/CPU-s; " << r.stored_bytes << " bytes stored\n";
  }
  std::cout << "  copy floor (the bytes copied into a memory sink): median " << floor.stats.median << " s; CPU median "
            << floor.cpu_stats.median << " s\n";
  for (const auto& [name, value] : ratios) std::cout << "  " << name << ": " << value << "\n";
  if (poi.count("median_s")) {
    std::cout << "  POI SSTRecord.serialize: median " << poi["median_s"] << " s, same bytes: "
              << (poi["sha256"] == sha256_hex(sst_records) ? "yes" : "no") << "\n";
  }
  if (poi.count("workbook_median_s")) std::cout << "  POI HSSFWorkbook.write: median " << poi["workbook_median_s"] << " s\n";
  if (poi.count("error")) std::cout << "  POI: " << poi["error"] << "\n";
}

}  // namespace

void add_bench_sst(CommandGroups& groups) {
  auto o = std::make_shared<BenchOptions>();
  auto* bench_cmd = groups.bench.add_subcommand("sst", "SST serialization: naive vs fast writer on every sink, and Apache POI");
  bench_cmd->add_option("--count", o->count, "Strings to serialize")->capture_default_str();
  bench_cmd->add_option("--mix", o->mix, "String mix (see gen strings)")->capture_default_str();
  bench_cmd->add_option("--seed", o->seed, "Generator seed")->capture_default_str();
  bench_cmd->add_option("--writer", o->writers, "Comma-separated writers: naive,fast")->delimiter(',');
  bench_cmd->add_option("--sink", o->sinks, "Comma-separated sinks: memory,file,stream,zlib,lz4")->delimiter(',');
  bench_cmd->add_option("--repeat", o->repeat, "Timed runs per writer x sink (after one warm-up)")->capture_default_str();
  bench_cmd->add_option("--poi-repeat", o->poi_repeat, "Timed POI SSTRecord.serialize runs")->capture_default_str();
  bench_cmd->add_option("--poi-workbook-repeat", o->poi_workbook_repeat, "Timed POI HSSFWorkbook.write runs (0: skip)")
      ->capture_default_str();
  bench_cmd->add_flag("!--no-poi", o->poi, "Skip the Apache POI measurement");
  bench_cmd->add_option("--dir", o->dir, "Directory for the file sinks' output")->capture_default_str();
  bench_cmd->add_option("--root", o->root, "Repository root (for tools/poi/PoiSst.java)")->capture_default_str();
  bench_cmd->add_option("--poi-classpath", o->classpath, "Java class path with POI 4 and its dependencies")->capture_default_str();
  bench_cmd->add_flag("--json", o->json, "One JSON object on stdout");
  bench_cmd->callback([o] {
    BenchOptions options = *o;
    if (options.repeat < 1) throw Error(ErrorKind::usage, {}, "--repeat must be at least 1");
    bench(options);
  });
}

}  // namespace docconform::cli
