#pragma once
// Each game folder's OpenSpiel factory: src/<folder>/spiel.cpp, if it has
// one, says BONEYARD_SPIEL_FAMILY(folder, "family", Game, Research). The
// build lists those folders (CMake and setup.py write spiel_families.inc),
// so load_game finds a family's factory with no file here naming it. A game
// of an existing family (a preset, the test game) needs no spiel.cpp.
#include <memory>
#include <string_view>

#include "research/spiel.h"

namespace boneyard::spiel {

struct SpielFamily {
  std::string_view family;  // GameEntry::family
  std::shared_ptr<const GameBase> (*make)(const GameEntry& e, const OptionList& opts);
};

}  // namespace boneyard::spiel

#define BONEYARD_SPIEL_FAMILY(folder, family_name, Game, Research)                                                  \
  namespace boneyard::folder {                                                                                      \
  spiel::SpielFamily spiel_family() {                                                                               \
    return {family_name,                                                                                            \
            [](const GameEntry& e, const OptionList& opts) { return spiel::build_game<Game, Research>(e, opts); }}; \
  }                                                                                                                 \
  }
