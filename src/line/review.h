#pragma once
// How a review values the line games' decisions (core/game.h, ReviewSolver):
// the exact solver over sampled deals, and the face-up line.
#include "core/game.h"

namespace boneyard::line {
ReviewSolver review_solver();
}
