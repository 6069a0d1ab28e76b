// pdf_objstm: the input becomes the decoded content of an object stream (first byte picks /N,
// the next two /First, the rest is the stream, stored raw or Flate-compressed) inside a valid
// file whose page tree lives in that stream. Reading must not crash; every object read back
// must survive a write/parse round trip unchanged.
#include <zlib.h>

#include <cstdint>
#include <string>

#include "docconform/error.h"
#include "docconform/pdf/document.h"
#include "docconform/pdf/dump.h"
#include "docconform/pdf/writer.h"
#include "fuzz_check.h"

namespace {

std::string be(std::uint64_t v, int n) {
  std::string out;
  for (int i = n - 1; i >= 0; --i) out += static_cast<char>(v >> (8 * i));
  return out;
}

std::string build(const std::uint8_t* data, std::size_t size) {
  const unsigned n = size > 0 ? data[0] % 16 : 0;
  const unsigned first = size > 2 ? (data[1] << 8 | data[2]) % 4096 : 0;
  const bool compress = size > 3 && (data[3] & 1);
  std::string content(reinterpret_cast<const char*>(data) + std::min<std::size_t>(size, 4),
                      size - std::min<std::size_t>(size, 4));
  std::string filter;
  if (compress) {
    uLongf length = compressBound(static_cast<uLong>(content.size()));
    std::string packed(length, '\0');
    compress2(reinterpret_cast<Bytef*>(packed.data()), &length, reinterpret_cast<const Bytef*>(content.data()),
              static_cast<uLong>(content.size()), 1);
    packed.resize(length);
    content = packed;
    filter = " /Filter /FlateDecode";
  }
  std::string out = "%PDF-1.5\n";
  const std::size_t stm = out.size();
  out += "1 0 obj\n<< /Type /ObjStm /N " + std::to_string(n) + " /First " + std::to_string(first) + filter +
         " /Length " + std::to_string(content.size()) + " >>\nstream\n" + content + "\nendstream\nendobj\n";
  // Objects 2..17 are declared compressed in stream 1 at index num-2; object 2 is the catalog.
  std::string rows = be(0, 1) + be(0, 4) + be(65535, 2) + be(1, 1) + be(stm, 4) + be(0, 2);
  for (unsigned num = 2; num < 18; ++num) rows += be(2, 1) + be(1, 4) + be(num - 2, 2);
  const std::size_t xref = out.size();
  rows += be(1, 1) + be(xref, 4) + be(0, 2);
  out += "18 0 obj\n<< /Type /XRef /Size 19 /W [1 4 2] /Root 2 0 R /Length " + std::to_string(rows.size()) +
         " >>\nstream\n" + rows + "\nendstream\nendobj\nstartxref\n" + std::to_string(xref) + "\n%%EOF\n";
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace docconform::pdf;
  if (size > (1 << 16)) return -1;
  auto source = memory_source(build(data, size));
  const Limits limits = Limits::fuzz();
  try {
    Document doc(*source, limits);
    for (std::uint32_t num = 2; num < 18; ++num) {
      try {
        const Object object = doc.object(num);
        std::string written;
        append_pdf_syntax(written, object);
        FUZZ_CHECK(canonical_text(parse_object_text(written)) == canonical_text(object), data, size);
      } catch (const docconform::Error& e) {
        FUZZ_CHECK(e.kind() != docconform::ErrorKind::io && e.kind() != docconform::ErrorKind::usage, data, size);
      }
    }
    try {
      pdf_dump(doc, 3);
    } catch (const docconform::Error& e) {
      FUZZ_CHECK(e.kind() != docconform::ErrorKind::io, data, size);
    }
  } catch (const docconform::Error& e) {
    FUZZ_CHECK(e.kind() != docconform::ErrorKind::io, data, size);
  }
  return 0;
}
