#pragma once
// Presence (docs/server.md, "Leaving and coming back"): who watches each
// table (its WebSocket subscribers), which human seats are connected, and
// the drop timers: after a table's drop_delay_ms without a connection, the
// takeover bot plays the seat until its player comes back.
//
// Owns: the drop timers (their io_context). The watchers and each seat's
// connections and timer live in the Table and its Seats, guarded by the
// table's lock, which every call here is made with.
#include <atomic>
#include <functional>
#include <memory>

#include "server/table.h"

namespace boost::asio {
class io_context;
}  // namespace boost::asio

namespace boneyard::server {

class Presence {
 public:
  // away: called with t->m held once a seat went to the takeover bot (the
  // Hub announces the change).
  using Away = std::function<void(const std::shared_ptr<Table>& t)>;
  Presence(boost::asio::io_context& ioc, const std::atomic<bool>& stopping, Away away)
      : ioc_(ioc), stopping_(stopping), away_(std::move(away)) {}
  // Room for one more watcher (1000 a table), or ApiError 503.
  static void room(const Table& t);
  // A watcher of `seat` (-1: a spectator).
  static void watch(Table& t, int seat, const std::shared_ptr<Subscriber>& sub);
  // A seat's connection: the first takes the seat back from the bot (its
  // drop timer goes, and the timer's hold on the table with it).
  void connected(Table& t, int seat);
  // A watcher leaves. True when it was its seat's last connection in a game
  // in play: the drop timer is armed (the caller announces the change).
  bool left(const std::shared_ptr<Table>& t, int seat, const Subscriber* sub);
  // After drop_delay_ms without a connection, the bot plays the seat.
  void arm(const std::shared_ptr<Table>& t, int seat);
  void release(Table& t, int seat);
  void release_all(Table& t);

 private:
  boost::asio::io_context& ioc_;
  const std::atomic<bool>& stopping_;
  Away away_;
};

}  // namespace boneyard::server
