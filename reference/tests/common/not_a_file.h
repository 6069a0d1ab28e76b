// Paths that name no file a reader can read at any offset, each with the words of the io error
// the readers give for it: a directory and a FIFO without a writer (made for the test, removed
// with it), and /dev/null. Each reader's tests open every one of them.
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "docconform/error.h"

namespace docconform::test {

struct NotAFile {
  std::string path;
  const char* kind;  // what the error calls it
};

class NotFiles {
 public:
  NotFiles() : dir_(std::filesystem::temp_directory_path() / ("docconform_not_a_file_" + std::to_string(::getpid()))) {
    std::filesystem::create_directory(dir_);
    const std::string fifo = (dir_ / "fifo").string();
    if (::mkfifo(fifo.c_str(), 0600) != 0) throw std::runtime_error("cannot make the FIFO " + fifo);
    inputs_ = {{dir_.string(), "is a directory"}, {fifo, "is a pipe"}, {"/dev/null", "is a character device"}};
  }
  ~NotFiles() {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  NotFiles(const NotFiles&) = delete;
  NotFiles& operator=(const NotFiles&) = delete;
  const std::vector<NotAFile>& inputs() const { return inputs_; }

 private:
  std::filesystem::path dir_;
  std::vector<NotAFile> inputs_;
};

// Expects open(input.path) to throw Error(io) naming the path, its message saying what it is.
template <typename Open>
void expect_io_error_naming(const NotAFile& input, Open open) {
  try {
    open(input.path);
    ADD_FAILURE() << input.path << " opened";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::io) << input.path;
    EXPECT_EQ(e.context().file, input.path);
    EXPECT_NE(e.message().find(input.kind), std::string::npos) << e.message();
  }
}

}  // namespace docconform::test
