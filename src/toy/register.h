#pragma once
// The house's test game (issue 31): a game of its own folder, registered by
// one line in src/games.cpp, that every front-end must show with no other
// file touched. Registered only where BONEYARD_TEST_GAME=1, so players never
// see it.
namespace boneyard::toy {
void register_games();
}
