#pragma once
// The players' words for a move, by who makes it and who hears it (issue 36,
// 5): a seat's own list says "12-4 on your train", "end your opening turn";
// the same move by a bot, told to the person at another seat or to a
// watcher, says "12-4 on its own train", "ends its opening turn". The games
// whose words depend on the listener give them at registration (GameEntry::
// words_heard, from their words.h); the others say the move as
// AnyState::move_words does.
#include <string>
#include <string_view>

#include "core/game.h"

namespace boneyard {

// `move` legal now for `seat`, said for `listener` (a seat, or -1 for a
// watcher or a replay of every hand). Throws Error when it is not legal.
std::string move_words_heard(const AnyState& st, int seat, std::string_view move, int listener);

}  // namespace boneyard
