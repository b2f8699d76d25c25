#pragma once
namespace boneyard::mexican_train {
void register_games();
}
