#include "cli_util.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "docconform/error.h"
#include "docconform/output_file.h"
#include "limit_options.h"
#include "option_ranges.h"

namespace docconform::cli {

std::string read_file(const std::string& path, std::size_t max_bytes, std::string_view limit) {
  const auto over = [&](const std::string& what) {
    return Error(ErrorKind::limit, {path, "", std::nullopt}, what + " is over " + std::string(limit) + " (" + std::to_string(max_bytes) + ")");
  };
  // A directory would read as an empty file.
  if (std::error_code ec; std::filesystem::is_directory(path, ec)) {
    throw Error(ErrorKind::io, {path, "", std::nullopt}, "is a directory");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorKind::io, {path, "", std::nullopt}, std::string("cannot open: ") + std::strerror(errno));
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec && size > max_bytes) throw over("file of " + std::to_string(size) + " bytes");
  // Read in pieces: a pipe or a device such as /dev/zero tells no size, and may never end.
  std::string bytes;
  if (!ec) bytes.reserve(static_cast<std::size_t>(size));
  constexpr std::size_t piece = 1 << 16;
  while (in) {
    const std::size_t held = bytes.size();
    const std::size_t room = max_bytes - held;  // held <= max_bytes here
    const std::size_t want = room >= piece ? piece : room + 1;  // one byte past the limit tells it is passed
    bytes.resize(held + want);
    in.read(bytes.data() + held, static_cast<std::streamsize>(want));
    bytes.resize(held + static_cast<std::size_t>(in.gcount()));
    if (bytes.size() > max_bytes) throw over("input of more than " + std::to_string(max_bytes) + " bytes");
  }
  if (in.bad()) throw Error(ErrorKind::io, {path, "", std::nullopt}, std::string("read failed: ") + std::strerror(errno));
  return bytes;
}

std::optional<std::string> read_file_if_present(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::symlink_status(path, ec).type() == std::filesystem::file_type::not_found) return std::nullopt;
  return read_file(path);
}

void write_file(const std::string& path, std::string_view bytes) { write_output_file(path, bytes); }

void write_files(const std::vector<std::pair<std::string, std::string>>& outputs) {
  std::vector<std::unique_ptr<OutputFile>> staged;
  for (const auto& [path, bytes] : outputs) {
    if (path.empty()) continue;
    staged.push_back(std::make_unique<OutputFile>(path));
    staged.back()->write(bytes);
  }
  for (const auto& out : staged) out->commit();
}

void probe_output(const std::string& path) {
  if (path.empty() || path == "-") return;
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status) && !std::filesystem::is_directory(status)) return;
  OutputFile probe(path);  // never committed
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, separator)) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

std::vector<TsvRow> read_tsv(const std::string& path) {
  std::vector<TsvRow> rows;
  std::ifstream in(path);
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line[0] == '#') continue;
    TsvRow row{number, {}};
    std::istringstream fields(line);
    std::string field;
    while (std::getline(fields, field, '\t')) row.fields.push_back(field);
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string parse_hex_bytes(const std::string& text) {
  std::string digits;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '0' && i + 1 < text.size() && (text[i + 1] == 'x' || text[i + 1] == 'X')) {
      if (digits.size() % 2 != 0) throw Error(ErrorKind::usage, {}, "odd number of hex digits before 0x");
      ++i;
      continue;
    }
    if (std::isxdigit(static_cast<unsigned char>(c))) {
      digits += c;
    } else if (c != ' ' && c != ',' && c != ':' && c != '\n' && c != '\t') {
      throw Error(ErrorKind::usage, {}, std::string("not a hex digit: '") + c + "'");
    }
  }
  if (digits.size() % 2 != 0) throw Error(ErrorKind::usage, {}, "odd number of hex digits");
  std::string bytes;
  for (std::size_t i = 0; i < digits.size(); i += 2) {
    bytes += static_cast<char>(std::stoi(digits.substr(i, 2), nullptr, 16));
  }
  return bytes;
}

std::vector<unsigned> parse_thread_list(const std::string& text) {
  auto counts = parse_count_list(text, 1, max_threads_option);
  if (!counts) {
    throw Error(ErrorKind::usage, {},
                "--threads takes thread counts from 1 to " + std::to_string(max_threads_option) +
                    " separated by commas, like 1,2,4, not '" + text + "'");
  }
  return std::move(*counts);
}

namespace {

bool is_suite_root(const std::filesystem::path& dir) {
  std::error_code ec;
  return std::filesystem::is_regular_file(dir / "conformance" / "SPEC.md", ec) &&
         std::filesystem::is_directory(dir / "golden", ec);
}

}  // namespace

std::string resolve_root(const std::string& option, const std::string& program) {
  namespace fs = std::filesystem;
  const auto chosen = [](const std::string& dir, const std::string& how) {
    if (!is_suite_root(dir)) {
      throw Error(ErrorKind::usage, {}, how + " names " + dir + ", which holds no conformance/SPEC.md and golden/");
    }
    return dir;
  };
  if (!option.empty()) return chosen(option, "--root");
  if (const char* env = std::getenv("DOCCONFORM_ROOT"); env != nullptr && *env != '\0') return chosen(env, "DOCCONFORM_ROOT");
  const auto at_or_above = [](fs::path dir) -> std::string {
    for (; !dir.empty(); dir = dir.parent_path()) {
      if (is_suite_root(dir)) return dir.string();
      if (dir == dir.root_path()) break;
    }
    return "";
  };
  const fs::path self(program);
  const fs::path installed = self.parent_path().parent_path() / "share" / "docconform";
  if (installed.is_absolute() && is_suite_root(installed)) return installed.string();
  if (self.is_absolute()) {
    if (std::string checkout = at_or_above(self.parent_path()); !checkout.empty()) return checkout;
  }
  std::error_code ec;
  if (const fs::path here = fs::current_path(ec); !ec) {
    if (std::string checkout = at_or_above(here); !checkout.empty()) return checkout;
  }
  throw Error(ErrorKind::usage, {},
              "cannot find the suite's data (conformance/SPEC.md and golden/): give --root DIR or set DOCCONFORM_ROOT; "
              "it is not in " + installed.string() + ", above " + program + ", nor in the current directory or above it");
}

std::string self_executable() {
  std::error_code ec;
  const auto path = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? "docconform" : path.string();
}

std::uint64_t parse_limit_value(const std::string& name, const std::string& text) {
  const auto value = parse_byte_count(text);
  if (!value) throw Error(ErrorKind::usage, {}, "--limit " + name + ": not a byte count or number: " + text);
  return *value;
}

std::string json_quoted(const std::string& text) {
  return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace docconform::cli
