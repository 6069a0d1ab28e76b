// --limit NAME=VALUE and --fuzz-limits for the commands that read untrusted input: every field of
// a component's Limits struct by name (as its Limits::for_each_field lists them), its default
// shown in --help.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "docconform/error.h"

namespace docconform::cli {

template <class L>
struct LimitField {
  const char* name;
  std::variant<std::uint32_t L::*, std::uint64_t L::*> field;
};

// "123", "64K", "16M", "2G" (binary multiples); throws Error(usage) otherwise.
std::uint64_t parse_limit_value(const std::string& name, const std::string& text);

template <class L>
class LimitOptions {
 public:
  // Every field of L.
  LimitOptions() {
    L::for_each_field([&](const char* name, auto field) { fields_.push_back({name, field}); });
  }

  void add_to(CLI::App* app) {
    std::string help = "Override a limit (repeatable; K/M/G suffixes). Names and defaults:";
    static const L defaults{};
    for (const auto& f : fields_) help += std::string(" ") + f.name + "=" + std::to_string(get(defaults, f));
    app->add_option("--limit", overrides_, help)->type_name("NAME=VALUE");
    app->add_flag("--fuzz-limits", fuzz_, "Start from the tight fuzzing profile (Limits::fuzz()) instead of the defaults");
  }

  L limits() const {
    L l = fuzz_ ? L::fuzz() : L{};
    for (const std::string& o : overrides_) {
      const auto eq = o.find('=');
      const std::string name = o.substr(0, eq);
      const LimitField<L>* field = nullptr;
      for (const auto& f : fields_) {
        if (name == f.name) field = &f;
      }
      if (eq == std::string::npos || field == nullptr) {
        throw Error(ErrorKind::usage, {}, "--limit needs NAME=VALUE with a known NAME (see --help): " + o);
      }
      const std::uint64_t value = parse_limit_value(name, o.substr(eq + 1));
      if (const auto* narrow = std::get_if<std::uint32_t L::*>(&field->field)) {
        if (value > UINT32_MAX) throw Error(ErrorKind::usage, {}, "--limit " + name + " is at most 4294967295");
        l.**narrow = static_cast<std::uint32_t>(value);
      } else {
        l.*std::get<std::uint64_t L::*>(field->field) = value;
      }
    }
    return l;
  }

 private:
  static std::uint64_t get(const L& l, const LimitField<L>& f) {
    if (const auto* narrow = std::get_if<std::uint32_t L::*>(&f.field)) return l.**narrow;
    return l.*std::get<std::uint64_t L::*>(f.field);
  }

  std::vector<LimitField<L>> fields_;
  std::vector<std::string> overrides_;
  bool fuzz_ = false;
};

}  // namespace docconform::cli
