// sst_roundtrip: the input describes a list of strings (arbitrary UTF-16, rich runs, ExtRst);
// properties: the fast writer's bytes equal the naive oracle's, reader(writer(x)) == x, the
// EXTSST agrees with where the reader found each string, and no record exceeds 8,224 bytes.
//
// Input grammar, per string: one control byte c, then
//   c & 3 == 0: compressed text, length = next byte, units = following bytes
//   c & 3 == 1: UTF-16 text, length = next byte, units = following byte pairs (LE)
//   c & 3 == 2: a long string of 8,000 + 2 bytes' worth of length, one repeated unit (hits
//               record ends at every residue)
//   c & 3 == 3: an empty string
//   c & 4: rich, run count = next byte % 8, each run 4 bytes
//   c & 8: ExtRst; next byte % 3 picks a raw block (size = next 2 bytes % 20,000, a pattern),
//          a well-formed phonetic block (text length = next 2 bytes % 5,000, then 0-7 extra
//          bytes), or a well-formed block with one byte overwritten (position, value follow)
#include <cstddef>
#include <cstdint>
#include <string>

#include "docconform/error.h"
#include "docconform/sst/generate.h"
#include "docconform/sst/reader.h"
#include "docconform/sst/writer.h"
#include "fuzz_check.h"

namespace {

using namespace docconform::sst;

class Input {
 public:
  Input(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  bool empty() const { return at_ >= size_; }
  std::uint8_t byte() { return at_ < size_ ? data_[at_++] : 0; }
  std::uint16_t u16() { return static_cast<std::uint16_t>(byte() | (byte() << 8)); }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};

SstTable decode(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  SstTable table;
  std::size_t units = 0;
  while (!in.empty() && table.size() < 2000 && units < (1u << 20)) {
    const std::uint8_t c = in.byte();
    SstString s;
    switch (c & 3) {
      case 0:
        for (std::size_t n = in.byte(); n > 0; --n) s.text += static_cast<char16_t>(in.byte());
        break;
      case 1:
        for (std::size_t n = in.byte(); n > 0; --n) s.text += static_cast<char16_t>(in.u16());
        break;
      case 2: {
        const std::size_t n = 8000 + in.u16() % 57536;
        s.text.assign(n, static_cast<char16_t>(in.u16()));
        break;
      }
      default:
        break;
    }
    if (c & 4) {
      s.runs.emplace();
      for (std::size_t n = in.byte() % 8; n > 0; --n) s.runs->push_back({in.u16(), in.u16()});
    }
    if (c & 8) {
      const std::uint8_t mode = in.byte() % 3;
      if (mode == 0) {
        s.ext_rst.emplace(in.u16() % 20000, '\0');
        for (std::size_t i = 0; i < s.ext_rst->size(); ++i) (*s.ext_rst)[i] = static_cast<char>(i * 31 + c);
      } else {
        std::string ext = make_ext_rst(std::u16string(in.u16() % 5000, u'\u30A2'), 1);
        ext.append(in.byte() % 8, 'x');
        ext[2] = static_cast<char>((ext.size() - 4) & 0xFF);  // cb covers the extra bytes
        ext[3] = static_cast<char>((ext.size() - 4) >> 8);
        if (mode == 2) ext[in.u16() % ext.size()] = static_cast<char>(in.byte());
        s.ext_rst = std::move(ext);
      }
    }
    units += s.text.size();
    table.append(s);
  }
  table.set_total_refs(table.size() + (size % 7));
  return table;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const SstTable table = decode(data, size);
  const std::string fast = sst_bytes(table, WriterKind::fast);
  const std::string naive = sst_bytes(table, WriterKind::naive);
  FUZZ_CHECK(fast == naive, data, size);

  SstFile file;
  try {
    file = read_sst_file(fast);
  } catch (const docconform::Error&) {
    FUZZ_CHECK(!"the reader rejected the writer's output", data, size);
  }
  FUZZ_CHECK(file.table == table, data, size);
  FUZZ_CHECK(file.extsst.has_value(), data, size);
  FUZZ_CHECK(check_extsst(*file.extsst, file.string_starts).empty(), data, size);
  for (const Record& r : split_records(fast)) FUZZ_CHECK(r.data.size() <= max_record_data, data, size);
  return 0;
}
