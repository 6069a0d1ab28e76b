// Micro-benchmarks of the windowed PDF reader's inner loops: the object parser on the source's
// payload shape, the window mapper's fast path, the first read of a file through each byte
// source, and the indexing sweep of a generated file over each byte source (the file is written
// once to the temporary directory).
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "docconform/pdf/document.h"
#include "docconform/pdf/generate.h"
#include "docconform/pdf/mapped.h"
#include "docconform/pdf/source.h"
#include "docconform/pdf/sweep.h"
#include "docconform/pdf/writer.h"
#include "docconform/random.h"
#include "process_stats.h"

namespace {

using namespace docconform::pdf;

// One payload object as the generator writes it: a dictionary around 560 pseudo-random bytes
// in a literal string (with its escapes), the source's ~600-byte object.
std::string payload_object(std::uint64_t seed) {
  docconform::SplitMix64 rng(seed);
  std::string data(560, '\0');
  for (std::size_t i = 0; i < data.size(); i += 8) {
    const std::uint64_t r = rng.next();
    for (std::size_t k = 0; k < 8 && i + k < data.size(); ++k) data[i + k] = static_cast<char>(r >> (8 * k));
  }
  Object dict = parse_object_text("<< /Type /Item /Index 1 /Rev 0 >>");
  Object value;
  value.kind = Kind::string;
  value.bytes = data;
  dict.keys.push_back("Data");
  dict.items.push_back(value);
  std::string text;
  append_pdf_syntax(text, dict);
  return text;
}

void BM_ParsePayloadObject(benchmark::State& state) {
  const std::string text = payload_object(7);
  for (auto _ : state) {
    Object o = parse_object_text(text);
    benchmark::DoNotOptimize(o.items.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_ParsePayloadObject);

// Generated files in the temporary directory, made once per shape on first use.
std::string bench_paths[2];

const std::string& bench_file(bool object_streams) {
  std::string& path = bench_paths[object_streams ? 1 : 0];
  if (path.empty()) {
    GenerateOptions o;
    o.objects = 20000;
    o.payload = 560;
    o.object_streams = object_streams;
    o.updates = 1;
    o.shuffle = true;
    o.pages = 100;
    path = (std::filesystem::temp_directory_path() /
            ("docconform-pdf-microbench-" + std::to_string(::getpid()) + (object_streams ? "-objstm.pdf" : "-classic.pdf")))
               .string();
    std::ofstream out(path, std::ios::binary);
    generate_pdf(o, out);
  }
  return path;
}

// The indexing pass (xref chain, then every object in file order) over one byte source.
void BM_IndexingSweep(benchmark::State& state) {
  const bool object_streams = state.range(0) != 0;
  const auto kind = static_cast<SourceKind>(state.range(1));
  const std::string& path = bench_file(object_streams);
  SourceOptions options;
  options.kind = kind;
  std::uint64_t bytes = 0, objects = 0;
  for (auto _ : state) {
    auto source = open_source(path, options);
    Document doc(*source);
    objects += sweep_objects(doc, 1).items;
    bytes += source->size();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
  state.counters["objects/s"] = benchmark::Counter(static_cast<double>(objects), benchmark::Counter::kIsRate);
  state.SetLabel(std::string(object_streams ? "objstm " : "classic ") + to_string(kind));
}
BENCHMARK(BM_IndexingSweep)
    ->ArgsProduct({{0, 1},
                   {static_cast<long>(SourceKind::mapped), static_cast<long>(SourceKind::pread),
                    static_cast<long>(SourceKind::buffered), static_cast<long>(SourceKind::whole)}})
    ->Unit(benchmark::kMillisecond);

// The mapper's fast path: 600-byte fetches that stay inside the live window cost no kernel call.
void BM_MapperFastPath(benchmark::State& state) {
  MappedSource source(bench_file(false), 64ull << 20, 64ull << 10);
  const std::uint64_t span = std::min<std::uint64_t>(source.size(), 32ull << 20) - 600;
  std::uint64_t at = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(source.map(at, 600));
    at = (at + 4099) % span;
  }
  state.counters["map calls"] = static_cast<double>(source.counts().map);
}
BENCHMARK(BM_MapperFastPath);

// The first read of a cached file, 64 KiB at a time, one byte looked at per page: through a new
// 64 MiB window the pages come in by page faults (the kernel maps the cached pages around each
// one), through pread by a copy into the source's buffer. What the mapped indexing pass pays
// for not copying, against what the pread pass pays for copying.
void BM_FirstReadOfTheFile(benchmark::State& state) {
  const std::string& path = bench_file(false);
  SourceOptions options;
  options.kind = static_cast<SourceKind>(state.range(0));
  const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  constexpr std::uint64_t piece = 64ull << 10;
  std::uint64_t bytes = 0;
  long faults = 0;
  for (auto _ : state) {
    const long faults_before = docconform::bench::page_faults().minor;
    auto source = open_source(path, options);
    unsigned sum = 0;
    for (std::uint64_t at = 0; at < source->size(); at += piece) {
      const std::uint64_t n = std::min(piece, source->size() - at);
      const std::uint8_t* bytes_at = source->map(at, n);
      for (std::uint64_t k = 0; k < n; k += page) sum += bytes_at[k];
    }
    benchmark::DoNotOptimize(sum);
    bytes += source->size();
    faults += docconform::bench::page_faults().minor - faults_before;
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
  state.counters["faults"] = benchmark::Counter(static_cast<double>(faults), benchmark::Counter::kAvgIterations);
  state.SetLabel(to_string(options.kind));
}
BENCHMARK(BM_FirstReadOfTheFile)
    ->Arg(static_cast<long>(SourceKind::mapped))
    ->Arg(static_cast<long>(SourceKind::pread))
    ->Unit(benchmark::kMicrosecond);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  for (const std::string& path : bench_paths) {
    if (!path.empty()) std::remove(path.c_str());
  }
  return 0;
}
