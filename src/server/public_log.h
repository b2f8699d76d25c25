#pragma once
// The public log of a table: what every seat may know of each event, for
// the browser's "Last moves" (docs/server.md, State message, "log").
#include <cstddef>
#include <nlohmann/json.hpp>

#include "record/session.h"

namespace boneyard::server {

// The hand in play's last `max` entries, from its latest deal, oldest first
// (earlier hands' tiles are left out: one may be in a hidden hand now):
// {"n": event index, "hand": `hand`, "kind", "seat", "move"}. Kinds: "move"
// (a public move, its canonical text), "laid" (Dice & Dominoes: tiles laid
// face down, which ones stays secret), "deal" (a hand dealt, or dealt again,
// nothing of what), "roll" ("move": the dice) and "chance" (any other chance
// event, its outcome withheld). `hand`: the hand in play's number (a redeal
// is no new hand, so deals are not counted).
nlohmann::json public_log(const Session& s, std::size_t max, int hand);

}  // namespace boneyard::server
