#pragma once
// Players (docs/server.md, "Players"): a name and a secret key kept in the
// browser, made on the first visit; optionally a password (argon2id) to get a
// key for the same player on another device. Only hashes of keys and
// passwords are stored.
//
// Players owns: the accounts in the storage (made, logged into, looked
// up) and who sits at a seat (a name, a player id). Lock: its own m_, one
// new player at a time (names are unique); seat() and view() are called
// with the table's lock held.
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "server/names.h"
#include "server/storage.h"
#include "server/table.h"

namespace boneyard::server {

class Ratings;

// Decodes UTF-8 strictly (no overlong forms, no surrogates, nothing above
// U+10FFFF); false when the bytes are not UTF-8. Names and chat lines.
bool decode_utf8(std::string_view s, std::vector<char32_t>& out);
// The bidirectional controls: marks, embeddings, overrides and isolates.
bool is_bidi_control(char32_t c);

// What the storage keeps of a player key: SHA-256 (hex) of it, so a copy of
// the database gives nobody a key.
std::string player_key_hash(std::string_view key);

// argon2id (libsodium's crypto_pwhash_str, interactive limits): the encoded
// hash with its own salt and parameters. Throws ApiError(400) for a password
// outside 8..256 bytes.
std::string hash_password(std::string_view password);
bool password_matches(const std::string& encoded, std::string_view password);
// The hash a login checks when the name has no password or no player: the
// same work whatever the case, so the time taken tells nothing.
const std::string& dummy_password_hash();

class Players {
 public:
  Players(Storage& db, Ratings& ratings) : db_(db), ratings_(ratings) {}
  nlohmann::json create(const nlohmann::json& body);  // POST /api/players
  nlohmann::json login(const nlohmann::json& body);
  // Sets or changes player `id`'s password, {"key", "password"}: the key
  // must be one of that player's (403 otherwise).
  // "sign_out_others": true removes every other key of the player.
  nlohmann::json set_password(const std::string& id, const nlohmann::json& body);
  // POST /api/players/{id}/signout {"key"}: every key of the player stops
  // working (sign out everywhere); this device gets a new one.
  nlohmann::json sign_out_everywhere(const std::string& id, const nlohmann::json& body);
  nlohmann::json page(const std::string& id);  // GET /api/players/{id}: ratings, recent games
  // The person a request names: its "key" (a player's key) or "name" (a
  // display name); nothing when it names none. Checked before a table is locked.
  std::optional<SeatPerson> person_of(const nlohmann::json& who);
  // With t.m held: the seat's person, set while the seat has no player (a
  // guest's name may be changed; a player's seat stays theirs). True when
  // it changed (the caller stores the meta).
  static bool seat(Table& t, int seat, const SeatPerson& p);
  // With t.m held, at a rated table: the network (limits.h) the seat's
  // player sat down from. Two players of one network make the game unrated
  // (one person's accounts, or a household: docs/server.md "Fair play"),
  // said at once. True when the meta changed.
  static bool network(Table& t, int seat, const std::string& client);
  // With t.m held: the names at the seats, in a state message.
  static void view(const Table& t, nlohmann::json& m);

 private:
  Storage& db_;
  Ratings& ratings_;
  std::mutex m_;
};

}  // namespace boneyard::server
