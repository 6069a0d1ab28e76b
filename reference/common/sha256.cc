#include "docconform/sha256.h"

#include <openssl/evp.h>

#include <new>

#include "docconform/error.h"

namespace docconform {
namespace {

EVP_MD_CTX* as_ctx(void* p) { return static_cast<EVP_MD_CTX*>(p); }

void check(int ok, const char* what) {
  if (ok != 1) throw Error(ErrorKind::io, {}, std::string("OpenSSL ") + what + " failed");
}

}  // namespace

Sha256::Sha256() : ctx_(EVP_MD_CTX_new()) {
  if (ctx_ == nullptr) throw std::bad_alloc();
  check(EVP_DigestInit_ex(as_ctx(ctx_), EVP_sha256(), nullptr), "EVP_DigestInit_ex");
}

Sha256::Sha256(const Sha256& other) : ctx_(EVP_MD_CTX_new()) {
  if (ctx_ == nullptr) throw std::bad_alloc();
  check(EVP_MD_CTX_copy_ex(as_ctx(ctx_), as_ctx(other.ctx_)), "EVP_MD_CTX_copy_ex");
}

Sha256& Sha256::operator=(const Sha256& other) {
  if (this != &other) check(EVP_MD_CTX_copy_ex(as_ctx(ctx_), as_ctx(other.ctx_)), "EVP_MD_CTX_copy_ex");
  return *this;
}

Sha256::~Sha256() { EVP_MD_CTX_free(as_ctx(ctx_)); }

void Sha256::update(std::span<const std::uint8_t> bytes) {
  if (!bytes.empty()) check(EVP_DigestUpdate(as_ctx(ctx_), bytes.data(), bytes.size()), "EVP_DigestUpdate");
}

void Sha256::update(std::string_view text) {
  update(std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

Sha256::Digest Sha256::final() {
  Digest digest{};
  unsigned int length = 0;
  check(EVP_DigestFinal_ex(as_ctx(ctx_), digest.data(), &length), "EVP_DigestFinal_ex");
  check(EVP_DigestInit_ex(as_ctx(ctx_), EVP_sha256(), nullptr), "EVP_DigestInit_ex");
  return digest;
}

std::string Sha256::final_hex() {
  const Digest digest = final();
  return to_hex(digest);
}

std::string to_hex(std::span<const std::uint8_t> bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string text(bytes.size() * 2, '0');
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    text[2 * i] = digits[bytes[i] >> 4];
    text[2 * i + 1] = digits[bytes[i] & 0x0F];
  }
  return text;
}

std::string sha256_hex(std::string_view bytes) {
  Sha256 hash;
  hash.update(bytes);
  return hash.final_hex();
}

}  // namespace docconform
