#include "docconform/sst/xls.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <new>

#include "docconform/budget.h"
#include "docconform/canonical.h"
#include "docconform/error.h"
#include "docconform/sst/cfb.h"
#include "docconform/sst/reader.h"
#include "docconform/sst/strings_file.h"
#include "little_endian.h"

namespace docconform::sst {
namespace {

constexpr std::uint16_t record_bof = 0x0809;
constexpr std::uint16_t record_eof = 0x000A;
constexpr std::uint16_t record_codepage = 0x0042;
constexpr std::uint16_t record_window1 = 0x003D;
constexpr std::uint16_t record_font = 0x0031;
constexpr std::uint16_t record_xf = 0x00E0;
constexpr std::uint16_t record_style = 0x0293;
constexpr std::uint16_t record_boundsheet = 0x0085;
constexpr std::uint16_t record_dimensions = 0x0200;
constexpr std::uint16_t record_labelsst = 0x00FD;
constexpr std::uint16_t record_window2 = 0x023E;
constexpr std::uint16_t record_filepass = 0x002F;
constexpr std::uint16_t cell_xf = 15;  // the first cell XF after the 15 style XFs

// Little-endian record data builder.
class Data {
 public:
  Data& u8(unsigned v) {
    bytes_ += static_cast<char>(v & 0xFF);
    return *this;
  }
  Data& u16(unsigned v) { return u8(v).u8(v >> 8); }
  Data& u32(std::uint32_t v) { return u16(v & 0xFFFF).u16(v >> 16); }
  // ShortXLUnicodeString, compressed (names here are ASCII).
  Data& short_string(std::string_view text) {
    u8(static_cast<unsigned>(text.size())).u8(0);
    bytes_ += text;
    return *this;
  }
  const std::string& bytes() const { return bytes_; }

 private:
  std::string bytes_;
};

void put_record(RecordSink& sink, std::uint16_t type, const std::string& data) {
  std::uint8_t* p = sink.claim(4 + data.size());
  store_u16(p, type);
  store_u16(p + 2, static_cast<std::uint32_t>(data.size()));
  std::memcpy(p + 4, data.data(), data.size());
}

std::string bof(unsigned kind) {
  // BIFF8, build/year of Excel 97, fWin | fWinAny, lowest BIFF version 6.
  return Data().u16(0x0600).u16(kind).u16(0x0DBB).u16(0x07CC).u32(0x00000041).u32(0x00000006).bytes();
}

std::string font(unsigned weight, unsigned flags) {
  return Data().u16(200).u16(flags).u16(0x7FFF).u16(weight).u16(0).u8(0).u8(0).u8(0).u8(0).short_string("Arial").bytes();
}

std::string xf(unsigned font_index, unsigned type_flags, unsigned attributes) {
  return Data().u16(font_index).u16(0).u16(type_flags).u8(0x20).u8(0).u16(attributes).u32(0).u32(0).u16(0x20C0).bytes();
}

void write_globals_head(RecordSink& sink) {
  put_record(sink, record_bof, bof(0x0005));
  put_record(sink, record_codepage, Data().u16(1200).bytes());
  put_record(sink, record_window1, Data().u16(0x0168).u16(0x010E).u16(0x3A5C).u16(0x23BE).u16(0x0038).u16(0).u16(0).u16(1).u16(0x0258).bytes());
  // Five fonts: index 4 is never referenced in BIFF, so five records give indices 0-3 and 5.
  put_record(sink, record_font, font(400, 0));
  put_record(sink, record_font, font(700, 0));
  put_record(sink, record_font, font(400, 0x0002));
  put_record(sink, record_font, font(700, 0x0002));
  put_record(sink, record_font, font(400, 0));
  // 15 style XFs (parent 0xFFF, locked, style) then the cell XF used by every cell.
  put_record(sink, record_xf, xf(0, 0xFFF5, 0x0000));
  static constexpr unsigned style_fonts[14] = {1, 1, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  for (const unsigned f : style_fonts) put_record(sink, record_xf, xf(f, 0xFFF5, 0xF400));
  put_record(sink, record_xf, xf(0, 0x0001, 0x0000));
  put_record(sink, record_style, Data().u16(0x8000).u8(0).u8(0xFF).bytes());
}

}  // namespace

SharedStrings share_strings(const SstTable& cells) {
  // An open-addressing index of the table's entries by the hash of their text (a node per
  // string, as std::unordered_map makes, was a fifth of the time of writing 2^20 strings).
  SharedStrings shared{SstTable(cells.limits()), std::vector<std::uint32_t>(cells.size())};
  SstTable& table = shared.table;
  table.reserve(cells.size(), cells.texts().size());
  table.set_total_refs(cells.size());
  struct Slot {
    std::uint32_t hash = 0;
    std::uint32_t entry = 0;  // table index + 1; 0 = free
  };
  std::size_t capacity = 16;
  while (capacity < 2 * cells.size()) capacity *= 2;
  std::vector<Slot> slots(capacity);
  const std::size_t mask = capacity - 1;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const SstStringView cell = cells[i];
    const auto hash = static_cast<std::uint32_t>(std::hash<std::u16string_view>()(cell.text));
    std::size_t at = hash & mask;
    while (slots[at].entry != 0 && !(slots[at].hash == hash && table[slots[at].entry - 1] == cell)) at = (at + 1) & mask;
    if (slots[at].entry == 0) {
      table.append(cell);
      slots[at] = {hash, static_cast<std::uint32_t>(table.size())};
    }
    shared.isst[i] = slots[at].entry - 1;
  }
  return shared;
}

std::string write_xls_stream(const SharedStrings& strings, const XlsOptions& options) {
  const std::size_t rows_per_sheet = options.rows_per_sheet;
  if (rows_per_sheet == 0 || rows_per_sheet > xls_rows_per_sheet || options.columns_per_sheet == 0 ||
      options.columns_per_sheet > xls_columns_per_sheet) {
    throw Error(ErrorKind::usage, {}, "rows per sheet must be 1..65536, columns 1..256");
  }
  const std::size_t cells_per_sheet = rows_per_sheet * options.columns_per_sheet;
  const std::vector<std::uint32_t>& isst = strings.isst;
  const std::size_t cell_count = isst.size();
  const std::size_t sheets = std::max<std::size_t>(1, (cell_count + cells_per_sheet - 1) / cells_per_sheet);
  if (sheets > 0xFFFF) throw Error(ErrorKind::usage, {}, "too many sheets");

  const auto memory = make_memory_sink();
  MemorySink& sink = *memory;
  write_globals_head(sink);
  std::vector<std::size_t> boundsheet_at;
  for (std::size_t s = 0; s < sheets; ++s) {
    boundsheet_at.push_back(static_cast<std::size_t>(sink.position()) + 4);
    put_record(sink, record_boundsheet, Data().u32(0).u8(0).u8(0).short_string("Sheet" + std::to_string(s + 1)).bytes());
  }
  write_sst(options.writer, strings.table, sink, static_cast<std::uint32_t>(sink.position()));
  put_record(sink, record_eof, {});

  std::vector<std::uint32_t> sheet_at;
  for (std::size_t s = 0; s < sheets; ++s) {
    sheet_at.push_back(static_cast<std::uint32_t>(sink.position()));
    const std::size_t first = s * cells_per_sheet;
    const std::size_t count = std::min(cell_count - std::min(cell_count, first), cells_per_sheet);
    const std::size_t rows = std::min(count, rows_per_sheet);
    const std::size_t columns = (count + rows_per_sheet - 1) / rows_per_sheet;
    put_record(sink, record_bof, bof(0x0010));
    put_record(sink, record_dimensions,
               Data().u32(0).u32(static_cast<std::uint32_t>(rows)).u16(0).u16(static_cast<unsigned>(columns)).u16(0).bytes());
    // Cells go out row by row, as Excel writes them.
    for (std::size_t row = 0; row < rows; ++row) {
      for (std::size_t col = 0; col < columns; ++col) {
        const std::size_t k = col * rows_per_sheet + row;
        if (k >= count) break;
        std::uint8_t* p = sink.claim(14);
        const std::uint32_t v = isst[first + k];
        const std::uint8_t bytes[14] = {record_labelsst & 0xFF, record_labelsst >> 8, 10, 0,
                                        static_cast<std::uint8_t>(row), static_cast<std::uint8_t>(row >> 8),
                                        static_cast<std::uint8_t>(col), static_cast<std::uint8_t>(col >> 8),
                                        cell_xf & 0xFF, cell_xf >> 8,
                                        static_cast<std::uint8_t>(v), static_cast<std::uint8_t>(v >> 8),
                                        static_cast<std::uint8_t>(v >> 16), static_cast<std::uint8_t>(v >> 24)};
        std::memcpy(p, bytes, 14);
      }
    }
    // The first sheet is the selected, active one (WINDOW1.itabCur = 0).
    put_record(sink, record_window2, Data().u16(s == 0 ? 0x06B6 : 0x00B6).u16(0).u16(0).u16(0x40).u16(0).u16(0).u16(0).u32(0).bytes());
    put_record(sink, record_eof, {});
  }
  sink.finish();
  std::string stream(sink.bytes());
  if (stream.size() > 0xFFFFFFF0u) throw Error(ErrorKind::usage, {}, "workbook stream exceeds 4 GB");
  for (std::size_t s = 0; s < sheets; ++s) {
    for (int b = 0; b < 4; ++b) stream[boundsheet_at[s] + b] = static_cast<char>((sheet_at[s] >> (8 * b)) & 0xFF);
  }
  return stream;
}

std::string write_xls(const SharedStrings& strings, const XlsOptions& options) {
  return write_cfb(write_xls_stream(strings, options));
}

namespace {

Budget read_budget(const Limits& limits) {
  return Budget(limits.max_memory, "max_memory", "memory held by the read (bytes)");
}

// A read that ran out of memory where nothing said where: a limit error naming the file.
template <class Read>
auto reporting_allocation_failure(const std::string& label, Read&& read) {
  try {
    return read();
  } catch (const std::bad_alloc&) {
    throw allocation_failure({label, "", std::nullopt});
  }
}

SstTable workbook_stream_sst(std::string_view stream, const Limits& limits, const std::string& label, Budget& memory);

SstTable xls_sst(std::string_view file, const Limits& limits, const std::string& label, Budget& memory) {
  const CfbReader cfb(file, limits, label, &memory);
  // xlrd, POI and LibreOffice accept the stream name in any case, and "Book" when there is no
  // "Workbook"; the BOF then tells BIFF8 from BIFF5.
  auto entry = cfb.find_stream(u"Workbook");
  if (!entry) entry = cfb.find_stream(u"Book");
  if (!entry) throw Error(ErrorKind::format, {label, "CFB directory", cfb.entries()[0].offset}, "no Workbook stream");
  return workbook_stream_sst(cfb.read_stream(*entry), limits, label, memory);
}

}  // namespace

SstTable read_xls_sst(std::string_view file, const Limits& limits, const std::string& label) {
  Budget memory = read_budget(limits);
  return reporting_allocation_failure(label, [&] { return xls_sst(file, limits, label, memory); });
}

SstTable read_workbook_stream_sst(std::string_view stream, const Limits& limits, const std::string& label) {
  Budget memory = read_budget(limits);
  return reporting_allocation_failure(label, [&] { return workbook_stream_sst(stream, limits, label, memory); });
}

namespace {

SstTable workbook_stream_sst(std::string_view stream, const Limits& limits, const std::string& label, Budget& memory) {
  const std::string part = "Workbook";
  // Walk the globals substream up to its EOF; the SST and its CONTINUEs are contiguous there.
  std::vector<Record> sst;
  std::size_t at = 0;
  bool first = true;
  while (true) {
    if (stream.size() - at < 4) throw Error(ErrorKind::format, {label, part, at}, "globals substream ends without EOF");
    const std::string_view head(stream.data() + at, 4);
    const std::uint16_t type = static_cast<std::uint16_t>(static_cast<std::uint8_t>(head[0]) | (static_cast<std::uint8_t>(head[1]) << 8));
    const std::size_t size = static_cast<std::uint8_t>(head[2]) | (static_cast<std::uint8_t>(head[3]) << 8);
    if (stream.size() - at - 4 < size) throw Error(ErrorKind::format, {label, part, at}, "record data runs past the stream end");
    const std::string_view data(stream.data() + at + 4, size);
    if (first) {
      const unsigned version = size >= 2 ? static_cast<std::uint8_t>(data[0]) | (static_cast<std::uint8_t>(data[1]) << 8) : 0;
      if ((type & 0xFF) != 0x09) throw Error(ErrorKind::format, {label, part, at}, "the Workbook stream does not start with BOF");
      if (type != record_bof || version != 0x0600) {
        throw Error(ErrorKind::unsupported, {label, part, at}, "not a BIFF8 workbook (BIFF5/7 keep strings in cells, not in an SST)");
      }
      first = false;
    } else if (type == record_filepass) {
      throw Error(ErrorKind::unsupported, {label, part, at}, "encrypted workbook (FILEPASS)");
    } else if (type == record_sst && sst.empty()) {
      sst.push_back({type, at, data});
    } else if (type == record_continue && !sst.empty() && sst.back().offset + 4 + sst.back().data.size() == at) {
      if (sst.size() == sst.capacity()) {  // a record of 4 bytes or more takes a Record
        memory.charge(sizeof(Record) * sst.size(), [&] { return ErrorContext{label, part, at}; });
      }
      sst.push_back({type, at, data});
    } else if (type == record_eof) {
      break;
    }
    at += 4 + size;
  }
  if (sst.empty()) return SstTable(limits);
  ReadOptions options;
  options.limits = limits;
  options.label = label;
  options.memory = &memory;
  try {
    return read_sst(sst, options);
  } catch (const Error& e) {
    throw e.with_part(part);
  }
}

}  // namespace

std::string sst_dump_table(const SstTable& table) {
  std::string out = dump_header("sst", sst_dump_version) + "\n";
  out += "strings " + std::to_string(table.size()) + "\n";
  for (std::size_t i = 0; i < table.size(); ++i) {
    append_quoted(out, table[i].text);
    out += '\n';
  }
  return out;
}

SstFileKind sst_file_kind(std::string_view path) {
  static constexpr std::string_view records_extension = ".sst";
  if (path.size() < records_extension.size()) return SstFileKind::workbook;
  const std::string_view tail = path.substr(path.size() - records_extension.size());
  const bool same = std::equal(tail.begin(), tail.end(), records_extension.begin(),
                               [](char a, char b) { return (a >= 'A' && a <= 'Z' ? a + ('a' - 'A') : a) == b; });
  return same ? SstFileKind::records : SstFileKind::workbook;
}

std::string sst_dump(std::string_view bytes, SstFileKind kind, const Limits& limits, const std::string& label) {
  static constexpr char cfb_signature[] = "\xD0\xCF\x11\xE0";
  Budget memory = read_budget(limits);
  return reporting_allocation_failure(label, [&] {
    if (kind == SstFileKind::records) {
      ReadOptions options;
      options.limits = limits;
      options.label = label;
      options.memory = &memory;
      return sst_dump_table(read_sst_file(bytes, options).table);
    }
    if (bytes.size() >= 4 && bytes.substr(0, 4) == std::string_view(cfb_signature, 4)) {
      return sst_dump_table(xls_sst(bytes, limits, label, memory));
    }
    // A bare BIFF stream (no container) starts with a BOF record: 0x0009, 0x0209, 0x0409, 0x0809.
    if (bytes.size() >= 2 && static_cast<std::uint8_t>(bytes[0]) == 0x09 &&
        (static_cast<std::uint8_t>(bytes[1]) & 0xF1) == 0) {
      return sst_dump_table(workbook_stream_sst(bytes, limits, label, memory));
    }
    throw Error(ErrorKind::format, {label, "", 0},
                "not a workbook: neither a Compound File signature nor a BOF record (a raw SST record file is read as "
                "one when its name ends in .sst)");
  });
}

std::string written_sst_dump(std::string_view strings_file, const XlsOptions& options, const std::string& label,
                             const std::function<void(const SstTable& sst)>& written) {
  const SharedStrings strings = share_strings(parse_strings_jsonl(strings_file, label));
  std::string dump = sst_dump(write_xls(strings, options), SstFileKind::workbook, {}, label);
  if (written) written(strings.table);
  return dump;
}

}  // namespace docconform::sst
