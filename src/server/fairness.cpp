#include "server/fairness.h"

#include <fmt/format.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include "core/error.h"
#include "server/replay.h"

namespace boneyard::server {

std::string sha256_raw(std::string_view bytes) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), out, &len, EVP_sha256(), nullptr) != 1)
    throw Error("SHA-256 failed (OpenSSL)");
  return std::string(reinterpret_cast<const char*>(out), len);
}

static std::string to_hex(std::string_view raw) {
  static const char* d = "0123456789abcdef";
  std::string s;
  s.reserve(raw.size() * 2);
  for (unsigned char c : raw) {
    s += d[c >> 4];
    s += d[c & 15];
  }
  return s;
}

std::string sha256_hex(std::string_view bytes) { return to_hex(sha256_raw(bytes)); }

std::string random_hex(size_t n) {
  std::string raw(n, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(raw.data()), static_cast<int>(n)) != 1)
    throw Error("no random bytes (OpenSSL RAND_bytes failed)");
  return to_hex(raw);
}

std::string from_hex(std::string_view hex) {
  auto nib = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  if (hex.size() % 2) throw Error("bad hex: odd length");
  std::string out;
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int a = nib(hex[i]), b = nib(hex[i + 1]);
    if (a < 0 || b < 0) throw Error("bad hex: not a hex digit");
    out += static_cast<char>(a * 16 + b);
  }
  return out;
}

std::string commitment_of(const std::string& secret_hex) { return sha256_hex(from_hex(secret_hex)); }

uint64_t derive_seed(const std::string& secret_hex, const std::vector<std::string>& entropies) {
  std::string input = from_hex(secret_hex);
  for (const auto& e : entropies) input += sha256_raw(e);
  const std::string h = sha256_raw(input);
  uint64_t seed = 0;
  for (int i = 0; i < 8; ++i) seed = (seed << 8) | static_cast<unsigned char>(h[static_cast<size_t>(i)]);
  return seed;
}

void verify_record(const nlohmann::json& r) {
  using nlohmann::json;
  if (!r.is_object() || !r.contains("fairness") || !r["fairness"].is_object())
    throw Error("no 'fairness' block: this record was not made by `boneyard serve`");
  const json& f = r["fairness"];
  auto str = [&](const char* k) {
    if (!f.contains(k) || !f[k].is_string()) throw Error(fmt::format("fairness: '{}' must be a string", k));
    return f[k].get<std::string>();
  };
  const std::string commitment = str("commitment");
  if (!f.contains("secret") || f["secret"].is_null())
    throw Error("fairness: the secret is not revealed (is the game over?)");
  const std::string secret = str("secret");
  if (secret.size() != 64) throw Error("fairness: 'secret' must be 64 hex digits");
  if (commitment_of(secret) != commitment)
    throw Error(fmt::format("fairness: SHA-256 of the revealed secret is {}, not the commitment {}",
                            commitment_of(secret), commitment));
  if (!f.contains("entropies") || !f["entropies"].is_array())
    throw Error("fairness: 'entropies' must be an array of strings");
  std::vector<std::string> ent;
  for (const auto& e : f["entropies"]) {
    if (!e.is_string()) throw Error("fairness: 'entropies' must be an array of strings");
    ent.push_back(e.get<std::string>());
  }
  const uint64_t seed = derive_seed(secret, ent);
  if (!f.contains("seed") || !f["seed"].is_number_integer() || f["seed"].get<uint64_t>() != seed)
    throw Error(fmt::format("fairness: the seed derived from the secret and entropies is {}, not the one given", seed));
  if (!r.contains("seed") || !r["seed"].is_number_integer() || r["seed"].get<uint64_t>() != seed)
    throw Error(fmt::format("fairness: the record's seed is not the derived seed {}", seed));
  replay_record_from_seed(r);
}

}  // namespace boneyard::server
