#pragma once
namespace boneyard::texas42 {
void register_games();
}
