#include "record/words.h"

#include "core/adapter.h"
#include "line/words.h"
#include "mexican_train/words.h"

namespace boneyard {

namespace {

template <class G>
bool heard(const AnyState& st, int seat, std::string_view move, int listener, std::string& out) {
  const auto* a = dynamic_cast<const GameAdapter<G>*>(&st);
  if (!a) return false;
  out = words_heard(a->state(), seat, a->state().parse_move(seat, move), listener);
  return true;
}

}  // namespace

std::string move_words_heard(const AnyState& st, int seat, std::string_view move, int listener) {
  std::string words = st.move_words(seat, move);  // checks the turn and the move
  if (listener == seat) return words;
  if (heard<line::LineGame>(st, seat, move, listener, words)) return words;
  heard<mexican_train::MexicanTrain>(st, seat, move, listener, words);
  return words;
}

}  // namespace boneyard
