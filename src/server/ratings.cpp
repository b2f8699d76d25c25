// Ratings (issue 25, 7; ratings.h): a rated table's end updates a Glicko-2 rating per
// game family for each player at it, and for each bot level at it (so the
// levels' ratings are measured from their games). Partnership games rate
// both partners by the team's result against the other team; the others
// rate each player against each other one (a win over every player ranked
// below at the end). Each game is one rating period; time without games
// widens the deviation too: each whole --rating-period (a day) since the
// last rated game is a period without games (Ratings::as_of).
#include "server/ratings.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <iostream>

#include "bots/levels.h"
#include "server/glicko2.h"

namespace boneyard::server {

using nlohmann::json;

namespace {

double score_of(double mine, double theirs) { return mine > theirs ? 1 : mine < theirs ? 0 : 0.5; }

glicko2::Rating as_glicko(const StoredRating& r) { return {r.rating, r.rd, r.volatility}; }

json rating_json(const StoredRating& r) {
  return {{"rating", r.rating}, {"rd", r.rd}, {"provisional", provisional_rating(r)}, {"games", r.games}};
}

}  // namespace

bool partnership_game(const GameEntry& g, const json& options) { return g.partnership && g.partnership(options); }

// With m_ held: the subject's rating as the writes queued so far leave it
// (a new one: 1500, RD 350).
StoredRating Ratings::current(const std::string& subject, const std::string& family) {
  if (auto it = cache_.find({subject, family}); it != cache_.end()) return it->second;
  if (auto r = stored([&] { return db_.rating(subject, family); })) return *r;
  StoredRating r;
  r.subject = subject;
  r.family = family;
  // A bot level starts from its published rating (docs/bots.md, "Levels").
  if (subject.starts_with("bot:"))
    if (auto p = level_rating(family, std::string_view(subject).substr(4))) r.rating = *p;
  return r;
}

StoredRating Ratings::as_of(const StoredRating& r, int64_t now) const {
  if (r.last <= 0 || now <= r.last || !(period_s_ > 0)) return r;
  const double periods = std::floor(static_cast<double>(now - r.last) / period_s_);
  StoredRating out = r;
  out.rd = glicko2::idle(as_glicko(r), static_cast<long>(std::min(periods, 1e9))).rd;
  return out;
}

json Ratings::shown(const std::string& subject, const std::string& game) {
  if (subject.empty()) return nullptr;
  std::string family;
  try {
    family = rating_family(find_game(game));
  } catch (const Error&) {
    return nullptr;
  }
  std::lock_guard lk(m_);
  const StoredRating r = as_of(current(subject, family), static_cast<int64_t>(std::time(nullptr)));
  json j = rating_json(r);
  // A bot level before its first rated game here stands at its published
  // rating, measured in duplicate arenas: known, not a newcomer's guess (it
  // read "1500?" beside the home page's "Casual bot 1500").
  if (r.games == 0 && subject.starts_with("bot:") && level_rating(family, std::string_view(subject).substr(4))) {
    j["provisional"] = false;
    j["measured"] = true;
  }
  return j;
}

std::vector<json> Ratings::shown_seats(const std::string& game, const std::vector<std::string>& players,
                                       const std::vector<std::string>& player_ids) {
  std::vector<json> out(players.size());
  for (size_t k = 0; k < players.size(); ++k)
    out[k] = players[k] == "human" ? (k < player_ids.size() ? shown(player_ids[k], game) : json())
                                   : shown(players[k], game);  // "bot:LEVEL": the level's own rating
  return out;
}

std::optional<Ratings::Update> Ratings::rate(Table& t) {
  if (!t.rated || t.rated_done || !t.session) return std::nullopt;
  t.rated_done = true;
  if (!t.not_rated.empty()) return std::nullopt;  // said when it was decided (Players::network)
  if (t.stopped) {
    t.notice(-1, "this game is not rated: it was stopped at the server's limit on a game's length");
    return std::nullopt;
  }
  const GameEntry& entry = find_game(t.game);
  const std::string family = rating_family(entry);
  // Who sat where: a player's id, a bot level's name; a seat nobody holds
  // as a player makes the game unrated (nobody to rate there).
  std::vector<std::string> subject(static_cast<size_t>(t.n));
  for (int k = 0; k < t.n; ++k) {
    const size_t u = static_cast<size_t>(k);
    subject[u] = t.human(k) ? t.seat_at(k).player_id : t.seat_at(k).player;
    if (subject[u].empty()) {
      t.notice(-1, fmt::format("this game is not rated: seat {} was not held by a player", k));
      return std::nullopt;
    }
  }
  const std::vector<double> ret = t.session->state().returns();
  // A person whose moves the takeover bot made (away, or out of time) did
  // not play this game themselves: it counts as their loss, whatever the
  // bot did (docs/server.md, "Fair play"); a partner left with the bot is
  // not rated for it.
  std::vector<bool> absent(static_cast<size_t>(t.n));
  for (int k = 0; k < t.n; ++k) {
    absent[static_cast<size_t>(k)] = t.human(k) && t.seat_at(k).bot_moves > 0;
    if (absent[static_cast<size_t>(k)])
      t.notice(-1, fmt::format("seat {}'s moves were made by a bot for {}: the game counts as a loss for them", k,
                               t.seat_at(k).name.empty() ? "its player" : t.seat_at(k).name));
  }
  std::lock_guard lk(m_);
  // Each one as of now: the deviation widened by the time since its last game.
  const int64_t now = static_cast<int64_t>(std::time(nullptr));
  std::vector<StoredRating> before;
  for (const auto& s : subject) before.push_back(as_of(current(s, family), now));
  std::vector<glicko2::Rating> after(before.size());
  std::vector<bool> fresh(before.size());  // provisional as of now
  for (size_t i = 0; i < before.size(); ++i) fresh[i] = provisional_rating(before[i]);
  const bool teams = t.n == 4 && partnership_game(entry, t.spec.value("options", json::object()));
  if (teams) {
    const std::vector<glicko2::Rating> a{as_glicko(before[0]), as_glicko(before[2])},
        b{as_glicko(before[1]), as_glicko(before[3])};
    const bool away_a = absent[0] || absent[2], away_b = absent[1] || absent[3];
    const double sa = away_a && !away_b ? 0 : away_b && !away_a ? 1 : score_of(ret[0], ret[1]);
    const auto na = glicko2::update_team(a, b, sa), nb = glicko2::update_team(b, a, 1 - sa);
    after = {na[0], nb[0], na[1], nb[1]};
  } else {
    for (size_t i = 0; i < before.size(); ++i) {
      std::vector<glicko2::Game> games;
      for (size_t j = 0; j < before.size(); ++j)
        if (j != i && subject[j] != subject[i])
          games.push_back({as_glicko(before[j]), absent[i] && !absent[j]   ? 0.0
                                                 : absent[j] && !absent[i] ? 1.0
                                                                           : score_of(ret[i], ret[j])});
      after[i] = glicko2::update(as_glicko(before[i]), games);
    }
  }
  // A subject at several seats (two bots of one level) is rated once, from
  // its first seat, and not at all when it sat on both sides of a team game.
  Update u;
  for (size_t i = 0; i < subject.size(); ++i) {
    bool first = true, both_sides = false;
    for (size_t j = 0; j < subject.size(); ++j)
      if (subject[j] == subject[i]) {
        first &= j >= i;
        both_sides |= teams && (i % 2) != (j % 2);
      }
    if (!first || both_sides) continue;
    // A partner of one who left (the bot finished their side's game): unrated.
    if (teams && !absent[i] && absent[(i + 2) % 4]) continue;
    StoredRating r = before[i];
    // A provisional opponent (a new account, or one back after long) moves
    // a rating only a part of what Glicko-2 alone would: throwaway accounts
    // cannot feed another's rating (docs/server.md, "Fair play").
    bool against_fresh = false;
    for (size_t j = 0; j < subject.size(); ++j)
      if (subject[j] != subject[i] && (!teams || (i % 2) != (j % 2))) against_fresh |= fresh[j];
    const double weight = against_fresh ? kProvisionalOpponentWeight : 1.0;
    r.rating = before[i].rating + weight * (after[i].rating - before[i].rating);
    r.from = before[i].rating;
    r.rd = after[i].rd;
    r.volatility = after[i].volatility;
    r.last = now;
    ++r.games;
    cache_[{r.subject, family}] = r;
    // The seat's change, for the game's end (Players::view): the rating
    // before the game as shown at the table (as of now) and after it.
    t.seat_at(static_cast<int>(i)).rated = {{"rating", r.rating},
                                            {"rd", r.rd},
                                            {"provisional", provisional_rating(r)},
                                            {"change", r.rating - before[i].rating}};
    u.keys.emplace_back(r.subject, family);
    u.ratings.push_back(r);
  }
  t.notice(-1, "the game is rated: the ratings are updated");
  return u;
}

void Ratings::settled(const Update& u, const std::string& error) {
  // Stored (or not): the database is the truth again for these.
  std::lock_guard l(m_);
  for (const auto& k : u.keys) cache_.erase(k);
  if (!error.empty()) std::cerr << "boneyard serve: ratings not stored: " << error << "\n";
}

json Ratings::leaderboard(const std::string& what) {
  std::string family = what;
  const std::vector<std::string> families = rating_families();
  if (std::find(families.begin(), families.end(), what) == families.end()) {
    try {
      family = rating_family(find_game(what));  // a game's name: its family
    } catch (const Error&) {
      throw ApiError(400, fmt::format("'game' must be a game family ({}) or a game's name; got '{}'",
                                      fmt::join(families, ", "), what.substr(0, 64)));
    }
  }
  // Shown as of now: an absent player's deviation has grown (and may make
  // the rating provisional again), which also moves it down the board.
  const int64_t now = static_cast<int64_t>(std::time(nullptr));
  auto board = [&](bool of_bots, int limit) {
    std::vector<StoredRating> rs =
        stored([&] { return db_.leaderboard(family, of_bots, of_bots ? limit : 10 * limit); });
    for (auto& r : rs) r = as_of(r, now);
    // Players are listed with a settled rating and a recent game only: a
    // provisional one (few games, or back after long) is not ranked yet.
    if (!of_bots)
      std::erase_if(rs,
                    [&](const StoredRating& r) { return provisional_rating(r) || now - r.last > kLeaderboardRecentS; });
    std::stable_sort(rs.begin(), rs.end(), [](const StoredRating& a, const StoredRating& b) {
      return a.rating - 2 * a.rd > b.rating - 2 * b.rd;
    });
    if (rs.size() > static_cast<size_t>(limit)) rs.resize(static_cast<size_t>(limit));
    return rs;
  };
  json players = json::array(), bots = json::array();
  for (const auto& r : board(false, 100)) {
    json j = rating_json(r);
    j["id"] = r.subject;
    j["name"] = r.name;
    players.push_back(j);
  }
  for (const auto& r : board(true, 10)) {
    json j = rating_json(r);
    j["level"] = r.subject.substr(4);
    j["bot"] = true;
    if (auto p = level_rating(family, r.subject.substr(4))) j["published_rating"] = *p;
    bots.push_back(j);
  }
  // Every level with its published rating, measured in duplicate arenas
  // (docs/bots.md, "Levels"), so a player can see which level matches them
  // before any bot of that level has played a rated game here.
  json levels = json::array();
  for (const auto& l : boneyard::bot_levels())
    if (auto p = level_rating(family, l)) levels.push_back({{"level", l}, {"bot", true}, {"published_rating", *p}});
  // Who is ranked, for the app to say (a player after one rated game looks for themselves).
  const json ranked_after{{"games", kSettledGames}, {"recent_days", kLeaderboardRecentS / 86400}};
  return {{"family", family}, {"players", players}, {"bots", bots}, {"levels", levels}, {"ranked_after", ranked_after}};
}

json Ratings::of(const std::string& subject) {
  json out = json::object();
  const int64_t now = static_cast<int64_t>(std::time(nullptr));
  for (const auto& r : stored([&] { return db_.ratings_of(subject); })) {
    json j = rating_json(as_of(r, now));
    j["history"] = json::array();
    for (const auto& p : stored([&] { return db_.rating_history(subject, r.family, 50); }))
      j["history"].push_back({{"table", p.table}, {"rating", p.rating}, {"rd", p.rd}, {"at", p.at}});
    out[r.family] = j;
  }
  return out;
}

}  // namespace boneyard::server
