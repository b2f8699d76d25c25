#pragma once
// Registers every line-game preset by name (src/games.cpp). make_entry is
// the line game's registration for any rules: a game of its own folder that
// plays by the line engine (its file `uses` says line) registers through it.
#include <functional>
#include <string>

#include "core/game.h"
#include "line/rules.h"

namespace boneyard::line {
void register_games();
GameEntry make_entry(const std::string& name, const std::string& summary, const std::string& sources,
                     std::function<Rules(const OptionList&)> rules);
}  // namespace boneyard::line
