#include "server/players.h"

#include <fmt/format.h>
#include <sodium.h>

#include <algorithm>
#include <cstdint>
#include <ctime>
#include <future>
#include <stdexcept>
#include <vector>

#include "server/fairness.h"
#include "server/ratings.h"

namespace boneyard::server {

// Decodes UTF-8 strictly (no overlong forms, no surrogates, nothing above
// U+10FFFF); false when the bytes are not UTF-8.
bool decode_utf8(std::string_view s, std::vector<char32_t>& out) {
  for (size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    int len = 0;
    char32_t c = 0;
    if (b < 0x80) {
      c = b;
      len = 1;
    } else if ((b & 0xE0) == 0xC0) {
      c = b & 0x1F;
      len = 2;
    } else if ((b & 0xF0) == 0xE0) {
      c = b & 0x0F;
      len = 3;
    } else if ((b & 0xF8) == 0xF0) {
      c = b & 0x07;
      len = 4;
    } else
      return false;
    if (i + static_cast<size_t>(len) > s.size()) return false;
    for (int k = 1; k < len; ++k) {
      const auto x = static_cast<unsigned char>(s[i + static_cast<size_t>(k)]);
      if ((x & 0xC0) != 0x80) return false;
      c = (c << 6) | (x & 0x3F);
    }
    static constexpr char32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (c < kMin[len] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return false;
    out.push_back(c);
    i += static_cast<size_t>(len);
  }
  return true;
}

bool is_bidi_control(char32_t c) {
  return c == 0x061C || c == 0x200E || c == 0x200F || (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
}
namespace {
// Invisible: zero-width characters, the word joiner and the byte order mark,
// the line and paragraph separators, and the Unicode tag characters.
bool is_invisible(char32_t c) {
  return (c >= 0x200B && c <= 0x200D) || c == 0x2060 || c == 0xFEFF || c == 0x2028 || c == 0x2029 || c == 0x00AD ||
         (c >= 0xE0000 && c <= 0xE007F);
}
bool is_space(char32_t c) { return c == ' ' || c == 0x00A0 || c == 0x3000; }

void ensure_sodium() {
  static const bool ready = sodium_init() >= 0;
  if (!ready) throw ApiError(500, "the password library (libsodium) could not start");
}
}  // namespace

std::string check_name(std::string_view name) {
  std::vector<char32_t> cps;
  if (!decode_utf8(name, cps)) throw ApiError(400, "the name is not valid UTF-8 text");
  for (const char32_t c : cps) {
    if (c < 0x20 || (c >= 0x7F && c <= 0x9F))
      throw ApiError(
          400,
          fmt::format("the name contains a control character (U+{:04X}); use letters, digits, spaces and punctuation",
                      static_cast<uint32_t>(c)));
    if (is_bidi_control(c))
      throw ApiError(400,
                     fmt::format("the name contains a bidirectional control character (U+{:04X}), which could disguise "
                                 "it or reorder the text around it",
                                 static_cast<uint32_t>(c)));
    if (is_invisible(c))
      throw ApiError(400,
                     fmt::format("the name contains an invisible character (U+{:04X}), which would make it look like "
                                 "another name",
                                 static_cast<uint32_t>(c)));
  }
  // Spaces at either end are dropped (so " Ann" is Ann), on the bytes.
  size_t first = 0, last = cps.size();
  while (first < last && is_space(cps[first])) ++first;
  while (last > first && is_space(cps[last - 1])) --last;
  if (first == last) throw ApiError(400, fmt::format("the name is empty: type 1 to {} characters", kMaxNameChars));
  if (last - first > kMaxNameChars)
    throw ApiError(400,
                   fmt::format("the name is {} characters long; at most {} are allowed", last - first, kMaxNameChars));
  // Re-encode the trimmed code points (they are valid).
  std::string out;
  for (size_t i = first; i < last; ++i) {
    const char32_t c = cps[i];
    if (c < 0x80)
      out += static_cast<char>(c);
    else if (c < 0x800) {
      out += static_cast<char>(0xC0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      out += static_cast<char>(0xE0 | (c >> 12));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (c >> 18));
      out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    }
  }
  return out;
}

std::string name_key(std::string_view name) {
  std::string k(name);
  for (char& c : k)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return k;
}

std::string player_key_hash(std::string_view key) {
  return sha256_hex(std::string("boneyard-player-key:") + std::string(key));
}

std::string hash_password(std::string_view password) {
  if (password.size() < 8 || password.size() > 256)
    throw ApiError(400, fmt::format("the password must be 8 to 256 bytes long; it is {}", password.size()));
  ensure_sodium();
  char out[crypto_pwhash_STRBYTES];
  if (crypto_pwhash_str_alg(out, password.data(), password.size(), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                            crypto_pwhash_MEMLIMIT_INTERACTIVE, crypto_pwhash_ALG_ARGON2ID13) != 0)
    throw ApiError(503, "the server has not enough memory to hash the password now; try again");
  return out;
}

bool password_matches(const std::string& encoded, std::string_view password) {
  if (encoded.empty() || password.size() > 256) return false;
  ensure_sodium();
  return crypto_pwhash_str_verify(encoded.c_str(), password.data(), password.size()) == 0;
}

}  // namespace boneyard::server

// ---------------------------------------------------------------- Players

namespace boneyard::server {

using nlohmann::json;

namespace {
// The i-th name tried for a taken one: "Ann", "Ann 2", "Ann 3"... cut (by
// code points) so the suffix fits the length limit.
std::string with_suffix(const std::string& name, int i) {
  if (i == 1) return name;
  const std::string suffix = fmt::format(" {}", i);
  std::vector<size_t> starts;  // where each code point starts
  for (size_t b = 0; b < name.size(); ++b)
    if ((static_cast<unsigned char>(name[b]) & 0xC0) != 0x80) starts.push_back(b);
  const size_t keep = std::min(starts.size(), kMaxNameChars - suffix.size());
  std::string base = keep < starts.size() ? name.substr(0, starts[keep]) : name;
  while (!base.empty() && base.back() == ' ') base.pop_back();
  return base + suffix;
}

std::string string_field(const json& body, const char* key) {
  if (!body.contains(key) || !body[key].is_string()) throw ApiError(400, fmt::format("'{}' must be a string", key));
  return body[key].get<std::string>();
}
}  // namespace

std::optional<SeatPerson> Players::person_of(const json& who) {
  if (!who.is_object()) return std::nullopt;
  if (who.contains("key")) {
    const std::string key = string_field(who, "key");
    if (key.empty() || key.size() > 128) throw ApiError(400, "'key' must be a player key (from POST /api/players)");
    auto p = stored([&] { return db_.player_by_key(player_key_hash(key)); });
    if (!p) throw ApiError(403, "this player key is not known here: make a player with POST /api/players");
    return SeatPerson{p->name, p->id};
  }
  if (who.contains("name")) return SeatPerson{check_name(string_field(who, "name")), ""};
  return std::nullopt;
}

bool Players::seat(Table& t, int seat, const SeatPerson& p) {
  Seat& s = t.seat_at(seat);
  if (t.over()) return false;  // a finished game's names are its record's
  if (!s.player_id.empty()) {
    if (p.player_id.empty() || s.player_id == p.player_id) return false;
    throw ApiError(409, "this seat is already held by another player");
  }
  if (s.name == p.name && p.player_id.empty()) return false;
  s.name = p.name;
  s.player_id = p.player_id;
  t.notice(seat, fmt::format("seat {} is {}", seat, p.name));
  return true;
}

void Players::view(const Table& t, json& m) {
  for (int k = 0; k < t.n; ++k) {
    const Seat& s = t.seat_at(k);
    const size_t u = static_cast<size_t>(k);
    m["seats"][u]["name"] = s.name.empty() ? json(nullptr) : json(s.name);
    m["seats"][u]["player_id"] = s.player_id.empty() ? json(nullptr) : json(s.player_id);
  }
}

json Players::create(const json& body) {
  const std::string wanted = check_name(string_field(body, "name"));
  std::string password;
  if (body.contains("password")) password = hash_password(string_field(body, "password"));
  const std::string key = random_hex(24);
  std::lock_guard lk(m_);
  std::string name;
  for (int i = 1; name.empty(); ++i) {
    if (i > 1000) throw ApiError(409, "this name and a thousand like it are taken: choose another");
    const std::string candidate = with_suffix(wanted, i);
    if (!stored([&] { return db_.player_by_name(name_key(candidate)); })) name = candidate;
  }
  Write w;
  w.player = StoredPlayer{random_hex(8), name, password, static_cast<int64_t>(std::time(nullptr))};
  w.key_hash = player_key_hash(key);
  const std::string id = w.player->id;
  stored([&] {
    db_.write(std::move(w));
    return 0;
  });
  return {{"id", id}, {"key", key}, {"name", name}};
}

json Players::login(const json& body) {
  const std::string name = string_field(body, "name");
  const std::string password = string_field(body, "password");
  std::optional<StoredPlayer> p;
  try {
    p = stored([&] { return db_.player_by_name(name_key(check_name(name))); });
  } catch (const ApiError& e) {
    if (e.status != 400) throw;
  }
  // One answer for an unknown name and a wrong password: names are public,
  // which of them have a password is not.
  if (!p || !password_matches(p->password, password)) throw ApiError(401, "no player has this name and password");
  const std::string key = random_hex(24);  // a key for this device; the others stay valid
  Write w;
  w.player = *p;
  w.player_exists = true;
  w.key_hash = player_key_hash(key);
  stored([&] {
    db_.write(std::move(w));
    return 0;
  });
  return {{"id", p->id}, {"key", key}, {"name", p->name}};
}

json Players::set_password(const std::string& id, const json& body) {
  const std::string key = string_field(body, "key");
  const std::string password = string_field(body, "password");
  std::optional<StoredPlayer> p;
  if (!key.empty() && key.size() <= 128) p = stored([&] { return db_.player_by_key(player_key_hash(key)); });
  // Only the player's own key may change its password; which ids exist is
  // public, so an unknown id and a wrong key answer the same.
  if (!p || p->id != id)
    throw ApiError(403, "this key is not this player's: only the player's own key may set its password");
  p->password = hash_password(password);
  Write w;
  w.player = *p;
  w.player_exists = true;
  w.set_password = true;
  stored([&] {
    db_.write(std::move(w));
    return 0;
  });
  return {{"id", p->id}, {"name", p->name}, {"password", true}};
}

json Players::page(const std::string& id) {
  std::optional<StoredPlayer> p;
  if (id.size() <= 64) p = stored([&] { return db_.player(id); });
  if (!p) throw ApiError(404, fmt::format("no player '{}'", id.substr(0, 64)));
  json games = json::array();
  for (const auto& g : stored([&] { return db_.player_games(id, 20); })) {
    json j{{"table", g.table}, {"game", g.game}, {"seat", g.seat}, {"over", g.over}, {"created", g.created}};
    if (g.over) {
      j["replay"] = fmt::format("/api/tables/{}/replay", g.table);
      j["replay_page"] = fmt::format("/?replay={}", g.table);
    }
    games.push_back(std::move(j));
  }
  return {{"id", p->id}, {"name", p->name}, {"created", p->created}, {"ratings", ratings_.of(p->id)}, {"games", games}};
}

}  // namespace boneyard::server
