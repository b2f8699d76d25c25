#pragma once
// Why a game's state refuses a move text from a seat: the error's words
// (tests check that they say what was wrong), or "accepted" when it is a move.
#include <string>
#include <string_view>

#include "core/error.h"

template <class State>
std::string refusal(const State& s, int seat, std::string_view move) {
  try {
    s.parse_move(seat, move);
  } catch (const boneyard::Error& e) {
    return e.what();
  }
  return "accepted";
}
