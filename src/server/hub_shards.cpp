// The Hub's side of several nodes (shards.h, tables.h): loading the live
// tables of the shards this node takes, dropping those of the shards it
// loses. Locks as in tables.h: tables_m_ alone, then each table's m.
#include <fmt/format.h>

#include <chrono>
#include <iostream>
#include <map>
#include <optional>

#include "server/tables.h"

namespace boneyard::server {

void Hub::take_shards(const std::set<int>* shards) {
  // The quick-match queue first (one read): the players waiting are asking.
  if (!shards || shards->count(Shards::kMatchShard)) quickmatch_.restore();
  // Every table's row, the events of the unfinished ones (what a restart
  // loads); a node restores only the tables of the shards it just took.
  std::function<bool(const std::string&)> keep;
  // (a table this node made on the shard since it took it is not loaded again)
  if (shards) keep = [&](const std::string& id) { return shards->count(shards_.shard_of(id)) > 0 && !find(id); };
  // The epochs the tables are read under. A shard lost while they load (the
  // loader runs beside the renewals), even if taken back since, keeps none
  // of them: another node may have played on meanwhile, and the shard's
  // next load reads them afresh. Checked as each table goes in, under the
  // lock that drop_shards takes after the shard is gone.
  std::map<int, std::optional<uint64_t>> epochs;
  if (shards)
    for (int s : *shards) epochs[s] = shards_.epoch(s);
  const auto started = std::chrono::steady_clock::now();
  size_t loaded = 0;
  for (auto& st : db_.load_all(keep)) {
    std::function<bool()> still_ours;
    if (shards) {
      const int s = shards_.shard_of(st.id);
      still_ours = [this, s, e = epochs[s]] { return e && shards_.epoch(s) == e; };
    }
    restore(std::move(st), still_ours);
    ++loaded;
  }
  if (shards)
    std::cerr
        << "boneyard serve: node " << shards_.node() << ": " << shards->size() << " shards taken, " << loaded
        << " tables read in "
        << std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count()
        << " ms\n";
}

void Hub::drop_shards(const std::set<int>& shards, const std::string& why) {
  if (shards.count(Shards::kMatchShard)) quickmatch_.forget();  // its next holder has it
  std::vector<std::shared_ptr<Table>> gone;
  {
    std::unique_lock lk(tables_m_);
    for (auto it = tables_.begin(); it != tables_.end();)
      if (shards.count(shards_.shard_of(it->first))) {
        gone.push_back(it->second);
        it = tables_.erase(it);
      } else {
        ++it;
      }
  }
  for (const auto& t : gone) {
    std::vector<std::shared_ptr<Subscriber>> subs;
    {
      std::lock_guard lk(t->m);
      if (t->broken.empty()) t->broken = fmt::format("this server no longer plays the table: {}", why);
      presence_.release_all(*t);
      clock_.release(*t);
      lobby_.update(*t);
      for (const auto& [seat, w] : t->subs)
        if (auto s = w.lock()) subs.push_back(std::move(s));
    }
    // Not told "broken" (the game goes on elsewhere): their connections
    // close, and the app reconnects through the front door to the new node,
    // which shows the same game at the same version.
    for (const auto& s : subs) s->moved();
  }
  if (!gone.empty())
    std::cerr << "boneyard serve: node " << shards_.node() << ": " << gone.size() << " tables left this node (" << why
              << ")\n";
}

// With t->m held: the store refused the write (another node holds the
// shard): nothing of it was stored, and this node must not go on with the
// table; the shard's tables are dropped on the renewal thread.
void Hub::fenced(Table& t, const std::string& why) {
  if (t.broken.empty()) t.broken = fmt::format("this server no longer plays the table: {}", why);
  t.queued = t.durable;
  t.arrivals.clear();
  std::cerr << "boneyard serve: table " << t.id << ": write refused: " << why << "\n";
  if (auto f = shards_.fence(t.id)) shards_.fenced(f->shard, why);
}

void Hub::matchmaker_here() {
  if (!shards_.enabled() || shards_.owns(Shards::kMatchShard)) {
    if (!quickmatch_.problem().empty())
      throw ApiError(503,
                     "quick match is closed for a moment: its waiting list cannot be read from the database; "
                     "try again soon");
    if (!quickmatch_.ready()) throw ApiError(503, "quick match is moving between servers: try again in a moment");
    return;
  }
  const std::string owner = shards_.owner_of(Shards::kMatchShard);
  throw ApiError(421, owner.empty() ? std::string("quick match is between servers: try again in a few seconds")
                                    : fmt::format("quick match is played on another server (node {})", owner));
}

}  // namespace boneyard::server
