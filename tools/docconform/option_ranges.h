// Range checks of the numeric options. CLI11 reads "-1" into an unsigned option as its largest
// value and lets what overflows wrap, so the text is checked, before conversion, to be a
// number within the option's range; anything else is a usage error naming the option and the
// range. Each check is a transform (option->transform(...)): it also rewrites the text to the
// plain decimal the option then converts ("064" is 64, not octal; "16M" is 16777216).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace docconform::cli {

// More threads than this are never useful: every pool is also capped at the hardware threads.
inline constexpr unsigned max_threads_option = 1024;
// Timed repetitions of a benchmark.
inline constexpr std::uint64_t max_repeats_option = 10000;
// Byte-count options (views, buffers, chunks, input and output sizes): no file comes near it.
inline constexpr std::uint64_t max_bytes_option = std::uint64_t{1} << 40;
// Address-space caps in MiB: 16 TiB, past any machine (and far within rlim_t in bytes).
inline constexpr std::uint64_t max_memory_mb = std::uint64_t{1} << 24;
// Timeouts: a week; more is no timeout at all (and would overflow the clock's nanoseconds).
inline constexpr double max_seconds_option = 7 * 24 * 3600;

// "123", "64K", "16M", "2G" (binary multiples), nothing else: nullopt when malformed or past
// 2^64 - 1.
std::optional<std::uint64_t> parse_byte_count(std::string_view text);

// A whole number in decimal digits, from min to max.
CLI::Validator integer_range(std::uint64_t min, std::uint64_t max);
// A byte count as parse_byte_count reads it, from min to max, and a multiple of `multiple`.
CLI::Validator byte_range(std::uint64_t min, std::uint64_t max, std::uint64_t multiple = 1);
// Whole numbers from min to max separated by commas ("1,2,4"); nullopt when malformed or empty.
std::optional<std::vector<unsigned>> parse_count_list(std::string_view text, unsigned min, unsigned max);
CLI::Validator count_list_range(unsigned min, unsigned max);
// A finite number of seconds above 0 and at most max.
CLI::Validator seconds_range(double max = max_seconds_option);

}  // namespace docconform::cli
