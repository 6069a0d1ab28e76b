// How readers open their input files: inputs read at any offset (pread, mmap) must be regular
// files or block devices, and an input read whole into memory is bounded before it is read.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace docconform {

// open(2) flags of such an input: O_NONBLOCK, so that opening a FIFO does not wait for a writer
// (reads of a regular file ignore the flag).
inline constexpr int input_open_flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK;

// Throws Error(io) naming path when st is not a file that can be read at any offset: a
// directory, a FIFO, a socket, a terminal or another character device.
void require_random_access(const struct stat& st, const std::string& path);

// The whole of an input that a reader takes as one buffer (a .xls, a table of records): a file
// that can be read at any offset, as above, of at most max_bytes. A larger one is Error(limit)
// naming `limit` before anything is read; every other failure is Error(io) naming path.
std::string read_whole_file(const std::string& path, std::size_t max_bytes, std::string_view limit);

}  // namespace docconform
