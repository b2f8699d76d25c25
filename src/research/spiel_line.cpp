// The OpenSpiel game of the line family (research/families.h).
#include "line/research.h"
#include "research/families.h"
#include "research/spiel_game.h"

namespace boneyard::spiel {

std::shared_ptr<const GameBase> make_line_game(const GameEntry& e, const OptionList& opts) {
  return build_game<line::LineGame, line::Research>(e, opts);
}

}  // namespace boneyard::spiel
