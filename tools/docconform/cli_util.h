// Small helpers shared by the subcommands.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace docconform::cli {

// Reads a whole file from start to end (a pipe will do); throws docconform::Error naming the path
// on failure, and Error(limit) naming `limit` once it holds more than max_bytes (before reading
// anything when its size says so).
std::string read_file(const std::string& path, std::size_t max_bytes = SIZE_MAX, std::string_view limit = "the limit");
// The same, or nothing when nothing is at path (a file not made yet); a file that is there but
// cannot be read is an error all the same.
std::optional<std::string> read_file_if_present(const std::string& path);
// The whole content of an output file, written as docconform/output_file.h says ("-" is
// standard output).
void write_file(const std::string& path, std::string_view bytes);
// Several outputs (path, content) written as one: each goes to its temporary file, and all are
// put in place only once every one was written whole. Empty paths are skipped.
void write_files(const std::vector<std::pair<std::string, std::string>>& outputs);
// Tries an output's place before the work that fills it, so that a directory that does not
// exist or cannot be written, or a directory given as the output, is an error now rather than
// after a long run: a temporary file is made there and removed, as the output's own writing
// does. A FIFO or a device is left unopened.
void probe_output(const std::string& path);

// Parses "C3 28", "c328" or "0xC3,0x28" into bytes; throws Error(usage) on bad digits.
std::string parse_hex_bytes(const std::string& text);

// The non-empty pieces of text between separators.
std::vector<std::string> split(const std::string& text, char separator);
void replace_all(std::string& text, const std::string& from, const std::string& to);
// A benchmark's "--threads 1,2,4": thread counts from 1 to max_threads_option; throws Error(usage)
// naming the option otherwise.
std::vector<unsigned> parse_thread_list(const std::string& text);

// The rows of a tab-separated manifest (blank lines and '#' comments skipped), with their line
// numbers for error messages. A missing file has no rows.
struct TsvRow {
  std::size_t line = 0;
  std::vector<std::string> fields;
};
std::vector<TsvRow> read_tsv(const std::string& path);

// The path of the running docconform binary, for adapters that call the CLI.
std::string self_executable();

// The root of the suite's data (conformance/, golden/), first found of: `option` (--root) when
// not empty, $DOCCONFORM_ROOT when set, the installed data beside the program
// (<prefix>/share/docconform for <prefix>/bin/<program>), the checkout the program was built in
// (the nearest directory above it that holds conformance/SPEC.md and golden/), the checkout
// around the current directory (for a build tree kept elsewhere). Throws Error(usage) naming
// what was tried when none is found, or when the option or the variable names a directory that
// is not the suite's.
std::string resolve_root(const std::string& option, const std::string& program = self_executable());
inline constexpr const char* root_option_help =
    "The suite's data (conformance/, golden/); default: $DOCCONFORM_ROOT, else <prefix>/share/docconform beside "
    "the program, else the checkout above the program, else the checkout around the current directory";

// text as a JSON string literal, quotes included (bytes that are not UTF-8 become U+FFFD).
std::string json_quoted(const std::string& text);

}  // namespace docconform::cli
