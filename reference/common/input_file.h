// Inputs that are read at any offset (pread, mmap) must be regular files or block devices.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>

#include <string>

namespace docconform {

// open(2) flags of such an input: O_NONBLOCK, so that opening a FIFO does not wait for a writer
// (reads of a regular file ignore the flag).
inline constexpr int input_open_flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK;

// Throws Error(io) naming path when st is not a file that can be read at any offset: a
// directory, a FIFO, a socket, a terminal or another character device.
void require_random_access(const struct stat& st, const std::string& path);

}  // namespace docconform
