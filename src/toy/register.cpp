// Registers "toy-block": a two-player block game of one hand, played by the
// line engine (line/register.h) with rules of its own.
#include "toy/register.h"

#include <cstdlib>
#include <string_view>

#include "line/register.h"

namespace boneyard::toy {

void register_games() {
  const char* on = std::getenv("BONEYARD_TEST_GAME");
  if (!on || std::string_view(on) != "1") return;  // a test game: players never see it
  register_game(line::make_entry("toy-block",
                                 "Toy block: two players, one hand of the block game (a test game, not for play)", "-",
                                 [](const OptionList& o) {
                                   OptionList all{{"players", "2"}, {"single_hand", "on"}, {"target", "50"}};
                                   all.insert(all.end(), o.begin(), o.end());
                                   return line::make_rules("colombia", all);
                                 }));
}

}  // namespace boneyard::toy
