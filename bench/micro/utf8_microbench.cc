// Micro-benchmarks of the UTF-8 passthrough decoder: ASCII runs (word-at-a-time path),
// mixed scripts, and malformed bytes, against a byte-at-a-time loop as the baseline.
#include <benchmark/benchmark.h>

#include <random>
#include <string>

#include "docconform/utf8.h"

namespace {

std::string make_text(const char* kind, std::size_t size) {
  std::mt19937 rng(42);
  std::string text;
  const std::string pieces[] = {"Gr\xC3\xBC\xC3\x9F" "e ", "\xE6\x97\xA5\xE6\x9C\xAC ", "\xF0\x9F\x8D\xA3 ", "plain words "};
  while (text.size() < size) {
    if (std::string(kind) == "ascii") {
      text += static_cast<char>('a' + rng() % 26);
    } else if (std::string(kind) == "mixed") {
      text += pieces[rng() % 4];
    } else {
      text += static_cast<char>(rng() % 256);  // mostly malformed
    }
  }
  text.resize(size);
  return text;
}

// Baseline: one byte per iteration, the shape of a naive decoder's ASCII handling.
std::size_t byte_loop(const std::string& in, char16_t* out) {
  std::size_t n = 0;
  for (const unsigned char c : in) out[n++] = c;
  return n;
}

void BM_Utf8Passthrough(benchmark::State& state, const char* kind) {
  const std::string text = make_text(kind, 1 << 20);
  std::u16string out(text.size() * 2, u'\0');
  const auto* data = reinterpret_cast<const std::uint8_t*>(text.data());
  for (auto _ : state) {
    const std::size_t length = docconform::utf16_length(data, text.size());
    benchmark::DoNotOptimize(docconform::decode_utf8_passthrough(data, text.size(), out.data()) + length);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}

void BM_ByteLoopBaseline(benchmark::State& state) {
  const std::string text = make_text("ascii", 1 << 20);
  std::u16string out(text.size(), u'\0');
  for (auto _ : state) benchmark::DoNotOptimize(byte_loop(text, out.data()));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}

BENCHMARK_CAPTURE(BM_Utf8Passthrough, ascii, "ascii");
BENCHMARK_CAPTURE(BM_Utf8Passthrough, mixed, "mixed");
BENCHMARK_CAPTURE(BM_Utf8Passthrough, malformed, "malformed");
BENCHMARK(BM_ByteLoopBaseline);

}  // namespace

BENCHMARK_MAIN();
