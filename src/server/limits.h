#pragma once
// Fair shares per client address (docs/server.md, "Limits"): token buckets
// for the requests that cost the server (creating a table, a hint, a review,
// a replay) and counts of open connections, in total and per address. One
// address never takes what the others need; a refusal says when to retry.
#include <algorithm>
#include <chrono>
#include <mutex>
#include <string>
#include <unordered_map>

namespace boneyard::server {

// What an address may spend: `rate` per second, up to `burst` at once.
struct RateLimit {
  double rate = 1, burst = 10;
};

struct LimitsConfig {
  RateLimit create{0.5, 20};     // POST /api/tables
  RateLimit think{1, 10};        // hints, reviews and replays (they think or build large answers)
  RateLimit player{0.05, 10};    // new players and logins (a name each; a login hashes a password)
  RateLimit chat{2, 10};         // chat lines from one address (several players may share one)
  RateLimit chat_token{1, 5};    // chat lines from one token (a seat, or a table's spectators)
  RateLimit sit_player{0.1, 5};  // seats taken from the lobby by one player key (besides its address's share)
  // Password logins to one name, from every address together: 10, then one
  // each 6 minutes (a guesser with many addresses gets 240 a day; the owner's
  // signed-in devices keep their keys).
  RateLimit login_name{1.0 / 360, 10};
  // New players made from one address: 20, then six an hour (throwaway
  // accounts for rating farming need many; a household needs a few).
  RateLimit new_player{1.0 / 600, 20};
  size_t max_connections = 4096;  // in total (kept below the descriptor limit at start)
  size_t max_connections_per_address = 64;
  // IPv6 addresses share their limits by network: one person or household
  // usually holds a whole /64 (and can pick any address in it at will).
  // 128: each address alone. IPv4 addresses are each their own.
  int ipv6_prefix = 64;
};

// The key an address's fair shares are kept under: an IPv4 address as it
// is, an IPv6 one as its network of `ipv6_prefix` bits ("2001:db8:1:2::/64";
// an IPv4-mapped one as its IPv4 address); anything that is no address (a
// token's or a name's key) unchanged.
std::string address_network(const std::string& addr, int ipv6_prefix);

// A limit in a player's words, for the refusal that names it: "at most 20 at
// once, then one every 2 s" ("then 2 a second"; "one every 6 min").
std::string limit_text(const RateLimit& l);

// The kinds of costly request.
// chat_token is counted per token: take() with chat_key(token); sit_player
// per player key: take() with player_limit_key(key); login_name per name:
// take() with login_name_key(the name's compared form).
enum class Cost { create, think, player, chat, chat_token, sit_player, login_name, new_player };
inline constexpr int kCosts = 8;
// The key a token's own chat bucket is kept under (no address starts with '#').
inline std::string chat_key(const std::string& token) { return "#" + token; }
// The key a player key's own buckets are kept under (nor with '@').
inline std::string player_limit_key(const std::string& key) { return "@" + key; }
// The key a name's password logins are counted under (nor with '!').
inline std::string login_name_key(const std::string& name) { return "!" + name; }

class Limits {
 public:
  explicit Limits(LimitsConfig cfg) : cfg_(cfg) {}
  // The key an address is counted under (address_network with the config's prefix).
  std::string network(const std::string& addr) const { return address_network(addr, cfg_.ipv6_prefix); }
  // Takes a request of kind `c` costing `cost` tokens for `addr`; 0 when
  // allowed, else the whole seconds to wait (for Retry-After).
  int take(const std::string& addr, Cost c, double cost = 1);
  // A connection from addr: false (and nothing counted) at either cap.
  // per_address false (a trusted proxy's): the total cap only.
  bool open(const std::string& addr, bool per_address = true);
  void close(const std::string& addr);
  size_t connections() const;
  const LimitsConfig& config() const { return cfg_; }
  // The limit of kind `c` in words (limit_text).
  std::string limit_text(Cost c) const;

 private:
  struct Bucket {
    double tokens = -1;  // -1: not used yet (full)
    std::chrono::steady_clock::time_point last;
  };
  struct Address {
    Bucket buckets[kCosts];
    size_t connections = 0;
  };
  void prune(std::chrono::steady_clock::time_point now);
  LimitsConfig cfg_;
  mutable std::mutex m_;
  std::unordered_map<std::string, Address> by_addr_;
  size_t connections_ = 0;
  std::chrono::steady_clock::time_point last_prune_{};
};

// A token bucket: rate per second, up to burst (one WebSocket's messages).
class TokenBucket {
 public:
  TokenBucket(double rate, double burst)
      : rate_(rate), burst_(burst), tokens_(burst), last_(std::chrono::steady_clock::now()) {}
  RateLimit limit() const { return {rate_, burst_}; }
  bool take() {
    const auto now = std::chrono::steady_clock::now();
    tokens_ = std::min(burst_, tokens_ + rate_ * std::chrono::duration<double>(now - last_).count());
    last_ = now;
    if (tokens_ < 1) {
      ++refused_;
      return false;
    }
    tokens_ -= 1;
    refused_ = 0;
    return true;
  }
  int refused_in_row() const { return refused_; }

 private:
  double rate_, burst_, tokens_;
  std::chrono::steady_clock::time_point last_;
  int refused_ = 0;
};

// The connection cap, kept below the descriptor limit (raised to the hard
// limit first; says so on stderr when it lowers the cap).
size_t connection_cap(size_t wanted);

}  // namespace boneyard::server
