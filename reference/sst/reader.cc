#include "docconform/sst/reader.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <new>
#include <utility>

#include "docconform/error.h"
#include "little_endian.h"

namespace docconform::sst {
namespace {

std::string hex16(unsigned value) {
  static constexpr char digits[] = "0123456789ABCDEF";
  std::string out = "0x";
  for (int shift = 12; shift >= 0; shift -= 4) out += digits[(value >> shift) & 0xF];
  return out;
}

// A read position in the SST's chain of records.
class Cursor {
 public:
  Cursor(std::span<const Record> records, const ReadOptions& options) : records_(records), options_(options) {
    for (const Record& r : records) {
      if (r.data.size() > max_record_data) {
        index_ = static_cast<std::size_t>(&r - records.data());
        fail("a record of " + std::to_string(r.data.size()) + " data bytes (MS-XLS 2.1.4 allows at most " +
             std::to_string(max_record_data) + ")");
      }
      total_left_ += r.data.size();
    }
  }

  std::size_t left() const { return data().size() - pos_; }
  std::uint64_t total_left() const { return total_left_; }
  std::uint64_t offset() const { return records_[index_].offset + 4 + pos_; }
  std::uint64_t record_header() const { return records_[index_].offset; }

  ErrorContext where() const {
    return {options_.label, index_ == 0 ? "SST" : "SST CONTINUE " + std::to_string(index_), offset()};
  }
  [[noreturn]] void fail(const std::string& message, ErrorKind kind = ErrorKind::format) const {
    throw Error(kind, where(), message);
  }

  // Moves to the next record; `what` names what was being read, for the truncation error.
  void next_record(const char* what) {
    if (index_ + 1 >= records_.size()) fail(std::string("records end inside ") + what);
    ++index_;
    pos_ = 0;
  }
  // At a string start: an exhausted record simply moves on (no flags byte).
  void skip_exhausted(const char* what) {
    while (left() == 0) next_record(what);
  }

  const char* take(std::size_t n, const char* what) {
    if (left() < n) {
      fail(std::string(what) + " needs " + std::to_string(n) + " bytes, " + std::to_string(left()) +
           " left in the record (a fixed field may not be split across records)");
    }
    const char* p = data().data() + pos_;
    pos_ += n;
    total_left_ -= n;
    return p;
  }

  // Bytes that continue without a flags byte (runs, ExtRst), across any number of records.
  void read_across(char* out, std::size_t n, const char* what) {
    while (n > 0) {
      if (left() == 0) next_record(what);
      const std::size_t k = std::min(n, left());
      std::memcpy(out, take(k, what), k);
      out += k;
      n -= k;
    }
  }

  void read_chars(char16_t* out, std::size_t count, bool wide) {
    while (count > 0) {
      if (left() < (wide ? 2u : 1u)) {
        if (left() != 0) fail("1 byte left in the record inside UTF-16 character data");
        next_record("character data");
        const auto flags = static_cast<std::uint8_t>(*take(1, "continuation flags"));
        if ((flags & ~flag_high_byte) != 0) {
          pos_ -= 1;
          fail("continuation flags byte 0x" + hex(flags) + " (only 0x00 or 0x01 may continue character data)");
        }
        wide = (flags & flag_high_byte) != 0;
        continue;
      }
      const std::size_t n = std::min(count, wide ? left() / 2 : left());
      const char* p = take(wide ? 2 * n : n, "character data");
      if (wide) {
        if constexpr (std::endian::native == std::endian::little) {
          std::memcpy(out, p, 2 * n);
        } else {
          for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<char16_t>(load_u16(p + 2 * i));
        }
      } else {
        for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<std::uint8_t>(p[i]);
      }
      out += n;
      count -= n;
    }
  }

 private:
  static std::string hex(unsigned value) {
    static constexpr char digits[] = "0123456789ABCDEF";
    return {digits[(value >> 4) & 0xF], digits[value & 0xF]};
  }
  std::string_view data() const { return records_[index_].data; }

  std::span<const Record> records_;
  const ReadOptions& options_;
  std::size_t index_ = 0;
  std::size_t pos_ = 0;
  std::uint64_t total_left_ = 0;
};

// Reads one string into `s`, whose buffers are reused from string to string; the view says
// which of them belong to this string.
SstStringView read_string(Cursor& in, const Limits& limits, SstString& s) {
  in.skip_exhausted("the string table (a string is missing)");
  const char* header = in.take(3, "string header");
  const std::size_t cch = load_u16(header);
  const std::uint8_t flags = static_cast<std::uint8_t>(header[2]);
  std::size_t runs = 0;
  std::uint64_t ext_bytes = 0;
  if (flags & flag_rich_st) runs = load_u16(in.take(2, "string header (cRun)"));
  if (flags & flag_ext_st) {
    const std::uint32_t cb = load_u32(in.take(4, "string header (cbExtRst)"));
    if (cb > 0x7FFFFFFF) in.fail("negative cbExtRst");
    if (cb > limits.max_ext_rst_bytes) in.fail("ExtRst of " + std::to_string(cb) + " bytes exceeds the limit", ErrorKind::limit);
    ext_bytes = cb;
  }
  if (runs > limits.max_runs) in.fail(std::to_string(runs) + " format runs exceed the limit", ErrorKind::limit);
  // Every character, run and ExtRst byte occupies at least one input byte: never allocate more.
  if (cch + 4 * runs + ext_bytes > in.total_left()) {
    in.fail("string declares " + std::to_string(cch) + " characters, " + std::to_string(runs) + " runs and " +
            std::to_string(ext_bytes) + " ExtRst bytes but only " + std::to_string(in.total_left()) +
            " bytes of the table remain");
  }
  s.text.resize(cch);
  in.read_chars(s.text.data(), cch, (flags & flag_high_byte) != 0);
  if (flags & flag_rich_st) {
    std::string raw(4 * runs, '\0');
    in.read_across(raw.data(), raw.size(), "format runs");
    if (!s.runs) s.runs.emplace();
    s.runs->resize(runs);
    for (std::size_t k = 0; k < runs; ++k) (*s.runs)[k] = {load_u16(&raw[4 * k]), load_u16(&raw[4 * k + 2])};
  }
  if (flags & flag_ext_st) {
    if (!s.ext_rst) s.ext_rst.emplace();
    s.ext_rst->resize(static_cast<std::size_t>(ext_bytes));
    in.read_across(s.ext_rst->data(), s.ext_rst->size(), "ExtRst");
  }
  SstStringView view = s;
  if (!(flags & flag_rich_st)) view.runs.reset();
  if (!(flags & flag_ext_st)) view.ext_rst.reset();
  return view;
}

[[noreturn]] void not_an_sst(const std::string& label, std::uint64_t offset) {
  throw Error(ErrorKind::format, {label, "", offset}, "expected an SST record (0x00FC)");
}

}  // namespace

std::vector<Record> split_records(std::string_view stream, const std::string& label, Budget* memory) {
  std::vector<Record> records;
  std::size_t at = 0;
  while (at < stream.size()) {
    if (memory != nullptr && records.size() == records.capacity()) {  // a record takes 4 bytes or more
      memory->charge(sizeof(Record) * std::max<std::size_t>(records.size(), 64), [&] { return ErrorContext{label, "", at}; });
    }
    if (stream.size() - at < 4) {
      throw Error(ErrorKind::format, {label, "", at}, "truncated record header (" + std::to_string(stream.size() - at) + " bytes)");
    }
    const std::uint16_t type = load_u16(stream.data() + at);
    const std::size_t size = load_u16(stream.data() + at + 2);
    if (stream.size() - at - 4 < size) {
      throw Error(ErrorKind::format, {label, "", at},
                  "record " + hex16(type) + " declares " + std::to_string(size) + " data bytes, " +
                      std::to_string(stream.size() - at - 4) + " remain");
    }
    records.push_back({type, at, stream.substr(at + 4, size)});
    at += 4 + size;
  }
  return records;
}

SstTable read_sst(std::span<const Record> records, const ReadOptions& options) {
  if (records.empty() || records[0].type != record_sst) not_an_sst(options.label, records.empty() ? 0 : records[0].offset);
  for (std::size_t i = 1; i < records.size(); ++i) {
    if (records[i].type != record_continue) {
      throw Error(ErrorKind::usage, {options.label, "", records[i].offset}, "read_sst takes SST and CONTINUE records only");
    }
  }
  Cursor in(records, options);
  const char* counts = in.take(8, "SST header (cstTotal, cstUnique)");
  const std::uint32_t total = load_u32(counts);
  const std::uint32_t unique = load_u32(counts + 4);
  if (total > 0x7FFFFFFF || unique > 0x7FFFFFFF) in.fail("negative cstTotal or cstUnique");
  if (unique > options.limits.max_strings) {
    in.fail("cstUnique " + std::to_string(unique) + " exceeds the limit of " + std::to_string(options.limits.max_strings),
            ErrorKind::limit);
  }
  if (std::uint64_t{unique} * 3 > in.total_left()) {
    in.fail("cstUnique " + std::to_string(unique) + " strings need at least " + std::to_string(3 * std::uint64_t{unique}) +
            " bytes, the table has " + std::to_string(in.total_left()));
  }
  // What the table holds is charged as it grows: each string's shape first, its contents as read.
  const std::size_t per_string = SstTable::bytes_per_string() + (options.string_starts ? sizeof(ExtSstEntry) : 0);
  if (options.memory != nullptr) options.memory->charge(std::uint64_t{unique} * per_string, [&] { return in.where(); });
  SstTable table(options.limits);
  table.set_total_refs(total);
  SstString scratch;
  std::uint64_t uncharged = 0;
  try {
    table.reserve(unique, 0);
    if (options.string_starts) {
      options.string_starts->clear();
      options.string_starts->reserve(unique);
    }
    for (std::uint32_t i = 0; i < unique; ++i) {
      if (options.string_starts) {
        in.skip_exhausted("the string table (a string is missing)");
        options.string_starts->push_back(
            {static_cast<std::uint32_t>(in.offset()), static_cast<std::uint16_t>(in.offset() - in.record_header())});
      }
      try {
        const SstStringView s = read_string(in, options.limits, scratch);
        uncharged += s.text.size() * sizeof(char16_t) + (s.runs ? s.runs->size() * sizeof(FormatRun) : 0) +
                     (s.ext_rst ? s.ext_rst->size() + 4 : 0);
        if (options.memory != nullptr &&
            (uncharged >= (1 << 20) || options.memory->used() + uncharged > options.memory->limit())) {
          options.memory->charge(std::exchange(uncharged, 0), [&] { return in.where(); });
        }
        try {
          table.append(s);
        } catch (const Error& e) {
          in.fail(e.message(), ErrorKind::limit);  // a table limit, e.g. max_table_bytes
        }
      } catch (const Error& e) {
        throw Error(e.kind(), e.context(), "string " + std::to_string(i) + " of " + std::to_string(unique) + ": " + e.message());
      }
    }
  } catch (const std::bad_alloc&) {
    throw allocation_failure(in.where());
  }
  return table;
}

ExtSst parse_extsst(const Record& record, const std::string& label) {
  if (record.data.size() < 2 || (record.data.size() - 2) % 8 != 0) {
    throw Error(ErrorKind::format, {label, "EXTSST", record.offset},
                "EXTSST data of " + std::to_string(record.data.size()) + " bytes is not 2 + 8n");
  }
  ExtSst extsst;
  extsst.dsst = load_u16(record.data.data());
  for (std::size_t at = 2; at < record.data.size(); at += 8) {
    extsst.buckets.push_back({load_u32(record.data.data() + at), load_u16(record.data.data() + at + 4)});
  }
  return extsst;
}

std::vector<std::string> check_extsst(const ExtSst& extsst, std::span<const ExtSstEntry> string_starts) {
  std::vector<std::string> problems;
  const std::size_t count = string_starts.size();
  if (extsst.dsst != extsst_bucket_size(count)) {
    problems.push_back("dsst " + std::to_string(extsst.dsst) + ", the formula gives " + std::to_string(extsst_bucket_size(count)));
  }
  if (extsst.buckets.size() != extsst_bucket_count(count)) {
    problems.push_back(std::to_string(extsst.buckets.size()) + " buckets, the formula gives " +
                       std::to_string(extsst_bucket_count(count)));
  }
  if (extsst.dsst == 0) return problems;
  for (std::size_t k = 0; k < extsst.buckets.size(); ++k) {
    const std::size_t first = k * extsst.dsst;
    if (first >= count) {
      problems.push_back("bucket " + std::to_string(k) + " starts past the last string");
      break;
    }
    if (!(extsst.buckets[k] == string_starts[first])) {
      problems.push_back("bucket " + std::to_string(k) + ": ib " + std::to_string(extsst.buckets[k].ib) + " cbOffset " +
                         std::to_string(extsst.buckets[k].cb_offset) + ", string " + std::to_string(first) +
                         " starts at ib " + std::to_string(string_starts[first].ib) + " cbOffset " +
                         std::to_string(string_starts[first].cb_offset));
    }
  }
  return problems;
}

SstFile read_sst_file(std::string_view bytes, const ReadOptions& options) {
  if (bytes.size() > options.limits.max_stream_bytes) {
    // The first byte past the limit is where the input stops being acceptable.
    throw Error(ErrorKind::limit, {options.label, "", options.limits.max_stream_bytes},
                "input of " + std::to_string(bytes.size()) + " bytes exceeds max_stream_bytes (" +
                    std::to_string(options.limits.max_stream_bytes) + ")");
  }
  // Known from the first two bytes: a file of anything else is not split into records first.
  if (bytes.size() >= 2 && load_u16(bytes.data()) != record_sst) not_an_sst(options.label, 0);
  const std::vector<Record> records = split_records(bytes, options.label, options.memory);
  std::size_t end = 1;
  while (end < records.size() && records[end].type == record_continue) ++end;
  SstFile file;
  ReadOptions with_starts = options;
  with_starts.string_starts = &file.string_starts;
  file.table = read_sst(std::span(records).first(std::min(end, records.size())), with_starts);
  if (end < records.size()) {
    if (records[end].type != record_extsst) {
      throw Error(ErrorKind::format, {options.label, "", records[end].offset},
                  "record " + hex16(records[end].type) + " after the SST (only EXTSST may follow)");
    }
    file.extsst = parse_extsst(records[end], options.label);
    if (end + 1 < records.size()) {
      throw Error(ErrorKind::format, {options.label, "", records[end + 1].offset}, "records after the EXTSST");
    }
  }
  return file;
}

}  // namespace docconform::sst
