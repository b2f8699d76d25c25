#pragma once
// Provably fair deals (docs/server.md, "Fairness"): the server commits to a
// secret before the game, each human seat may add entropy, and the game's
// seed is derived from all of them. A finished game's record carries what is
// needed to check it: verify_record().
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace boneyard::server {

// Lower-case hex of SHA-256 (OpenSSL EVP) of the bytes.
std::string sha256_hex(std::string_view bytes);
std::string sha256_raw(std::string_view bytes);
// n cryptographically random bytes (OpenSSL RAND_bytes), as hex.
std::string random_hex(size_t n);
// Hex to bytes; throws Error when not even-length hex.
std::string from_hex(std::string_view hex);

// The commitment published at table creation: SHA-256 of the secret's 32
// raw bytes (the secret is given as 64 hex digits), as hex.
std::string commitment_of(const std::string& secret_hex);

// seed = first 8 bytes, big-endian, of
//   SHA-256( secret (32 raw bytes) || SHA-256(entropy[0]) || ... || SHA-256(entropy[n-1]) )
// with one entropy string per seat in seat order ("" for bot seats and
// humans who gave none). Hashing each entropy keeps the input unambiguous.
uint64_t derive_seed(const std::string& secret_hex, const std::vector<std::string>& entropies);

constexpr const char* kDerivation =
    "seed = first 8 bytes (big-endian) of SHA-256(secret bytes || SHA-256(entropy[0]) || ... || "
    "SHA-256(entropy[n-1])), "
    "one entropy string per seat in seat order, \"\" where none; commitment = SHA-256(secret bytes)";

// Checks a record's "fairness" block: the secret matches the commitment, the
// seed is derived from the secret and entropies, the record's seed is that
// seed, and the record replays from it (every chance outcome is the one the
// seed produces, every move legal, every hand result as recorded). Throws
// Error naming the first problem.
void verify_record(const nlohmann::json& record);

}  // namespace boneyard::server
