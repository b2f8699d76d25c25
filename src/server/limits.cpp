#include "server/limits.h"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <iostream>

namespace boneyard::server {

namespace {
const RateLimit& limit_of(const LimitsConfig& c, Cost k) {
  switch (k) {
    case Cost::create:
      return c.create;
    case Cost::think:
      return c.think;
    case Cost::player:
      return c.player;
    case Cost::chat:
      return c.chat;
    case Cost::sit_player:
      return c.sit_player;
    case Cost::login_name:
      return c.login_name;
    case Cost::new_player:
      return c.new_player;
    default:
      return c.chat_token;
  }
}
}  // namespace

std::string address_network(const std::string& addr, int ipv6_prefix) {
  in6_addr a6{};
  if (addr.find(':') == std::string::npos || inet_pton(AF_INET6, addr.c_str(), &a6) != 1) return addr;
  static constexpr unsigned char kMapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  char text[INET6_ADDRSTRLEN] = {};
  if (std::equal(kMapped, kMapped + 12, a6.s6_addr)) {
    inet_ntop(AF_INET, a6.s6_addr + 12, text, sizeof text);
    return text;
  }
  const int bits = std::clamp(ipv6_prefix, 0, 128);
  for (int i = 0; i < 16; ++i) {
    const int keep = std::clamp(bits - 8 * i, 0, 8);
    a6.s6_addr[i] &= static_cast<unsigned char>(0xff00 >> keep);
  }
  inet_ntop(AF_INET6, &a6, text, sizeof text);
  return bits == 128 ? std::string(text) : fmt::format("{}/{}", text, bits);
}

std::string limit_text(const RateLimit& l) {
  const double period = l.rate > 0 ? 1 / l.rate : 0;
  std::string then = l.rate <= 0     ? "none after"
                     : l.rate >= 1   ? fmt::format("then {:g} a second", l.rate)
                     : period < 120  ? fmt::format("then one every {:g} s", std::round(period))
                     : period < 3600 ? fmt::format("then one every {:g} min", std::round(period / 60))
                                     : fmt::format("then one every {:g} h", std::round(period / 360) / 10);
  return fmt::format("at most {:g} at once, {}", std::floor(l.burst), then);
}

std::string Limits::limit_text(Cost c) const { return server::limit_text(limit_of(cfg_, c)); }

int Limits::take(const std::string& addr_in, Cost c, double cost) {
  const std::string addr = network(addr_in);
  const auto now = std::chrono::steady_clock::now();
  const RateLimit& l = limit_of(cfg_, c);
  std::lock_guard lk(m_);
  prune(now);
  Bucket& b = by_addr_[addr].buckets[static_cast<int>(c)];
  if (b.tokens < 0)
    b.tokens = l.burst;
  else
    b.tokens = std::min(l.burst, b.tokens + l.rate * std::chrono::duration<double>(now - b.last).count());
  b.last = now;
  if (b.tokens >= cost) {
    b.tokens -= cost;
    return 0;
  }
  if (l.rate <= 0) return 3600;
  return std::max(1, static_cast<int>(std::ceil((cost - b.tokens) / l.rate)));
}

namespace {
// The last quarter of the total cap is kept for addresses holding fewer
// than kSmallShare connections: however many addresses hold their full
// share, a newcomer (or a household) still gets in. A trusted front door's
// connections (per_address false) count only towards the total.
constexpr size_t kSmallShare = 4;
}  // namespace

bool Limits::open(const std::string& addr_in, bool per_address) {
  const std::string addr = network(addr_in);
  std::lock_guard lk(m_);
  if (connections_ >= cfg_.max_connections) return false;
  Address& a = by_addr_[addr];
  if (per_address && a.connections >= cfg_.max_connections_per_address) return false;
  if (per_address && a.connections >= kSmallShare && connections_ >= cfg_.max_connections - cfg_.max_connections / 4)
    return false;
  ++a.connections;
  ++connections_;
  return true;
}

void Limits::close(const std::string& addr_in) {
  const std::string addr = network(addr_in);
  std::lock_guard lk(m_);
  auto it = by_addr_.find(addr);
  if (it == by_addr_.end() || it->second.connections == 0) return;
  --it->second.connections;
  --connections_;
}

size_t Limits::connections() const {
  std::lock_guard lk(m_);
  return connections_;
}

// Forgets addresses with no connection whose buckets have refilled: the map
// stays as small as the set of recently active clients.
void Limits::prune(std::chrono::steady_clock::time_point now) {
  if (now - last_prune_ < std::chrono::seconds(10) && by_addr_.size() < 100000) return;
  last_prune_ = now;
  for (auto it = by_addr_.begin(); it != by_addr_.end();) {
    bool idle = it->second.connections == 0;
    for (int k = 0; k < kCosts && idle; ++k) {
      const Bucket& b = it->second.buckets[k];
      const RateLimit& l = limit_of(cfg_, static_cast<Cost>(k));
      idle = b.tokens < 0 || b.tokens + l.rate * std::chrono::duration<double>(now - b.last).count() >= l.burst;
    }
    it = idle ? by_addr_.erase(it) : std::next(it);
  }
}

// The connection cap, kept below the descriptor limit (raised to the hard
// limit first): the database, logs and the bots' own files need some, and a
// process out of descriptors fails in ways nobody sees.
size_t connection_cap(size_t wanted) {
  rlimit rl{};
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return wanted;
  if (rl.rlim_cur < rl.rlim_max) {
    rlimit up = rl;
    up.rlim_cur = rl.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &up) == 0) rl = up;
  }
  if (rl.rlim_cur == RLIM_INFINITY) return wanted;
  const size_t room = rl.rlim_cur > 256 ? static_cast<size_t>(rl.rlim_cur) - 128 : static_cast<size_t>(rl.rlim_cur) / 2;
  if (wanted > room)
    std::cerr << fmt::format("boneyard serve: at most {} connections (the descriptor limit is {})", room, rl.rlim_cur)
              << std::endl;
  return std::min(wanted, room);
}

}  // namespace boneyard::server
