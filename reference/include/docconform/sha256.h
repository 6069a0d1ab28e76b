// Streaming SHA-256 over OpenSSL's EVP interface; the digest of every canonical dump.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace docconform {

class Sha256 {
 public:
  using Digest = std::array<std::uint8_t, 32>;

  Sha256();
  ~Sha256();
  // A copy goes on from the same state (a digest taken back to a point it passed).
  Sha256(const Sha256& other);
  Sha256& operator=(const Sha256& other);

  void update(std::span<const std::uint8_t> bytes);
  void update(std::string_view text);
  // Finishes the digest; the object is reset and may be reused.
  Digest final();
  std::string final_hex();

 private:
  void* ctx_;  // EVP_MD_CTX, kept opaque so users need no OpenSSL headers
};

std::string to_hex(std::span<const std::uint8_t> bytes);
std::string sha256_hex(std::string_view bytes);

}  // namespace docconform
