#pragma once
namespace boneyard::dice_dominoes {
void register_games();
}
