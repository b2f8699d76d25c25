// The OpenSpiel game of the texas42 family (research/families.h).
#include "research/families.h"
#include "research/spiel_game.h"
#include "texas42/research.h"

namespace boneyard::spiel {

std::shared_ptr<const GameBase> make_texas42_game(const GameEntry& e, const OptionList& opts) {
  return build_game<texas42::Texas42, texas42::Research>(e, opts);
}

}  // namespace boneyard::spiel
