#pragma once
// The public log of a table: what every seat may know of each event, for
// the browser's "Last moves" (docs/server.md, State message, "log").
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

#include "record/session.h"

namespace boneyard::server {

// The hand in play's last `max` entries, from its first deal (a redeal, no
// new hand, keeps who asked for it and the deal again), oldest first,
// after the event that ended the hand before (its "hand" that hand's
// number) when all the hand in play's entries fit: it comes in the same
// message as the next deal, and "Last moves" should show it. Earlier
// events are left out (the log is the hand in play's):
// {"n": event index, "hand": `hand`, "kind", "seat", "move"}. Kinds: "move"
// (a public move, its canonical text), "laid" (Dice & Dominoes: tiles laid
// face down, which ones stays secret), "deal" (a hand dealt, or dealt again,
// nothing of what), "roll" (a chance outcome every seat sees, GameEntry::
// public_chance: "move" says it, the dice) and "chance" (any other chance
// event, its outcome withheld). `hand`: the hand in play's number (a redeal
// is no new hand, so deals are not counted).
nlohmann::json public_log(const Session& s, std::size_t max, int hand);

// The same log as JSON text, for the messages a table sends on each move:
// written straight into the message, without building 40 JSON objects each
// time (that was most of a spectator message's cost), and without keeping
// the entries (5,000 tables would hold 25 MB of them). It remembers only
// where the hand in play was dealt. Use one per Session; clear() when the
// table gets another one (a rollback, a restore).
class PublicLogText {
 public:
  explicit PublicLogText(std::size_t max) : max_(max) {}
  void clear() { deal_ = scanned_ = 0; }
  // Appends the JSON text of public_log(s, max, hand) to out.
  void append(const Session& s, int hand, std::string& out);

 private:
  std::size_t max_;
  std::size_t deal_ = 0, scanned_ = 0;  // the latest deal among the events [0, scanned_)
};

}  // namespace boneyard::server
