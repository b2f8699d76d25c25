#pragma once
// Social (docs/server.md, "Friends, challenges, reports"): what players do
// about each other. A player follows others (and sees who of them is
// online), blocks one (their chat lines are hidden for the blocker, and
// quick match never seats the two together), reports one for cheating or
// abuse (kept for the operator, with the game attached), and challenges
// one to a game on chosen terms, or invites one as a partner for quick
// match in a partnership game (accept or decline).
//
// Owns: the blocks in memory (loaded at start, changed with the store's),
// who was seen lately (online), the challenges (in memory: a challenge
// lives 10 minutes), and the report rates. Lock: its own m_, never held
// while a table is made (the Hub's create) or a table's lock is taken;
// apart() is called with quick match's lock held (it takes only m_).
#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "server/storage.h"
#include "server/table.h"

namespace boneyard::server {

// The limits of what one player keeps and sends (docs/server.md).
inline constexpr size_t kMaxFollows = 500, kMaxBlocks = 500;
inline constexpr size_t kReportTextMax = 500;  // characters
inline constexpr int kReportsPerHour = 5;      // per reporter, and 20 per address
inline constexpr size_t kChallengesOut = 5;    // pending challenges a player may have sent
inline constexpr int kChallengeLifeS = 600;
inline constexpr int kOnlineS = 90;  // seen this recently: online

class Social {
 public:
  // Makes a challenge's table (the Hub's create) with these people.
  using Create =
      std::function<nlohmann::json(const nlohmann::json& body, const SeatPeople* people, const std::string& client)>;
  // operator_token: what the operator's requests carry ("" : none are served).
  Social(Storage& db, std::string operator_token, Create create);

  // GET /api/social?key=K: whom I follow (with online and last seen), whom
  // I block, my challenges both ways. Marks me online.
  nlohmann::json mine(const std::string& key);
  // {"key", "player", "on"?}: follow / block (on false: stop).
  nlohmann::json follow(const nlohmann::json& body);
  nlohmann::json block(const nlohmann::json& body);
  // {"key", "player", "reason": "cheating"|"abuse", "table"?, "text"?}.
  nlohmann::json report(const nlohmann::json& body, const std::string& client);
  // {"token"}: the newest reports, for the operator (403 otherwise).
  nlohmann::json reports(const nlohmann::json& body);
  // {"key", "player", "game", "options"?, "rated"?, "level"?, "kind"?:
  // "game"|"partner"}: a challenge (or a partner's invitation).
  nlohmann::json challenge(const nlohmann::json& body);
  // {"key"}: the challenged accepts (a game: its table is made, each gets
  // their seat; a partner: both are told to ask quick match "with" the
  // other) or declines; the challenger withdraws with decline.
  nlohmann::json accept(const std::string& id, const nlohmann::json& body, const std::string& client);
  nlohmann::json decline(const std::string& id, const nlohmann::json& body);

  // Whether one of the two blocked the other (quick match keeps them apart).
  bool apart(const std::string& a, const std::string& b);
  // Whether the player was seen in the last kOnlineS seconds.
  bool online(const std::string& player_id);

 private:
  struct Challenge {
    std::string id, from, from_name, to, to_name, kind, game, level;
    nlohmann::json options;
    bool rated = false;
    std::chrono::steady_clock::time_point at;
    std::string status = "pending";  // accepted | declined | withdrawn
    std::string table, token;        // accepted (a game): the challenger's seat
    int seat = -1;
  };
  struct Bucket {
    double tokens = 0;
    std::chrono::steady_clock::time_point at;
  };
  StoredPlayer by_key(const nlohmann::json& body);                                           // 403 for an unknown key
  StoredPlayer other(const StoredPlayer& me, const nlohmann::json& body, const char* verb);  // 404, 400 for oneself
  // With m_ held: 0 when one was taken, else the seconds until one is there.
  static int take(Bucket& b, double per_hour);
  void expire();  // with m_ held
  nlohmann::json challenge_json(const Challenge& c, const std::string& me) const;
  Storage& db_;
  std::string operator_hash_;
  Create create_;
  std::mutex m_;
  std::set<std::pair<std::string, std::string>> blocks_;  // (blocker, blocked)
  std::map<std::string, std::chrono::steady_clock::time_point> seen_;
  std::map<std::string, Challenge> challenges_;
  std::map<std::string, Bucket> report_rate_;  // per reporter, and per "addr:" address
  std::set<std::string> reported_;             // reporter|reported|table: one report each
};

}  // namespace boneyard::server
