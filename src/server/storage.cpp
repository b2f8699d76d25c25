#include "server/storage.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <future>

#include "core/error.h"

namespace boneyard::server {

Storage::Storage(const std::string& db, bool full_sync) : Storage(db, StoreOptions{full_sync}) {}

Storage::Storage(const std::string& db, const StoreOptions& opt) : store_(open_store(db, opt)) {
  problem_ = store_->problem_at_open();
  thread_ = std::thread([this] { writer(); });
}

Storage::~Storage() { stop(); }

void Storage::stop() {
  {
    std::lock_guard lk(q_m_);
    stopping_ = true;
  }
  q_cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  store_->stop();
}

void Storage::writer() {
  for (;;) {
    std::deque<Write> batch;
    {
      std::unique_lock lk(q_m_);
      q_cv_.wait(lk, [&] { return !queue_.empty() || stopping_; });
      if (queue_.empty()) return;
      batch.swap(queue_);
    }
    std::vector<char> refused(batch.size(), 0);
    std::vector<const Write*> group;
    std::vector<size_t> at;  // group[g] is batch[at[g]]
    group.reserve(batch.size());
    for (size_t i = 0; i < batch.size(); ++i) {
      auto it = failed_gen_.find(batch[i].table);
      refused[i] = it != failed_gen_.end() && batch[i].gen <= it->second;
      batch[i].replaces = in_doubt_.count(batch[i].table) > 0;
      if (!refused[i]) {
        group.push_back(&batch[i]);
        at.push_back(i);
      }
    }
    std::string err;
    const auto began = std::chrono::steady_clock::now();
    try {
      // Writes refused by their fence (store.h) were not stored; the rest
      // were. Not a failure of the table's generation: the node drops the
      // table, and a later owner's writes of it are its own.
      for (size_t g : store_->commit(group)) refused[at[g]] = 2;
    } catch (const std::exception& e) {
      err = e.what();
      if (err.empty()) err = "unknown error";
    }
    {
      std::lock_guard lk(q_m_);
      problem_ = err.empty() ? std::string() : fmt::format("storage failing: {}", err);
      if (err.empty()) ++commits_;
      if (measure_)
        commit_us_.add(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - began).count());
    }
    if (!err.empty()) {
      for (size_t i = 0; i < batch.size(); ++i)
        if (!refused[i] && !batch[i].table.empty()) {
          auto& g = failed_gen_[batch[i].table];
          g = std::max(g, batch[i].gen);
          in_doubt_.insert(batch[i].table);
        }
    } else {
      // A table stays in doubt for its life (a later write may start at any
      // event the failed one held); the range deletes cost little.
      for (const Write* w : group)
        if (w->erase) in_doubt_.erase(w->table);
    }
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch[i].done) continue;
      try {
        if (refused[i] == 2)
          batch[i].done(fmt::format("{}this node no longer holds the lease of shard {} (epoch {})", kFenced,
                                    batch[i].fence->shard, batch[i].fence->epoch));
        else
          batch[i].done(refused[i] ? std::string("an earlier change of this table was not stored") : err);
      } catch (const std::exception&) {
        // A done never throws by contract; the writer must outlive a broken one.
      }
    }
  }
}

bool Storage::submit(Write w) {
  std::lock_guard lk(q_m_);
  if (stopping_) return false;
  queue_.push_back(std::move(w));
  q_cv_.notify_one();
  return true;
}

void Storage::write(Write w) {
  auto p = std::make_shared<std::promise<std::string>>();
  auto f = p->get_future();
  auto inner = std::move(w.done);
  w.done = [p, inner](const std::string& e) {
    if (inner) inner(e);
    p->set_value(e);
  };
  if (!submit(std::move(w))) throw Error("storage: the server is stopping");
  const std::string e = f.get();
  if (!e.empty()) throw Error(fmt::format("storage: {}", e));
}

void Storage::create_table(const std::string& id, const nlohmann::json& spec, const nlohmann::json& meta) {
  Write w;
  w.table = id;
  w.spec = spec;
  w.meta = meta;
  write(std::move(w));
}

void Storage::update_meta(const std::string& id, const nlohmann::json& meta) {
  Write w;
  w.table = id;
  w.meta = meta;
  write(std::move(w));
}

void Storage::append_event(const std::string& id, size_t idx, const RecordEvent& e) {
  Write w;
  w.table = id;
  w.first = idx;
  w.events.push_back(e);
  write(std::move(w));
}

std::string Storage::problem() const {
  std::lock_guard lk(q_m_);
  return problem_;
}

void Storage::measure_commits(bool on) {
  std::lock_guard lk(q_m_);
  measure_ = on;
}

Histogram Storage::commit_us() const {
  std::lock_guard lk(q_m_);
  return commit_us_;
}

uint64_t Storage::commits() const {
  std::lock_guard lk(q_m_);
  return commits_;
}

Storage::Checkpoints Storage::checkpoints() const { return store_->checkpoints(); }

std::string Storage::probe() {
  try {
    write(Write{});
  } catch (const Error&) {
  }
  return problem();
}

// Reads go straight to the store (its own connection or pool).
std::vector<StoredTable> Storage::load_all(const std::function<bool(const std::string&)>& keep) {
  return store_->load_all(keep);
}
std::optional<StoredTable> Storage::load(const std::string& id) { return store_->load(id); }
std::vector<RecordEvent> Storage::load_events(const std::string& id) { return store_->load_events(id); }
std::vector<ChatLine> Storage::load_chat(const std::string& id, size_t recent) { return store_->load_chat(id, recent); }
std::optional<StoredPlayer> Storage::player(const std::string& id) { return store_->player(id); }
std::optional<StoredPlayer> Storage::player_by_key(const std::string& key_hash) {
  return store_->player_by_key(key_hash);
}
std::optional<StoredPlayer> Storage::player_by_name(const std::string& name_key) {
  return store_->player_by_name(name_key);
}
std::vector<PlayerGame> Storage::player_games(const std::string& player_id, int limit) {
  return store_->player_games(player_id, limit);
}
std::optional<StoredRating> Storage::rating(const std::string& subject, const std::string& family) {
  return store_->rating(subject, family);
}
std::vector<StoredRating> Storage::leaderboard(const std::string& family, bool bots, int limit) {
  return store_->leaderboard(family, bots, limit);
}
std::vector<StoredRating> Storage::ratings_of(const std::string& subject) { return store_->ratings_of(subject); }
std::vector<RatingPoint> Storage::rating_history(const std::string& subject, const std::string& family, int limit) {
  return store_->rating_history(subject, family, limit);
}
std::optional<Lease> Storage::acquire_lease(const std::string& shard, const std::string& owner, int ttl_s) {
  return store_->acquire_lease(shard, owner, ttl_s);
}
void Storage::release_lease(const std::string& shard, const std::string& owner) { store_->release_lease(shard, owner); }
std::optional<Lease> Storage::lease(const std::string& shard) { return store_->lease(shard); }
std::vector<Lease> Storage::leases() { return store_->leases(); }
void Storage::set_relation(const std::string& from, const std::string& to, int kind, bool on) {
  store_->set_relation(from, to, kind, on);
}
std::vector<Relation> Storage::relations(const std::string& from, int kind) { return store_->relations(from, kind); }
void Storage::add_report(const StoredReport& r) { store_->add_report(r); }
std::vector<StoredReport> Storage::reports(int limit) { return store_->reports(limit); }

}  // namespace boneyard::server
