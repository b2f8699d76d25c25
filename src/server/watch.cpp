// Watch (docs/server.md, "Watch"): the live games anyone may watch, best
// rated first, and a player's live games on their page. A game is listed
// while it is being played (started, not over) when its table is public
// (the lobby's), was made by quick match, or was made with "listed": true;
// a private table (a game among friends by link) never is. The list gives
// each game's spectator token only: what a spectator sees is the public
// view (docs/server.md, "Secrecy"), never a seat's token or a hand.
#include <algorithm>

#include "server/tables.h"

namespace boneyard::server {

using json = nlohmann::json;

namespace {
// The most games the list shows, and how often it is built again at most.
constexpr size_t kWatchMax = 50;
constexpr auto kWatchEvery = std::chrono::seconds(1);

struct Live {
  std::string table, game, spectate;
  bool rated = false;
  int clock_s = 0;
  uint64_t version = 0;
  int64_t created = 0;
  std::vector<std::string> players, names, player_ids;  // per seat ("human" or "bot:LEVEL")
};

// With t.m held: the table's game as the list shows it, when it may be watched.
std::optional<Live> live_of(const Table& t) {
  if (!t.started || !t.session || t.over() || !t.broken.empty()) return std::nullopt;
  if (!(t.is_public || t.spec.value("listed", false))) return std::nullopt;
  Live l{t.id, t.game, t.spectate, t.rated, t.clock_s, t.session->events().size(), t.created, {}, {}, {}};
  bool people = false;
  for (const auto& s : t.seats) {
    l.players.push_back(s.player);
    l.names.push_back(s.name);
    l.player_ids.push_back(s.player_id);
    people |= s.human();
  }
  if (!people) return std::nullopt;  // bots among themselves (benchmarks, tools) are not shown
  return l;
}
}  // namespace

json Hub::watch() {
  std::lock_guard wl(watch_m_);
  const auto now = Clock::now();
  if (!watch_cache_.is_null() && now - watch_at_ < kWatchEvery) return watch_cache_;
  std::vector<std::shared_ptr<Table>> all;
  {
    std::shared_lock lk(tables_m_);
    all.reserve(tables_.size());
    for (const auto& [id, t] : tables_) all.push_back(t);
  }
  std::vector<Live> lives;
  for (const auto& t : all) {
    std::lock_guard lk(t->m);
    if (auto l = live_of(*t)) lives.push_back(std::move(*l));
  }
  // Ratings are read off every table's lock. Best rated first: a game's
  // best player's rating (provisional ones count half as much above 1500,
  // so a lucky newcomer does not top the list), then the newest.
  struct Row {
    double best;
    json j;
  };
  std::vector<Row> rows;
  for (const auto& l : lives) {
    const std::string& family = rating_family(find_game(l.game));
    double best = 0;
    json seats = json::array();
    for (size_t k = 0; k < l.players.size(); ++k) {
      json s{{"seat", k}, {"name", l.names[k].empty() ? json(nullptr) : json(l.names[k])}};
      if (l.players[k] != "human") s["bot"] = l.players[k].substr(4);
      if (!l.player_ids[k].empty()) {
        s["player_id"] = l.player_ids[k];
        if (auto r = stored([&] { return db_.rating(l.player_ids[k], family); })) {
          const bool prov = provisional_rating(*r);
          s["rating"] = static_cast<int>(r->rating + 0.5);
          s["provisional"] = prov;
          best = std::max(best, prov ? 1500 + (r->rating - 1500) / 2 : r->rating);
        }
      }
      seats.push_back(std::move(s));
    }
    rows.push_back({best,
                    {{"table", l.table},
                     {"game", l.game},
                     {"spectate", l.spectate},
                     {"watch_page", fmt::format("/?t={}&k={}", l.table, l.spectate)},
                     {"rated", l.rated},
                     {"clock_s", l.clock_s > 0 ? json(l.clock_s) : json(nullptr)},
                     {"version", l.version},
                     {"created", l.created},
                     {"seats", seats}}});
  }
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    if (a.best != b.best) return a.best > b.best;
    return a.j["created"].get<int64_t>() > b.j["created"].get<int64_t>();
  });
  json games = json::array();
  for (size_t i = 0; i < rows.size() && i < kWatchMax; ++i) games.push_back(std::move(rows[i].j));
  watch_cache_ = {{"type", "watch"}, {"games", games}, {"count", lives.size()}};
  watch_at_ = now;
  return watch_cache_;
}

json Hub::player(const std::string& id) {
  json page = players_.page(id);
  std::vector<std::shared_ptr<Table>> all;
  {
    std::shared_lock lk(tables_m_);
    for (const auto& [tid, t] : tables_) all.push_back(t);
  }
  json live = json::array();
  for (const auto& t : all) {
    std::lock_guard lk(t->m);
    const auto l = live_of(*t);
    if (l && std::find(l->player_ids.begin(), l->player_ids.end(), id) != l->player_ids.end())
      live.push_back({{"table", l->table},
                      {"game", l->game},
                      {"spectate", l->spectate},
                      {"watch_page", fmt::format("/?t={}&k={}", l->table, l->spectate)}});
  }
  page["live"] = live;
  return page;
}

// Social's page of mine, with who of those I follow is at a table now:
// online while connected to a game being played, and its link when that
// game may be watched.
json Hub::social_mine(const std::string& key) {
  json me = social_.mine(key);
  if (me["following"].empty()) return me;
  std::map<std::string, json> playing;
  std::vector<std::shared_ptr<Table>> all;
  {
    std::shared_lock lk(tables_m_);
    for (const auto& [tid, t] : tables_) all.push_back(t);
  }
  for (const auto& t : all) {
    std::lock_guard lk(t->m);
    if (!t->started || t->over()) continue;
    const auto l = live_of(*t);
    for (const auto& s : t->seats)
      if (!s.player_id.empty() && s.connections > 0) {
        json p{{"table", t->id}, {"game", t->game}};
        if (l) p["watch_page"] = fmt::format("/?t={}&k={}", l->table, l->spectate);
        playing[s.player_id] = p;
      }
  }
  for (auto& f : me["following"])
    if (auto it = playing.find(f["id"].get<std::string>()); it != playing.end()) {
      f["online"] = true;
      f["playing"] = it->second;
    }
  return me;
}

}  // namespace boneyard::server
