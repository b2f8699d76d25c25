// Fuzz target: tile notation, line-game move text and deal text.
#include <cstdint>
#include <string>

#include "core/error.h"
#include "core/tile.h"
#include "line/state.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string s(reinterpret_cast<const char*>(data), size);
  try {
    const boneyard::Tile t = boneyard::parse_tile(s, 18);
    if (boneyard::parse_tile(boneyard::to_string(t), 18) != t) __builtin_trap();  // round trip
  } catch (const boneyard::Error&) {
  }
  static const boneyard::line::State fresh(boneyard::line::make_rules("two-draw", {}), 1);
  boneyard::line::State st = fresh;
  try {
    st.apply_chance_text(s);
  } catch (const boneyard::Error&) {
  }
  if (st.actor().kind == boneyard::Actor::Chance) st.apply_chance();
  if (st.actor().kind == boneyard::Actor::Seat) {
    try {
      const auto m = st.parse_move(st.to_move(), s);
      if (st.parse_move(st.to_move(), st.move_text(m)) != m) __builtin_trap();
    } catch (const boneyard::Error&) {
    }
  }
  return 0;
}
