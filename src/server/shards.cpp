// Shards (shards.h): leases, fences, the fair share of each node.
#include "server/shards.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <iostream>

#include "server/fairness.h"
#include "server/table.h"

namespace boneyard::server {

namespace {
int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
constexpr const char* kNodePrefix = "node:";
}  // namespace

Shards::Shards(Storage& db, std::string node, int count, int lease_s)
    : db_(db), node_(std::move(node)), count_(std::clamp(count, 1, 256)), lease_s_(std::max(1, lease_s)) {}

Shards::~Shards() { stop_renewal(); }

std::string Shards::lease_name(int shard) { return fmt::format("shard:{:03}", shard); }

int Shards::shard_of(const std::string& id) const {
  if (id.size() >= 2 && hex_digit(id[0]) >= 0 && hex_digit(id[1]) >= 0)
    return (hex_digit(id[0]) * 16 + hex_digit(id[1])) % count_;
  uint32_t h = 2166136261u;  // FNV-1a
  for (unsigned char c : id) h = (h ^ c) * 16777619u;
  return static_cast<int>(h % static_cast<uint32_t>(count_));
}

bool Shards::owns(int shard) const {
  if (!enabled()) return true;
  std::lock_guard lk(m_);
  return owned_.count(shard) > 0;
}

std::optional<uint64_t> Shards::epoch(int shard) const {
  std::lock_guard lk(m_);
  auto it = owned_.find(shard);
  if (it == owned_.end()) return std::nullopt;
  return it->second;
}

std::optional<Write::Fence> Shards::fence(const std::string& table_id) const { return fence_of(shard_of(table_id)); }

std::optional<Write::Fence> Shards::fence_of(int s) const {
  if (!enabled()) return std::nullopt;
  std::lock_guard lk(m_);
  auto it = owned_.find(s);
  return Write::Fence{lease_name(s), node_, it == owned_.end() ? 0 : it->second};
}

std::string Shards::new_id() {
  std::string id = random_hex(8);
  if (!enabled()) return id;
  int s = -1;
  {
    std::lock_guard lk(m_);
    if (owned_.empty())
      throw ApiError(
          503, fmt::format("this server (node {}) holds no shard of tables yet: try again in a few seconds", node_));
    auto it = owned_.begin();
    std::advance(it, static_cast<long>(next_++ % owned_.size()));
    s = it->first;
  }
  // The first byte names the shard: s, plus a random multiple of count
  // below 256 (every byte value stays possible when count divides 256).
  const int spread = (255 - s) / count_ + 1;
  const int byte = s + count_ * (std::stoi(random_hex(1), nullptr, 16) % spread);
  id.replace(0, 2, fmt::format("{:02x}", byte));
  return id;
}

void Shards::fenced(const std::string& shard_name, const std::string& why) {
  std::lock_guard lk(m_);
  for (const auto& [s, epoch] : owned_)
    if (lease_name(s) == shard_name) {
      lost_.insert(s);
      std::cerr << "boneyard serve: node " << node_ << ": a write was refused (" << why << "): dropping shard " << s
                << "\n";
    }
  cv_.notify_all();
}

std::string Shards::owner_of(int shard) {
  auto l = db_.lease(lease_name(shard));
  if (!l || l->expires <= static_cast<int64_t>(std::time(nullptr))) return {};
  return l->owner;
}

void Shards::start(Hooks hooks) {
  if (!enabled()) return;
  hooks_ = std::move(hooks);
  tick();  // the first shards' tables are loaded before it returns (load() runs inline until the loader starts)
  {
    std::lock_guard lk(m_);
    loading_ = true;
  }
  loader_ = std::thread([this] { load_loop(); });
  thread_ = std::thread([this] { loop(); });
}

void Shards::stop_renewal() {
  {
    std::lock_guard lk(m_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  if (loader_.joinable()) loader_.join();
}

// Loading a shard's tables takes a while (hundreds of tables replayed from
// the store): never on the renewal thread, whose rounds must keep every
// other lease alive meanwhile (a node loading a dead node's 20 shards once
// let its own leases lapse, and the two survivors took each other's shards
// in turn). Requests for a table not loaded yet are answered 503.
void Shards::load(std::set<int> shards) {
  if (shards.empty() || !hooks_.take) return;
  {
    std::lock_guard lk(m_);
    if (loading_) {
      loads_.push_back(std::move(shards));
      cv_.notify_all();
      return;
    }
  }
  hooks_.take(shards);
}

void Shards::load_loop() {
  std::unique_lock lk(m_);
  while (true) {
    cv_.wait(lk, [&] { return stopping_ || !loads_.empty(); });
    if (stopping_) return;
    std::set<int> next = std::move(loads_.front());
    loads_.pop_front();
    for (auto it = next.begin(); it != next.end();)  // lost again meanwhile: nothing to load
      it = owned_.count(*it) ? std::next(it) : next.erase(it);
    lk.unlock();
    try {
      if (!next.empty()) hooks_.take(next);
    } catch (const std::exception& e) {
      // Never left unloaded: its tables would answer "being loaded" for
      // as long as this node holds the shard. Again in a second.
      std::cerr << "boneyard serve: node " << node_ << ": loading the tables of shards taken failed (again in a "
                << "second): " << e.what() << "\n";
      lk.lock();
      cv_.wait_for(lk, std::chrono::seconds(1), [&] { return stopping_; });
      loads_.push_back(std::move(next));
      continue;
    }
    lk.lock();
  }
}

void Shards::release_all() {
  if (!enabled()) return;
  std::map<int, uint64_t> owned;
  {
    std::lock_guard lk(m_);
    owned.swap(owned_);
  }
  try {
    for (const auto& [s, epoch] : owned) db_.release_lease(lease_name(s), node_);
    std::string heartbeat;
    {
      std::lock_guard lk(m_);
      heartbeat = heartbeat_;
    }
    if (!heartbeat.empty()) db_.release_lease(heartbeat, node_);
  } catch (const std::exception& e) {
    std::cerr << "boneyard serve: node " << node_ << ": could not give its leases back (they expire): " << e.what()
              << "\n";
  }
}

void Shards::set_address(const std::string& address) {
  std::lock_guard lk(m_);
  address_ = address;
}

std::string Shards::address_of(const std::string& node) {
  const std::string prefix = kNodePrefix + node + "@";
  const int64_t now = static_cast<int64_t>(std::time(nullptr));
  for (const Lease& l : db_.leases())
    if (l.shard.rfind(prefix, 0) == 0 && l.expires > now && l.present) return l.shard.substr(prefix.size());
  return {};
}

std::map<std::string, std::string> Shards::peers() {
  std::map<std::string, std::string> out;
  const int64_t now = static_cast<int64_t>(std::time(nullptr));
  for (const Lease& l : db_.leases()) {
    if (l.shard.rfind(kNodePrefix, 0) != 0 || l.expires <= now || !l.present || l.owner == node_) continue;
    const size_t at = l.shard.find('@');
    if (at != std::string::npos) out[l.owner] = l.shard.substr(at + 1);
  }
  return out;
}

void Shards::pause(bool paused) {
  std::lock_guard lk(m_);
  paused_ = paused;
}

void Shards::loop() {
  // A third of the lease: two renewals may fail (a slow store) before it
  // lapses. At most a second: a node that died is seen on the next round.
  const auto every = std::chrono::milliseconds(std::clamp(lease_s_ * 1000 / 3, 200, 1000));
  std::unique_lock lk(m_);
  while (!stopping_) {
    cv_.wait_for(lk, every, [&] { return stopping_ || (!lost_.empty() && !paused_); });
    if (stopping_) return;
    lk.unlock();
    try {
      tick();
    } catch (const std::exception& e) {
      // The store is down: no shard can be renewed, nor taken by another
      // node; the fences decide once it is back.
      std::cerr << "boneyard serve: node " << node_ << ": lease renewal failed: " << e.what() << "\n";
    }
    lk.lock();
  }
}

void Shards::lose(const std::set<int>& shards, const std::string& why) {
  if (shards.empty()) return;
  {
    std::lock_guard lk(m_);
    for (int s : shards) {
      owned_.erase(s);
      lost_.erase(s);
    }
    std::string list;
    for (int s : shards) list += (list.empty() ? "" : ",") + std::to_string(s);
    losses_.push_back(fmt::format("{}: shards {}: {}", static_cast<int64_t>(std::time(nullptr)), list, why));
    while (losses_.size() > 8) losses_.pop_front();
    std::cerr << "boneyard serve: node " << node_ << ": lost shards " << list << " (" << why
              << "): their tables leave this node\n";
  }
  if (hooks_.drop) hooks_.drop(shards, why);
}

// One round: the heartbeat, the fences refused, the renewals, the shards
// given back above the fair share, the free ones taken up to it.
void Shards::tick() {
  std::lock_guard round(tick_m_);
  std::set<int> refused;
  std::map<int, uint64_t> owned;
  {
    std::lock_guard lk(m_);
    if (paused_) return;
    refused = lost_;
    owned = owned_;
  }
  lose(refused, "a write was refused: another node holds the shard");
  for (int s : refused) owned.erase(s);
  {
    // The heartbeat, named with the address once it is known (the first
    // round runs before the server listens); a row of an older name goes.
    std::string name, old;
    {
      std::lock_guard lk(m_);
      name = kNodePrefix + node_ + (address_.empty() ? "" : "@" + address_);
      if (heartbeat_ != name) old.swap(heartbeat_);
      heartbeat_ = name;
    }
    if (!old.empty()) db_.release_lease(old, node_);
    db_.acquire_lease(name, node_, lease_s_);
  }
  const bool trust_absence = hold_presence();
  // Renewals: a lease lost, or taken back after it lapsed (another node may
  // have written meanwhile), drops its tables; the second is loaded again.
  std::set<int> gone, again;
  std::map<int, uint64_t> renewed;
  // Every lease still ours, in one statement; only the others (lapsed or
  // taken) are asked one by one.
  std::vector<std::string> names;
  std::map<std::string, uint64_t> epochs;
  for (const auto& [s, epoch] : owned) {
    names.push_back(lease_name(s));
    epochs[names.back()] = epoch;
  }
  std::set<std::string> kept;
  for (const Lease& l : db_.renew_leases(names, node_, lease_s_))
    if (epochs.count(l.shard) && epochs[l.shard] == l.epoch) kept.insert(l.shard);
  for (const auto& [s, epoch] : owned) {
    if (kept.count(lease_name(s))) continue;
    auto l = db_.acquire_lease(lease_name(s), node_, lease_s_);
    if (!l)
      gone.insert(s);
    else if (l->epoch != epoch) {
      again.insert(s);
      renewed[s] = l->epoch;
    }
  }
  lose(gone, "another node took the shard (this node's lease had lapsed)");
  lose(again, "the lease lapsed before its renewal");
  if (!again.empty()) {
    {
      std::lock_guard lk(m_);
      for (const auto& [s, e] : renewed) owned_[s] = e;
    }
    load(again);
  }
  // The fair share, from the live nodes' heartbeats.
  const int64_t now = static_cast<int64_t>(std::time(nullptr));
  const auto all = db_.leases();
  std::set<std::string> live{node_};  // owners of live heartbeats (a node's address may have changed)
  std::map<std::string, Lease> rows;
  for (const Lease& l : all) {
    if (l.shard.rfind(kNodePrefix, 0) == 0) {
      if (l.expires > now && (l.present || !trust_absence)) live.insert(l.owner);
    } else {
      rows[l.shard] = l;
    }
  }
  const int nodes = static_cast<int>(live.size());
  const size_t fair = static_cast<size_t>((count_ + std::max(1, nodes) - 1) / std::max(1, nodes));
  {
    std::unique_lock lk(m_);
    if (owned_.size() > fair) {
      std::set<int> extra;
      for (auto it = owned_.rbegin(); it != owned_.rend() && owned_.size() - extra.size() > fair; ++it)
        extra.insert(it->first);
      lk.unlock();
      // Dropped before the leases go: a write still queued is refused once
      // another node takes the shard, or stored before it does (the fence
      // holds the lease row), never after.
      lose(extra, fmt::format("given back: {} nodes share {} shards", nodes, count_));
      for (int s : extra) db_.release_lease(lease_name(s), node_);
      return;
    }
  }
  std::set<int> taken;
  for (int s = 0; s < count_; ++s) {
    {
      std::lock_guard lk(m_);
      if (owned_.size() >= fair) break;
      if (owned_.count(s)) continue;
    }
    auto row = rows.find(lease_name(s));
    std::optional<Lease> l;
    if (row == rows.end() || row->second.expires <= now || row->second.owner == node_)
      l = db_.acquire_lease(lease_name(s), node_, lease_s_);
    else if (trust_absence && !row->second.present)  // its node died: no need to wait for the lease to lapse
      l = db_.take_lease_from_absent(lease_name(s), node_, row->second.owner, lease_s_);
    if (l) {
      std::lock_guard lk(m_);
      owned_[s] = l->epoch;
      taken.insert(s);
    }
  }
  load(taken);
}

// This node's presence (store.h): may the absence of another's be trusted?
// Not for a lease's time after this node's own presence was (re)taken:
// after PostgreSQL restarts every node's presence is gone until its next
// round, and none of them has died.
bool Shards::hold_presence() {
  const auto p = db_.hold_presence(node_);
  const auto now = std::chrono::steady_clock::now();
  std::lock_guard lk(m_);
  if (p != presence_) {
    if (p == Store::Presence::elsewhere)
      std::cerr << "boneyard serve: node " << node_
                << ": another process holds this node's presence (is a second server running with --node-id " << node_
                << "?): the other nodes wait for its leases to lapse\n";
    if (p == Store::Presence::fresh && presence_ == Store::Presence::held)
      std::cerr << "boneyard serve: node " << node_ << ": its presence was taken again (the store came back)\n";
  }
  if (p == Store::Presence::fresh) presence_since_ = now;
  presence_ = p == Store::Presence::fresh ? Store::Presence::held : p;
  return p == Store::Presence::held && now - presence_since_ >= std::chrono::seconds(lease_s_);
}

nlohmann::json Shards::health() const {
  if (!enabled()) return nullptr;
  std::lock_guard lk(m_);
  nlohmann::json owned = nlohmann::json::array();
  for (const auto& [s, e] : owned_) owned.push_back(s);
  const char* presence = presence_ == Store::Presence::held        ? "held"
                         : presence_ == Store::Presence::elsewhere ? "held by another process of this node's name"
                                                                   : "not known to the store (leases alone)";
  return {{"node", node_},
          {"presence", presence},
          {"shards", count_},
          {"owned", owned},
          {"lost", nlohmann::json(std::vector<std::string>(losses_.begin(), losses_.end()))}};
}

}  // namespace boneyard::server
