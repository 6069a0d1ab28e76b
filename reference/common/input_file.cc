#include "common/input_file.h"

#include "docconform/error.h"

namespace docconform {

void require_random_access(const struct stat& st, const std::string& path) {
  if (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode)) return;
  const char* kind = S_ISDIR(st.st_mode)    ? "a directory"
                     : S_ISFIFO(st.st_mode) ? "a pipe"
                     : S_ISSOCK(st.st_mode) ? "a socket"
                     : S_ISCHR(st.st_mode)  ? "a character device"
                                            : "not a regular file";
  throw Error(ErrorKind::io, {path, "", std::nullopt},
              std::string("is ") + kind + ": the reader needs a file it can read at any offset");
}

}  // namespace docconform
