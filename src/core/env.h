#pragma once
// How many random games a property test plays: BONEYARD_PROPERTY_GAMES
// overrides the default (the sanitizer build in CI uses fewer, since it runs
// the same tests 10-20x slower).
#include <cstdlib>

namespace boneyard {

inline int property_games(int default_count) {
  if (const char* e = std::getenv("BONEYARD_PROPERTY_GAMES")) {
    const int n = std::atoi(e);
    if (n > 0) return n;
  }
  return default_count;
}

}  // namespace boneyard
