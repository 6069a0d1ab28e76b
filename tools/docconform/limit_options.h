// --limit NAME=VALUE and --fuzz-limits for the commands that read untrusted input and dump it:
// every field of a component's Limits struct (as its Limits::for_each_field lists them), and of
// OutputLimits (the bytes of the dump), by name, its default shown in --help.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "docconform/error.h"
#include "docconform/output_limit.h"

namespace docconform::cli {

template <class L>
struct LimitField {
  const char* name;
  std::variant<std::uint32_t L::*, std::uint64_t L::*> field;
};

// parse_byte_count's syntax (option_ranges.h); throws Error(usage) naming the limit otherwise.
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
    append_defaults<L>(help, fields_);
    append_defaults<OutputLimits>(help, output_fields());
    // One NAME=VALUE per --limit, so the input files may follow it.
    app->add_option("--limit", overrides_, help)->type_name("NAME=VALUE")->allow_extra_args(false);
    app->add_flag("--fuzz-limits", fuzz_, "Start from the tight fuzzing profile (Limits::fuzz()) instead of the defaults");
  }

  L limits() const { return apply(fields_, fuzz_ ? L::fuzz() : L{}); }
  OutputLimits output_limits() const { return apply(output_fields(), fuzz_ ? OutputLimits::fuzz() : OutputLimits{}); }

 private:
  static std::vector<LimitField<OutputLimits>> output_fields() { return {{"max_output_bytes", &OutputLimits::max_output_bytes}}; }

  template <class T>
  static const LimitField<T>* find(const std::vector<LimitField<T>>& fields, const std::string& name) {
    for (const auto& f : fields) {
      if (name == f.name) return &f;
    }
    return nullptr;
  }

  // The overrides named in `fields` set on `l`; a name in neither list is a usage error.
  template <class T>
  T apply(const std::vector<LimitField<T>>& fields, T l) const {
    for (const std::string& o : overrides_) {
      const auto eq = o.find('=');
      const std::string name = o.substr(0, eq);
      const LimitField<T>* field = find(fields, name);
      if (eq == std::string::npos || (find(fields_, name) == nullptr && find(output_fields(), name) == nullptr)) {
        throw Error(ErrorKind::usage, {}, "--limit needs NAME=VALUE with a known NAME (see --help): " + o);
      }
      if (field == nullptr) continue;
      const std::uint64_t value = parse_limit_value(name, o.substr(eq + 1));
      if (const auto* narrow = std::get_if<std::uint32_t T::*>(&field->field)) {
        if (value > UINT32_MAX) throw Error(ErrorKind::usage, {}, "--limit " + name + " is at most 4294967295");
        l.**narrow = static_cast<std::uint32_t>(value);
      } else {
        l.*std::get<std::uint64_t T::*>(field->field) = value;
      }
    }
    return l;
  }

  template <class T>
  static void append_defaults(std::string& help, const std::vector<LimitField<T>>& fields) {
    static const T defaults{};
    for (const auto& f : fields) {
      const std::uint64_t value = std::holds_alternative<std::uint32_t T::*>(f.field) ? defaults.*std::get<std::uint32_t T::*>(f.field)
                                                                                       : defaults.*std::get<std::uint64_t T::*>(f.field);
      help += std::string(" ") + f.name + "=" + std::to_string(value);
    }
  }

  std::vector<LimitField<L>> fields_;
  std::vector<std::string> overrides_;
  bool fuzz_ = false;
};

}  // namespace docconform::cli
