// xlsx_package: whole .xlsx packages. Every input either loads or fails with a docconform::Error;
// a load on the pool (inflating in the workers, sheets split into small chunks) gives the same
// dump, byte for byte, as the serial load read token by token (no shortcut for plain cells
// and strings), and fails exactly when the serial load fails. The streamed dump's two passes
// with the pool's options (and a window of one chunk) give the pool's dump or error, unless that
// load failed on max_memory (the streamed dump holds less), and the streamed digest (its one
// pass, with the shared strings in a temporary file) that dump's SHA-256 or the same error.
#include <cstddef>
#include <cstdint>
#include <string>

#include "docconform/error.h"
#include "docconform/sha256.h"
#include "docconform/xlsx/dump.h"
#include "docconform/xlsx/workbook.h"
#include "fuzz_check.h"
#include "xlsx/stream_dump.h"

namespace {

constexpr std::size_t max_input = 1 << 20;

bool load(std::string_view bytes, const docconform::xlsx::LoadOptions& options, std::string& dump) {
  try {
    dump = docconform::xlsx::dump(docconform::xlsx::load_workbook(bytes, options, "fuzz.xlsx"));
    return true;
  } catch (const docconform::Error& e) {
    dump = e.what();
    return false;
  }
}

bool digest(std::string_view bytes, const docconform::xlsx::LoadOptions& options, std::string& out) {
  try {
    out = docconform::xlsx::streamed_dump_sha256(bytes, options, "fuzz.xlsx", {}, 1);
    return true;
  } catch (const docconform::Error& e) {
    out = e.what();
    return false;
  }
}

bool stream(std::string_view bytes, const docconform::xlsx::LoadOptions& options, std::string& dump) {
  try {
    docconform::xlsx::write_two_pass_dump(bytes, options, "fuzz.xlsx", [&](std::string_view piece) { dump.append(piece); }, 1);
    return true;
  } catch (const docconform::Error& e) {
    dump = e.what();
    return false;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > max_input) return -1;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  docconform::xlsx::LoadOptions serial;
  serial.threads = 1;
  serial.chunk_bytes = 0;
  serial.inflate = docconform::xlsx::InflateMode::serial;
  serial.shortcut = false;
  serial.limits = docconform::xlsx::Limits::fuzz();
  docconform::xlsx::LoadOptions pooled = serial;
  pooled.threads = 2;
  pooled.chunk_bytes = 200;
  pooled.inflate = docconform::xlsx::InflateMode::workers;
  pooled.shortcut = true;

  std::string a, b;
  const bool ok_serial = load(bytes, serial, a);
  const bool ok_pooled = load(bytes, pooled, b);
  FUZZ_CHECK(ok_serial == ok_pooled, data, size);
  if (ok_serial) FUZZ_CHECK(a == b, data, size);
  std::string c;
  const bool ok_streamed = stream(bytes, pooled, c);
  if (ok_pooled || b.find("max_memory") == std::string::npos) FUZZ_CHECK(b == c && ok_pooled == ok_streamed, data, size);
  std::string d;
  docconform::xlsx::LoadOptions table_in_a_file = pooled;
  table_in_a_file.table_memory = 1;
  const bool ok_digest = digest(bytes, table_in_a_file, d);
  if (!ok_streamed && c.find("max_memory") != std::string::npos) return 0;  // the digest holds less
  FUZZ_CHECK(ok_digest == ok_streamed && d == (ok_streamed ? docconform::sha256_hex(c) : c), data, size);
  return 0;
}
