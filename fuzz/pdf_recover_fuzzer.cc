// pdf_recover: arbitrary bytes read as a PDF with Recovery::rebuild (`--recover`): the strict
// read, its check, and the xref rebuilt from a windowed scan. The whole-file source read
// serially and the mapper with a one-page window on two threads must give the same dump or the
// same error; when the strict read gives a dump that passes the check (no `recovered` line),
// recovery must give exactly that dump; a recovered dump always has its `recovered` line second.
// No crash, hang or unbounded memory (fuzz limits, recovery_parse_ratio).
#include <unistd.h>

#include <cstddef>
#include <cstdint>

#include "fuzz_check.h"
#include "pdf_fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace docconform::pdf;
  if (size > (1 << 20)) return -1;
  static const docconform::fuzz::ScratchPdf scratch("recover");
  scratch.write(data, size);
  const std::string& path = scratch.path();
  const Limits limits = Limits::fuzz();
  SourceOptions whole;
  whole.kind = SourceKind::whole;
  std::string dump;
  const std::string expected = docconform::fuzz::pdf_outcome(path, whole, limits, 1, Recovery::rebuild, &dump);
  const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  SourceOptions mapped;
  mapped.kind = SourceKind::mapped;
  mapped.window = page;
  mapped.granularity = page;
  FUZZ_CHECK(docconform::fuzz::pdf_outcome(path, mapped, limits, 2, Recovery::rebuild) == expected, data, size);
  if (expected.rfind("ok ", 0) == 0) {
    const bool recovered = dump.find("\nrecovered ") != std::string::npos;
    FUZZ_CHECK(!recovered || dump.rfind("docconform-dump pdf 1\nrecovered ", 0) == 0, data, size);
    if (!recovered) FUZZ_CHECK(docconform::fuzz::pdf_outcome(path, whole, limits, 1) == expected, data, size);
  }
  return 0;
}
