#pragma once
// Quick match (docs/server.md, "Quick match"): players who ask for the same
// game and options wait together; as soon as they fill a table it is made,
// each seated; after quickmatch_wait_s the ones waiting get a table at once,
// bots of the first one's chosen level in the empty seats. In partnership
// games the partners are drawn at random, except two people who asked for
// each other ("with").
//
// Owns: the players waiting (or just seated), per player id, and the pools'
// counts, with the timer that looks at them. Each entry is also kept in the
// store (table quickmatch), so the queue outlives a restart and, with
// several nodes, the node that held it: the next holder of the match shard
// loads it (restore) and the waiting keep their place and their wait.
// Locks: store_m_ (one entry's writes in order), then m_; m_ is never held
// while a table is made (the Hub's create), a table's lock is taken or the
// store is written.
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>

#include "core/game.h"
#include "server/hub_config.h"
#include "server/players.h"
#include "server/storage.h"
#include "server/table.h"

namespace boost::asio {
class io_context;
}  // namespace boost::asio

namespace boneyard::server {

// A quick-match table always has a turn clock (one idle stranger must not
// hold the others for good): 30 s a move, and a bank of 60 s in the long
// games (Mexican Train, Texas 42), 30 s in the others. {move_s, bank_s}.
std::pair<int, int> quickmatch_clock(const GameEntry& g);

// A request's game and "options" (quick match, a challenge), checked by
// making the game: 400 with the game's own words when they make none.
struct GameTerms {
  const GameEntry* entry = nullptr;
  nlohmann::json options = nlohmann::json::object();  // as given, each value a string
  int seats = 0;
};
GameTerms game_terms(const std::string& game, const nlohmann::json& body);

class QuickMatch {
 public:
  // Makes a table (the Hub's create) for these seats and people.
  // client: the address the table is counted against (--strong-per-client).
  using Create =
      std::function<nlohmann::json(const nlohmann::json& body, const SeatPeople* people, const std::string& client)>;
  QuickMatch(boost::asio::io_context& ioc, const HubConfig& cfg, const std::atomic<bool>& stopping, Storage& db,
             Players& players, Create create)
      : ioc_(ioc), cfg_(cfg), stopping_(stopping), db_(db), players_(players), create_(std::move(create)) {}
  // {"key", "game", "options"?, "rated"?, "level"?, "with"?}: waits.
  // client: the asker's address; a rated table never seats two of one.
  nlohmann::json join(const nlohmann::json& body, const std::string& client = "");
  nlohmann::json status(const nlohmann::json& who);  // by the key
  nlohmann::json leave(const nlohmann::json& who);
  // Two players this says are apart (one blocked the other: social.h) never
  // sit at one table. Set once, before the first join.
  void keep_apart(std::function<bool(const std::string&, const std::string&)> apart) { apart_ = std::move(apart); }
  // Several nodes: the queue's writes go under the lease of its shard
  // (fence), and a write refused (fenced: another node took the shard)
  // hands the queue over. Set once, before the first join.
  void fence_with(std::function<std::optional<Write::Fence>()> fence, std::function<void()> fenced) {
    fence_ = std::move(fence);
    fenced_ = std::move(fenced);
  }
  // The queue as stored (this node now holds it), replacing what is here;
  // forget: another node holds it now. ready: loaded since the last forget.
  // A read that fails leaves quick match not ready (an empty queue here
  // would lose the stored one's places and be written over it) and is tried
  // again each second until it reads or the queue goes to another node;
  // problem() says why meanwhile (the health check shows it).
  void restore();
  void forget();
  bool ready() const { return ready_; }
  std::string problem() const;

 private:
  struct Seeker {
    std::string player_id, name, game, pool, level, with, client;
    nlohmann::json options;
    int seats = 0, clock_s = 0, bank_s = 0;
    bool teams = false, rated = false;
    std::chrono::steady_clock::time_point since;  // asked (or seated)
    bool forming = false, seated = false;         // a table being made; made
    std::string table, token;
    int seat = -1;
  };
  void arm();  // with m_ held: the next look at the pools
  // These players' entries as they are now, written to the store (absent
  // ones removed); a failed write is logged, the queue goes on in memory.
  void persist(const std::vector<std::string>& player_ids);
  static nlohmann::json to_json(const Seeker& s);
  static Seeker from_json(const nlohmann::json& j);
  // A table for the pool's waiting players: when they fill one, or (timed
  // out) for the ones waiting now with bots in the empty seats.
  void form(const std::string& pool, bool timed_out);
  // One read of the stored queue for the restore numbered `attempt`
  // (dropped once a later restore or a forget has come).
  void load(uint64_t attempt);
  boost::asio::io_context& ioc_;
  const HubConfig& cfg_;
  const std::atomic<bool>& stopping_;
  Storage& db_;
  Players& players_;
  Create create_;
  std::function<bool(const std::string&, const std::string&)> apart_;
  std::function<std::optional<Write::Fence>()> fence_;
  std::function<void()> fenced_;
  std::mutex store_m_;
  std::mutex m_;
  std::atomic<bool> ready_{false};
  std::atomic<uint64_t> attempt_{0};  // restores and forgets so far
  mutable std::mutex problem_m_;
  std::string problem_;  // why the stored queue could not be read ("" when it could)
  std::map<std::string, Seeker> seekers_;
  std::map<std::string, int> waiting_;  // per pool, those not seated yet
  bool ticking_ = false;
};

}  // namespace boneyard::server
