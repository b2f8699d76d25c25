#pragma once
// Ratings (docs/server.md, "Ratings"): a rated table's end updates a
// Glicko-2 rating per game family for each player at it and for each bot
// level at it; the leaderboards and a player's ratings read them.
//
// Owns: the ratings queued for the storage and not stored yet (read before
// the storage's, so two games ending together both count). Lock: its own
// m_, taken after a table's lock, never before one; never held while a
// write is submitted.
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/game.h"
#include "server/glicko2.h"
#include "server/storage.h"
#include "server/table.h"

namespace boneyard::server {

// A partnership game: seats k and k+2 are partners (Texas 42; the line
// games played in teams). options: the table's own.
bool partnership_game(const GameEntry& g, const nlohmann::json& options);

// Fair play (docs/server.md): a rating is provisional while its RD (as of
// now) is kProvisionalRd or more, or it has fewer than kSettledGames rated
// games; a game against a provisional opponent moves a rating by
// kProvisionalOpponentWeight of Glicko-2's change; the leaderboard lists
// settled ratings with a game in the last kLeaderboardRecentS seconds.
inline constexpr int kSettledGames = 10;
inline constexpr double kProvisionalOpponentWeight = 0.25;
inline constexpr int64_t kLeaderboardRecentS = 30 * 86400;
inline bool provisional_rating(const StoredRating& r) {
  return r.rd >= glicko2::kProvisionalRd || r.games < kSettledGames;
}

class Ratings {
 public:
  // period_s: Glicko-2's rating period for time without games.
  Ratings(Storage& db, double period_s) : db_(db), period_s_(period_s) {}

  // What a rated game's end stores with its table's meta (rated_done).
  struct Update {
    std::vector<StoredRating> ratings;
    std::vector<std::pair<std::string, std::string>> keys;  // (subject, family): in the cache until stored
  };
  // With t.m held, once the rated game is over and stored: marks it rated
  // (rated_done) and says what to store, or nothing (not rated, already
  // done, a seat not held by a player). The caller stores it, then calls
  // settled() with the write's outcome.
  std::optional<Update> rate(Table& t);
  void settled(const Update& u, const std::string& error);

  // What a table shows beside a seat's name: the subject's rating in the
  // game's family as of now ({"rating", "rd", "provisional", "games"}).
  // Read before the table's lock is taken.
  nlohmann::json shown(const std::string& subject, const std::string& game);
  // Per seat of a new table: its people's (and bot levels') ratings.
  std::vector<nlohmann::json> shown_seats(const std::string& game, const std::vector<std::string>& players,
                                          const std::vector<std::string>& player_ids);

  nlohmann::json leaderboard(const std::string& family_or_game);
  // A subject's ratings per family, with their history.
  nlohmann::json of(const std::string& subject);

 private:
  StoredRating current(const std::string& subject, const std::string& family);  // with m_ held
  // The rating as of `now` (seconds): its RD widened by the whole rating
  // periods since its last rated game.
  StoredRating as_of(const StoredRating& r, int64_t now) const;
  Storage& db_;
  const double period_s_;
  std::mutex m_;
  std::map<std::pair<std::string, std::string>, StoredRating> cache_;  // queued, not yet stored
};

}  // namespace boneyard::server
