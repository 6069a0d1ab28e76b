// The standard security handler (ISO 32000-2 §7.6.4): the file key from the user or owner
// password (revisions 2-6), and the decryption of strings and streams with the per-object key
// (RC4, AES-128-CBC) or the file key (AES-256-CBC), under the crypt filters of §7.6.6.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "docconform/error.h"
#include "docconform/pdf/object.h"

namespace docconform::pdf {

enum class CryptMethod : std::uint8_t { identity, rc4, aesv2, aesv3 };

const char* to_string(CryptMethod method);

class SecurityHandler {
 public:
  // From the resolved /Encrypt dictionary, the first /ID string and a password tried as the user
  // password, then as the owner password. `where` names the file, the dictionary and its offset.
  // Throws Error: unsupported (another handler, /V or method; no password matches: "needs a
  // password"), format (a malformed dictionary; /O yields a user password /U does not accept).
  SecurityHandler(const Object& encrypt, std::string_view id, std::string_view password, ErrorContext where);
  ~SecurityHandler();
  SecurityHandler(const SecurityHandler&) = delete;
  SecurityHandler& operator=(const SecurityHandler&) = delete;

  // Decrypts every string in object (direct values, nested) with object id's key under /StrF.
  void decrypt_strings(Object& object, ObjectId id, const ErrorContext& where) const;
  // The method a stream is encrypted with: /StmF, or the crypt filter its /Filter names first
  // (/Crypt with /DecodeParms /Name), identity for xref streams and, without /EncryptMetadata,
  // metadata streams. `dict` has /Filter and /DecodeParms resolved.
  CryptMethod stream_method(const Object& dict, const ErrorContext& where) const;
  // Decrypts a stream's data (a copy: the source's bytes stay as they are).
  std::string decrypt(std::string_view data, ObjectId id, CryptMethod method, const ErrorContext& where) const;

  // The dump's line (conformance/SPEC.md, format pdf "Encryption"), without the line end.
  std::string summary() const;

  // The file key, for tests: what the password derived.
  const std::string& file_key() const { return key_; }
  bool opened_with_owner_password() const { return owner_; }

 private:
  CryptMethod method_named(const Object& encrypt, const Object* name, const ErrorContext& where) const;

  int v_ = 0, r_ = 0;
  std::uint32_t key_bits_ = 0;
  CryptMethod streams_ = CryptMethod::rc4, strings_ = CryptMethod::rc4;
  bool encrypt_metadata_ = true;
  bool owner_ = false;
  std::string key_;
  Object crypt_filters_;  // /CF (V4, V5), for per-stream crypt filters
};

// The stream dictionary with a leading /Crypt filter (and its parameters) taken out: what the
// other filters decode once the data is decrypted.
Object without_crypt_filter(const Object& dict);

}  // namespace docconform::pdf
