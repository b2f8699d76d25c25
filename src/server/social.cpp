// Social (social.h): follows, blocks, reports, challenges.
#include "server/social.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ctime>

#include "core/game.h"
#include "server/bots.h"
#include "server/fairness.h"
#include "server/http_routes.h"
#include "server/players.h"
#include "server/quickmatch.h"
#include "server/ratings.h"

namespace boneyard::server {

using json = nlohmann::json;
using SteadyClock = std::chrono::steady_clock;

namespace {
// A string field of at most `max` bytes, or 400 naming it.
std::string text_field(const json& b, const char* k, size_t max, const char* what) {
  if (!b.contains(k) || !b[k].is_string() || b[k].get<std::string>().empty())
    throw ApiError(400, fmt::format("'{}' must be {}", k, what));
  const std::string v = b[k].get<std::string>();
  if (v.size() > max) throw ApiError(400, fmt::format("'{}' is too long: {} at most", k, what));
  return v;
}
bool flag(const json& b, const char* k, bool dflt) {
  if (!b.contains(k)) return dflt;
  if (!b[k].is_boolean()) throw ApiError(400, fmt::format("'{}' must be true or false", k));
  return b[k].get<bool>();
}
int64_t now_s() { return static_cast<int64_t>(std::time(nullptr)); }
}  // namespace

Social::Social(Storage& db, std::string operator_token, Create create) : db_(db), create_(std::move(create)) {
  // Kept hashed: compared by hash, so the time taken says nothing of it.
  if (!operator_token.empty()) operator_hash_ = sha256_hex(operator_token);
  for (const auto& r : db_.relations("", kRelBlock)) blocks_.emplace(r.from, r.to);
}

StoredPlayer Social::by_key(const json& body) {
  if (!body.is_object()) throw ApiError(400, "the body must be a JSON object");
  const std::string key = text_field(body, "key", 128, "your player's key (make a player first)");
  auto p = stored([&] { return db_.player_by_key(player_key_hash(key)); });
  if (!p) throw ApiError(403, "this key is no player's: make a player first, or sign in again");
  std::lock_guard lk(m_);
  const auto now = SteadyClock::now();
  // Who was seen long ago is offline anyway: the map keeps the recent ones.
  if (seen_.size() >= 100000)
    std::erase_if(seen_, [&](const auto& e) { return now - e.second >= std::chrono::seconds(kOnlineS); });
  seen_[p->id] = now;
  return *p;
}

StoredPlayer Social::other(const StoredPlayer& me, const json& body, const char* verb) {
  const std::string id = text_field(body, "player", 64, "the id of a player");
  if (id == me.id) throw ApiError(400, fmt::format("you cannot {} yourself", verb));
  auto p = stored([&] { return db_.player(id); });
  if (!p) throw ApiError(404, fmt::format("there is no player '{}'", id));
  return *p;
}

int Social::take(Bucket& b, double per_hour) {
  const auto now = SteadyClock::now();
  if (b.at == SteadyClock::time_point{}) b.tokens = per_hour;
  b.tokens = std::min(per_hour, b.tokens + std::chrono::duration<double>(now - b.at).count() * per_hour / 3600.0);
  b.at = now;
  if (b.tokens < 1) return static_cast<int>(std::ceil((1 - b.tokens) * 3600.0 / per_hour));
  b.tokens -= 1;
  return 0;
}

bool Social::apart(const std::string& a, const std::string& b) {
  std::lock_guard lk(m_);
  return blocks_.count({a, b}) || blocks_.count({b, a});
}

bool Social::online(const std::string& player_id) {
  std::lock_guard lk(m_);
  auto it = seen_.find(player_id);
  return it != seen_.end() && SteadyClock::now() - it->second < std::chrono::seconds(kOnlineS);
}

json Social::follow(const json& body) {
  const StoredPlayer me = by_key(body);
  const StoredPlayer them = other(me, body, "follow");
  const bool on = flag(body, "on", true);
  if (on && stored([&] { return db_.relations(me.id, kRelFollow); }).size() >= kMaxFollows)
    throw ApiError(409,
                   fmt::format("you follow {} players, the most you may: stop following someone first", kMaxFollows));
  stored([&] {
    db_.set_relation(me.id, them.id, kRelFollow, on);
    return 0;
  });
  return {{"player", them.id}, {"name", them.name}, {"following", on}};
}

json Social::block(const json& body) {
  const StoredPlayer me = by_key(body);
  const StoredPlayer them = other(me, body, "block");
  const bool on = flag(body, "on", true);
  if (on && stored([&] { return db_.relations(me.id, kRelBlock); }).size() >= kMaxBlocks)
    throw ApiError(409, fmt::format("you block {} players, the most you may: unblock someone first", kMaxBlocks));
  stored([&] {
    db_.set_relation(me.id, them.id, kRelBlock, on);
    return 0;
  });
  std::lock_guard lk(m_);
  if (on) {
    blocks_.emplace(me.id, them.id);
    // Their challenges to me, and mine to them, end here.
    for (auto& [id, c] : challenges_)
      if (c.status == "pending" && ((c.from == them.id && c.to == me.id) || (c.from == me.id && c.to == them.id)))
        c.status = "declined";
  } else {
    blocks_.erase({me.id, them.id});
  }
  return {{"player", them.id}, {"name", them.name}, {"blocked", on}};
}

json Social::report(const json& body, const std::string& client) {
  const StoredPlayer me = by_key(body);
  const StoredPlayer them = other(me, body, "report");
  const std::string reason = text_field(body, "reason", 16, "\"cheating\" or \"abuse\"");
  if (reason != "cheating" && reason != "abuse") throw ApiError(400, "'reason' must be \"cheating\" or \"abuse\"");
  std::string text;
  if (body.contains("text")) {
    if (!body["text"].is_string()) throw ApiError(400, "'text' must be what happened, in words");
    text = body["text"].get<std::string>();
    std::vector<char32_t> cps;
    if (!decode_utf8(text, cps)) throw ApiError(400, "'text' is not valid UTF-8 text");
    if (cps.size() > kReportTextMax)
      throw ApiError(400, fmt::format("'text' is too long: {} characters at most", kReportTextMax));
    for (char32_t c : cps)
      if ((c < 0x20 && c != '\n') || (c >= 0x7f && c <= 0x9f) || is_bidi_control(c))
        throw ApiError(400, "'text' contains a control character: say what happened in plain text");
  }
  std::string table;
  if (body.contains("table") && !body["table"].is_null()) {
    table = text_field(body, "table", 64, "the id of the game you report");
    bool sat = false;
    for (const auto& g : stored([&] { return db_.player_games(them.id, 200); })) sat |= g.table == table;
    if (!sat) throw ApiError(400, fmt::format("{} did not play at the game '{}'", them.name, table));
  }
  {
    std::lock_guard lk(m_);
    const std::string once = me.id + "|" + them.id + "|" + table;
    if (reported_.count(once))
      throw ApiError(409, fmt::format("you have already reported {} for {}: the operator has it", them.name,
                                      table.empty() ? "this" : "this game"));
    int wait = take(report_rate_[me.id], kReportsPerHour);
    if (!wait && !client.empty()) wait = take(report_rate_["addr:" + client], 4.0 * kReportsPerHour);
    if (wait)
      throw RateLimited(wait, fmt::format("too many reports in a short time (at most {} an hour from you, {} from "
                                          "your address): try again in {} min (the ones you sent are kept)",
                                          kReportsPerHour, 4 * kReportsPerHour, (wait + 59) / 60));
    reported_.insert(once);
  }
  StoredReport r{0, me.id, them.id, table, reason, text, now_s(), "", ""};
  stored([&] {
    db_.add_report(r);
    return 0;
  });
  return {
      {"reported", them.id}, {"name", them.name}, {"reason", reason}, {"table", table.empty() ? json() : json(table)}};
}

json Social::reports(const json& body) {
  if (operator_hash_.empty())
    throw ApiError(404, "this server keeps no operator token: start it with --operator-token-file to read reports");
  if (!body.is_object() || !body.contains("token") || !body["token"].is_string() ||
      sha256_hex(body["token"].get<std::string>()) != operator_hash_)
    throw ApiError(403, "this is not the operator's token");
  json out = json::array();
  for (const auto& r : stored([&] { return db_.reports(200); })) {
    json j{{"id", r.id},
           {"reporter", r.reporter},
           {"reporter_name", r.reporter_name},
           {"reported", r.reported},
           {"reported_name", r.reported_name},
           {"reason", r.reason},
           {"text", r.text},
           {"at", r.at},
           {"table", r.table.empty() ? json() : json(r.table)}};
    if (!r.table.empty()) {
      j["record"] = fmt::format("/api/tables/{}/record", r.table);
      j["replay_page"] = fmt::format("/?replay={}", r.table);
    }
    out.push_back(std::move(j));
  }
  return {{"reports", out}};
}

void Social::expire() {
  const auto now = SteadyClock::now();
  for (auto it = challenges_.begin(); it != challenges_.end();)
    if (now - it->second.at > std::chrono::seconds(kChallengeLifeS))
      it = challenges_.erase(it);
    else
      ++it;
}

json Social::challenge_json(const Challenge& c, const std::string& me) const {
  json j{{"id", c.id},
         {"kind", c.kind},
         {"game", c.game},
         {"options", c.options},
         {"rated", c.rated},
         {"level", c.level},
         {"status", c.status},
         {"from", {{"id", c.from}, {"name", c.from_name}}},
         {"to", {{"id", c.to}, {"name", c.to_name}}}};
  // The challenger's seat, to the challenger only.
  if (c.status == "accepted" && me == c.from && !c.table.empty())
    j["seat"] = {{"table", c.table}, {"seat", c.seat}, {"token", c.token}};
  return j;
}

json Social::challenge(const json& body) {
  const StoredPlayer me = by_key(body);
  const StoredPlayer them = other(me, body, "challenge");
  std::string kind = "game";
  if (body.contains("kind")) {
    kind = body["kind"].is_string() ? body["kind"].get<std::string>() : "";
    if (kind != "game" && kind != "partner")
      throw ApiError(400, "'kind' must be \"game\" (a game against them) or \"partner\" (play as partners)");
  }
  const std::string game = text_field(body, "game", 64, "the game to play");
  const auto [entry, options, seats] = game_terms(game, body);
  if (kind == "partner" && !partnership_game(*entry, options))
    throw ApiError(400, fmt::format("{} is not played in partnerships: challenge them to a game instead", game));
  std::string level = "casual";
  if (body.contains("level")) {
    level = body["level"].is_string() ? body["level"].get<std::string>() : "";
    if (std::find(bot_levels().begin(), bot_levels().end(), level) == bot_levels().end())
      throw ApiError(400, "'level' (the bots in the other seats) must be beginner, casual, strong or expert");
  }
  const bool rated = flag(body, "rated", false);
  (void)seats;
  if (apart(me.id, them.id)) throw ApiError(403, fmt::format("you cannot challenge {}", them.name));
  std::lock_guard lk(m_);
  expire();
  size_t mine = 0;
  for (const auto& [id, c] : challenges_) {
    if (c.status != "pending") continue;
    if (c.from == me.id) ++mine;
    if (c.from == me.id && c.to == them.id)
      throw ApiError(409, fmt::format("you have already challenged {}: wait for their answer", them.name));
  }
  if (mine >= kChallengesOut)
    throw ApiError(429, fmt::format("you have {} challenges waiting for an answer, the most you may", mine));
  Challenge c;
  c.id = random_hex(8);
  c.from = me.id;
  c.from_name = me.name;
  c.to = them.id;
  c.to_name = them.name;
  c.kind = kind;
  c.game = game;
  c.level = level;
  c.options = options;
  c.rated = rated;
  c.at = SteadyClock::now();
  challenges_[c.id] = c;
  return challenge_json(c, me.id);
}

json Social::accept(const std::string& id, const json& body, const std::string& client) {
  const StoredPlayer me = by_key(body);
  Challenge c;
  {
    std::lock_guard lk(m_);
    expire();
    auto it = challenges_.find(id);
    if (it == challenges_.end() || (it->second.to != me.id && it->second.from != me.id))
      throw ApiError(404, "there is no such challenge (a challenge lasts 10 minutes)");
    if (it->second.to != me.id) throw ApiError(403, "only the player challenged may accept");
    if (it->second.status != "pending")
      throw ApiError(409, fmt::format("this challenge was {} already", it->second.status));
    it->second.status = "accepting";
    c = it->second;
  }
  json out = {{"challenge", id}, {"kind", c.kind}};
  if (c.kind == "partner") {
    // Both ask quick match "with" each other (it seats them as partners).
    out["quickmatch"] = {{"game", c.game}, {"options", c.options}, {"rated", c.rated}, {"with", c.from}};
  } else {
    const GameEntry& entry = find_game(c.game);
    OptionList opts;
    for (const auto& [k, v] : c.options.items()) opts.emplace_back(k, v.get<std::string>());
    const size_t n = static_cast<size_t>(entry.make(opts, 0)->num_seats());
    std::vector<std::string> seats(n, "bot:" + c.level);
    seats[0] = seats[1] = "human";  // seats 0 and 1 face each other in every game
    SeatPeople people{std::vector<std::string>(n), std::vector<std::string>(n), {}};
    people.names[0] = c.from_name;
    people.player_ids[0] = c.from;
    people.names[1] = me.name;
    people.player_ids[1] = me.id;
    json made;
    try {
      made = create_(json{{"game", c.game}, {"options", c.options}, {"seats", seats}, {"rated", c.rated}}, &people,
                     client);
    } catch (...) {
      std::lock_guard lk(m_);
      if (auto it = challenges_.find(id); it != challenges_.end()) it->second.status = "pending";
      throw;
    }
    c.table = made["id"];
    c.token = made["tokens"]["0"];
    c.seat = 0;
    out["table"] = c.table;
    out["seat"] = 1;
    out["token"] = made["tokens"]["1"];
  }
  std::lock_guard lk(m_);
  if (auto it = challenges_.find(id); it != challenges_.end()) {
    it->second.status = "accepted";
    it->second.table = c.table;
    it->second.token = c.token;
    it->second.seat = c.seat;
    it->second.at = SteadyClock::now();  // the challenger has 10 minutes to see it
  }
  return out;
}

json Social::decline(const std::string& id, const json& body) {
  const StoredPlayer me = by_key(body);
  std::lock_guard lk(m_);
  expire();
  auto it = challenges_.find(id);
  if (it == challenges_.end() || (it->second.to != me.id && it->second.from != me.id))
    throw ApiError(404, "there is no such challenge (a challenge lasts 10 minutes)");
  if (it->second.status != "pending")
    throw ApiError(409, fmt::format("this challenge was {} already", it->second.status));
  it->second.status = it->second.from == me.id ? "withdrawn" : "declined";
  return challenge_json(it->second, me.id);
}

json Social::mine(const std::string& key) {
  const StoredPlayer me = by_key(json{{"key", key}});
  json following = json::array(), blocked = json::array();
  const auto follows = stored([&] { return db_.relations(me.id, kRelFollow); });
  for (const auto& r : follows)
    following.push_back({{"id", r.to}, {"name", r.name}, {"online", online(r.to)}, {"since", r.at}});
  for (const auto& r : stored([&] { return db_.relations(me.id, kRelBlock); }))
    blocked.push_back({{"id", r.to}, {"name", r.name}});
  json to_me = json::array(), from_me = json::array();
  {
    std::lock_guard lk(m_);
    expire();
    for (const auto& [id, c] : challenges_) {
      if (c.to == me.id && c.status == "pending") to_me.push_back(challenge_json(c, me.id));
      if (c.from == me.id) from_me.push_back(challenge_json(c, me.id));
    }
  }
  return {{"id", me.id},
          {"name", me.name},
          {"following", following},
          {"blocked", blocked},
          {"challenges", {{"to_me", to_me}, {"from_me", from_me}}}};
}

}  // namespace boneyard::server
