// The OpenSpiel game of this folder's family, for Python's load_game
// (research/families.h). Compiled into the research library, not the game's.
#include "research/families.h"
#include "research/spiel_game.h"
#include "texas42/research.h"

BONEYARD_SPIEL_FAMILY(texas42, "texas-42", texas42::Texas42, texas42::Research)
