#pragma once
// One factory per game family (spiel_<family>.cpp), so each family's
// templates compile in a translation unit of their own.
#include <memory>

#include "research/spiel.h"

namespace boneyard::spiel {

std::shared_ptr<const GameBase> make_line_game(const GameEntry& e, const OptionList& opts);
std::shared_ptr<const GameBase> make_mexican_train_game(const GameEntry& e, const OptionList& opts);
std::shared_ptr<const GameBase> make_texas42_game(const GameEntry& e, const OptionList& opts);
std::shared_ptr<const GameBase> make_dice_dominoes_game(const GameEntry& e, const OptionList& opts);

}  // namespace boneyard::spiel
