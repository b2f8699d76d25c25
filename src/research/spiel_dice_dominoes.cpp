// The OpenSpiel game of the dice_dominoes family (research/families.h).
#include "dice_dominoes/research.h"
#include "research/families.h"
#include "research/spiel_game.h"

namespace boneyard::spiel {

std::shared_ptr<const GameBase> make_dice_dominoes_game(const GameEntry& e, const OptionList& opts) {
  return build_game<dice_dominoes::DiceDominoes, dice_dominoes::Research>(e, opts);
}

}  // namespace boneyard::spiel
