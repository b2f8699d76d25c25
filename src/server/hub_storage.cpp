// The Hub's stored changes and broadcasts (tables.h): the one path that
// stores a change (persist, persist_and_wait), the rollback of a failed
// write and the heal loop that resumes the tables it stopped, and the
// broadcasts that follow a durable change (announce, changed). Creation,
// lookup and the requests are in tables.cpp; the bots' turns in hub_bots.cpp.
#include <fmt/format.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>
#include <chrono>
#include <future>
#include <iostream>

#include "server/tables.h"

namespace boneyard::server {

using nlohmann::json;
namespace net = boost::asio;

// While the storage fails: probe it every second; once it works again, every
// table that a failed write stopped goes on (bot-only tables included).
void Hub::heal_loop() {
  std::unique_lock lk(heal_m_);
  for (int tick = 1; !stopping_; ++tick) {
    heal_cv_.wait_for(lk, std::chrono::seconds(1));
    if (stopping_) return;
    if (tick % 5 == 0) {
      lk.unlock();
      expire_waiting();
      lk.lock();
    }
    if (!stalled_ && db_.problem().empty()) continue;
    lk.unlock();
    if (db_.probe().empty()) {
      stalled_ = false;
      std::vector<std::shared_ptr<Table>> all;
      {
        std::shared_lock l(tables_m_);
        for (const auto& [id, t] : tables_) all.push_back(t);
      }
      for (const auto& t : all) resume(t);
    }
    lk.lock();
  }
}

void Hub::resume(const std::shared_ptr<Table>& t) {
  std::lock_guard lk(t->m);
  if (!t->stalled || !t->broken.empty() || stopping_) return;
  t->stalled = false;
  if (t->inflight > 0) return;
  try {
    if (!t->started) {
      bool humans = false;
      for (const Seat& s : t->seats) humans |= s.human() && !s.joined;
      if (!humans) {
        start_game(*t);
        persist(t, Change::of_meta());
        return;
      }
    }
    if (t->session) t->settle();
    if (t->session && t->session->events().size() > t->queued) {
      persist(t, Change{});
      return;
    }
  } catch (const std::exception& e) {
    t->broken = fmt::format("cannot resume: {}", e.what());
  }
  schedule_bot(t);
}

// ---------------------------------------------------------------- broadcasts

// With t->m held. Nothing is broadcast while a write is in flight (the
// state may not be durable yet): its completion broadcasts.
void Hub::changed(const std::shared_ptr<Table>& t) {
  if (t->inflight > 0) return;
  clock_.tick(t);  // before the messages: they show whose turn is timed
  lobby_.update(*t);
  const auto began = std::chrono::steady_clock::now();
  // Each seat's message is built once per change; spectators share one.
  std::map<int, std::shared_ptr<const std::string>> cache;
  auto& subs = t->subs;
  for (auto it = subs.begin(); it != subs.end();) {
    auto sub = it->second.lock();
    if (!sub) {
      it = subs.erase(it);
      continue;
    }
    auto& msg = cache[it->first];
    if (!msg) msg = std::make_shared<const std::string>(views_.message_text(*t, it->first));
    sub->push(msg);
    ++it;
  }
  if (!t->arrivals.empty()) {
    for (const auto& [arrived, durable] : t->arrivals) measured(arrived, durable, began);
    t->arrivals.clear();
  }
  if (t->gate_slot) {
    t->gate_slot = false;
    bots_.leave_gate();
  }
  if (t->finished()) {
    rate(t);
    retire(t);
    return;
  }
  schedule_bot(t);
}

void Hub::broadcast(const std::shared_ptr<Table>& t) {
  std::lock_guard lk(t->m);
  changed(t);
}

// ---------------------------------------------------------------- storage

void Hub::persist(const std::shared_ptr<Table>& t, Change change, std::function<void(const std::string&)> then) {
  Write w;
  w.table = t->id;
  w.gen = t->gen;
  w.fence = shards_.fence(t->id);
  // A rated game's end and its ratings go in one transaction: whatever is
  // killed when, the game is rated exactly once (a failed write rolls both
  // back: rated_done is in the meta, the cache is settled below).
  std::optional<Ratings::Update> rated;
  const bool was_done = t->rated_done;
  // A game as long as the server allows is stopped here, in the same write
  // as its last move (stored in the meta: a restart keeps it stopped).
  if (!t->over() && cfg_.max_game_moves > 0 && t->session && t->session->events().size() >= cfg_.max_game_moves) {
    t->stopped = true;
    change.meta = true;
    t->notice(-1, fmt::format("the game was stopped: it reached the server's limit of {} moves", cfg_.max_game_moves));
  }
  if (t->over() && !t->rated_done) rated = ratings_.rate(*t);
  if (change.meta || t->rated_done != was_done) w.meta = t->meta().to_json();
  const size_t end = t->session ? t->session->events().size() : 0;
  if (end > t->queued) {
    w.first = t->queued;
    w.events.assign(t->session->events().begin() + static_cast<long>(t->queued), t->session->events().end());
  }
  w.chat = change.chat;
  w.ratings = std::move(change.ratings);
  if (rated) {
    w.ratings.insert(w.ratings.end(), rated->ratings.begin(), rated->ratings.end());
    then = [this, u = *rated, then = std::move(then)](const std::string& err) {
      ratings_.settled(u, err);
      if (then) then(err);
    };
  }
  t->queued = std::max(t->queued, end);
  ++t->inflight;
  std::optional<json> m = w.meta;
  w.done = [this, t, gen = w.gen, end, m = std::move(m), arrival = change.arrival, chat = std::move(change.chat),
            then](const std::string& err) {
    {
      std::lock_guard lk(t->m);
      --t->inflight;
      if (err.empty()) {
        t->durable = std::max(t->durable, end);
        if (m) t->durable_meta = *m;
        for (const ChatLine& line : chat) Chat::shown(*t, line);  // shown once stored, like a move
        if (arrival && cfg_.measure) t->arrivals.emplace_back(*arrival, std::chrono::steady_clock::now());
        t->stalled = false;
      } else if (err.rfind(kFenced, 0) == 0) {
        fenced(*t, err);
      } else if (gen == t->gen) {
        rollback(*t);
      }
      // The broadcast (and the next bot) off the writer thread.
      if (t->inflight == 0) {
        clock_.tick(t);  // a turn is timed from the moment it is durable (before any answer shows it)
        t->idle.notify_all();
        announce(t);
      }
    }
    if (then) then(err);
  };
  if (!db_.submit(std::move(w))) {
    if (--t->inflight == 0) t->idle.notify_all();
    rollback(*t);
    if (then) then("the server is stopping");
  }
}

void Hub::persist_and_wait(std::unique_lock<std::mutex>& lk, const std::shared_ptr<Table>& t, Change change,
                           const char* what) {
  auto stored = std::make_shared<std::promise<std::string>>();
  auto fut = stored->get_future();
  persist(t, std::move(change), [stored](const std::string& e) { stored->set_value(e); });
  // The answer waits for the change's group to be durable (a few ms: one
  // fsync for every change waiting then), off the table's lock.
  lk.unlock();
  const std::string err = fut.get();
  lk.lock();
  if (!err.empty()) throw ApiError(503, fmt::format("storage failed; {}: {}", what, err));
  t->wait_stored(lk);
}

// Every broadcast runs on a broadcast thread (never a bot's, a request's or
// the writer's): the change's messages, then what follows it (the next bot).
void Hub::announce(const std::shared_ptr<Table>& t) {
  if (!stopping_) net::post(*bcast_, [this, t] { broadcast(t); });
}

// With t->m held: back to what is durable, in a new generation (writes made
// on top of the lost ones are refused by the storage).
void Hub::rollback(Table& t) {
  ++t.gen;
  t.stalled = true;
  stalled_ = true;
  clock_.release(t);
  try {
    t.restore(TableMeta::read(t.durable_meta, t.seats.size()));  // the meta as stored, the clock's banks with it
    if (!t.started)
      t.set_session(nullptr);
    else if (t.session && t.session->events().size() > t.durable)
      t.replay(t.session->events(), t.durable);
  } catch (const std::exception& e) {
    t.broken = fmt::format("cannot roll back to the stored table: {}", e.what());
  }
  t.queued = t.durable;
  t.arrivals.clear();
  for (Seat& s : t.seats) s.bot.reset();  // a bot may hold state from the lost moves
  std::cerr << "boneyard serve: table " << t.id << ": a write failed; back to its " << t.durable
            << " stored events until the storage heals\n";
}

void Hub::measured(Clock::time_point since, Clock::time_point durable, Clock::time_point sending) {
  if (!cfg_.measure) return;
  auto us = [](Clock::duration d) { return std::chrono::duration<double, std::micro>(d).count(); };
  const auto now = Clock::now();
  std::lock_guard lk(stats_.m);
  stats_.latency_us.add(us(now - since));
  stats_.durable_us.add(us(durable - since));
  stats_.queued_us.add(us(sending - durable));
  stats_.sending_us.add(us(now - sending));
}

}  // namespace boneyard::server
