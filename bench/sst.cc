// bench sst: every writer x sink serializing the same generated strings, timed side by side,
// plus Apache POI serializing the same SST in the same run, through its conformance adapter
// (format sst, phases sst_serialize and xls_write; conformance/SPEC.md section 6).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

#include "bench_commands.h"
#include "cli_util.h"
#include "common/scratch_file.h"
#include "peers.h"
#include "run_timing.h"
#include "docconform/canonical.h"
#include "docconform/error.h"
#include "docconform/sha256.h"
#include "docconform/sst/generate.h"
#include "docconform/sst/writer.h"
#include "option_ranges.h"

namespace docconform::bench {
namespace {

using namespace docconform::cli;

using namespace docconform::sst;
namespace fs = std::filesystem;

struct BenchOptions {
  std::size_t count = 1u << 20;
  std::string mix = "mixed";
  std::uint64_t seed = 1;
  std::vector<std::string> writers = {"naive", "fast"};
  std::vector<std::string> sinks = {"memory", "file", "stream", "zlib", "lz4"};
  int repeat = 7;
  bool poi = true;
  bool json = false;
  std::string dir;  // empty: $TMPDIR
  PeerOptions peers;  // root and docconform as given (empty: found)
};

struct Run {
  std::string writer, sink;
  Stats stats;      // wall-clock seconds
  Stats cpu_stats;  // CPU seconds of the process, all threads (user + system): what the machine's load does not inflate
  std::string sha256;
  std::uint64_t stored_bytes = 0;  // what the sink left: in memory, or on disk (compressed for zlib, lz4)
  std::vector<double> wall, cpu;   // per round
};

// The floor of any writer into memory: the finished bytes copied into a memory sink in
// record-sized pieces, with no string handling at all, told what to expect as the writers do.
void copy_floor(const std::string& bytes, MemorySink& sink) {
  sink.expect(bytes.size());
  for (std::size_t at = 0; at < bytes.size(); at += max_record_data) {
    const std::size_t n = std::min<std::size_t>(max_record_data, bytes.size() - at);
    std::memcpy(sink.claim(n), bytes.data() + at, n);
  }
}

// One writer into a group of sinks, in rounds: each round writes once into each sink in turn,
// so the sinks of a round share the state of the shared host, and a ratio between two sinks is
// the median of the rounds' ratios (paired()). With floor_bytes, each round ends with the copy
// floor of those bytes (a run of writer "copy", sink memory), paired the same way. One untimed
// round first. Timed: sink creation, writing, finish. A sink's previous output is destroyed
// (its file deleted) before the clock starts: unmapping 40 MB, or truncating 40 MB of page
// cache in open(O_TRUNC), is not part of writing an SST (POI's timing leaves its array to the
// GC).
std::vector<Run> measure(const SstTable& table, WriterKind writer, const std::vector<SinkKind>& kinds, const BenchOptions& o,
                         const std::string* floor_bytes = nullptr) {
  struct Target {
    SinkKind kind;
    std::string path;
    std::unique_ptr<RecordSink> previous;  // after the rounds, the last one's output is hashed
    MemorySink* memory = nullptr;
    bool floor = false;
  };
  // --dir is for the file sinks only.
  std::optional<ScratchDirectory> scratch;
  if (std::any_of(kinds.begin(), kinds.end(), [](SinkKind k) { return k != SinkKind::memory; })) {
    scratch.emplace("docconform-bench-sst-", o.dir);
  }
  std::vector<Target> targets;
  for (const SinkKind kind : kinds) {
    const std::string path = kind == SinkKind::memory ? "" : scratch->path() + "/sst." + to_string(kind);
    targets.push_back({kind, path, nullptr, nullptr});
  }
  if (floor_bytes != nullptr) targets.push_back({SinkKind::memory, "", nullptr, nullptr, true});
  std::vector<Run> runs(targets.size());
  for (int round = 0; round <= o.repeat; ++round) {
    for (std::size_t k = 0; k < targets.size(); ++k) {
      Target& t = targets[k];
      t.previous.reset();
      if (t.kind != SinkKind::memory) fs::remove(t.path);
      const auto [seconds, cpu] = time_once([&] {
        std::unique_ptr<RecordSink> sink;
        if (t.kind == SinkKind::memory) {
          auto m = make_memory_sink();
          t.memory = m.get();
          sink = std::move(m);
        } else {
          sink = make_file_sink(t.kind, t.path);
        }
        if (t.floor) {
          copy_floor(*floor_bytes, *t.memory);
        } else {
          write_sst(writer, table, *sink);
        }
        sink->finish();
        t.previous = std::move(sink);
      });
      if (round == 0) continue;  // the warm-up
      runs[k].wall.push_back(seconds);
      runs[k].cpu.push_back(cpu);
    }
  }
  for (std::size_t k = 0; k < targets.size(); ++k) {
    Target& t = targets[k];
    std::string logical = t.memory != nullptr ? std::string(t.memory->bytes()) : std::string();
    t.previous.reset();
    std::uint64_t stored = logical.size();
    if (t.kind != SinkKind::memory) {
      logical = read_sink_file(t.kind, t.path);
      stored = fs::file_size(t.path);
      fs::remove(t.path);
    }
    Run& r = runs[k];
    r.writer = t.floor ? "copy" : to_string(writer);
    r.sink = to_string(t.kind);
    r.stats = summarize(r.wall);
    r.cpu_stats = summarize(r.cpu);
    r.sha256 = sha256_hex(logical);
    r.stored_bytes = stored;
  }
  return runs;
}

// The median over rounds of a's time over b's: a ratio measured side by side.
double paired(const Run& a, const Run& b, bool cpu) {
  const std::vector<double>& x = cpu ? a.cpu : a.wall;
  const std::vector<double>& y = cpu ? b.cpu : b.wall;
  std::vector<double> ratios;
  for (std::size_t i = 0; i < std::min(x.size(), y.size()); ++i) ratios.push_back(x[i] / y[i]);
  return ratios.empty() ? 0 : summarize(ratios).median;
}

// Apache POI's phases on the SST records (SST and CONTINUE, without EXTSST), through the poi
// adapter: it parses them into an SSTRecord and times serializing it again, then a workbook of
// its strings written whole.
PeerRun run_poi(const std::string& sst_records, const BenchOptions& o) {
  PeerOptions options = o.peers;
  if (options.docconform.empty()) options.docconform = sibling_docconform();
  const ScratchDirectory scratch("docconform-bench-sst-", o.dir);
  const std::string path = (fs::path(scratch.path()) / "poi.sst").string();
  write_file(path, sst_records);
  PeerRun run;
  run.impl = "poi";
  run.status = "failed";
  for (const Adapter& adapter : suite_adapters(options.root)) {
    if (adapter.name != "poi") continue;
    if (const std::string missing = missing_requirement(adapter, options.root); !missing.empty()) {
      run.detail = "needs " + missing;
    } else {
      run = run_peer(adapter, "sst", path, options);
    }
  }
  if (run.status == "ok" && find_phase(run.phases, "sst_serialize") == nullptr) {
    run.status = "failed";
    run.detail = "no sst_serialize phase reported";
  }
  if (run.status != "ok" && run.detail.empty()) run.detail = "no adapter named poi in ADAPTERS.tsv";
  return run;
}

void bench(const BenchOptions& o) {
  std::cerr << "bench sst: generating " << o.count << " strings (" << o.mix << ", seed " << o.seed << ")\n";
  const SstTable table = generate_strings(o.count, parse_mix(o.mix), o.seed);
  const std::string reference = sst_bytes(table, WriterKind::fast);
  const std::size_t extsst_record = 4 + 2 + 8 * extsst_bucket_count(table.size());
  const std::string sst_records = reference.substr(0, reference.size() - extsst_record);

  // The sinks that store the bytes as they are take turns round by round, so their ratios to
  // memory are paired. The compressors run on their own: their runs take 5 to 100 times as
  // long, and between them the memory sink measured about a third slower.
  std::vector<std::vector<SinkKind>> groups(1);
  for (const auto& s : o.sinks) {
    const SinkKind kind = parse_sink_kind(s);
    if (kind == SinkKind::zlib || kind == SinkKind::lz4) {
      groups.push_back({kind});
    } else {
      groups.front().push_back(kind);
    }
  }
  // The copy floor takes its turn in the rounds of the fast writer's memory sink, so the two
  // share the state of the host round by round (measured apart, a burst of load on one side
  // moved their ratio by 3x); without that sink, it is measured alone.
  std::vector<Run> runs;
  bool floor_measured = false;
  for (const auto& w : o.writers) {
    const WriterKind writer = parse_writer_kind(w);
    for (const auto& group : groups) {
      if (group.empty()) continue;
      const bool with_floor = writer == WriterKind::fast && std::ranges::find(group, SinkKind::memory) != group.end() && !floor_measured;
      std::string names;
      for (const SinkKind kind : group) names += (names.empty() ? "" : ",") + std::string(to_string(kind));
      std::cerr << "bench sst: " << w << " -> " << names << (with_floor ? ", copy floor" : "") << ", " << o.repeat << " rounds\n";
      for (Run& r : measure(table, writer, group, o, with_floor ? &reference : nullptr)) runs.push_back(std::move(r));
      floor_measured = floor_measured || with_floor;
    }
  }
  if (!floor_measured) {
    std::cerr << "bench sst: copy floor, " << o.repeat << " rounds\n";
    for (Run& r : measure(table, WriterKind::fast, {}, o, &reference)) runs.push_back(std::move(r));
  }
  const auto floor_at = std::find_if(runs.begin(), runs.end(), [](const Run& r) { return r.writer == "copy"; });
  const Run floor = std::move(*floor_at);
  runs.erase(floor_at);
  const std::string expected = sha256_hex(reference);
  bool identical = floor.sha256 == expected;
  for (const Run& r : runs) identical = identical && r.sha256 == expected;

  PeerRun poi;
  if (o.poi) {
    std::cerr << "bench sst: Apache POI (its conformance adapter)\n";
    poi = run_poi(sst_records, o);
  }
  const PhaseTime* poi_serialize = find_phase(poi.phases, "sst_serialize");
  const PhaseTime* poi_workbook = find_phase(poi.phases, "xls_write");
  const double mb = static_cast<double>(reference.size()) / 1e6;
  const auto find = [&runs](const std::string& w, const std::string& s) -> const Run* {
    for (const Run& r : runs) {
      if (r.writer == w && r.sink == s) return &r;
    }
    return nullptr;
  };
  const auto median_of = [&find](const std::string& w, const std::string& s, bool cpu = false) -> double {
    const Run* r = find(w, s);
    return r == nullptr ? 0 : cpu ? r->cpu_stats.median : r->stats.median;
  };
  // Two runs of the same sink or writer, side by side round by round, else 0.
  const auto paired_of = [](const Run* a, const Run* b, bool cpu) { return a && b ? paired(*a, *b, cpu) : 0; };

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
  // Sinks against the memory sink, and the fast memory sink against the floor, are paired by
  // round; writers and POI ran apart, so theirs are ratios of medians. Then the same in CPU
  // time: on a loaded machine, wall time also counts waiting for a core.
  const Run* fast_memory_run = find("fast", "memory");
  for (const bool cpu : {false, true}) {
    const std::string prefix = cpu ? "cpu_" : "";
    const double fast_memory = median_of("fast", "memory", cpu);
    if (fast_memory <= 0) continue;
    if (const double naive = median_of("naive", "memory", cpu); naive > 0) ratios.push_back({prefix + "naive_over_fast_memory", naive / fast_memory});
    for (const char* s : {"file", "stream", "zlib", "lz4"}) {
      if (const double r = paired_of(find("fast", s), fast_memory_run, cpu); r > 0) {
        ratios.push_back({prefix + "fast_" + s + "_over_memory", r});
      }
    }
    if (!cpu && poi_serialize != nullptr) ratios.push_back({"poi_over_fast_memory", poi_serialize->seconds / fast_memory});
    if (const double r = paired_of(fast_memory_run, &floor, cpu); r > 0) ratios.push_back({prefix + "fast_memory_over_copy_floor", r});
  }
  for (std::size_t i = 0; i < ratios.size(); ++i) {
    if (i > 0) out += ',';
    out += "\"" + ratios[i].first + "\":" + number_text(ratios[i].second);
  }
  out += "},\"poi\":";
  if (!o.poi) {
    out += "null";
  } else if (poi_serialize == nullptr) {
    out += "{\"error\":";
    out += json_quoted(poi.status + ": " + poi.detail);
    out += "}";
  } else {
    out += "{\"median_s\":" + number_text(poi_serialize->seconds) + ",\"sst_bytes\":" + std::to_string(poi_serialize->bytes) +
           ",\"sha256\":\"" + poi_serialize->sha256 + "\",\"same_bytes_as_ours\":" +
           (poi_serialize->sha256 == sha256_hex(sst_records) ? "true" : "false");
    if (poi_workbook != nullptr) {
      out += ",\"workbook_median_s\":" + number_text(poi_workbook->seconds) + ",\"workbook_bytes\":" + std::to_string(poi_workbook->bytes);
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
  if (poi_serialize != nullptr) {
    std::cout << "  POI SSTRecord.serialize: median " << poi_serialize->seconds << " s, same bytes: "
              << (poi_serialize->sha256 == sha256_hex(sst_records) ? "yes" : "no") << "\n";
  } else if (o.poi) {
    std::cout << "  POI: " << poi.status << ": " << poi.detail << "\n";
  }
  if (poi_workbook != nullptr) std::cout << "  POI HSSFWorkbook.write: median " << poi_workbook->seconds << " s\n";
}

}  // namespace

void add_sst_bench(CLI::App& app) {
  auto o = std::make_shared<BenchOptions>();
  auto* bench_cmd = app.add_subcommand("sst", "SST serialization: naive vs fast writer on every sink, and Apache POI");
  bench_cmd->add_option("--count", o->count, "Strings to serialize")->capture_default_str()->transform(integer_range(1, sst::Limits{}.max_strings));
  bench_cmd->add_option("--mix", o->mix, "String mix (see gen strings)")->capture_default_str();
  bench_cmd->add_option("--seed", o->seed, "Generator seed")->capture_default_str()->transform(integer_range(0, UINT64_MAX));
  bench_cmd->add_option("--writer", o->writers, "Comma-separated writers: naive,fast")->delimiter(',');
  bench_cmd->add_option("--sink", o->sinks, "Comma-separated sinks: memory,file,stream,zlib,lz4")->delimiter(',');
  bench_cmd->add_option("--repeat", o->repeat, "Timed runs per writer x sink (after one warm-up)")->capture_default_str()->transform(integer_range(1, max_repeats_option));
  bench_cmd->add_flag("!--no-poi", o->poi, "Skip the Apache POI measurement");
  bench_cmd->add_option("--dir", o->dir, "Directory for the file sinks' output (default: $TMPDIR, else /tmp)");
  bench_cmd->add_option("--root", o->peers.root, root_option_help);
  bench_cmd->add_option("--docconform", o->peers.docconform, "The docconform CLI the adapters call (default: the one beside this program)");
  bench_cmd->add_flag("--json", o->json, "One JSON object on stdout");
  bench_cmd->callback([o] {
    BenchOptions options = *o;
    if (options.poi) options.peers.root = resolve_root(options.peers.root);  // before the measurements
    if (options.repeat < 1) throw Error(ErrorKind::usage, {}, "--repeat must be at least 1");
    if (options.dir.empty()) options.dir = temporary_directory();
    bench(options);
  });
}

}  // namespace docconform::bench
