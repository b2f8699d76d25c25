// Every game module registers here: adding a game is one line. CMake
// defines BONEYARD_HAS_<GAME> for each game folder that has a register.h.
#include "core/game.h"
#include "line/register.h"
#ifdef BONEYARD_HAS_MEXICAN_TRAIN
#include "mexican_train/register.h"
#endif
#ifdef BONEYARD_HAS_TEXAS42
#include "texas42/register.h"
#endif
#ifdef BONEYARD_HAS_DICE_DOMINOES
#include "dice_dominoes/register.h"
#endif

namespace boneyard {

void register_all_games() {
  static const bool done = [] {
    line::register_games();
#ifdef BONEYARD_HAS_MEXICAN_TRAIN
    mexican_train::register_games();
#endif
#ifdef BONEYARD_HAS_TEXAS42
    texas42::register_games();
#endif
#ifdef BONEYARD_HAS_DICE_DOMINOES
    dice_dominoes::register_games();
#endif
    return true;
  }();
  (void)done;
}

}  // namespace boneyard
