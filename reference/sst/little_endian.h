// Little-endian fields of the BIFF8 records and the CFB container, stored and loaded byte by
// byte: no alignment or host byte order assumed. Byte is char or std::uint8_t.
#pragma once

#include <cstdint>

namespace docconform::sst {

template <typename Byte>
inline void store_u16(Byte* p, std::uint32_t v) {
  p[0] = static_cast<Byte>(v & 0xFF);
  p[1] = static_cast<Byte>((v >> 8) & 0xFF);
}

template <typename Byte>
inline void store_u32(Byte* p, std::uint32_t v) {
  store_u16(p, v & 0xFFFF);
  store_u16(p + 2, v >> 16);
}

template <typename Byte>
inline std::uint16_t load_u16(const Byte* p) {
  return static_cast<std::uint16_t>(static_cast<std::uint8_t>(p[0]) | (static_cast<std::uint8_t>(p[1]) << 8));
}

template <typename Byte>
inline std::uint32_t load_u32(const Byte* p) {
  return static_cast<std::uint32_t>(load_u16(p)) | (static_cast<std::uint32_t>(load_u16(p + 2)) << 16);
}

}  // namespace docconform::sst
