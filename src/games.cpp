// Every game folder registers here, one line a game: BONEYARD_GAME(folder).
// CMake builds each src/<folder>/ that has a register.cpp as a game library
// (linked to the game folders named in its file `uses`, if any), and
// <folder>/register.h declares boneyard::<folder>::register_games().
// Nothing else names a game: its words, units, review, ratings, Python
// factory and board come with its registration (core/game.h).
#include <vector>

#include "core/game.h"

namespace boneyard {
namespace {

using RegisterFn = void (*)();
std::vector<RegisterFn>& registrations() {
  static std::vector<RegisterFn> r;
  return r;
}
bool listed(RegisterFn f) {
  registrations().push_back(f);
  return true;
}

}  // namespace

// Declares the folder's register_games and lists it (in this order: static
// initialisation within one file follows the file).
#define BONEYARD_GAME(folder)                                   \
  namespace folder {                                            \
  void register_games();                                        \
  }                                                             \
  namespace {                                                   \
  const bool folder##_listed = listed(&folder::register_games); \
  }

BONEYARD_GAME(line)
BONEYARD_GAME(mexican_train)
BONEYARD_GAME(texas42)
BONEYARD_GAME(dice_dominoes)
BONEYARD_GAME(toy)  // the test game: registers only where BONEYARD_TEST_GAME=1

void register_all_games() {
  static const bool done = [] {
    for (RegisterFn f : registrations()) f();
    return true;
  }();
  (void)done;
}

}  // namespace boneyard
