// sst_reader: arbitrary bytes as a workbook (CFB or a bare BIFF stream) and as a raw SST record
// file, under the fuzz limits. Properties: only docconform::Error escapes; a table that reads writes
// back (fast == naive) and reads again unchanged.
#include <cstddef>
#include <cstdint>
#include <string>

#include "docconform/error.h"
#include "docconform/sst/reader.h"
#include "docconform/sst/writer.h"
#include "docconform/sst/xls.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace docconform::sst;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const Limits limits = Limits::fuzz();
  for (const SstFileKind kind : {SstFileKind::workbook, SstFileKind::records}) {
    try {
      (void)sst_dump(bytes, kind, limits);
    } catch (const docconform::Error&) {
    }
  }

  ReadOptions options;
  options.limits = limits;
  SstTable table;
  try {
    table = read_sst_file(bytes, options).table;
  } catch (const docconform::Error&) {
    return 0;
  }
  const std::string again = sst_bytes(table, WriterKind::fast);
  FUZZ_CHECK(again == sst_bytes(table, WriterKind::naive), data, size);
  FUZZ_CHECK(read_sst_file(again, options).table == table, data, size);
  return 0;
}
