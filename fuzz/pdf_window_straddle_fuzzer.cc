// pdf_window_straddle: a sequence of map/read/copy_out requests decoded from the input, against
// a generated PDF. The mapper's bytes always equal the whole file's; range errors exactly when the
// request leaves the file; never two live views; a map or read inside the live view makes no
// call; a copy_out leaves no view and makes one pread.
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include "docconform/error.h"
#include "docconform/pdf/generate.h"
#include "docconform/pdf/mapped.h"
#include "fuzz_check.h"
#include "pdf_fuzz_util.h"

namespace {

struct Fixture {
  docconform::fuzz::ScratchPdf file{"straddle"};
  std::string bytes;
  Fixture() {
    docconform::pdf::GenerateOptions options;
    options.objects = 400;
    options.payload = 300;
    options.object_streams = true;
    options.updates = 2;
    options.shuffle = true;
    std::ostringstream out;
    docconform::pdf::generate_pdf(options, out);
    bytes = out.str();
    file.write(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  }
};

std::uint64_t take(const std::uint8_t*& p, const std::uint8_t* end, int n) {
  std::uint64_t v = 0;
  for (int i = 0; i < n && p < end; ++i) v = (v << 8) | *p++;
  return v;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace docconform::pdf;
  static const Fixture fixture;
  const std::uint64_t file_size = fixture.bytes.size();
  const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  const std::uint8_t* p = data;
  const std::uint8_t* end = data + size;
  const std::uint64_t window = 1 + take(p, end, 3) % (file_size + 4096);
  const std::uint64_t granularity = page * (1 + take(p, end, 1) % 4);
  MappedSource source(fixture.file.path(), window, granularity);
  std::string copy;
  std::uint64_t copied_out = 0;
  while (p < end) {
    const std::uint64_t op = take(p, end, 1);
    const std::uint64_t offset = take(p, end, 3) % (file_size + 64);
    const std::size_t length = static_cast<std::size_t>(take(p, end, 2) % (3 * page));
    const bool inside = offset <= file_size && length <= file_size - offset;
    const bool in_view = source.live_views() == 1 && offset >= source.view_offset() &&
                         offset + length <= source.view_offset() + source.view_size();
    const SourceCounts before = source.counts();
    const bool copy_out = (op & 2) != 0;
    try {
      if (copy_out) {
        copy.assign(length, '\0');
        source.copy_out(offset, length, copy.data());
        FUZZ_CHECK(std::memcmp(copy.data(), fixture.bytes.data() + offset, length) == 0, data, size);
        copied_out += length;
        FUZZ_CHECK(length == 0 || source.live_views() == 0, data, size);
      } else if (op & 1) {
        copy.assign(length, '\0');
        source.read(offset, length, copy.data());
        FUZZ_CHECK(std::memcmp(copy.data(), fixture.bytes.data() + offset, length) == 0, data, size);
      } else {
        const std::uint8_t* bytes = source.map(offset, length);
        FUZZ_CHECK(std::memcmp(bytes, fixture.bytes.data() + offset, length) == 0, data, size);
      }
      FUZZ_CHECK(inside, data, size);
    } catch (const docconform::Error& e) {
      FUZZ_CHECK(!inside && e.kind() == docconform::ErrorKind::range, data, size);
    }
    const SourceCounts& after = source.counts();
    if ((in_view && !copy_out) || length == 0 || !inside) FUZZ_CHECK(after.total_calls() == before.total_calls(), data, size);
    FUZZ_CHECK(after.pread == before.pread + (copy_out && inside && length > 0 ? 1 : 0), data, size);
    FUZZ_CHECK(source.live_views() <= 1, data, size);
    FUZZ_CHECK(after.map == after.unmap + static_cast<std::uint64_t>(source.live_views()), data, size);
    FUZZ_CHECK(after.bytes_copied == copied_out, data, size);
    if (source.live_views() == 1) {
      FUZZ_CHECK(source.view_offset() % granularity == 0, data, size);
      FUZZ_CHECK(source.view_offset() + source.view_size() <= file_size, data, size);
    }
  }
  return 0;
}
