// Every game module registers here: adding a game is one line.
#include "core/game.h"
#include "line/register.h"
#if __has_include("mexican_train/register.h")
#include "mexican_train/register.h"
#define BONEYARD_HAS_MEXICAN_TRAIN 1
#endif
#if __has_include("texas42/register.h")
#include "texas42/register.h"
#define BONEYARD_HAS_TEXAS42 1
#endif
#if __has_include("dice_dominoes/register.h")
#include "dice_dominoes/register.h"
#define BONEYARD_HAS_DICE_DOMINOES 1
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
