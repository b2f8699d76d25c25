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
void ensure_sodium() {
  static const bool ready = sodium_init() >= 0;
  if (!ready) throw ApiError(500, "the password library (libsodium) could not start");
}
}  // namespace

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

const std::string& dummy_password_hash() {
  // A password nobody knows, hashed once with the same parameters.
  static const std::string h = hash_password(random_hex(16));
  return h;
}

bool password_matches(const std::string& encoded, std::string_view password) {
  // A password too long to be one is checked against the dummy all the same
  // (the same work), and never matches.
  if (password.size() > 256) {
    [[maybe_unused]] const int same_work =
        crypto_pwhash_str_verify(dummy_password_hash().c_str(), password.data(), 256);
    return false;
  }
  if (encoded.empty()) return false;
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
  if (who.contains("name")) {
    // A guest may not take a registered player's name (compared by
    // skeleton: "Аnn" in Cyrillic is Ann's too).
    std::string name = check_name(string_field(who, "name"));
    if (stored([&] { return db_.player_by_name(name_key(name)); }))
      throw ApiError(409, fmt::format("the name '{}' belongs to a registered player: sign in as that player, or "
                                      "choose another name",
                                      name));
    return SeatPerson{std::move(name), ""};
  }
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
  // A guest's name stays once the game has begun (it may be given then if
  // the seat had none): the other seats know who they play.
  if (p.player_id.empty() && t.started && !s.name.empty()) return false;
  s.name = p.name;
  s.player_id = p.player_id;
  t.notice(seat, fmt::format("seat {} is {}", seat, p.name));
  return true;
}

bool Players::network(Table& t, int seat, const std::string& client) {
  Seat& s = t.seat_at(seat);
  if (!t.rated || client.empty() || s.player_id.empty() || s.address == client) return false;
  if (t.started && !s.address.empty()) return false;  // the network it sat down from stays
  s.address = client;
  if (!t.not_rated.empty()) return true;
  for (int k = 0; k < t.n; ++k) {
    const Seat& o = t.seat_at(k);
    if (k == seat || o.address != client || o.player_id.empty() || o.player_id == s.player_id) continue;
    t.not_rated = not_rated_one_network(static_cast<size_t>(std::min(k, seat)), static_cast<size_t>(std::max(k, seat)));
    t.notice(-1, t.not_rated);
    break;
  }
  return true;
}

void Players::view(const Table& t, json& m) {
  // A rated table with a guest (a seat without a player key) will not be
  // rated: said while it can still be seen, not only at the end.
  // Two people of one network (Players::network): "other" is the second.
  if (t.rated && !t.not_rated.empty())
    for (int a = 0; a < t.n && !m.contains("unrated"); ++a)
      for (int b = a + 1; b < t.n && !m.contains("unrated"); ++b)
        if (!t.seat_at(a).address.empty() && t.seat_at(a).address == t.seat_at(b).address)
          m["unrated"] = {{"why", "network"}, {"seat", a}, {"other", b}};
  if (t.rated)
    for (int k = 0; k < t.n && !m.contains("unrated"); ++k) {
      const Seat& s = t.seat_at(k);
      if (s.human() && s.player_id.empty() && (s.joined || !s.name.empty()))
        m["unrated"] = {{"why", "guest"}, {"seat", k}};
    }
  for (int k = 0; k < t.n; ++k) {
    const Seat& s = t.seat_at(k);
    const size_t u = static_cast<size_t>(k);
    m["seats"][u]["name"] = s.name.empty() ? json(nullptr) : json(s.name);
    m["seats"][u]["player_id"] = s.player_id.empty() ? json(nullptr) : json(s.player_id);
    m["seats"][u]["rating"] = s.rating;  // null: none
    if (!s.rated.is_null()) m["seats"][u]["rated"] = s.rated;
    if (s.bot_moves > 0) m["seats"][u]["bot_moves"] = s.bot_moves;
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
  // One answer, and one hash's work, for an unknown name, a player without
  // a password and a wrong password: names are public, which of them have a
  // password is not (nor may the time taken tell it).
  const bool has_password = p && !p->password.empty();
  const bool matches = password_matches(has_password ? p->password : dummy_password_hash(), password);
  if (!has_password || !matches) throw ApiError(401, "no player has this name and password");
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
  const bool sign_out_others = body.value("sign_out_others", json(false)) == json(true);
  p->password = hash_password(password);
  Write w;
  w.player = *p;
  w.player_exists = true;
  w.set_password = true;
  // The other devices' keys go with the old password when asked (one
  // that was lost or seen by someone else).
  w.revoke_keys = sign_out_others;
  w.keep_key_hash = player_key_hash(key);
  stored([&] {
    db_.write(std::move(w));
    return 0;
  });
  return {{"id", p->id}, {"name", p->name}, {"password", true}, {"signed_out_others", sign_out_others}};
}

json Players::sign_out_everywhere(const std::string& id, const json& body) {
  const std::string key = string_field(body, "key");
  std::optional<StoredPlayer> p;
  if (!key.empty() && key.size() <= 128) p = stored([&] { return db_.player_by_key(player_key_hash(key)); });
  if (!p || p->id != id)
    throw ApiError(403, "this key is not this player's: only the player's own key may sign it out everywhere");
  // Every key goes, this one too; this device gets a new one.
  const std::string fresh = random_hex(24);
  Write w;
  w.player = *p;
  w.player_exists = true;
  w.revoke_keys = true;
  w.key_hash = player_key_hash(fresh);
  stored([&] {
    db_.write(std::move(w));
    return 0;
  });
  return {{"id", p->id}, {"key", fresh}, {"name", p->name}};
}

json Players::page(const std::string& id) {
  std::optional<StoredPlayer> p;
  if (id.size() <= 64) p = stored([&] { return db_.player(id); });
  if (!p) throw ApiError(404, fmt::format("no player '{}'", id.substr(0, 64)));
  json games = json::array();
  // Wins and losses over the last 500 games (the page lists 20 of them).
  int won = 0, lost = 0, drawn = 0;
  for (const auto& g : stored([&] { return db_.player_games(id, 500); })) {
    won += g.result == "won";
    lost += g.result == "lost";
    drawn += g.result == "drawn";
    if (games.size() >= 20) continue;
    json j{{"table", g.table}, {"game", g.game}, {"seat", g.seat}, {"over", g.over}, {"created", g.created}};
    if (!g.result.empty()) j["result"] = g.result;
    if (g.over) {
      j["replay"] = fmt::format("/api/tables/{}/replay", g.table);
      j["replay_page"] = fmt::format("/?replay={}", g.table);
    }
    games.push_back(std::move(j));
  }
  return {{"id", p->id},           {"name", p->name},
          {"created", p->created}, {"ratings", ratings_.of(p->id)},
          {"games", games},        {"stats", {{"won", won}, {"lost", lost}, {"drawn", drawn}}}};
}

}  // namespace boneyard::server
