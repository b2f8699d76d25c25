// The turn clock (turn_clock.h).
#include "server/turn_clock.h"

#include <fmt/format.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

namespace boneyard::server {

using nlohmann::json;
namespace net = boost::asio;
using Clock = std::chrono::steady_clock;

namespace {
int64_t ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(b - a).count();
}
}  // namespace

void TurnClock::options(const json& body, json& spec) {
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

void TurnClock::tick(const std::shared_ptr<Table>& t) {
  if (t->clock_s <= 0) return;
  const auto now = Clock::now();
  const bool live = t->session && !t->over() && t->broken.empty() && !t->stalled;
  const Actor a = live ? t->session->state().actor() : Actor::terminal();
  for (int k = 0; k < t->n; ++k) {
    Seat& seat = t->seat_at(k);
    SeatClock& c = seat.clock;
    if (c.forced && !a.acts(k)) c.forced = false;
    const bool timed = live && seat.human() && !seat.autopilot && !c.forced && a.acts(k);
    if (!timed) {
      stop(*t, k, now);
      continue;
    }
    if (c.running) continue;
    c.running = true;
    c.turn_start = now;
    const int hands = static_cast<int>(t->session->state().hands().size());
    c.reading_ms = hands > c.hands_seen ? int64_t{kReadingS} * second_ms_ : 0;
    c.hands_seen = hands;
    const uint64_t gen = ++c.gen;
    const int64_t ms = int64_t{t->clock_s} * second_ms_ + c.reading_ms + c.bank_ms;
    auto timer = std::make_shared<net::steady_timer>(ioc_, std::chrono::milliseconds(ms));
    timer->async_wait([this, t, k, gen, timer](const boost::system::error_code& ec) {
      if (ec || stopping_) return;
      std::lock_guard lk(t->m);
      SeatClock& c = t->seat_at(k).clock;
      if (c.gen != gen || !c.running) return;
      c.cancel = nullptr;
      c.running = false;
      c.bank_ms = 0;
      c.forced = true;  // the takeover bot plays this move (Bots::seat_to_play)
      ++c.timeouts;
      t->notice(k, fmt::format("seat {} ran out of time: a {} bot played its move", k, t->takeover_level));
      timed_out_(t);
    });
    c.cancel = [this, w = std::weak_ptr<net::steady_timer>(timer)] {
      net::post(ioc_, [w] {
        if (auto p = w.lock()) p->cancel();
      });
    };
  }
}

void TurnClock::stop(Table& t, int seat, Clock::time_point at) {
  if (seat < 0 || seat >= t.n) return;
  SeatClock& c = t.seat_at(seat).clock;
  if (!c.running) return;
  c.running = false;
  ++c.gen;
  if (c.cancel) {
    c.cancel();
    c.cancel = nullptr;
  }
  const int64_t over = ms_between(c.turn_start, at) - int64_t{t.clock_s} * second_ms_ - c.reading_ms;
  if (over > 0) c.bank_ms = std::max<int64_t>(0, c.bank_ms - over);
}

void TurnClock::release(Table& t) {
  for (Seat& s : t.seats) {
    if (s.clock.cancel) {
      s.clock.cancel();
      s.clock.cancel = nullptr;
    }
    s.clock.running = false;
  }
}

// The seconds a move, and per seat its bank, its timeouts and, while its
// turn is timed, the time left before the bank is touched (move_ms) and
// before the bot plays (remaining_ms).
json TurnClock::view(const Table& t) const {
  const auto now = Clock::now();
  json seats = json::array();
  for (int k = 0; k < t.n; ++k) {
    const SeatClock& c = t.seat_at(k).clock;
    json s{{"seat", k}, {"bank_ms", c.bank_ms}, {"timeouts", c.timeouts}, {"running", c.running}};
    if (c.running) {
      const int64_t move = int64_t{t.clock_s} * second_ms_ + c.reading_ms;
      const int64_t used = ms_between(c.turn_start, now);
      s["reading_ms"] = c.reading_ms;
      const int64_t bank = std::clamp<int64_t>(c.bank_ms - std::max<int64_t>(0, used - move), 0, c.bank_ms);
      s["move_ms"] = std::max<int64_t>(0, move - used);
      s["bank_ms"] = bank;
      s["remaining_ms"] = std::max<int64_t>(0, move - used) + bank;
    }
    seats.push_back(s);
  }
  return {{"move_s", t.clock_s}, {"bank_s", t.bank_s}, {"second_ms", second_ms_}, {"seats", seats}};
}

}  // namespace boneyard::server
