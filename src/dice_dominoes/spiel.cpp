// The OpenSpiel game of this folder's family, for Python's load_game
// (research/families.h). Compiled into the research library, not the game's.
#include "dice_dominoes/research.h"
#include "research/families.h"
#include "research/spiel_game.h"

BONEYARD_SPIEL_FAMILY(dice_dominoes, "dice-and-dominoes", dice_dominoes::DiceDominoes, dice_dominoes::Research)
