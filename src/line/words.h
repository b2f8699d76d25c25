#pragma once
// A move said for people as `listener` hears it (text.cpp): the seat itself
// ("12-4 on your train", "you lead"), another seat ("12-4 on its own train",
// "names you to lead") or -1, a watcher or a replay. State::move_words is
// the seat's own form; record/words.h picks this one by game.
#include <string>

#include "line/state.h"

namespace boneyard::line {

std::string words_heard(const State& s, int seat, Move m, int listener);

}  // namespace boneyard::line
