// cfb_container: the Compound File container of a .xls (docconform/sst/cfb.h), through its API
// only. Two properties on every input:
//
// 1. Any bytes as a Compound File, read with the fuzz limits: only docconform::Error escapes
//    (from the constructor or from read_stream), and what is read is consistent: a stream that
//    reads has exactly its entry's size, reads the same twice, and find_stream of its name
//    finds a stream entry of that name (ASCII case ignored) at or before it. Work must stay
//    bounded: libFuzzer's -timeout and -rss_limit_mb turn a runaway chain walk or allocation
//    into a finding. (Reading every stream, as here, costs at most entries x FAT length; the
//    .xls reader reads one.)
//
// 2. A round trip through the writer, with the stream described by the input:
//      byte 0        name length L (mod 32), then L UTF-16LE code units
//      "L" + 3 bytes a large stream: size = the 24-bit little-endian value, up to 512 KiB (sector
//                    chains over several FAT sectors; DIFAT sectors, which need streams above
//                    7 MiB, are left to the unit test Cfb.LargeStreamUsesDifatSectors: one such
//                    input costs as much as thousands of others)
//      otherwise     the rest of the input is the stream (below and above the 4,096-byte
//                    cutoff; the writer pads short streams to it)
//    Stream bytes repeat the rest of the input, with each 512-byte sector starting with its own
//    index so that a misordered chain shows. The writer rejects (Error usage) exactly the names
//    MS-CFB 2.6.1 forbids (containing U+0000 '/' '\' ':' '!'); otherwise the reader finds the
//    root entry and the stream under its name, reads back the bytes written (zero padded to
//    4,096), and writing what it read gives the same file again.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>

#include "docconform/error.h"
#include "docconform/sst/cfb.h"
#include "fuzz_check.h"

namespace {

using docconform::sst::CfbReader;

constexpr std::size_t max_input = 1 << 17;
constexpr std::size_t max_large_stream = 512u << 10;

bool same_name(std::u16string_view a, std::u16string_view b) {
  const auto upper = [](char16_t c) { return c >= u'a' && c <= u'z' ? static_cast<char16_t>(c - 32) : c; };
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [&](char16_t x, char16_t y) {
           return upper(x) == upper(y);
         });
}

void read_any(const std::uint8_t* data, std::size_t size) {
  const std::string_view file(reinterpret_cast<const char*>(data), size);
  try {
    const CfbReader reader(file, docconform::sst::Limits::fuzz(), "input");
    const auto& entries = reader.entries();
    FUZZ_CHECK(!entries.empty() && entries[0].type == 5, data, size);
    for (std::size_t i = 0; i < entries.size(); ++i) {
      if (entries[i].type != 2) continue;
      const auto found = reader.find_stream(entries[i].name);
      FUZZ_CHECK(found && *found <= i && entries[*found].type == 2, data, size);
      FUZZ_CHECK(same_name(entries[*found].name, entries[i].name), data, size);
      try {
        const std::string stream = reader.read_stream(i);
        FUZZ_CHECK(stream.size() == entries[i].size, data, size);
        FUZZ_CHECK(stream == reader.read_stream(i), data, size);
      } catch (const docconform::Error&) {
        // A broken stream does not make the other entries unreadable.
      }
    }
  } catch (const docconform::Error&) {
  } catch (const std::exception& e) {
    docconform::fuzz::fail(e.what(), data, size);
  }
}

bool forbidden_name(std::u16string_view name) {
  return name.find_first_of(std::u16string_view(u"\0/\\:!", 5)) != std::u16string_view::npos;
}

void round_trip(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return;
  std::size_t at = 1;
  const std::size_t name_length = std::min<std::size_t>(data[0] % 32, (size - at) / 2);
  std::u16string name;
  for (std::size_t i = 0; i < name_length; ++i, at += 2) name += static_cast<char16_t>(data[at] | (data[at + 1] << 8));
  std::size_t stream_size = size - at;
  if (size - at >= 4 && data[at] == 'L') {
    stream_size = std::min<std::size_t>(data[at + 1] | (data[at + 2] << 8) | (data[at + 3] << 16), max_large_stream);
    at += 4;
  }
  const std::string_view pattern(reinterpret_cast<const char*>(data + at), size - at);
  std::string stream(stream_size, '\0');
  for (std::size_t i = 0; i < stream_size; ++i) {
    stream[i] = pattern.empty() ? static_cast<char>(i * 7) : pattern[i % pattern.size()];
  }
  for (std::size_t s = 0; s * 512 + 4 <= stream_size; ++s) {
    for (std::size_t k = 0; k < 4; ++k) stream[s * 512 + k] = static_cast<char>((s >> (8 * k)) & 0xFF);
  }

  std::string file;
  try {
    file = docconform::sst::write_cfb(stream, name);
  } catch (const docconform::Error& e) {
    FUZZ_CHECK(e.kind() == docconform::ErrorKind::usage && forbidden_name(name), data, size);
    return;
  }
  FUZZ_CHECK(!forbidden_name(name), data, size);
  FUZZ_CHECK(file.size() % 512 == 0 && file.size() >= 512 + std::max<std::size_t>(stream_size, 4096), data, size);
  try {
    const CfbReader reader(file, docconform::sst::Limits::fuzz(), "written");
    const auto& entries = reader.entries();
    FUZZ_CHECK(entries.size() >= 2 && entries[0].type == 5 && entries[0].name == u"Root Entry", data, size);
    const auto found = reader.find_stream(name);
    FUZZ_CHECK(found && *found == 1 && entries[1].name == name, data, size);
    std::string expected = stream;
    if (expected.size() < 4096) expected.resize(4096, '\0');
    const std::string back = reader.read_stream(*found);
    FUZZ_CHECK(back == expected, data, size);
    FUZZ_CHECK(docconform::sst::write_cfb(back, name) == file, data, size);
  } catch (const docconform::Error& e) {
    docconform::fuzz::fail(e.what(), data, size);  // what the writer made must read
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > max_input) return -1;
  read_any(data, size);
  round_trip(data, size);
  return 0;
}
