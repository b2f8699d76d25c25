#include "mexican_train/state.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "core/sample.h"

namespace boneyard::mexican_train {

State::State(const Rules& rules, uint64_t seed) : r_(rules), rng_(seed) {
  validate(r_);
  seats_ = r_.players;
  start_seat_ = 0;  // spec: Decision, the first round starts with seat 0
  start_round();
}

TileSet State::hand(int seat) const {
  TileSet h;
  for (int n = 0; n < 16; ++n)
    for (unsigned m = hand_[seat][n] & ((2u << n) - 1); m; m &= m - 1) h.add(Tile::of(n, std::countr_zero(m)));
  return h;
}

TileSet State::table() const {
  TileSet h;
  for (int n = 0; n < 16; ++n)
    for (unsigned m = table_[n] & ((2u << n) - 1); m; m &= m - 1) h.add(Tile::of(n, std::countr_zero(m)));
  return h;
}

// penalty_of(hand(seat)) from the masks: each tile a-b counts a in row a and
// b in row b; a double sits in one row only, so it is added once more.
int State::hand_penalty(int seat) const {
  int p = 0;
  for (int n = 1; n < 16; ++n) p += n * (std::popcount(hand_[seat][n]) + ((hand_[seat][n] >> n) & 1));
  if (r_.blank_double_50 && (hand_[seat][0] & 1)) p += 50;  // spec: Play 6, option blank_double_50
  return p;
}

int State::penalty_of(const TileSet& tiles) const {
  int p = tiles.pips();
  if (r_.blank_double_50 && tiles.has(Tile::of(0, 0))) p += 50;  // spec: Play 6, option blank_double_50
  return p;
}

void State::start_round() {
  phase_ = Phase::Deal;
  to_move_ = -1;
  // round_doubles: round r uses the double N-r, out of the set before the deal.
  if (r_.engine == Engine::RoundDoubles) {
    const int e = r_.max_pip() - rounds_done_;
    engine_ = Tile::of(e, e).index;
  }
}

void State::apply_chance() {
  int n = 0;
  const bool fixed_engine = r_.engine == Engine::RoundDoubles;
  for (int i = 0, all = r_.tiles_in_set(); i < all; ++i)
    if (!(fixed_engine && i == engine_)) deck_[n++] = static_cast<uint8_t>(i);
  rng_.shuffle(deck_, n);
  const int hs = r_.hand_size();
  for (int s = 0; s < seats_; ++s) {
    std::fill(std::begin(hand_[s]), std::end(hand_[s]), uint16_t{0});
    for (int i = 0; i < hs; ++i) give(s, Tile{deck_[s * hs + i]});
  }
  deck_n_ = static_cast<uint8_t>(n);
  dealt_n_ = static_cast<uint8_t>(seats_ * hs);
  after_deal();
}

void State::deal(const TileSet* hands, const uint8_t* stock, int stock_n) {
  if (phase_ != Phase::Deal) throw Error("no deal is pending now");
  const int hs = r_.hand_size();
  TileSet pool = set_tiles();
  if (r_.engine == Engine::RoundDoubles) pool.remove(Tile{engine_});
  TileSet seen;
  for (int s = 0; s < seats_; ++s) {
    const TileSet& h = hands[s];
    if (h.size() != hs)
      throw Error(fmt::format("bad deal: seat {} has {} tiles; {} players get {} each", s, h.size(), seats_, hs));
    if (!h.minus(pool).empty())
      throw Error(fmt::format("bad deal: seat {} holds {}, which is not in the {} set{}", s, to_string(h.minus(pool)),
                              name(r_.set), r_.engine == Engine::RoundDoubles ? " less this round's engine" : ""));
    if (!(h & seen).empty())
      throw Error(fmt::format("bad deal: seat {} holds {}, already dealt to another seat", s, to_string(h & seen)));
    seen |= h;
  }
  const TileSet rest = pool.minus(seen);
  if (stock_n >= 0) {
    TileSet st;
    for (int i = 0; i < stock_n; ++i) {
      if (st.has(Tile{stock[i]}))
        throw Error(fmt::format("bad deal: {} appears twice in the stock", to_string(Tile{stock[i]})));
      st.add(Tile{stock[i]});
    }
    if (st != rest)
      throw Error(fmt::format("bad deal: the stock must hold exactly the {} undealt tiles (missing: {}; extra: {})",
                              rest.size(), to_string(rest.minus(st)), to_string(st.minus(rest))));
  }
  int i = 0;
  for (int s = 0; s < seats_; ++s) {
    std::fill(std::begin(hand_[s]), std::end(hand_[s]), uint16_t{0});
    hands[s].for_each([&](Tile t) {
      give(s, t);
      deck_[i++] = t.index;
    });
  }
  dealt_n_ = static_cast<uint8_t>(i);
  if (stock_n >= 0)
    std::copy(stock, stock + stock_n, deck_ + i);
  else
    rest.for_each([&](Tile t) { deck_[i++] = t.index; });
  deck_n_ = static_cast<uint8_t>(dealt_n_ + rest.size());
  after_deal();
}

void State::after_deal() {
  for (int s = 0; s < seats_; ++s) {
    void_[s] = 0;
    double_cap_[s] = 127;
  }
  stock_pos_ = dealt_n_;
  engine_seat_ = -1;
  engine_draws_ = 0;
  if (r_.engine == Engine::HighestInHand) {
    // Spec Set-up: the start player places their highest double; with none
    // they draw until they draw one (singles stay in hand); if the boneyard
    // runs out, the next player in turn does the same.
    int found = -1;
    for (int k = 0; k < seats_ && found < 0; ++k) {
      const int s = (start_seat_ + k) % seats_;
      int high = -1;
      for (int n = r_.max_pip(); n >= 0 && high < 0; --n)
        if ((hand_[s][n] >> n) & 1) high = n;
      if (high >= 0) {
        const Tile top = Tile::of(high, high);
        take(s, top);
        found = top.index;
        engine_seat_ = static_cast<int8_t>(s);
        double_cap_[s] = static_cast<int8_t>(top.high() - 1);  // it was their highest double
        break;
      }
      while (stock_pos_ < deck_n_) {
        const Tile t{deck_[stock_pos_++]};
        ++engine_draws_;
        if (t.is_double()) {
          found = t.index;
          engine_seat_ = static_cast<int8_t>(s);
          break;
        }
        give(s, t);
      }
      double_cap_[s] = -1;  // held no double, nor did the singles drawn
    }
    engine_ = static_cast<uint8_t>(found);  // the full set holds doubles, so one is found
  }
  engine_pip_ = static_cast<int8_t>(Tile{engine_}.high());
  std::fill(std::begin(table_), std::end(table_), uint16_t{0});
  table_[engine_pip_] = static_cast<uint16_t>(1u << engine_pip_);
  for (int s = 0; s < seats_; ++s) {
    int n = 0;
    for (int k = 0; k < 16; ++k) n += std::popcount(hand_[s][k]) + ((hand_[s][k] >> k) & 1);
    count_[s] = static_cast<uint8_t>(n / 2);
  }
  for (int k = 0; k < kTrains; ++k) {
    end_[k] = engine_pip_;
    len_[k] = 0;
  }
  n_log_ = 0;
  std::fill(std::begin(drew_at_), std::end(drew_at_), uint8_t{0});
  marked_ = 0;
  n_open_ = 0;
  passes_ = 0;
  opening_done_ = 0;
  turn_laid_ = 0;
  drawn_ = owes_cover_ = cover_draw_ = false;
  drawn_tile_ = -1;
  phase_ = Phase::Opening;
  to_move_ = start_seat_;
}

void State::apply(int seat, Move m) {
  switch (m.kind) {
    case Move::Lay:
      lay(seat, m.t(), m.train);
      return;
    case Move::Draw:
      draw(seat);
      return;
    case Move::Pass:
      pass(seat);
      return;
    case Move::EndOpening:
      void_[seat] |= 1u << end_[seat];  // nothing left fits their own train
      end_turn(seat, false);
      return;
  }
}

void State::apply_listed(int seat, Rng& rng) {
  MoveList<Move, MexicanTrain::kMaxMoves> l;
  legal_moves(seat, l);
  apply(seat, l[static_cast<int>(rng.below(static_cast<uint32_t>(l.size())))]);
}

bool State::remove_open(int train) {
  for (int i = 0; i < n_open_; ++i)
    if (open_[i] == train) {
      for (int j = i + 1; j < n_open_; ++j) open_[j - 1] = open_[j];
      --n_open_;
      return true;
    }
  return false;
}

uint32_t State::playable_numbers(int seat) const {
  if (phase_ == Phase::Opening) return 1u << end_[seat];
  if (n_open_ > 0) return 1u << end_[open_[0]];
  uint32_t m = (1u << end_[seat]) | (1u << end_[kMexican]);
  for (uint32_t x = marked_ & ~(1u << seat); x; x &= x - 1) m |= 1u << end_[std::countr_zero(x)];
  return m;
}

void State::lay(int seat, Tile t, int train) {
  const int a = t.high(), b = t.low();
  hand_[seat][a] &= static_cast<uint16_t>(~(1u << b));
  hand_[seat][b] &= static_cast<uint16_t>(~(1u << a));
  --count_[seat];
  table_[a] |= static_cast<uint16_t>(1u << b);
  table_[b] |= static_cast<uint16_t>(1u << a);
  log_train_[n_log_] = static_cast<uint8_t>(train);
  log_seat_[n_log_] = static_cast<uint8_t>(seat | (drawn_tile_ >= 0 ? 0x80 : 0));
  log_ends_[n_log_] = static_cast<uint16_t>(playable_numbers(seat));
  log_tile_[n_log_++] = t.index;
  ++len_[train];
  end_[train] = static_cast<int8_t>(a + b - end_[train]);  // the other end; no branch
  ++turn_laid_;
  passes_ = 0;
  // Selects, not branches: these depend on the random move.
  drawn_tile_ = static_cast<int16_t>(drawn_tile_ == t.index ? -1 : drawn_tile_);
  // Spec Play 4: the owner removes their marker by playing on their train.
  const bool own = train == seat;
  const bool was_marked = own & ((marked_ >> seat) & 1);
  marked_ &= static_cast<uint16_t>(~(unsigned{own} << seat));
  // Spec Play 6 / exception 3: the last tile ends the round at once.
  if (count_[seat] == 0) {
    end_round(RoundEnd::Domino);
    return;
  }
  const bool covered = remove_open(train);
  if (covered) owes_cover_ = false;
  if (a == b) {
    const int n = a;
    const bool last_of_number = table_[n] == (2u << r_.max_pip()) - 1;  // exception 1
    if (was_marked && phase_ == Phase::Play) {
      // Exception 2: marker removed, the turn passes, nobody covers it.
      end_turn(seat, false);
      return;
    }
    if (!last_of_number) {
      open_[n_open_++] = static_cast<int8_t>(train);
      owes_cover_ = true;
      cover_draw_ = true;  // spec Play 5: a drawn double too may draw once to be covered
    }
  }
  if (phase_ == Phase::Opening) {
    continue_or_mark(seat);  // spec Play 1: go on while tiles fit
    return;
  }
  // Spec Play 2/5: one tile a turn; a fresh double must be covered at once,
  // with one covering tile (Decision).
  if (covered || !owes_cover_) {
    end_turn(seat, false);
    return;
  }
  continue_or_mark(seat);
}

// The turn goes on if the player has a move; otherwise it ends with a marker
// on their own train (spec Play 1, 3, 5: an unplayable draw, an uncovered double).
void State::continue_or_mark(int seat) {
  if (!has_move(seat)) end_turn(seat, true);
}

// Whether legal_moves would list anything, without listing (same cases).
bool State::has_move(int seat) const {
  auto fits_train = [&](int train) { return fits(seat, end_[train]) != 0; };
  if (phase_ == Phase::Opening) {
    if (fits_train(seat) || (turn_laid_ > 0 && !owes_cover_)) return true;
  } else if (n_open_ > 0) {
    if (fits_train(open_[0])) return true;
    if (owes_cover_ && r_.multiple_doubles) {
      MoveList<Move, MexicanTrain::kMaxMoves> l;
      legal_moves(seat, l);
      return !l.empty();
    }
  } else {
    if (fits_train(seat) || fits_train(kMexican)) return true;
    for (uint32_t m = marked_ & ~(1u << seat); m; m &= m - 1)
      if (fits_train(std::countr_zero(m))) return true;
  }
  Move m;
  return move_without_tile(m);
}

void State::draw(int seat) {
  // Spec Play 3: nothing fits, draw one. What they held fitted none of the
  // ends they could play on; the drawn tile is unseen, so older voids lapse.
  void_[seat] = playable_numbers(seat);
  double_cap_[seat] = 127;
  drew_at_[seat] = n_log_;
  const Tile t{deck_[stock_pos_++]};
  give(seat, t);
  ++count_[seat];
  drawn_ = true;
  cover_draw_ = false;
  drawn_tile_ = t.index;
  continue_or_mark(seat);
}

void State::pass(int seat) {
  // Spec Play 3: boneyard empty and nothing fits: the marker, the turn passes.
  void_[seat] |= playable_numbers(seat);
  ++passes_;
  end_turn(seat, true);
  if (blocked()) end_round(RoundEnd::Blocked);  // spec Play 6: checked after every pass
}

// Spec Play 6, Decision: blocked when nothing can change any more: the
// boneyard is empty, every train carries its owner's marker (no pass can open
// one) and no player can lay a tile as the trains now stand.
bool State::blocked() const {
  const unsigned all = (1u << seats_) - 1;
  if (stock_pos_ < deck_n_ || (marked_ & all) != all) return false;
  // Every train is marked, so every player may play on each of them (or only
  // on the open double): the same ends for everyone.
  uint32_t ends = 1u << end_[kMexican];
  for (int k = 0; k < seats_; ++k) ends |= 1u << end_[k];
  if (n_open_ > 0) ends = 1u << end_[open_[0]];
  for (int s = 0; s < seats_; ++s)
    for (uint32_t e = ends; e; e &= e - 1)
      if (hand_[s][std::countr_zero(e)]) return false;
  return true;
}

void State::end_turn(int seat, bool mark) {
  if (mark) marked_ |= static_cast<uint16_t>(1u << seat);
  turn_laid_ = 0;
  drawn_ = owes_cover_ = cover_draw_ = false;
  drawn_tile_ = -1;
  if (phase_ == Phase::Opening && ++opening_done_ == seats_) phase_ = Phase::Play;  // the start player again
  to_move_ = static_cast<int8_t>(seat + 1 == seats_ ? 0 : seat + 1);
}

void State::end_round(RoundEnd how) {
  last_ = RoundResult{};
  last_.end = how;
  last_.out_seat = how == RoundEnd::Domino ? to_move_ : -1;
  last_.start_seat = start_seat_;
  last_.engine = engine_;
  last_.number = static_cast<uint16_t>(rounds_done_ + 1);
  for (int s = 0; s < seats_; ++s) {
    last_.tiles_left[s] = count_[s];
    last_.penalty[s] = static_cast<int16_t>(hand_penalty(s));
    score_[s] += last_.penalty[s];
  }
  ++rounds_done_;
  turn_laid_ = 0;
  drawn_ = owes_cover_ = cover_draw_ = false;
  drawn_tile_ = -1;
  if (rounds_done_ >= r_.total_rounds()) {
    phase_ = Phase::GameOver;
    to_move_ = -1;
    return;
  }
  start_seat_ = static_cast<int8_t>((start_seat_ + 1) % seats_);  // spec: Decision
  start_round();
}

void State::returns(double* out) const {
  // Spec Play 7: the lowest total penalty wins; equal totals share.
  for (int s = 0; s < seats_; ++s) out[s] = 0;
  if (!terminal()) return;
  int best = score_[0], n = 0;
  for (int s = 1; s < seats_; ++s) best = std::min(best, score_[s]);
  for (int s = 0; s < seats_; ++s) n += score_[s] == best;
  for (int s = 0; s < seats_; ++s) out[s] = score_[s] == best ? 1.0 / n : 0.0;
}

void State::scores(double* per_side) const {
  for (int s = 0; s < seats_; ++s) per_side[s] = score_[s];
}

int State::train_tiles(int train, Tile* out) const {
  int n = 0;
  for (int i = 0; i < n_log_; ++i)
    if (log_train_[i] == train) out[n++] = Tile{log_tile_[i]};
  return n;
}

State State::masked_for(int seat) const {
  State m = *this;
  for (int s = 0; s < seats_; ++s)
    if (s != seat) std::fill(std::begin(m.hand_[s]), std::end(m.hand_[s]), uint16_t{0});
  std::fill(std::begin(m.deck_), std::end(m.deck_), uint8_t{0});  // the deal and the boneyard
  m.rng_ = Rng(0);
  return m;
}

Observation State::observe(int seat) const { return Observation{seat, masked_for(seat)}; }

State State::sample_with(const Observation& o, Rng& rng, Assign assign) {
  State s = o.masked;
  const int me = o.seat;
  s.rng_.reseed(rng.next());
  if (s.phase_ == Phase::Deal || s.phase_ == Phase::GameOver) return s;
  const TileSet unknown = s.set_tiles().minus(s.table()).minus(s.hand(me));
  std::vector<Tile> tiles;
  tiles.reserve(static_cast<size_t>(unknown.size()));
  unknown.for_each([&](Tile t) { tiles.push_back(t); });
  std::vector<int> cap;
  std::vector<int> seat_of_place;
  for (int k = 0; k < s.seats_; ++k)
    if (k != me) {
      cap.push_back(s.count_[k]);
      seat_of_place.push_back(k);
    }
  cap.push_back(s.stock_left());
  std::vector<uint32_t> allowed(tiles.size());
  for (size_t i = 0; i < tiles.size(); ++i) {
    const Tile t = tiles[i];
    uint32_t a = 1u << (cap.size() - 1);  // the boneyard takes anything
    for (size_t p = 0; p < seat_of_place.size(); ++p) {
      const int k = seat_of_place[p];
      if ((s.void_[k] >> t.high() & 1) || (s.void_[k] >> t.low() & 1)) continue;
      if (t.is_double() && t.high() > s.double_cap_[k]) continue;
      a |= 1u << p;
    }
    allowed[i] = a;
  }
  auto place = assign(tiles, allowed, cap, rng);
  if (place.empty()) {  // contradictory constraints (not from a real history): drop them
    for (auto& a : allowed) a = (1u << cap.size()) - 1;
    place = assign(tiles, allowed, cap, rng);
  }
  for (int k = 0; k < s.seats_; ++k)
    if (k != me) std::fill(std::begin(s.hand_[k]), std::end(s.hand_[k]), uint16_t{0});
  uint8_t rest[kMaxSetTiles];
  int rn = 0;
  for (size_t i = 0; i < tiles.size(); ++i) {
    const size_t p = static_cast<size_t>(place[i]);
    if (p < seat_of_place.size())
      s.give(seat_of_place[p], tiles[i]);
    else
      rest[rn++] = tiles[i].index;
  }
  rng.shuffle(rest, rn);
  std::copy(rest, rest + rn, s.deck_ + s.stock_pos_);
  return s;
}

}  // namespace boneyard::mexican_train
