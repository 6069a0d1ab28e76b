// Shared by the PDF fuzz targets: a per-process scratch file and the outcome of reading a PDF,
// comparable across byte sources.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

#include "common/scratch_file.h"
#include "docconform/error.h"
#include "docconform/pdf/dump.h"
#include "docconform/sha256.h"

namespace docconform::fuzz {

// This process's own file (the file-backed sources need a path), removed when the process exits:
// a fuzzing run or a replay leaves no scratch behind.
class ScratchPdf {
 public:
  explicit ScratchPdf(const char* tag) {
    path_ = temporary_directory() + "/docconform_fuzz_" + tag + "_" + std::to_string(::getpid()) + ".pdf";
  }
  ScratchPdf(const ScratchPdf&) = delete;
  ScratchPdf& operator=(const ScratchPdf&) = delete;
  ~ScratchPdf() { ::unlink(path_.c_str()); }

  const std::string& path() const { return path_; }
  // Replaces the file's bytes.
  void write(const std::uint8_t* data, std::size_t size) const {
    std::FILE* f = std::fopen(path_.c_str(), "wb");
    if (f == nullptr) std::abort();
    if (size > 0 && std::fwrite(data, 1, size, f) != size) std::abort();
    if (std::fclose(f) != 0) std::abort();
  }

 private:
  std::string path_;
};

// "ok <digest>" or "<kind>: <message> @offset" of the level-3 dump read on up to `threads`
// threads; io errors never count as an outcome. dump, when given, receives the dump.
inline std::string pdf_outcome(const std::string& path, const pdf::SourceOptions& options, const pdf::Limits& limits,
                               unsigned threads, pdf::Recovery recovery = pdf::Recovery::strict,
                               std::string* dump = nullptr) {
  try {
    std::string text = pdf::pdf_dump_file(path, options, 3, limits, threads, {}, recovery);
    const std::string digest = sha256_hex(text);
    if (dump != nullptr) *dump = std::move(text);
    return "ok " + digest;
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::io) std::abort();
    return std::string(to_string(e.kind())) + ": " + e.message() + " @" +
           (e.context().offset ? std::to_string(*e.context().offset) : "-");
  }
}

}  // namespace docconform::fuzz
