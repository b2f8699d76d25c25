#include "record/words.h"

namespace boneyard {

std::string move_words_heard(const AnyState& st, int seat, std::string_view move, int listener) {
  std::string words = st.move_words(seat, move);  // checks the turn and the move
  if (listener == seat) return words;
  const GameEntry& g = find_game(st.game());
  return g.words_heard ? g.words_heard(st, seat, move, listener) : words;
}

}  // namespace boneyard
