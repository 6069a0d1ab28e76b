// Micro-benchmarks of the XLSX loader's inner loops: the XML scanner over worksheet XML, the
// sheet parser, shared strings, reference resolving, the `_xHHHH_` decoder and number parsing
// via the parser.
#include <benchmark/benchmark.h>

#include <string>

#include "../../reference/xlsx/parts.h"
#include "../../reference/xlsx/sheet_parser.h"
#include "../../reference/xlsx/xml_scanner.h"
#include "../../reference/xlsx/xml_text.h"

namespace {

using namespace docconform::xlsx;

// A worksheet of rows x 4 cells: numbers, shared string indexes and inline strings.
std::string sheet_xml(int rows) {
  std::string x = "<?xml version=\"1.0\"?><worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\">"
                  "<sheetData>";
  for (int r = 1; r <= rows; ++r) {
    const std::string n = std::to_string(r);
    x += "<row r=\"" + n + "\"><c r=\"A" + n + "\"><v>" + std::to_string(r * 37.25) + "</v></c><c r=\"B" + n +
         "\" t=\"s\"><v>" + std::to_string(r % 4) + "</v></c><c r=\"C" + n + "\"><v>" + n +
         "</v></c><c r=\"D" + n + "\" t=\"inlineStr\"><is><t>text &amp; more \xC3\xA9 " + n + "</t></is></c></row>";
  }
  return x + "</sheetData></worksheet>";
}

const std::string& sample() {
  static const std::string xml = sheet_xml(20000);
  return xml;
}

// The shape `gen xlsx` and most writers give: numbers (some styled) and shared strings only,
// every cell read by the parser's shortcut.
const std::string& plain_sample() {
  static const std::string xml = [] {
    std::string x = "<?xml version=\"1.0\"?><worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\">"
                    "<sheetData>";
    for (int r = 1; r <= 20000; ++r) {
      const std::string n = std::to_string(r);
      x += "<row r=\"" + n + "\"><c r=\"A" + n + "\"><v>" + std::to_string(r * 37.25) + "</v></c><c r=\"B" + n +
           "\" t=\"s\"><v>" + std::to_string(r % 4) + "</v></c><c r=\"C" + n + "\" s=\"1\"><v>" + n +
           "</v></c><c r=\"D" + n + "\" t=\"s\"><v>" + std::to_string(r % 3) + "</v></c></row>";
    }
    return x + "</sheetData></worksheet>";
  }();
  return xml;
}

void BM_Scanner(benchmark::State& state) {
  const std::string& xml = sample();
  for (auto _ : state) {
    XmlScanner sc(reinterpret_cast<const std::uint8_t*>(xml.data()), xml.size(), 0, true, ScanLimits{});
    std::size_t tokens = 0;
    while (sc.next() != Token::end_of_input) ++tokens;
    benchmark::DoNotOptimize(tokens);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * xml.size()));
}
BENCHMARK(BM_Scanner);

// The sheet parser over one of the samples (20,000 rows x 4 cells), with or without the shortcut.
void parse_sheet(benchmark::State& state, const std::string& xml, bool shortcut) {
  SheetParseContext context;
  context.shared_strings = 4;
  context.shortcut = shortcut;
  TextCollector collector;
  for (auto _ : state) {
    ChunkResult r;
    parse_sheet_chunk(reinterpret_cast<const std::uint8_t*>(xml.data()), xml.size(), 0, ChunkStart::document, 0, true,
                      context, collector, r);
    benchmark::DoNotOptimize(r.segment.cells.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * xml.size()));
  state.counters["cells/s"] = benchmark::Counter(20000.0 * 4, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_SheetParser(benchmark::State& state) { parse_sheet(state, sample(), true); }
BENCHMARK(BM_SheetParser);

// Argument: 1 = the shortcut for plain cells (the default), 0 = every token through next().
void BM_SheetParserPlain(benchmark::State& state) { parse_sheet(state, plain_sample(), state.range(0) != 0); }
BENCHMARK(BM_SheetParserPlain)->Arg(0)->Arg(1);

// Argument: 1 = the shortcut for plain <si><t>..</t></si> (the default), 0 = token by token.
void BM_SharedStrings(benchmark::State& state) {
  static const std::string xml = [] {
    std::string x = "<sst xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\">";
    for (int i = 0; i < 20000; ++i) {
      x += i % 5 == 0 ? "<si><t>Gr\xC3\xBC\xC3\x9F" "e \xE2\x9C\x93 " + std::to_string(i) + "</t></si>"
                      : "<si><t xml:space=\"preserve\">text " + std::to_string(i) + "-2</t></si>";
    }
    return x + "</sst>";
  }();
  LoadOptions options;
  options.shortcut = state.range(0) != 0;
  options.chunk_bytes = 0;
  for (auto _ : state) {
    SharedStrings out;
    read_shared_strings(xml, ScanLimits{}, out, options);
    benchmark::DoNotOptimize(out.arena.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * xml.size()));
  state.counters["strings/s"] = benchmark::Counter(20000.0, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_SharedStrings)->Arg(0)->Arg(1);

void BM_ResolveReferences(benchmark::State& state) {
  std::string text;
  for (int i = 0; i < 1000; ++i) text += "a &amp; b &lt; c &#x1F600; d\r\n";
  const Span raw{reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
  std::string out;
  for (auto _ : state) {
    out.clear();
    append_resolved(raw, false, 0, out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_ResolveReferences);

void BM_DecodeOoxmlEscapes(benchmark::State& state) {
  std::u16string base;
  for (int i = 0; i < 1000; ++i) base += u"plain text _x000D_ and _x005F_x0041_ more ";
  std::u16string work;
  for (auto _ : state) {
    work = base;
    benchmark::DoNotOptimize(decode_ooxml_escapes(work.data(), work.size()));
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * base.size() * 2));
}
BENCHMARK(BM_DecodeOoxmlEscapes);

void BM_Utf8ToArena(benchmark::State& state) {
  std::string text;
  for (int i = 0; i < 1000; ++i) text += "Gr\xC3\xBC\xC3\x9F" "e \xE2\x9C\x93 ascii ascii ascii \xF0\x9F\x98\x80 ";
  const Span s{reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
  std::u16string arena;
  for (auto _ : state) {
    arena.clear();
    benchmark::DoNotOptimize(append_utf16(s, arena));
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_Utf8ToArena);

}  // namespace

BENCHMARK_MAIN();
