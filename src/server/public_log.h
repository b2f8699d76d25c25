#pragma once
// The public log of a table: what every seat may know of each event, for
// the browser's "Last moves" (docs/server.md, State message, "log").
#include <cstddef>
#include <nlohmann/json.hpp>

#include "record/session.h"

namespace boneyard::server {

// The current hand's last `max` entries, oldest first (earlier hands' tiles
// are left out: one may be in a hidden hand now): {"n": event index, "hand": hand
// number (1 = the first deal), "kind", "seat", "move"}. Kinds: "move" (a
// public move, its canonical text), "laid" (Dice & Dominoes: tiles laid face
// down, which ones stays secret), "deal" (a hand dealt, nothing of what),
// "hand_over" (first, before the deal, from the second hand on), "roll" ("move": the dice)
// and "chance" (any other chance event, its outcome withheld).
nlohmann::json public_log(const Session& s, std::size_t max);

}  // namespace boneyard::server
