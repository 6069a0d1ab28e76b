// --inflater zlib|isal for the commands that inflate: dump and digest of xlsx and pdf, and the
// benchmarks. Its default is docconform::default_inflater().
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "docconform/inflater.h"

namespace docconform::cli {

class InflaterOption {
 public:
  void add_to(CLI::App* app) {
    std::vector<std::string> names;
    for (const InflaterKind kind : available_inflaters()) names.emplace_back(inflater_name(kind));
    app->add_option("--inflater", name_, "Deflate decoder for zip parts and PDF streams (same results, speed only)")
        ->capture_default_str()
        ->check(CLI::IsMember(names));
  }
  InflaterKind kind() const { return parse_inflater(name_); }

 private:
  std::string name_{inflater_name(default_inflater())};
};

}  // namespace docconform::cli
