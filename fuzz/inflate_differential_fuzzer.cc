// Differential: every input is inflated by zlib (the reference) and by ISA-L, as raw deflate
// (zip parts) and zlib-wrapped (PDF streams), each fed and drained in its own varying piece
// sizes. The outcome must agree: the stream ends, or only its trailer is cut short (with the
// same output bytes, and at the end the same input consumed), or the header is bad, or the
// check, or the deflate data fails. A failure inside the deflate data is one class whether it
// shows as a bad code or as input that ends early: which one an inflater sees first differs,
// and the product takes zlib's word for it (pdf/filters.cc, xlsx/package.cc). Input: byte 0
// seeds the piece sizes, the rest is the stream.
//
// One divergence is known, documented (docconform/inflater.h) and checked as such: ISA-L decodes
// a dynamic block whose code-length, literal/length or distance code is incomplete, which zlib
// rejects ("invalid code set"). There zlib's output must be a prefix of ISA-L's; every other
// outcome of such an input (ISA-L failing too) is held to the rules above.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "common/inflate_stream.h"
#include "fuzz_check.h"

namespace {

using docconform::DeflateWrapper;
using docconform::InflaterKind;
using docconform::InflateStatus;
using docconform::InflateStream;

constexpr std::size_t max_output = 4u << 20;  // small inputs must not buy large outputs

enum class Verdict { end, trailer_cut, bad_header, bad_check, deflate_failed, output_cap };

struct Outcome {
  std::string output;
  Verdict verdict = Verdict::output_cap;
  std::uint64_t consumed = 0;
  std::string_view detail;
};

Verdict verdict_of(InflateStatus status, bool deflate_ended) {
  switch (status) {
    case InflateStatus::end: return Verdict::end;
    case InflateStatus::truncated: return deflate_ended ? Verdict::trailer_cut : Verdict::deflate_failed;
    case InflateStatus::bad_header: return Verdict::bad_header;
    case InflateStatus::bad_check: return Verdict::bad_check;
    case InflateStatus::bad_data: return Verdict::deflate_failed;
    case InflateStatus::more: break;
  }
  return Verdict::output_cap;
}

// Piece sizes from 1 byte to 64 KiB, varying call by call.
struct Pieces {
  std::uint32_t state;
  std::size_t next() {
    state = state * 1103515245u + 12345u;
    const unsigned shift = (state >> 16) % 17;
    return std::max<std::size_t>(1, ((state >> 8) & 0xffff) >> (16 - shift));
  }
};

Outcome run(InflaterKind kind, DeflateWrapper wrapper, const std::uint8_t* data, std::size_t size, std::uint32_t seed) {
  Outcome outcome;
  InflateStream stream(kind, wrapper);
  Pieces pieces{seed};
  std::size_t at = 0;
  std::string room;
  while (outcome.output.size() < max_output) {
    const std::size_t in_size = std::min(size - at, pieces.next());
    room.resize(std::min(pieces.next(), max_output - outcome.output.size()));
    const bool ends = at + in_size == size;
    const auto step = stream.inflate(data + at, in_size, reinterpret_cast<std::uint8_t*>(room.data()), room.size(), ends);
    at += step.consumed;
    outcome.output.append(room, 0, step.produced);
    if (step.status != InflateStatus::more) {
      outcome.verdict = verdict_of(step.status, stream.deflate_ended());
      outcome.detail = stream.error_detail();
      break;
    }
  }
  outcome.consumed = stream.total_in();
  return outcome;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::uint32_t seed = data[0];
  for (const DeflateWrapper wrapper : {DeflateWrapper::raw, DeflateWrapper::zlib}) {
    const Outcome zlib = run(InflaterKind::zlib, wrapper, data + 1, size - 1, seed);
    const Outcome isal = run(InflaterKind::isal, wrapper, data + 1, size - 1, seed * 7 + 1);
    if (zlib.verdict == Verdict::output_cap || isal.verdict == Verdict::output_cap) continue;
    if (zlib.detail == "invalid code set" && isal.verdict != Verdict::deflate_failed) {
      const std::size_t common = std::min(zlib.output.size(), isal.output.size());
      FUZZ_CHECK(zlib.output.compare(0, common, isal.output, 0, common) == 0, data, size);
      continue;
    }
    FUZZ_CHECK(zlib.verdict == isal.verdict, data, size);
    if (zlib.verdict == Verdict::end || zlib.verdict == Verdict::trailer_cut) FUZZ_CHECK(zlib.output == isal.output, data, size);
    if (zlib.verdict == Verdict::end) FUZZ_CHECK(zlib.consumed == isal.consumed, data, size);
  }
  return 0;
}
