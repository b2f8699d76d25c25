#pragma once
// The turn clock (docs/server.md, "Turn clock"): a table option of 15, 30
// or 60 seconds a move plus a small time bank per seat. A human seat's turn
// is timed from the moment its state is durable and broadcast; once the
// move's time is used the bank drains; when both are gone the table's
// takeover bot plays that one move and the seat's timeouts count grows.
//
// Owns: the timers (their io_context) and the clock's second. Each seat's
// clock (bank, timeouts, whether it runs) lives in its Seat, guarded by the
// table's lock, which every call here is made with.
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>

#include "server/table.h"

namespace boost::asio {
class io_context;
}  // namespace boost::asio

namespace boneyard::server {

class TurnClock {
 public:
  // The seconds a seat's first turn after a hand's end has more, to read
  // the hand's result: the next hand is dealt at once, behind the summary.
  static constexpr int kReadingS = 15;
  // timed_out: called with t->m held once a seat ran out of time (the
  // takeover bot plays its move): the Hub announces the change.
  using TimedOut = std::function<void(const std::shared_ptr<Table>& t)>;
  TurnClock(boost::asio::io_context& ioc, int second_ms, const std::atomic<bool>& stopping, TimedOut timed_out)
      : ioc_(ioc), second_ms_(second_ms), stopping_(stopping), timed_out_(std::move(timed_out)) {}
  // Validates the table options clock_s and bank_s into the spec (nothing
  // is added for a table without a clock).
  static void options(const nlohmann::json& body, nlohmann::json& spec);
  // On every change that is broadcast: a human seat that now acts starts its
  // turn's clock; one that no longer acts stops it.
  void tick(const std::shared_ptr<Table>& t);
  // The seat's turn ends at `at` (its move arrived): what it used beyond the
  // move's own time comes out of its bank.
  void stop(Table& t, int seat, std::chrono::steady_clock::time_point at);
  void release(Table& t);  // every timer of the table goes
  // The clock as the state shows it (public: every seat and the spectators).
  nlohmann::json view(const Table& t) const;

 private:
  boost::asio::io_context& ioc_;
  const int second_ms_;
  const std::atomic<bool>& stopping_;
  TimedOut timed_out_;
};

}  // namespace boneyard::server
