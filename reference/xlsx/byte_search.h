// Searches for the first of a few bytes, for the hot paths that read values and text: sixteen
// or eight bytes per step instead of one.
#pragma once

#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace docconform::xlsx {

namespace detail {

constexpr std::uint64_t ones = 0x0101010101010101ull;
constexpr std::uint64_t high_bits = 0x8080808080808080ull;

// The high bit of each byte of word that equals c. Only the lowest flagged byte is exact (a
// borrow can flag the byte above a hit), which is all a search for the first hit needs.
inline std::uint64_t equal_bytes(std::uint64_t word, std::uint8_t c) {
  const std::uint64_t x = word ^ (ones * c);
  return (x - ones) & ~x & high_bits;
}

// The same for bytes below 0x20.
inline std::uint64_t control_bytes(std::uint64_t word) { return (word - ones * 0x20) & ~word & high_bits; }

}  // namespace detail

// The first byte in [q, end) that is a, b or c, or a control byte (below 0x20) when controls is
// set; end when there is none.
template <bool controls>
inline const std::uint8_t* find_first_of(const std::uint8_t* q, const std::uint8_t* end, std::uint8_t a, std::uint8_t b,
                                         std::uint8_t c) {
  using namespace detail;
#if defined(__SSE2__)
  // Sixteen bytes a step where the target has SSE2 (every x86-64); the words finish the tail.
  const __m128i va = _mm_set1_epi8(static_cast<char>(a)), vb = _mm_set1_epi8(static_cast<char>(b)),
                vc = _mm_set1_epi8(static_cast<char>(c)), below_space = _mm_set1_epi8(0x1F);
  for (; end - q >= 16; q += 16) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q));
    __m128i hits = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, va), _mm_cmpeq_epi8(x, vb)), _mm_cmpeq_epi8(x, vc));
    if constexpr (controls) hits = _mm_or_si128(hits, _mm_cmpeq_epi8(_mm_subs_epu8(x, below_space), _mm_setzero_si128()));
    if (const int mask = _mm_movemask_epi8(hits)) return q + __builtin_ctz(static_cast<unsigned>(mask));
  }
#endif
  for (; end - q >= 8; q += 8) {
    std::uint64_t word;
    std::memcpy(&word, q, 8);
    std::uint64_t hits = equal_bytes(word, a) | equal_bytes(word, b) | equal_bytes(word, c);
    if constexpr (controls) hits |= control_bytes(word);
    if (hits != 0) return q + __builtin_ctzll(hits) / 8;
  }
  for (; q < end; ++q) {
    if (*q == a || *q == b || *q == c || (controls && *q < 0x20)) return q;
  }
  return end;
}

}  // namespace docconform::xlsx
