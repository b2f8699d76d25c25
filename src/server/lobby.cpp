#include "server/lobby.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <set>
#include <vector>

namespace boneyard::server {

using nlohmann::json;

namespace {
// When a lobby message was made (the wall clock, µs): how lobby-bench
// measures each change's way to every watcher.
int64_t now_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}
}  // namespace

void Lobby::update(const Table& t) {
  if (!t.is_public) return;
  std::optional<json> entry;
  int free = 0;
  for (const Seat& s : t.seats) free += s.open && s.token.empty();
  if (t.broken.empty() && !t.started && free > 0) {
    json seats = json::array();
    for (int k = 0; k < t.n; ++k) {
      const Seat& seat = t.seat_at(k);
      json s{{"seat", k}};
      if (!seat.human()) {
        s["kind"] = "bot";
        s["level"] = seat.player.substr(4);
      } else {
        s["kind"] = seat.open ? "open" : "human";
        s["taken"] = !seat.open || !seat.token.empty();
        s["joined"] = seat.joined;
        if (!seat.name.empty()) s["name"] = seat.name;
        if (!seat.rating.is_null()) s["rating"] = seat.rating;  // beside the name, as at the table
      }
      seats.push_back(s);
    }
    entry = json{{"table", t.id},
                 {"game", t.game},
                 {"options", t.spec.value("options", json::object())},
                 {"seats", seats},
                 {"free", free},
                 {"rated", t.rated},
                 {"clock", t.spec.contains("clock_s") ? t.spec["clock_s"] : json(nullptr)},
                 {"created", t.created}};
  }
  std::lock_guard lk(m_);
  set(t.id, std::move(entry), "");
}

void Lobby::set(const std::string& id, std::optional<json> entry, const std::string& node) {
  auto it = entries_.find(id);
  // The feed sends the change alone (a watcher keeps the list; a gap in the
  // versions tells it to fetch GET /api/lobby again).
  json change{{"type", "lobby_change"}, {"version", ++version_}, {"at_us", now_us()}};
  if (!entry) {
    if (it == entries_.end()) {
      --version_;
      return;
    }
    entries_.erase(it);
    origin_.erase(id);
    change["removed"] = id;
  } else {
    origin_[id] = node;
    if (it != entries_.end() && it->second == *entry) {
      --version_;
      return;
    }
    change["table"] = *entry;
    entries_[id] = std::move(*entry);
  }
  if (subs_.empty()) return;
  const auto msg = std::make_shared<const std::string>(change.dump(-1, ' ', false, json::error_handler_t::replace));
  std::erase_if(subs_, [&](const std::weak_ptr<Subscriber>& w) {
    auto sub = w.lock();
    if (sub) sub->push(msg);
    return !sub;
  });
}

void Lobby::merge(const std::string& node, const json& tables) {
  std::lock_guard lk(m_);
  std::set<std::string> now;
  for (const json& e : tables) {
    if (!e.is_object() || !e.contains("table") || !e["table"].is_string() || !e.contains("created")) continue;
    const std::string id = e["table"].get<std::string>();
    // A table this node lists as its own (it took the table over) stays its own.
    if (auto o = origin_.find(id); o != origin_.end() && o->second.empty()) continue;
    now.insert(id);
    set(id, e, node);
  }
  std::vector<std::string> gone;
  for (const auto& [id, from] : origin_)
    if (from == node && !now.count(id)) gone.push_back(id);
  for (const auto& id : gone) set(id, std::nullopt, node);
}

void Lobby::keep_nodes(const std::map<std::string, std::string>& nodes) {
  std::lock_guard lk(m_);
  std::vector<std::string> gone;
  for (const auto& [id, from] : origin_)
    if (!from.empty() && !nodes.count(from)) gone.push_back(id);
  for (const auto& id : gone) set(id, std::nullopt, origin_[id]);
}

json Lobby::message(bool local) {
  std::vector<const json*> all;
  for (const auto& [id, e] : entries_)
    if (!local || origin_[id].empty()) all.push_back(&e);
  std::sort(all.begin(), all.end(), [](const json* a, const json* b) {
    return std::pair(a->at("created").get<int64_t>(), a->at("table").get<std::string>()) >
           std::pair(b->at("created").get<int64_t>(), b->at("table").get<std::string>());
  });
  json tables = json::array();
  for (size_t i = 0; i < all.size() && i < 100; ++i) tables.push_back(*all[i]);
  return {{"type", "lobby"}, {"version", version_}, {"at_us", now_us()}, {"tables", tables}, {"count", all.size()}};
}

json Lobby::list(bool local) {
  std::lock_guard lk(m_);
  return message(local);
}

void Lobby::subscribe(const std::shared_ptr<Subscriber>& sub) {
  std::lock_guard lk(m_);
  if (subs_.size() >= 100000) throw ApiError(503, "too many lobby watchers");
  subs_.push_back(sub);
  sub->push(std::make_shared<const std::string>(message().dump(-1, ' ', false, json::error_handler_t::replace)));
}

void Lobby::unsubscribe(const Subscriber* sub) {
  std::lock_guard lk(m_);
  std::erase_if(subs_, [&](const std::weak_ptr<Subscriber>& w) {
    auto s = w.lock();
    return !s || s.get() == sub;
  });
}

}  // namespace boneyard::server
