#pragma once
// Table views (docs/server.md, "Secrecy"): the state message each watcher
// gets, built from the table under its lock. A seat sees its own view only
// (its hand, its legal moves, its audience's chat); a spectator the public
// view; the secret only once the game is over and stored.
//
// Owns nothing: it reads the table (with its lock held by the caller), the
// turn clock's view and the chat's.
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "server/table.h"
#include "server/turn_clock.h"

namespace boneyard::server {

// What a spectator may see: the game's own view for a seat that does not
// exist (every hand hidden, only public information), with "seat": null.
nlohmann::json public_view(const AnyState& st);

// A game that never really started (docs/server.md, "Turn clock"): in
// its first hand, a person at a timed table who has not made one move of
// their own and has let their turn clock run out. -1: none. With t.m held.
int never_moved_seat(const Table& t);

class TableViews {
 public:
  explicit TableViews(const TurnClock& clock) : clock_(clock) {}
  // The state message for `seat` (-1: a spectator).
  nlohmann::json message(Table& t, int seat, bool with_log = true) const;
  // The same as sent on each change: the log's entries come as text
  // serialized once (Table::log_text).
  std::string message_text(Table& t, int seat) const;
  // The rematch as `seat` sees it: its own new seat and token only (a
  // spectator: the new table's spectator token).
  static nlohmann::json rematch(const Table& t, int seat);

 private:
  const TurnClock& clock_;
};

}  // namespace boneyard::server
