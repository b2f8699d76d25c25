#include "server/analysis.h"

#include <mutex>

#include "record/review.h"
#include "server/fairness.h"
#include "server/replay.h"

namespace boneyard::server {

using nlohmann::json;

json Analysis::record(Table& t) {
  std::unique_lock lk(t.m);
  t.wait_stored(lk);
  if (!t.broken.empty()) throw ApiError(500, t.broken);
  if (!t.finished()) throw ApiError(409, "the game is not over: its record is available when it ends");
  json r = t.session->record();
  r["players"] = t.players();
  r["names"] = t.names();  // the display names ("" where none)
  r["fairness"] = {{"commitment", t.commitment}, {"secret", t.secret},
                   {"entropies", t.entropies()}, {"seed", t.seed},
                   {"derivation", kDerivation},  {"provably_fair", t.provably_fair}};
  r["fairness"]["seed_text"] = std::to_string(t.seed);  // JavaScript reads 64-bit numbers rounded
  r["table"] = t.id;
  return r;
}

json Analysis::fairness(Table& t) {
  std::unique_lock lk(t.m);
  t.wait_stored(lk);
  json f{{"table", t.id},
         {"commitment", t.commitment},
         {"derivation", kDerivation},
         {"entropy_closed", t.started},
         {"over", t.finished()},
         {"provably_fair", t.provably_fair}};
  if (t.finished()) {
    f["secret"] = t.secret;
    f["entropies"] = t.entropies();
    f["seed"] = t.seed;
    f["seed_text"] = std::to_string(t.seed);  // the same, exact in JavaScript
  }
  return f;
}

json Analysis::hint(Table& t, const std::string& token) {
  const std::string& id = t.id;
  std::unique_ptr<AnyState> st;
  int seat;
  size_t version;
  uint64_t seed;
  {
    std::lock_guard lk(t.m);
    seat = t.seat_for(token);
    if (seat < 0) throw ApiError(403, "a spectator gets no hints");
    // A rated game is the player's own play (docs/server.md, "Fair play").
    if (t.rated) throw ApiError(403, "no hints at a rated table: a rated game is each player's own play");
    if (!t.session) throw ApiError(409, "the game has not started");
    if (t.over()) throw ApiError(409, "the game is over");
    if (!t.session->state().actor().acts(seat)) throw ApiError(409, "not your turn");
    st = t.session->state().clone();
    version = t.session->events().size();
    seed = review_seed(t.seed, version);  // the review's seed for this decision: its numbers
  }
  // Thinking happens outside the table's lock, on a copy, from this seat's
  // observation only: the coach's expected values in the player's unit
  // (record/review.h), as the terminal's hint and the protocol's `values`
  // give them for the same seed, with the review's default budget.
  const ExpectedValues ev = expected_values(*st, seat, seed);
  json moves = json::array();
  // Each value with the standard error of its gap to the first: a gap
  // within noise_se of them is too close to call (as the review grades).
  for (size_t i = 0; i < ev.moves.size(); ++i)
    moves.push_back(
        {{"move", ev.moves[i].first}, {"value", ev.moves[i].second}, {"se", i < ev.se.size() ? ev.se[i] : 0.0}});
  return {{"table", id},         {"seat", seat},    {"version", version},   {"bot", ev.method},
          {"method", ev.method}, {"unit", ev.unit}, {"noise_se", kNoiseSe}, {"moves", moves}};
}

json Analysis::review(Table& t, const std::string& token, int hand, std::optional<int> seat) {
  const std::string& id = t.id;
  nlohmann::json rec;
  int want;
  {
    std::unique_lock lk(t.m);
    t.wait_stored(lk);
    if (!t.broken.empty()) throw ApiError(500, t.broken);
    const int mine = t.seat_for(token);
    if (!t.session) throw ApiError(409, "the game has not started: no hand to review");
    const bool over = t.finished();
    if (mine < 0 && !over)
      throw ApiError(403, "the game is in progress: a spectator gets the review once the game is over");
    // A review of a finished hand would coach the hands still to come.
    if (t.rated && !over)
      throw ApiError(403, "a rated game is reviewed once it is over: until then it is each player's own play");
    want = seat.value_or(mine);
    if (want < 0) throw ApiError(400, "name the seat to review with seat=N");
    if (want >= t.n) throw ApiError(400, fmt::format("seat {} does not exist; seats are 0..{}", want, t.n - 1));
    if (want != mine && !over)
      throw ApiError(403, "the game is in progress: you may review only your own seat until it is over");
    const int done = static_cast<int>(t.session->state().hands().size());
    if (done == 0) throw ApiError(409, "no hand has finished yet");
    if (hand == 0) hand = done;
    if (hand < 0) throw ApiError(400, fmt::format("hand {} does not exist; hands are numbered from 1", hand));
    if (hand > done)
      throw ApiError(
          409, fmt::format("hand {} is not finished: {} hand{} finished so far", hand, done, done == 1 ? "" : "s"));
    auto it = t.reviews.find({want, hand});
    if (it != t.reviews.end()) return it->second;
    rec = t.session->record();
  }
  // The solving happens outside the table's lock, on the record.
  json r = review_json(review_hand(rec, want, hand));
  r["table"] = id;
  std::lock_guard lk(t.m);
  t.reviews[{want, hand}] = r;
  return r;
}

json Analysis::replay(Table& t, size_t from) {
  const std::string& id = t.id;
  nlohmann::json rec;
  {
    std::unique_lock lk(t.m);
    t.wait_stored(lk);
    if (!t.broken.empty()) throw ApiError(500, t.broken);
    if (!t.finished()) throw ApiError(409, "the game is still in progress: its replay opens when the game is over");
    rec = t.session->record();
    rec["players"] = t.players();
  }
  json r = replay_steps(rec, from);
  r["table"] = id;
  {
    std::lock_guard lk(t.m);
    r["names"] = t.names();
  }
  return r;
}

}  // namespace boneyard::server
