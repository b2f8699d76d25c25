#pragma once
// Analysis of a table (docs/server.md): the hint (every legal move's value
// for the seat to act), the review of a finished hand, the replay and the
// record of a finished game, and its provably fair deal's proof.
//
// Owns nothing but the reviews already made (in each Table, under its
// lock). Each call takes the table's lock itself, copies what it needs and
// thinks off the lock; the network layer runs the thinking ones on its slow
// pool (http_routes.cpp's table of routes).
#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "server/table.h"

namespace boneyard::server {

class Analysis {
 public:
  // Every legal move's value for the seat to act, by the strongest fair bot
  // from that seat's own view (the strong level's budget): the app's hint.
  static nlohmann::json hint(Table& t, const std::string& token);
  // The graded moves of one seat in one finished hand (record/review.h).
  // A seat's token: its own seat, any finished hand. Anyone with the
  // spectator token, or any seat's when `seat` names another: only once
  // the game is over. hand 0: the last finished hand.
  static nlohmann::json review(Table& t, const std::string& token, int hand, std::optional<int> seat);
  // One page, from step `from`, of every step of a finished game with every
  // hand shown (replay_steps); refused (409) while the game is in progress.
  static nlohmann::json replay(Table& t, size_t from);
  static nlohmann::json record(Table& t);
  static nlohmann::json fairness(Table& t);
};

}  // namespace boneyard::server
