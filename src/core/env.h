#pragma once
// How many random games a property test plays: BONEYARD_PROPERTY_GAMES
// overrides the default (the sanitizer build in CI uses fewer, since it runs
// the same tests 10-20x slower).
#include <cstdlib>

#include "core/text.h"

namespace boneyard {

inline int property_games(int default_count) {
  if (const char* e = std::getenv("BONEYARD_PROPERTY_GAMES")) {
    const int n = parse_whole<int>(e).value_or(0);  // atoi is undefined past INT_MAX
    if (n > 0) return n;
  }
  return default_count;
}

}  // namespace boneyard
