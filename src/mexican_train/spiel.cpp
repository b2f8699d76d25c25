// The OpenSpiel game of this folder's family, for Python's load_game
// (research/families.h). Compiled into the research library, not the game's.
#include "mexican_train/research.h"
#include "research/families.h"
#include "research/spiel_game.h"

BONEYARD_SPIEL_FAMILY(mexican_train, "mexican-train", mexican_train::MexicanTrain, mexican_train::Research)
