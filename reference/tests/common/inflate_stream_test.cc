// Every inflater gives zlib's bytes and zlib's error classes on the same streams, fed and drained
// in any piece sizes: stored, fixed and dynamic blocks, raw and zlib-wrapped, and broken ones.
#include "common/inflate_stream.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "docconform/error.h"

namespace docconform {
namespace {

struct Outcome {
  std::string output;
  InflateStatus status = InflateStatus::more;
  std::uint64_t consumed = 0;
  std::string detail;
  bool deflate_ended = false;
};

Outcome inflate_in_pieces(InflaterKind kind, DeflateWrapper wrapper, const std::string& data, std::size_t in_piece,
                          std::size_t out_piece) {
  InflateStream stream(kind, wrapper);
  Outcome o;
  std::string room(out_piece, '\0');
  std::size_t at = 0;
  for (int calls = 0; calls < 10'000'000; ++calls) {
    const std::size_t n = std::min(in_piece, data.size() - at);
    const auto step = stream.inflate(reinterpret_cast<const std::uint8_t*>(data.data()) + at, n,
                                     reinterpret_cast<std::uint8_t*>(room.data()), room.size(), at + n == data.size());
    at += step.consumed;
    o.output.append(room, 0, step.produced);
    o.status = step.status;
    if (step.status != InflateStatus::more) break;
  }
  o.consumed = stream.total_in();
  o.detail = std::string(stream.error_detail());
  o.deflate_ended = stream.deflate_ended();
  return o;
}

std::string deflate_with(const std::string& text, int level, int strategy, int window_bits) {
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, level, Z_DEFLATED, window_bits, 8, strategy), Z_OK);
  std::string out(deflateBound(&z, text.size()), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

std::string sample_text() {
  std::string text;
  for (int i = 0; i < 4000; ++i) text += "<c r=\"A" + std::to_string(i) + "\"><v>" + std::to_string(i * 7919 % 1000) + "</v></c>";
  return text;
}

// Bits least significant first, as deflate packs them (RFC 1951 §3.1.1).
struct BitWriter {
  std::string bytes;
  unsigned used = 8;
  void put(std::uint32_t value, unsigned count) {
    for (unsigned i = 0; i < count; ++i) {
      if (used == 8) {
        bytes.push_back('\0');
        used = 0;
      }
      bytes.back() = static_cast<char>(bytes.back() | (((value >> i) & 1u) << used++));
    }
  }
  // A fixed-code symbol: Huffman codes go most significant bit first.
  void code(std::uint32_t value, unsigned count) {
    for (unsigned i = count; i-- > 0;) put((value >> i) & 1u, 1);
  }
};

// Every available inflater gives this outcome, in every piece size.
void expect_everywhere(DeflateWrapper wrapper, const std::string& data, InflateStatus status, const std::string& detail = {}) {
  const Outcome reference = inflate_in_pieces(InflaterKind::zlib, wrapper, data, 1 << 20, 1 << 20);
  EXPECT_EQ(reference.status, status);
  EXPECT_EQ(reference.detail, detail);
  for (const InflaterKind kind : available_inflaters()) {
    for (const auto& [in_piece, out_piece] : std::vector<std::pair<std::size_t, std::size_t>>{{1 << 20, 1 << 20}, {1, 1}, {7, 13}, {4096, 100}}) {
      SCOPED_TRACE(std::string(inflater_name(kind)) + " pieces " + std::to_string(in_piece) + "/" + std::to_string(out_piece));
      const Outcome o = inflate_in_pieces(kind, wrapper, data, in_piece, out_piece);
      EXPECT_EQ(o.status, status);
      EXPECT_EQ(o.detail, detail);
      if (status == InflateStatus::end || status == InflateStatus::truncated) {
        EXPECT_EQ(o.output, reference.output);
      }
      if (status == InflateStatus::end) {
        EXPECT_EQ(o.consumed, reference.consumed);
      }
      EXPECT_EQ(o.deflate_ended, reference.deflate_ended);
    }
  }
}

TEST(InflateStream, StoredFixedAndDynamicBlocksGiveTheSameBytes) {
  const std::string text = sample_text();
  for (const DeflateWrapper wrapper : {DeflateWrapper::raw, DeflateWrapper::zlib}) {
    const int bits = wrapper == DeflateWrapper::raw ? -15 : 15;
    for (const auto& [level, strategy] : std::vector<std::pair<int, int>>{{0, Z_DEFAULT_STRATEGY}, {6, Z_FIXED}, {9, Z_DEFAULT_STRATEGY}, {1, Z_HUFFMAN_ONLY}}) {
      SCOPED_TRACE("level " + std::to_string(level) + " strategy " + std::to_string(strategy));
      const std::string packed = deflate_with(text, level, strategy, bits);
      expect_everywhere(wrapper, packed, InflateStatus::end);
      EXPECT_EQ(inflate_in_pieces(default_inflater(), wrapper, packed, 3, 5).output, text);
    }
  }
}

TEST(InflateStream, TrailingDataIsNotConsumed) {
  const std::string text = sample_text();
  for (const DeflateWrapper wrapper : {DeflateWrapper::raw, DeflateWrapper::zlib}) {
    const std::string packed = deflate_with(text, 9, Z_DEFAULT_STRATEGY, wrapper == DeflateWrapper::raw ? -15 : 15);
    expect_everywhere(wrapper, packed + "trailing bytes", InflateStatus::end);
    EXPECT_EQ(inflate_in_pieces(default_inflater(), wrapper, packed + "trailing", 2, 9).consumed, packed.size());
  }
}

TEST(InflateStream, TruncatedDataIsTruncated) {
  const std::string packed = deflate_with(sample_text(), 0, Z_DEFAULT_STRATEGY, -15);  // stored: any cut is an early end
  expect_everywhere(DeflateWrapper::raw, packed.substr(0, packed.size() / 2), InflateStatus::truncated);
  expect_everywhere(DeflateWrapper::raw, "", InflateStatus::truncated);
  const std::string wrapped = deflate_with(sample_text(), 9, Z_DEFAULT_STRATEGY, 15);
  expect_everywhere(DeflateWrapper::zlib, wrapped.substr(0, wrapped.size() - 2), InflateStatus::truncated);  // the trailer cut
  expect_everywhere(DeflateWrapper::zlib, "\x78", InflateStatus::truncated);
}

TEST(InflateStream, BadHeadersAreBadHeaders) {
  const std::string body = deflate_with("x", 9, Z_DEFAULT_STRATEGY, -15);
  expect_everywhere(DeflateWrapper::zlib, "\x78\x9d" + body, InflateStatus::bad_header, "incorrect header check");
  expect_everywhere(DeflateWrapper::zlib, std::string("\x77\x85") + body, InflateStatus::bad_header, "unknown compression method");
  expect_everywhere(DeflateWrapper::zlib, std::string("\x88\x98") + body, InflateStatus::bad_header, "invalid window size");
  expect_everywhere(DeflateWrapper::zlib, std::string("\x78\xbb") + body, InflateStatus::bad_header, "preset dictionary");
}

TEST(InflateStream, BadChecksAreBadChecks) {
  std::string wrapped = deflate_with(sample_text(), 9, Z_DEFAULT_STRATEGY, 15);
  wrapped.back() = static_cast<char>(wrapped.back() ^ 1);
  expect_everywhere(DeflateWrapper::zlib, wrapped, InflateStatus::bad_check, "incorrect data check");
}

TEST(InflateStream, BadBlocksAreBadData) {
  BitWriter reserved;  // BFINAL 1, BTYPE 11
  reserved.put(1, 1);
  reserved.put(3, 2);
  expect_everywhere(DeflateWrapper::raw, reserved.bytes + std::string(8, '\0'), InflateStatus::bad_data, "invalid block");

  BitWriter stored;  // LEN 5, NLEN not its complement
  stored.put(1, 1);
  stored.put(0, 2);
  expect_everywhere(DeflateWrapper::raw, stored.bytes + std::string("\x05\x00\x00\x00", 4) + "hello" + std::string(8, '\0'),
                    InflateStatus::bad_data, "invalid block");
}

TEST(InflateStream, DistanceBeforeTheStartIsBadData) {
  BitWriter w;  // fixed block: "a", then a match of length 3 at distance 2, then end of block
  w.put(1, 1);
  w.put(1, 2);
  w.code(0x30 + 'a', 8);  // literals 0-143: 8-bit codes from 00110000
  w.code(1, 7);           // length 257 (3): 7-bit code 0000001
  w.code(1, 5);           // distance code 1 (distance 2)
  w.code(0, 7);           // end of block
  expect_everywhere(DeflateWrapper::raw, w.bytes + std::string(8, '\0'), InflateStatus::bad_data, "distance too far back");
}

// Canonical Huffman codes of the given lengths (RFC 1951 §3.2.2), even when the lengths do not
// make a complete code: symbols past a full code get codes longer than their length allows, which
// only the over-subscribed streams below use, and never read.
std::vector<std::uint32_t> canonical_codes(const std::vector<unsigned>& lengths) {
  std::vector<std::uint32_t> count(16), next(16), codes(lengths.size());
  for (const unsigned l : lengths) ++count[l];
  count[0] = 0;
  for (unsigned bits = 1; bits < 16; ++bits) next[bits] = (next[bits - 1] + count[bits - 1]) << 1;
  for (std::size_t s = 0; s < lengths.size(); ++s) {
    if (lengths[s] != 0) codes[s] = next[lengths[s]]++;
  }
  return codes;
}

// One final dynamic block: the code-length code's lengths (by symbol), the literal/length
// lengths (257 or more) and the distance lengths, then the literal/length symbols to write
// (no matches). Zero runs are written with symbols 17 and 18, other lengths one by one.
std::string dynamic_block(const std::map<unsigned, unsigned>& code_length_code, const std::vector<unsigned>& lit_lengths,
                          const std::vector<unsigned>& dist_lengths, const std::vector<unsigned>& symbols) {
  static constexpr unsigned order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
  std::vector<unsigned> cl_lengths(19);
  for (const auto& [symbol, length] : code_length_code) cl_lengths[symbol] = length;
  unsigned hclen = 19;
  while (hclen > 4 && cl_lengths[order[hclen - 1]] == 0) --hclen;
  BitWriter w;
  w.put(1, 1);
  w.put(2, 2);
  w.put(static_cast<std::uint32_t>(lit_lengths.size() - 257), 5);
  w.put(static_cast<std::uint32_t>(dist_lengths.size() - 1), 5);
  w.put(hclen - 4, 4);
  for (unsigned i = 0; i < hclen; ++i) w.put(cl_lengths[order[i]], 3);
  const std::vector<std::uint32_t> cl_codes = canonical_codes(cl_lengths);
  std::vector<unsigned> all = lit_lengths;
  all.insert(all.end(), dist_lengths.begin(), dist_lengths.end());
  for (std::size_t i = 0; i < all.size();) {
    std::size_t run = 0;
    while (i + run < all.size() && all[i + run] == 0) ++run;
    if (run >= 11) {
      run = std::min<std::size_t>(run, 138);
      w.code(cl_codes[18], cl_lengths[18]);
      w.put(static_cast<std::uint32_t>(run - 11), 7);
    } else if (run >= 3) {
      w.code(cl_codes[17], cl_lengths[17]);
      w.put(static_cast<std::uint32_t>(run - 3), 3);
    } else {
      run = 1;
      w.code(cl_codes[all[i]], cl_lengths[all[i]]);
    }
    i += run;
  }
  const std::vector<std::uint32_t> lit_codes = canonical_codes(lit_lengths);
  for (const unsigned symbol : symbols) w.code(lit_codes[symbol], lit_lengths[symbol]);
  return w.bytes;
}

std::vector<unsigned> lengths_of(std::size_t size, const std::map<unsigned, unsigned>& nonzero) {
  std::vector<unsigned> lengths(size);
  for (const auto& [symbol, length] : nonzero) lengths[symbol] = length;
  return lengths;
}

// Dynamic blocks whose code-length, literal/length or distance code is incomplete or
// over-subscribed, each writing "aa" and the end of block with the codes it defines.
std::vector<std::pair<std::string, std::string>> bad_code_sets() {
  const std::vector<unsigned> text{'a', 'a', 256};
  const auto lit_complete = lengths_of(257, {{'a', 1}, {256, 1}});
  const auto dist_complete = lengths_of(2, {{0, 1}, {1, 1}});
  const std::map<unsigned, unsigned> cl_complete{{1, 1}, {17, 3}, {18, 3}, {2, 2}};
  return {
      {"incomplete code-length code", dynamic_block({{1, 1}, {17, 3}, {18, 3}}, lit_complete, dist_complete, text)},
      {"over-subscribed code-length code", dynamic_block({{1, 1}, {17, 1}, {18, 1}}, lit_complete, dist_complete, text)},
      {"incomplete literal/length code", dynamic_block(cl_complete, lengths_of(257, {{'a', 1}, {256, 2}}), dist_complete, text)},
      {"over-subscribed literal/length code",
       dynamic_block(cl_complete, lengths_of(257, {{'a', 1}, {'b', 1}, {256, 1}}), dist_complete, text)},
      {"incomplete distance code", dynamic_block(cl_complete, lit_complete, lengths_of(2, {{0, 1}, {1, 2}}), text)},
      {"over-subscribed distance code", dynamic_block(cl_complete, lit_complete, lengths_of(3, {{0, 1}, {1, 1}, {2, 1}}), text)},
  };
}

TEST(InflateStream, CompleteDynamicCodesInflate) {  // the builder above, checked by zlib
  const std::vector<unsigned> text{'a', 'a', 256};
  expect_everywhere(DeflateWrapper::raw,
                    dynamic_block({{1, 1}, {17, 3}, {18, 3}, {2, 2}}, lengths_of(257, {{'a', 1}, {256, 1}}),
                                  lengths_of(2, {{0, 1}, {1, 1}}), text),
                    InflateStatus::end);
}

// The verdict of a build does not depend on whether it has ISA-L: the default inflater is zlib,
// which rejects every incomplete or over-subscribed code.
TEST(InflateStream, DefaultInflaterRejectsIncompleteAndOversubscribedCodes) {
  EXPECT_EQ(default_inflater(), InflaterKind::zlib);
  for (const auto& [name, stream] : bad_code_sets()) {
    SCOPED_TRACE(name);
    for (const InflaterKind kind : {InflaterKind::zlib, default_inflater()}) {
      const Outcome o = inflate_in_pieces(kind, DeflateWrapper::raw, stream, 1 << 20, 1 << 20);
      EXPECT_EQ(o.status, InflateStatus::bad_data);
      EXPECT_EQ(o.detail, "invalid code set");
      EXPECT_EQ(o.output, "");
    }
  }
}

// The campaign's input: raw deflate after the seed byte, its dynamic block's code incomplete.
TEST(InflateStream, DefaultInflaterRejectsTheCampaignsIncompleteCode) {
  std::ifstream file(DOCCONFORM_SOURCE_DIR "/corpus/inflate_differential/regressions/known-divergence-incomplete-code-lengths",
                     std::ios::binary);
  ASSERT_TRUE(file);
  const std::string input{std::istreambuf_iterator<char>(file), {}};
  const Outcome o = inflate_in_pieces(default_inflater(), DeflateWrapper::raw, input.substr(1), 1 << 20, 1 << 20);
  EXPECT_EQ(o.status, InflateStatus::bad_data);
  EXPECT_EQ(o.detail, "invalid code set");
}

// ISA-L, an opt-in, differs from zlib in exactly this (docconform/inflater.h): it decodes with an
// incomplete code and rejects an over-subscribed one.
TEST(InflateStream, IsalAcceptsIncompleteCodesOnly) {
  if (!inflater_available(InflaterKind::isal)) GTEST_SKIP() << "built without ISA-L";
  for (const auto& [name, stream] : bad_code_sets()) {
    SCOPED_TRACE(name);
    const Outcome o = inflate_in_pieces(InflaterKind::isal, DeflateWrapper::raw, stream, 1 << 20, 1 << 20);
    if (name.rfind("incomplete", 0) == 0) {
      EXPECT_EQ(o.status, InflateStatus::end);
      EXPECT_EQ(o.output, "aa");
    } else {
      EXPECT_EQ(o.status, InflateStatus::bad_data);
    }
  }
}

TEST(InflateStream, InflatersAreNamedAndParsed) {
  EXPECT_EQ(parse_inflater("zlib"), InflaterKind::zlib);
  EXPECT_TRUE(inflater_available(default_inflater()));
  EXPECT_THROW(parse_inflater("gzip"), Error);
  for (const InflaterKind kind : available_inflaters()) EXPECT_EQ(parse_inflater(inflater_name(kind)), kind);
  if (!inflater_available(InflaterKind::isal)) {
    EXPECT_THROW(parse_inflater("isal"), Error);
    EXPECT_EQ(default_inflater(), InflaterKind::zlib);
  }
}

}  // namespace
}  // namespace docconform
