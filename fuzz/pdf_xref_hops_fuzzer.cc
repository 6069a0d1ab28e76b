// pdf_xref_hops: arbitrary bytes read as a PDF (xref chain, object streams, page tree, every
// object). Every byte source (whole, pread, buffered, and the mapper with a one-page window)
// must give the same dump or the same error; no crash, hang or unbounded memory (fuzz limits).
// The whole-file oracle reads serially, the others on two threads (which they use when the file
// has more objects than one job of the dump).
#include <unistd.h>

#include <cstddef>
#include <cstdint>

#include "fuzz_check.h"
#include "pdf_fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace docconform::pdf;
  if (size > (1 << 20)) return -1;
  static const docconform::fuzz::ScratchPdf scratch("hops");
  scratch.write(data, size);
  const std::string& path = scratch.path();
  const Limits limits = Limits::fuzz();
  SourceOptions whole;
  whole.kind = SourceKind::whole;
  const std::string expected = docconform::fuzz::pdf_outcome(path, whole, limits, 1);
  const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  SourceOptions others[3];
  others[0].kind = SourceKind::pread;
  others[1].kind = SourceKind::buffered;
  others[1].buffer = 1024;
  others[2].kind = SourceKind::mapped;
  others[2].window = page;
  others[2].granularity = page;
  for (const SourceOptions& options : others) {
    FUZZ_CHECK(docconform::fuzz::pdf_outcome(path, options, limits, 2) == expected, data, size);
  }
  return 0;
}
