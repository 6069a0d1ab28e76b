// Helpers for the PDF tests: hand-built files (so each structure under test is written out
// explicitly, independent of the library's own writer) and temporary files.
#pragma once

#include <unistd.h>
#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "docconform/error.h"
#include "docconform/pdf/document.h"
#include "docconform/pdf/dump.h"
#include "docconform/pdf/generate.h"
#include "docconform/pdf/source.h"

namespace pdftest {

// zlib's deflate of data: a FlateDecode stream's bytes.
inline std::string deflate(const std::string& data) {
  uLongf size = compressBound(static_cast<uLong>(data.size()));
  std::string out(size, '\0');
  compress(reinterpret_cast<Bytef*>(out.data()), &size, reinterpret_cast<const Bytef*>(data.data()),
           static_cast<uLong>(data.size()));
  out.resize(size);
  return out;
}

// The bytes of a generated file.
inline std::string generated_pdf(const docconform::pdf::GenerateOptions& options) {
  std::ostringstream out;
  docconform::pdf::generate_pdf(options, out);
  return out.str();
}

// A temporary file removed at scope exit.
class TempFile {
 public:
  explicit TempFile(const std::string& bytes, const std::string& tag = "t") {
    static int counter = 0;
    path_ = (std::filesystem::temp_directory_path() /
             ("docconform_pdf_" + tag + "_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + ".pdf"))
                .string();
    write(bytes);
  }
  ~TempFile() { std::remove(path_.c_str()); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  void write(const std::string& bytes) const {
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

inline std::string entry20(unsigned long long offset, unsigned gen, char type, const char* eol = "\r\n") {
  char line[40];
  std::snprintf(line, sizeof line, "%010llu %05u %c%s", offset, gen, type, eol);
  return line;
}

// Objects 1..n from bodies (text between `N 0 obj` and `endobj`), a classic table, a trailer
// with /Size and /Root 1 0 R plus extra, startxref. offsets receives each object's offset.
inline std::string classic_pdf(const std::vector<std::string>& bodies, const std::string& extra = "",
                               const char* eol = "\r\n", std::vector<std::size_t>* offsets = nullptr) {
  std::string out = "%PDF-1.4\n%\xE2\xE3\xCF\xD3\n";
  std::vector<std::size_t> at;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    at.push_back(out.size());
    out += std::to_string(i + 1) + " 0 obj\n" + bodies[i] + "\nendobj\n";
  }
  const std::size_t xref = out.size();
  out += "xref\n0 " + std::to_string(bodies.size() + 1) + "\n" + entry20(0, 65535, 'f', eol);
  for (std::size_t a : at) out += entry20(a, 0, 'n', eol);
  out += "trailer\n<< /Size " + std::to_string(bodies.size() + 1) + " /Root 1 0 R " + extra + " >>\nstartxref\n" +
         std::to_string(xref) + "\n%%EOF\n";
  if (offsets != nullptr) *offsets = at;
  return out;
}

// The three objects of a one-page document: catalog, pages, page.
inline std::vector<std::string> one_page() {
  return {"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 /MediaBox [0 0 612 792] >>",
          "<< /Type /Page /Parent 2 0 R >>"};
}

// Turns the `obj` keyword of the object header at offset into `obx`, so reading that object
// fails; false when no header follows offset.
inline bool break_object_header(std::string& bytes, std::uint64_t offset) {
  const std::size_t keyword = bytes.find(" obj", static_cast<std::size_t>(offset));
  if (keyword == std::string::npos) return false;
  bytes[keyword + 3] = 'x';
  return true;
}

// "ok", or the message of the Error that run() throws.
template <class Run>
std::string outcome_of(Run run) {
  try {
    run();
    return "ok";
  } catch (const docconform::Error& e) {
    return e.what();
  }
}

inline std::string dump(const std::string& bytes, int level = 3, docconform::pdf::Limits limits = {}) {
  auto source = docconform::pdf::memory_source(bytes);
  docconform::pdf::Document document(*source, limits);
  return docconform::pdf::pdf_dump(document, level);
}

}  // namespace pdftest
