// UTF-8 -> UTF-16 with byte passthrough.
//
// A well-formed sequence (Unicode Table 3-7: shortest form, no surrogate code points, at most
// U+10FFFF, complete) decodes to its code point, as a surrogate pair above U+FFFF. Anything
// else emits the byte at the current position as one UTF-16 code unit equal to the byte's
// value and resumes at the next byte. Valid input decodes exactly as a strict decoder would.
// Two passes straight from the input: measure, then decode into storage allocated once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace docconform {

// Pass 1: the number of UTF-16 code units decode_utf8_passthrough() will write.
std::size_t utf16_length(const std::uint8_t* data, std::size_t size) noexcept;

// Pass 2: decodes into out, which must hold utf16_length(data, size) units; returns the count.
std::size_t decode_utf8_passthrough(const std::uint8_t* data, std::size_t size, char16_t* out) noexcept;

// Both passes, one allocation.
std::u16string decode_utf8(std::string_view bytes);

// True when every byte is part of a well-formed sequence (nothing would pass through).
bool is_valid_utf8(const std::uint8_t* data, std::size_t size) noexcept;

// The length of the well-formed sequence at data (1 for ASCII), or 0 when none starts there.
std::size_t utf8_sequence_length(const std::uint8_t* data, std::size_t size) noexcept;

// Appends the UTF-8 encoding of one code point (at most U+10FFFF; surrogates are encoded as is).
void append_utf8(std::string& out, std::uint32_t code_point);

// UTF-16 -> UTF-8 for display; a lone surrogate becomes U+FFFD (display only, lossy).
std::string to_utf8_lossy(std::u16string_view text);

}  // namespace docconform
