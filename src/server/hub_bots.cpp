// The bots' turns at the Hub's tables (tables.h): when a bot is due
// (schedule_bot), which pool runs it (run_bot: the gate or the per-address
// queue, bots.h), and its move, thought off every lock and applied through
// the Hub's one stored path (bot_turn).
#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cerrno>
#include <chrono>
#include <iostream>

#include "server/tables.h"

namespace boneyard::server {

using nlohmann::json;
namespace net = boost::asio;

// ---------------------------------------------------------------- bots

// With t->m held. A bot answers only a durable state (nothing in flight) of
// a table whose writes succeed.
void Hub::schedule_bot(const std::shared_ptr<Table>& t) {
  if (!cfg_.run_bots || stopping_ || t->bot_pending || !t->session || t->over() || !t->broken.empty()) return;
  if (t->inflight > 0 || t->stalled) return;
  const int seat = Bots::seat_to_play(*t);
  if (seat < 0) return;
  t->bot_pending = true;
  const size_t version = t->session->events().size();
  const int pause = Bots::pause_ms(t->session->events(), seat, t->bot_delay_ms);
  if (pause <= 0) {
    run_bot(t, version);
    return;
  }
  auto timer = std::make_shared<net::steady_timer>(ioc_, std::chrono::milliseconds(pause));
  timer->async_wait([this, t, version, timer](const boost::system::error_code& ec) {
    if (ec || stopping_) {
      std::lock_guard l(t->m);
      t->bot_pending = false;
      return;
    }
    std::lock_guard l(t->m);
    run_bot(t, version);
  });
}

// With t->m held. Cheap bots (beginner, casual) pass the gate; strong and
// expert ones queue per address (bots.h).
void Hub::run_bot(const std::shared_ptr<Table>& t, size_t version) {
  const int seat = Bots::seat_to_play(*t);
  const std::string level = seat >= 0 ? Bots::level(*t, seat) : "casual";
  if (Bots::cheap(level)) {
    const auto queued = Clock::now();
    bots_.run_cheap([this, t, version, queued] {
      if (cfg_.measure) {
        std::lock_guard lk(stats_.m);
        stats_.gated_us.add(std::chrono::duration<double, std::micro>(Clock::now() - queued).count());
      }
      if (!bot_turn(t, version, true)) bots_.leave_gate();
    });
    return;
  }
  bots_.run_strong(t->client, [this, t, version] { bot_turn(t, version); });
}

// A bot's thinking yields the CPU to everything a move goes through once it
// is made (network, commit, broadcast): under load the bots' turns wait,
// never a move already made, nor a person's request. Per thread (Linux).
static void think_at_low_priority() {
  thread_local const bool lowered = [] {
    const auto tid = static_cast<id_t>(syscall(SYS_gettid));
    errno = 0;
    const int nice = getpriority(PRIO_PROCESS, tid);
    return errno == 0 && setpriority(PRIO_PROCESS, tid, std::min(nice + 10, 19)) == 0;
  }();
  (void)lowered;
}

bool Hub::bot_turn(const std::shared_ptr<Table>& t, size_t version, bool gated) {
  think_at_low_priority();
  std::unique_ptr<AnyState> st;
  AnyBot* bot = nullptr;
  int seat = -1;
  {
    std::lock_guard lk(t->m);
    if (stopping_ || !t->session || t->session->events().size() != version || (seat = Bots::seat_to_play(*t)) < 0) {
      t->bot_pending = false;
      schedule_bot(t);
      return false;
    }
    st = t->session->state().clone();
    try {
      bot = &bots_.seat_bot(*t, seat);
    } catch (const std::exception& e) {
      t->bot_pending = false;
      t->notice(seat, fmt::format("no bot for seat {}: {}", seat, e.what()));
      return false;
    }
  }
  std::string mv, err;
  try {
    mv = st->ask_bot(seat, *bot);  // thinking, off every lock and off the network threads
  } catch (const std::exception& e) {
    err = e.what();
  }
  const auto arrival = std::chrono::steady_clock::now();
  std::lock_guard lk(t->m);
  t->bot_pending = false;
  if (stopping_ || !t->broken.empty()) return false;  // closed (aborted) while the bot thought
  if (!err.empty()) {
    t->notice(seat, fmt::format("the bot for seat {} failed: {}", seat, err));
    return false;
  }
  if (t->session && t->session->events().size() == version && Bots::seat_to_play(*t) == seat && t->inflight == 0) {
    try {
      const size_t at = t->session->events().size();  // the move's event index
      const bool out_of_time = t->seat_at(seat).clock.forced;
      Change change = apply_move(*t, seat, mv, arrival).second;
      if (t->human(seat)) {
        // Logged as the bot's move for that seat, and why (the log says so).
        t->bot_events.emplace_back(at, out_of_time ? "time" : "away");
        // The takeover bot moved for a person: counted (and stored), since
        // at a rated table such a move is not the player's own (ratings.cpp).
        ++t->seat_at(seat).bot_moves;
        change.meta = true;
      }
      persist(t, std::move(change));          // broadcast, and the next bot, once durable
      t->seat_at(seat).clock.forced = false;  // the clock's bot plays one move only
    } catch (const std::exception& e) {
      std::cerr << "boneyard serve: table " << t->id << ": bot move failed: " << e.what() << "\n";
      return false;
    }
    t->gate_slot = gated;  // given back once broadcast (changed())
    return gated;
  }
  schedule_bot(t);
  return false;
}

}  // namespace boneyard::server
