#pragma once
namespace boneyard::line {
void register_games();
}
