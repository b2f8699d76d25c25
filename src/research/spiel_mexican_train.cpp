// The OpenSpiel game of the mexican_train family (research/families.h).
#include "mexican_train/research.h"
#include "research/families.h"
#include "research/spiel_game.h"

namespace boneyard::spiel {

std::shared_ptr<const GameBase> make_mexican_train_game(const GameEntry& e, const OptionList& opts) {
  return build_game<mexican_train::MexicanTrain, mexican_train::Research>(e, opts);
}

}  // namespace boneyard::spiel
