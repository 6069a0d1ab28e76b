#include "option_ranges.h"

#include <charconv>
#include <cmath>
#include <string>
#include <utility>

namespace docconform::cli {
namespace {

std::optional<std::uint64_t> parse_digits(std::string_view text) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

// 1099511627776 as 1024G: the largest suffix that divides it exactly.
std::string byte_text(std::uint64_t value) {
  for (const auto& [shift, suffix] : {std::pair{30, "G"}, std::pair{20, "M"}, std::pair{10, "K"}}) {
    if (value != 0 && value % (std::uint64_t{1} << shift) == 0) return std::to_string(value >> shift) + suffix;
  }
  return std::to_string(value);
}

}  // namespace

std::optional<std::uint64_t> parse_byte_count(std::string_view text) {
  int shift = 0;
  if (!text.empty()) {
    switch (text.back()) {
      case 'K': case 'k': shift = 10; break;
      case 'M': case 'm': shift = 20; break;
      case 'G': case 'g': shift = 30; break;
      default: break;
    }
  }
  const auto value = parse_digits(shift == 0 ? text : text.substr(0, text.size() - 1));
  if (!value || *value > (UINT64_MAX >> shift)) return std::nullopt;
  return *value << shift;
}

CLI::Validator integer_range(std::uint64_t min, std::uint64_t max) {
  const std::string range = std::to_string(min) + " to " + std::to_string(max);
  return CLI::Validator(
      [min, max, range](std::string& text) -> std::string {
        const auto value = parse_digits(text);
        if (!value || *value < min || *value > max) return "must be a whole number from " + range + ", not '" + text + "'";
        text = std::to_string(*value);
        return "";
      },
      range);
}

CLI::Validator byte_range(std::uint64_t min, std::uint64_t max, std::uint64_t multiple) {
  std::string range = byte_text(min) + " to " + byte_text(max) + " bytes";
  if (multiple > 1) range += ", a multiple of " + byte_text(multiple);
  return CLI::Validator(
      [min, max, multiple, range](std::string& text) -> std::string {
        const auto value = parse_byte_count(text);
        if (!value || *value < min || *value > max || *value % multiple != 0) {
          return "must be a byte count (K, M, G suffixes allowed) from " + range + ", not '" + text + "'";
        }
        text = std::to_string(*value);
        return "";
      },
      range);
}

std::optional<std::vector<unsigned>> parse_count_list(std::string_view text, unsigned min, unsigned max) {
  std::vector<unsigned> counts;
  for (std::size_t from = 0; from <= text.size();) {
    const std::size_t comma = std::min(text.find(',', from), text.size());
    const auto value = parse_digits(text.substr(from, comma - from));
    if (!value || *value < min || *value > max) return std::nullopt;
    counts.push_back(static_cast<unsigned>(*value));
    from = comma + 1;
  }
  return counts;
}

CLI::Validator count_list_range(unsigned min, unsigned max) {
  const std::string range = std::to_string(min) + " to " + std::to_string(max);
  return CLI::Validator(
      [min, max, range](std::string& text) -> std::string {
        if (parse_count_list(text, min, max)) return "";
        return "must be whole numbers from " + range + " separated by commas (like 1,2,4), not '" + text + "'";
      },
      "list of " + range);
}

CLI::Validator seconds_range(double max) {
  const std::string range = "above 0 and at most " + std::to_string(static_cast<long long>(max));
  return CLI::Validator(
      [max, range](std::string& text) -> std::string {
        double value = 0;
        const char* end = text.data() + text.size();
        const auto [ptr, ec] = std::from_chars(text.data(), end, value);
        if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(value) || value <= 0 || value > max) {
          return "must be a number of seconds " + range + ", not '" + text + "'";
        }
        return "";
      },
      "seconds, " + range);
}

}  // namespace docconform::cli
