#include <iostream>
#include <memory>

#include "cli_util.h"
#include "commands.h"
#include "docconform/utf8.h"
#include "docconform/utf8_dump.h"
#include "dump_files.h"
#include "option_ranges.h"

namespace docconform::cli {
namespace {

struct Utf8Options {
  std::string file;
  std::string hex;
  bool dump = false;
};

std::string input_bytes(const Utf8Options& options) {
  if (!options.hex.empty()) return parse_hex_bytes(options.hex);
  return read_file(options.file, Utf8DumpLimits{}.max_input_bytes, "max_input_bytes");
}

void print_units(const std::u16string& text) {
  static constexpr char digits[] = "0123456789ABCDEF";
  std::string line;
  for (const char16_t unit : text) {
    if (!line.empty()) line += ' ';
    line += "U+";
    for (int shift = 12; shift >= 0; shift -= 4) line += digits[(unit >> shift) & 0xF];
  }
  std::cout << line << "\n";
}

}  // namespace

void add_utf8_commands(CommandGroups& groups) {
  auto options = std::make_shared<Utf8Options>();
  auto* utf8 = groups.app.add_subcommand(
      "utf8", "Decode bytes with the UTF-8 passthrough decoder and print the UTF-16 code units");
  auto* file = utf8->add_option("file", options->file, "File whose bytes to decode");
  auto* hex = utf8->add_option("--hex", options->hex, "Bytes as hex instead of a file, e.g. \"C3 28\"");
  file->excludes(hex);
  utf8->add_flag("--dump", options->dump, "Print the canonical dump instead of code units");
  utf8->callback([options] {
    if (options->file.empty() && options->hex.empty()) throw CLI::RequiredError("file or --hex");
    const std::string bytes = input_bytes(*options);
    if (options->dump) {
      std::cout << utf8_dump(bytes);
    } else {
      print_units(decode_utf8(bytes));
    }
  });

  struct DumpOptions {
    FileListOptions files;
    Utf8DumpLimits limits;
    unsigned threads = 0;
  };
  for (CLI::App* group : {&groups.dump, &groups.digest}) {
    const bool wants_digest = group == &groups.digest;
    auto d = std::make_shared<DumpOptions>();
    auto* command = group->add_subcommand(
        "utf8", wants_digest ? "SHA-256 of the utf8 canonical dump of a file" : "Canonical dump of a file decoded as UTF-8 with passthrough");
    d->files.add_to(command);
    command->add_option("--max-bytes", d->limits.max_input_bytes, "Largest input accepted (limit error above)")
        ->capture_default_str()
        ->transform(byte_range(0, max_bytes_option));
    add_file_threads_option(command, d->threads);
    command->callback([d, wants_digest] {
      const FileDumper dumper = [&d](const std::string& path, unsigned, const DumpSink& sink) {
        sink(utf8_dump(read_file(path, d->limits.max_input_bytes, "max_input_bytes"), d->limits));
      };
      wants_digest ? run_digests(d->files, d->threads, dumper) : run_dumps(d->files, d->threads, dumper);
    });
  }
}

}  // namespace docconform::cli
