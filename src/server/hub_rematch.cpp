// The rematch by consent and the abort of a game that never really started
// (tables.h; docs/server.md, "POST /api/tables/{id}/rematch" and "Turn clock").
#include <fmt/format.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <ctime>
#include <iostream>

#include "server/tables.h"

namespace boneyard::server {

using nlohmann::json;
namespace net = boost::asio;

// The same seats and options at a new table (its own secret, commitment and
// entropy), the seats turned by one: whoever sat at seat k sits at k-1, so
// the person after the old seat 0 in turn order now holds seat 0. Every
// rule that starts from seat 0 (the first start player in Mexican Train, the
// first roller in Dice & Dominoes...) thus passes on by one seat; the
// partners (seats k and k+2) stay partners; a lead decided by the tiles
// (highest double, drawn tiles) is decided afresh by the new deal.
json Hub::rematch(const std::string& id, const std::string& token, const std::string& client, bool accept) {
  std::lock_guard rl(rematch_m_);
  auto t = table(id);
  int seat = -1;
  bool first = false;
  {
    std::unique_lock lk(t->m);
    t->wait_stored(lk);
    seat = t->seat_for(token);
    if (seat < 0) throw ApiError(403, "a spectator cannot ask for a rematch: a seat's token can");
    if (!t->broken.empty()) throw ApiError(500, t->broken);
    if (!t->finished()) throw ApiError(409, "the game is not over: a rematch is made at its end");
    if (!t->rematch.empty()) return TableViews::rematch(*t, seat);
    if (!accept) {
      if (t->rematch_asked == 0) throw ApiError(409, "no rematch was offered at this table");
      // Declined: the offer ends (anyone may offer again).
      t->rematch_asked = 0;
      for (Seat& s : t->seats) s.rematch_yes = false;
      t->notice(seat, fmt::format("seat {} declined the rematch", seat));
      persist_and_wait(lk, t, Change::of_meta(), "the answer was not stored");
      return {{"status", "declined"}};
    }
    if (!t->seat_at(seat).rematch_yes) {
      first = t->rematch_asked == 0;
      if (first) t->rematch_asked = static_cast<int64_t>(std::time(nullptr));
      t->seat_at(seat).rematch_yes = true;
      t->notice(seat, first ? fmt::format("seat {} offers a rematch", seat)
                            : fmt::format("seat {} accepts the rematch", seat));
      persist_and_wait(lk, t, Change::of_meta(), "the rematch offer was not stored");
    }
  }
  if (first) rematch_timer(t, cfg_.rematch_wait_s, 0);
  return make_rematch(t, seat, client);
}

// Looks again once the wait is over (a player may leave later): every few
// seconds for a while, then the offer stays as it is until someone answers.
void Hub::rematch_timer(const std::shared_ptr<Table>& t, double after_s, int rounds) {
  if (rounds > 120 || stopping_) return;
  auto timer = std::make_shared<net::steady_timer>(
      ioc_, std::chrono::milliseconds(static_cast<int64_t>(std::max(0.05, after_s) * 1000)));
  timer->async_wait([this, t, rounds, timer](const boost::system::error_code& ec) {
    if (ec || stopping_) return;
    {
      std::lock_guard lk(t->m);
      if (t->rematch_asked == 0 || !t->rematch.empty()) return;  // declined or made
    }
    try {
      std::lock_guard rl(rematch_m_);
      make_rematch(t, -1, t->client);
    } catch (const std::exception& e) {
      std::cerr << "boneyard serve: table " << t->id << ": rematch not made: " << e.what() << "\n";
    }
    rematch_timer(t, std::min(5.0, std::max(0.05, cfg_.rematch_wait_s)), rounds + 1);
  });
}

json Hub::make_rematch(const std::shared_ptr<Table>& t, int seat, const std::string& client) {
  json body;
  SeatPeople people;
  int n = 0;
  {
    std::unique_lock lk(t->m);
    if (!t->rematch.empty()) return TableViews::rematch(*t, std::max(seat, 0));
    if (t->rematch_asked == 0) return {{"status", "declined"}};
    // Ready when every person accepted, or left (no connection) and the
    // offer is older than the wait: their seats go to bots.
    const double age = static_cast<double>(static_cast<int64_t>(std::time(nullptr)) - t->rematch_asked);
    n = t->n;
    json yes = json::array();
    bool ready = true;
    for (int k = 0; k < n; ++k) {
      const Seat& s = t->seat_at(k);
      if (s.rematch_yes) yes.push_back(k);
      if (s.human() && !s.rematch_yes && !(s.connections == 0 && age >= cfg_.rematch_wait_s)) ready = false;
    }
    if (!ready) return {{"status", "offered"}, {"accepted", yes}};
    std::vector<std::string> seats(static_cast<size_t>(n));
    people.names.resize(static_cast<size_t>(n));
    people.player_ids.resize(static_cast<size_t>(n));
    people.addresses.resize(static_cast<size_t>(n));
    for (int j = 0; j < n; ++j) {
      const Seat& from = t->seat_at((j + 1) % n);
      const size_t to = static_cast<size_t>(j);
      const bool stays = !from.human() || from.rematch_yes;
      seats[to] = stays ? from.player : "bot:" + t->takeover_level;
      people.names[to] = stays ? from.name : "";
      people.player_ids[to] = stays ? from.player_id : "";
      people.addresses[to] = stays ? from.address : "";
    }
    body = {{"game", t->game},
            {"options", t->spec.value("options", json::object())},
            {"seats", seats},
            {"bot_delay_ms", t->bot_delay_ms},
            {"drop_delay_ms", t->drop_delay_ms},
            {"takeover_level", t->takeover_level},
            {"expire_s", t->expire_s}};
    // A rematch keeps the terms: rated stays rated (by the standard terms,
    // which a rated table never chooses), the clock stays.
    if (t->rated) {
      body["rated"] = true;
      body.erase("drop_delay_ms");
      body.erase("takeover_level");
    }
    if (t->clock_s > 0) {
      body["clock_s"] = t->clock_s;
      body["bank_s"] = t->bank_s;
    }
  }
  const json made = create(body, client, &people);
  std::unique_lock lk(t->m);
  t->rematch = made["id"].get<std::string>();
  for (int k = 0; k < n; ++k) {
    const std::string now = std::to_string((k + n - 1) % n);
    Seat& s = t->seat_at(k);
    s.rematch_token = s.rematch_yes && made["tokens"].contains(now) ? made["tokens"][now].get<std::string>() : "";
  }
  t->rematch_spectate = made["spectate"].get<std::string>();
  t->notice(-1, "the rematch is made: those who accepted move to the new table");
  persist_and_wait(lk, t, Change::of_meta(), "the rematch was made but not linked here");
  return TableViews::rematch(*t, std::max(seat, 0));
}

json Hub::abort(const std::string& id, const std::string& token) {
  auto t = table(id);
  std::unique_lock lk(t->m);
  t->wait_stored(lk);
  const int seat = t->seat_for(token);
  if (seat < 0) throw ApiError(403, "a spectator cannot abort a game");
  if (!t->broken.empty()) throw ApiError(409, fmt::format("the table is closed: {}", t->broken));
  const int idle = never_moved_seat(*t);
  if (idle < 0)
    throw ApiError(409,
                   "this game has really started: a game can be aborted only while someone at a timed table has "
                   "not made a move of their own and has let their turn clock run out");
  if (idle == seat) throw ApiError(409, "you have not made a move of your own yet: only the others may abort");
  // Ends as a table nobody joined does: out of memory and the database,
  // with no result and no rating; the pages open now are told why.
  close_table(*t);
  t->aborted = true;
  t->broken = fmt::format("the game was aborted by seat {}: seat {} never made a move", seat, idle);
  t->notice(seat, t->broken);
  keep_finished(t);  // its pages still read why, a while
  announce(t);
  return views_.message(*t, seat);
}

}  // namespace boneyard::server
