// Every byte source and window size gives the same dump (or the same error) for every file of
// ../shared/corpus-real/pdf and for generated files: the whole-file source is the oracle.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "docconform/error.h"
#include "docconform/pdf/generate.h"
#include "docconform/sha256.h"
#include "pdf_test_util.h"

namespace {

using docconform::Error;
using namespace docconform::pdf;
namespace fs = std::filesystem;

const std::uint64_t page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));

std::vector<SourceOptions> all_sources() {
  std::vector<SourceOptions> list;
  for (SourceKind kind : {SourceKind::pread, SourceKind::buffered, SourceKind::whole}) {
    SourceOptions o;
    o.kind = kind;
    o.buffer = 8192;
    list.push_back(o);
  }
  // Windows smaller than most objects (straddles everywhere), one page, and the default.
  for (auto [window, granularity] : {std::pair<std::uint64_t, std::uint64_t>{64, page}, {page, page},
                                     {3 * page, page}, {64ull << 20, 64ull << 10}}) {
    SourceOptions o;
    o.kind = SourceKind::mapped;
    o.window = window;
    o.granularity = granularity;
    list.push_back(o);
  }
  return list;
}

// The dump digest at level 3, or "error: <message>" (same message from every source).
std::string outcome(const std::string& path, const SourceOptions& options) {
  try {
    return docconform::sha256_hex(pdf_dump_file(path, options, 3));
  } catch (const Error& e) {
    return std::string("error: ") + docconform::to_string(e.kind()) + ": " + e.message() + " @" +
           (e.context().offset ? std::to_string(*e.context().offset) : "-");
  }
}

void expect_same_everywhere(const std::string& path, std::size_t* loaded = nullptr) {
  SourceOptions oracle;
  oracle.kind = SourceKind::whole;
  const std::string expected = outcome(path, oracle);
  if (loaded != nullptr && expected.rfind("error", 0) != 0) ++*loaded;
  for (const SourceOptions& options : all_sources()) {
    EXPECT_EQ(outcome(path, options), expected)
        << path << " source " << to_string(options.kind) << " window " << options.window;
  }
}

TEST(Differential, GeneratedFilesOfEveryShape) {
  for (int shape = 0; shape < 8; ++shape) {
    GenerateOptions options;
    options.objects = 300;
    options.payload = 100 + 300 * (shape % 3);
    options.object_streams = shape & 1;
    options.updates = (shape & 2) ? 3 : 0;
    options.shuffle = shape & 4;
    options.pages = 40;
    options.cluster = 20;
    pdftest::TempFile file(pdftest::generated_pdf(options), "gen");
    std::size_t loaded = 0;
    expect_same_everywhere(file.path(), &loaded);
    EXPECT_EQ(loaded, 1u) << "shape " << shape;
  }
}

TEST(Differential, RealCorpus) {
  const fs::path dir = fs::path(DOCCONFORM_SHARED_DIR) / "corpus-real" / "pdf";
  if (!fs::is_directory(dir)) GTEST_SKIP() << "no " << dir << " (the shared real-file corpus is absent)";
  std::size_t files = 0, loaded = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".pdf" || entry.file_size() == 0) continue;
    ++files;
    expect_same_everywhere(entry.path().string(), &loaded);
  }
  EXPECT_GT(files, 0u);
  EXPECT_GT(loaded, files / 2) << "most real files must load";
}

}  // namespace
