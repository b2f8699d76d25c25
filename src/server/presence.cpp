#include "server/presence.h"

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

namespace boneyard::server {

namespace net = boost::asio;

void Presence::room(const Table& t) {
  if (t.subs.size() >= 1000) throw ApiError(503, "too many watchers at this table");
}

void Presence::watch(Table& t, int seat, const std::shared_ptr<Subscriber>& sub) { t.subs.emplace_back(seat, sub); }

void Presence::connected(Table& t, int seat) {
  Seat& s = t.seat_at(seat);
  if (s.connections++ > 0) return;
  ++s.drop_gen;
  release(t, seat);  // the player is back: the timer (and the table it holds) go now
  if (s.autopilot) {
    s.autopilot = false;
    t.notice(seat, fmt::format("seat {} is back and plays again", seat));
  }
}

bool Presence::left(const std::shared_ptr<Table>& t, int seat, const Subscriber* sub) {
  std::erase_if(t->subs, [&](const auto& p) {
    auto s = p.second.lock();
    return !s || s.get() == sub;
  });
  if (seat < 0 || seat >= t->n) return false;
  Seat& s = t->seat_at(seat);
  if (s.connections > 0 && --s.connections == 0 && t->session && !t->over()) {
    t->notice(seat, fmt::format("seat {} disconnected; the seat is kept for them", seat));
    arm(t, seat);
    return true;
  }
  return false;
}

void Presence::arm(const std::shared_ptr<Table>& t, int seat) {
  release(*t, seat);
  const uint64_t gen = ++t->seat_at(seat).drop_gen;
  auto timer = std::make_shared<net::steady_timer>(ioc_, std::chrono::milliseconds(t->drop_delay_ms));
  timer->async_wait([this, t, seat, gen, timer](const boost::system::error_code& ec) {
    if (ec || stopping_) return;
    std::lock_guard l(t->m);
    Seat& s = t->seat_at(seat);
    if (s.drop_gen == gen) s.drop_cancel = nullptr;
    if (s.connections == 0 && s.drop_gen == gen && !s.autopilot && !t->over()) {
      s.autopilot = true;
      t->notice(seat,
                fmt::format("seat {} is away: a {} bot plays for it until they come back", seat, t->takeover_level));
      away_(t);
    }
  });
  t->seat_at(seat).drop_cancel = [this, w = std::weak_ptr<net::steady_timer>(timer)] {
    net::post(ioc_, [w] {
      if (auto p = w.lock()) p->cancel();
    });
  };
}

void Presence::release(Table& t, int seat) {
  auto& c = t.seat_at(seat).drop_cancel;
  if (c) c();
  c = nullptr;
}

void Presence::release_all(Table& t) {
  for (int k = 0; k < t.n; ++k) release(t, k);
}

}  // namespace boneyard::server
