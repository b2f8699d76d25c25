#include "server/lobby.h"

#include <algorithm>
#include <chrono>
#include <optional>

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
  auto it = entries_.find(t.id);
  // The feed sends the change alone (a watcher keeps the list; a gap in the
  // versions tells it to fetch GET /api/lobby again).
  json change{{"type", "lobby_change"}, {"version", ++version_}, {"at_us", now_us()}};
  if (!entry) {
    if (it == entries_.end()) {
      --version_;
      return;
    }
    entries_.erase(it);
    change["removed"] = t.id;
  } else {
    if (it != entries_.end() && it->second == *entry) {
      --version_;
      return;
    }
    change["table"] = *entry;
    entries_[t.id] = std::move(*entry);
  }
  if (subs_.empty()) return;
  const auto msg = std::make_shared<const std::string>(change.dump(-1, ' ', false, json::error_handler_t::replace));
  std::erase_if(subs_, [&](const std::weak_ptr<Subscriber>& w) {
    auto sub = w.lock();
    if (sub) sub->push(msg);
    return !sub;
  });
}

json Lobby::message() {
  std::vector<const json*> all;
  for (const auto& [id, e] : entries_) all.push_back(&e);
  std::sort(all.begin(), all.end(), [](const json* a, const json* b) {
    return std::pair(a->at("created").get<int64_t>(), a->at("table").get<std::string>()) >
           std::pair(b->at("created").get<int64_t>(), b->at("table").get<std::string>());
  });
  json tables = json::array();
  for (size_t i = 0; i < all.size() && i < 100; ++i) tables.push_back(*all[i]);
  return {{"type", "lobby"}, {"version", version_}, {"at_us", now_us()}, {"tables", tables}, {"count", all.size()}};
}

json Lobby::list() {
  std::lock_guard lk(m_);
  return message();
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
