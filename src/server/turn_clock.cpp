// The turn clock (docs/server.md, "Turn clock"): a table option of 15, 30
// or 60 seconds a move plus a small time bank per seat. A human seat's
// turn is timed from the moment its state is durable and broadcast; once
// the move's time is used the bank drains; when both are gone the table's
// takeover bot plays that one move and the seat's timeouts count grows.
// The server keeps the time; the state shows it.
#include <fmt/format.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include "server/tables.h"

namespace boneyard::server {

using nlohmann::json;
namespace net = boost::asio;
using Clock = std::chrono::steady_clock;

namespace {
int64_t ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(b - a).count();
}
}  // namespace

// Validates the table options clock_s and bank_s into the spec (nothing is
// added for a table without a clock).
void Hub::clock_options(const json& body, json& spec) {
  int clock = 0;
  if (body.contains("clock_s")) {
    const json& v = body["clock_s"];
    const bool ok = v.is_number_integer() && (v.get<int64_t>() == 0 || v.get<int64_t>() == 15 ||
                                              v.get<int64_t>() == 30 || v.get<int64_t>() == 60);
    if (!ok)
      throw ApiError(400, fmt::format("'clock_s' must be 0 (no clock), 15, 30 or 60 (seconds a move); got {}",
                                      v.dump().substr(0, 40)));
    clock = v.get<int>();
  }
  int bank = clock > 0 ? 30 : 0;
  if (body.contains("bank_s")) {
    const json& v = body["bank_s"];
    if (!v.is_number_integer() || v.get<int64_t>() < 0 || v.get<int64_t>() > 300)
      throw ApiError(400,
                     fmt::format("'bank_s' must be a whole number of seconds from 0 to 300 (the time bank); got {}",
                                 v.dump().substr(0, 40)));
    if (clock == 0 && v.get<int>() > 0) throw ApiError(400, "'bank_s' needs a clock: set 'clock_s' to 15, 30 or 60");
    bank = v.get<int>();
  }
  if (clock > 0) {
    spec["clock_s"] = clock;
    spec["bank_s"] = bank;
  }
}

// The clock's options from the spec, each seat's bank and timeouts from the
// stored meta (full banks for a new table).
void Hub::clock_load(Table& t, const json& meta) {
  t.clock_s = t.spec.value("clock_s", 0);
  t.bank_s = t.spec.value("bank_s", 0);
  const size_t n = static_cast<size_t>(std::max(t.n, 0));
  t.bank_ms.assign(n, int64_t{t.bank_s} * cfg_.clock_second_ms);
  t.timeouts.assign(n, 0);
  t.clock_running.assign(n, false);
  t.clock_forced.assign(n, false);
  t.turn_start.assign(n, {});
  t.clock_gen.resize(n, 0);
  t.clock_cancel.resize(n, nullptr);
  if (!meta.is_object() || !meta.contains("clock")) return;
  try {
    auto bank = meta["clock"].at("bank_ms").get<std::vector<int64_t>>();
    auto outs = meta["clock"].at("timeouts").get<std::vector<int>>();
    if (bank.size() == n) t.bank_ms = bank;
    if (outs.size() == n) t.timeouts = outs;
  } catch (const std::exception&) {
    // An unreadable clock restarts with full banks; the game itself is unharmed.
  }
}

// With t->m held, on every change that is broadcast: a human seat that now
// acts starts its turn's clock; one that no longer acts stops it.
void Hub::clock_tick(const std::shared_ptr<Table>& t) {
  if (t->clock_s <= 0 || t->clock_running.size() != static_cast<size_t>(t->n)) return;
  const auto now = Clock::now();
  const bool live = t->session && !t->over() && t->broken.empty() && !t->stalled;
  const Actor a = live ? t->session->state().actor() : Actor::terminal();
  for (int k = 0; k < t->n; ++k) {
    const size_t u = static_cast<size_t>(k);
    if (t->clock_forced[u] && !a.acts(k)) t->clock_forced[u] = false;
    const bool timed = live && t->human(k) && !t->autopilot[u] && !t->clock_forced[u] && a.acts(k);
    if (!timed) {
      clock_stop(*t, k, now);
      continue;
    }
    if (t->clock_running[u]) continue;
    t->clock_running[u] = true;
    t->turn_start[u] = now;
    const uint64_t gen = ++t->clock_gen[u];
    const int64_t ms = int64_t{t->clock_s} * cfg_.clock_second_ms + t->bank_ms[u];
    auto timer = std::make_shared<net::steady_timer>(ioc_, std::chrono::milliseconds(ms));
    timer->async_wait([this, t, k, gen, timer](const boost::system::error_code& ec) {
      if (ec || stopping_) return;
      std::lock_guard lk(t->m);
      const size_t v = static_cast<size_t>(k);
      if (t->clock_gen[v] != gen || !t->clock_running[v]) return;
      t->clock_cancel[v] = nullptr;
      t->clock_running[v] = false;
      t->bank_ms[v] = 0;
      t->clock_forced[v] = true;  // the takeover bot plays this move (bot_seat)
      ++t->timeouts[v];
      notice(*t, k, fmt::format("seat {} ran out of time: a {} bot played its move", k, t->takeover_level));
      announce(t);
    });
    t->clock_cancel[u] = [this, w = std::weak_ptr<net::steady_timer>(timer)] {
      net::post(ioc_, [w] {
        if (auto p = w.lock()) p->cancel();
      });
    };
  }
}

// With t.m held: the seat's turn ends at `at` (its move arrived): what it
// used beyond the move's own time comes out of its bank.
void Hub::clock_stop(Table& t, int seat, Clock::time_point at) {
  const size_t u = static_cast<size_t>(seat);
  if (u >= t.clock_running.size() || !t.clock_running[u]) return;
  t.clock_running[u] = false;
  ++t.clock_gen[u];
  if (auto& c = t.clock_cancel[u]) {
    c();
    c = nullptr;
  }
  const int64_t over = ms_between(t.turn_start[u], at) - int64_t{t.clock_s} * cfg_.clock_second_ms;
  if (over > 0) t.bank_ms[u] = std::max<int64_t>(0, t.bank_ms[u] - over);
}

void Hub::clock_release(Table& t) {
  for (auto& c : t.clock_cancel)
    if (c) {
      c();
      c = nullptr;
    }
  std::fill(t.clock_running.begin(), t.clock_running.end(), false);
}

// The clock as the state shows it (every seat and the spectators alike: it
// is public): the seconds a move, and per seat its bank, its timeouts and,
// while its turn is timed, the time left before the bank is touched
// (move_ms) and before the bot plays (remaining_ms).
json Hub::clock_json(const Table& t) const {
  const auto now = Clock::now();
  const int64_t move = int64_t{t.clock_s} * cfg_.clock_second_ms;
  json seats = json::array();
  for (int k = 0; k < t.n; ++k) {
    const size_t u = static_cast<size_t>(k);
    json s{{"seat", k}, {"bank_ms", t.bank_ms[u]}, {"timeouts", t.timeouts[u]}, {"running", bool(t.clock_running[u])}};
    if (t.clock_running[u]) {
      const int64_t used = ms_between(t.turn_start[u], now);
      const int64_t bank = std::clamp<int64_t>(t.bank_ms[u] - std::max<int64_t>(0, used - move), 0, t.bank_ms[u]);
      s["move_ms"] = std::max<int64_t>(0, move - used);
      s["bank_ms"] = bank;
      s["remaining_ms"] = std::max<int64_t>(0, move - used) + bank;
    }
    seats.push_back(s);
  }
  return {{"move_s", t.clock_s}, {"bank_s", t.bank_s}, {"second_ms", cfg_.clock_second_ms}, {"seats", seats}};
}

}  // namespace boneyard::server
