#include "line/state.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/sample.h"

namespace boneyard::line {

void HandResult::add(BonusKind k, int side, int points) {
  if (points == 0 || side < 0) return;
  for (int i = 0; i < n_items; ++i)
    if (items[i].kind == k && items[i].side == side) {
      items[i].points = static_cast<int16_t>(items[i].points + points);
      return;
    }
  if (n_items < 16) items[n_items++] = {k, static_cast<int8_t>(side), static_cast<int16_t>(points)};
}

State::State(const Rules& rules, uint64_t seed) : r_(rules), rng_(seed) {
  validate(r_);
  seats_ = static_cast<int8_t>(r_.seats());
  const int mp = r_.max_pip();
  for (int n = 0; n <= mp; ++n) {
    for (int x = 0; x <= mp; ++x) suit_[n] |= uint64_t{1} << Tile::of(n, x).index;
  }
  set_mask_ = SmallSet::first_n(set_size(mp)).w[0];
  if (r_.set == SetKind::DoubleSixNoBlankDouble) set_mask_ &= ~(uint64_t{1} << Tile::of(0, 0).index);
  if (r_.set == SetKind::DoubleSixNoDoubles)
    for (int n = 0; n <= 6; ++n) set_mask_ &= ~(uint64_t{1} << Tile::of(n, n).index);
  for (auto& s : suit_) s &= set_mask_;
  start_hand();
}

void State::start_hand() {
  phase_ = Phase::Deal;
  to_move_ = -1;
}

bool State::deals_leader_by_draw() const {
  return first_rule_ && !keep_leader_ && r_.first_leader != FirstLeader::HighestDouble;
}

// Highest pips, ties broken by the higher number (spec: first_leader).
static bool beats(Tile a, Tile b) { return a.pips() != b.pips() ? a.pips() > b.pips() : a.high() > b.high(); }

int State::draw_leader(const uint8_t* pool, int pool_n) {
  // draw_before_deal: one tile each from a fresh shuffle; highest leads.
  // draw_after_deal: tied players draw again from the tiles not yet drawn
  // (spec: Decision); if the pool runs dry the higher number breaks the tie.
  unsigned in = (1u << seats_) - 1;
  int next = 0;
  for (auto& d : leader_draw_) d = -1;
  for (int round = 0;; ++round) {
    int best_pips = -1;
    for (int s = 0; s < seats_; ++s) {
      if (!((in >> s) & 1)) continue;
      const Tile t{pool[next++]};
      lead_drawn_ |= uint64_t{1} << t.index;
      leader_draw_[s] = static_cast<int8_t>(t.index);
      leader_round_[s] = static_cast<int8_t>(round);
      best_pips = std::max(best_pips, t.pips());
    }
    unsigned tied = 0;
    for (int s = 0; s < seats_; ++s)
      if (((in >> s) & 1) && Tile{static_cast<uint8_t>(leader_draw_[s])}.pips() == best_pips) tied |= 1u << s;
    const bool redraw = r_.first_leader == FirstLeader::DrawAfterDeal && std::popcount(tied) > 1 &&
                        next + std::popcount(tied) <= pool_n;
    if (!redraw) {
      int best = -1;
      for (int s = 0; s < seats_; ++s)
        if ((tied >> s) & 1)
          if (best < 0 ||
              beats(Tile{static_cast<uint8_t>(leader_draw_[s])}, Tile{static_cast<uint8_t>(leader_draw_[best])}))
            best = s;
      return best;
    }
    in = tied;
  }
}

void State::apply_chance() {
  uint8_t tiles[kMaxSetTiles];
  int n = 0;
  for (uint64_t x = set_mask_; x; x &= x - 1) tiles[n++] = static_cast<uint8_t>(std::countr_zero(x));
  int leader = -1;
  lead_drawn_ = 0;
  if (deals_leader_by_draw() && r_.first_leader == FirstLeader::DrawBeforeDeal) {
    rng_.shuffle(tiles, n);  // the draw; the tiles go back and are reshuffled
    leader = draw_leader(tiles, n);
    lead_drawn_ = 0;
  }
  // A forward Fisher-Yates that stops once the rest is determined: the
  // undealt tiles first (their order is the draw order), then every hand but
  // the last; the last seat gets what is left, as a set.
  const int hs = r_.hand_size;
  stock_n_ = static_cast<uint8_t>(n - seats_ * hs);
  const int ordered = stock_n_ + (seats_ - 1) * hs;
  for (int i = 0; i < ordered; ++i) {
    const int j = i + static_cast<int>(rng_.below(static_cast<uint32_t>(n - i)));
    std::swap(tiles[i], tiles[j]);
  }
  std::copy(tiles, tiles + stock_n_, stock_);
  for (int s = 0; s < seats_; ++s) {
    uint64_t h = 0;
    for (int i = stock_n_ + s * hs, end = i + hs; i < end; ++i) h |= uint64_t{1} << tiles[i];
    hand_[s] = h;
  }
  if (deals_leader_by_draw() && r_.first_leader == FirstLeader::DrawAfterDeal) {
    // The pool: the undealt tiles and, for the cut-down sets, the removed
    // doubles (spec: three-21 draws from the 7 removed doubles).
    uint8_t pool[kMaxSetTiles + 7];
    int pn = 0;
    for (int i = 0; i < stock_n_; ++i) pool[pn++] = stock_[i];
    if (r_.max_pip() == 6)
      for (int i = 0; i < 28; ++i)
        if (!((set_mask_ >> i) & 1)) pool[pn++] = static_cast<uint8_t>(i);
    rng_.shuffle(pool, pn);
    leader = draw_leader(pool, pn);
  }
  drawn_leader_ = leader >= 0;
  after_deal(leader);
}

void State::deal(const SmallSet* hands, const uint8_t* stock, int stock_n, int leader, uint64_t lead_drawn) {
  if (phase_ != Phase::Deal) throw Error("no deal is pending now");
  uint64_t seen = 0;
  for (int s = 0; s < seats_; ++s) {
    const uint64_t h = hands[s].w[0];
    if (std::popcount(h) != r_.hand_size)
      throw Error(
          fmt::format("bad deal: seat {} has {} tiles; this game deals {} each", s, std::popcount(h), r_.hand_size));
    if (h & ~set_mask_)
      throw Error(fmt::format("bad deal: seat {} holds a tile that is not in the {} set", s, name(r_.set)));
    if (h & seen) throw Error(fmt::format("bad deal: seat {} holds a tile already dealt to another seat", s));
    seen |= h;
  }
  const uint64_t rest = set_mask_ & ~seen;
  if (stock_n >= 0) {
    uint64_t st = 0;
    for (int i = 0; i < stock_n; ++i) {
      if (st & (uint64_t{1} << stock[i])) throw Error("bad deal: a tile appears twice in the stock");
      st |= uint64_t{1} << stock[i];
    }
    if (st != rest)
      throw Error(fmt::format("bad deal: the stock must hold exactly the {} undealt tiles", std::popcount(rest)));
  }
  if (deals_leader_by_draw()) {
    if (leader < 0 || leader >= seats_)
      throw Error(
          fmt::format("bad deal: this hand's leader is chosen by a draw; add 'leader K' with K in 0..{}", seats_ - 1));
  } else if (leader >= 0) {
    throw Error("bad deal: 'leader' may only be given when the leader is chosen by a draw");
  }
  if (lead_drawn) {
    // draw_after_deal: drawn from the undealt tiles (three-21: the removed doubles).
    if (!deals_leader_by_draw() || r_.first_leader != FirstLeader::DrawAfterDeal)
      throw Error("bad deal: 'drawn' (the tiles drawn for the lead) only goes with first_leader=draw_after_deal");
    const uint64_t pool = rest | (r_.max_pip() == 6 ? ~set_mask_ & ((uint64_t{1} << 28) - 1) : 0);
    if (lead_drawn & ~pool) throw Error("bad deal: the tiles drawn for the lead must be undealt tiles");
    if (std::popcount(lead_drawn) < seats_)
      throw Error(
          fmt::format("bad deal: every seat draws for the lead: at least {} tiles drawn", static_cast<int>(seats_)));
  }
  for (int s = 0; s < seats_; ++s) hand_[s] = hands[s].w[0];
  stock_n_ = static_cast<uint8_t>(std::popcount(rest));
  if (stock_n >= 0)
    std::copy(stock, stock + stock_n, stock_);
  else {
    int i = 0;
    for (uint64_t x = rest; x; x &= x - 1) stock_[i++] = static_cast<uint8_t>(std::countr_zero(x));
  }
  for (auto& d : leader_draw_) d = -1;
  lead_drawn_ = lead_drawn;
  drawn_leader_ = leader >= 0;
  after_deal(leader);
}

void State::after_deal(int drawn_leader) {
  for (int s = 0; s < seats_; ++s) {
    dealt_[s] = hand_[s];
    count_[s] = static_cast<uint8_t>(std::popcount(hand_[s]));
    not_holding_[s] = placed_by_[s] = 0;
  }
  // draw_after_deal: the tiles drawn for the lead go back face down and are
  // never used in play (spec: first_leader): they sleep after the boneyard.
  int sleeping_drawn = 0;
  if (lead_drawn_) {
    uint8_t kept[kMaxSetTiles], drawn[kMaxSetTiles];
    int nk = 0;
    for (int i = 0; i < stock_n_; ++i) {
      if ((lead_drawn_ >> stock_[i]) & 1)
        drawn[sleeping_drawn++] = stock_[i];
      else
        kept[nk++] = stock_[i];
    }
    std::copy(kept, kept + nk, stock_);
    std::copy(drawn, drawn + sleeping_drawn, stock_ + nk);
  }
  drawable_ = r_.undealt == Undealt::Draw ? static_cast<uint8_t>(stock_n_ - sleeping_drawn) : 0;
  stock_pos_ = 0;
  played_ = 0;
  n_placed_ = 0;
  left_ = right_ = -1;
  passes_ = 0;
  last_placer_ = -1;
  forced_lead_ = -1;
  lead_pass_ = 0;
  pass2010_n_ = 0;
  first_pass_side_ = -1;
  for (int i = 0; i < kMaxSeats; ++i) hand_bonus_[i] = three_pass_[i] = 0;
  if (!keep_leader_ && first_rule_) {
    choice_pending_ = false;
    leader_ = static_cast<int8_t>(drawn_leader >= 0 ? drawn_leader : first_rule_leader_highest_double());
  }
  keep_leader_ = false;
  offer_redeal(0);
}

// highest_double: the holder of the highest double must lead it; with no
// double out, the tile with the most pips, ties by its higher number
// (spec: first_leader Decision).
int State::first_rule_leader_highest_double() {
  int best_seat = -1;
  Tile best{};
  bool best_double = false;
  for (int s = 0; s < seats_; ++s)
    SmallSet{{hand_[s]}}.for_each([&](Tile t) {
      const bool d = t.is_double();
      if (best_seat < 0 || (d && !best_double) || (d == best_double && beats(t, best))) {
        best_seat = s;
        best = t;
        best_double = d;
      }
    });
  forced_lead_ = static_cast<int8_t>(best.index);
  return best_seat;
}

void State::offer_redeal(int k_start) {
  // redeal_five_doubles: a player with 5+ doubles may demand a new deal,
  // offered before the lead, in turn order from the leader (or the seat
  // entering the team's choice of leader).
  if (r_.redeal_five_doubles) {
    const uint64_t dbl = doubles<1>(r_.max_pip()).w[0];
    const int from = choice_pending_ ? chooser_ : leader_;
    for (int k = k_start; k < seats_; ++k) {
      const int s = (from + k) % seats_;
      if (std::popcount(hand_[s] & dbl) >= 5) {
        redeal_k_ = static_cast<int8_t>(k);
        phase_ = Phase::Redeal;
        to_move_ = static_cast<int8_t>(s);
        return;
      }
    }
  }
  redeal_k_ = -1;
  if (choice_pending_) {
    phase_ = Phase::ChooseLeader;
    to_move_ = chooser_;
    return;
  }
  begin_play();
}

void State::begin_play() {
  phase_ = Phase::Play;
  to_move_ = leader_;
}

void State::apply(int seat, Move m) {
  switch (m.kind) {
    case Move::Lead:
    case Move::Left:
    case Move::Right:
      place(seat, m.tile(), m.kind != Move::Right);
      return;
    case Move::Pass:
      pass(seat);
      return;
    case Move::Draw:
      draw(seat);
      return;
    case Move::Redeal:
      ++redeals_;
      keep_leader_ = true;
      redeal_k_ = -1;
      phase_ = Phase::Deal;
      return;
    case Move::Keep:
      offer_redeal(redeal_k_ + 1);
      return;
    case Move::Leader:
      leader_ = static_cast<int8_t>(m.arg);
      choice_pending_ = false;
      begin_play();
      return;
  }
}

void State::draw(int seat) {
  // Undealt = draw: one tile at a time until a playable one comes. The hand
  // held nothing for the ends, and neither does what is kept.
  const uint8_t t = stock_[stock_pos_++];
  not_holding_[seat] = suit_[left_] | suit_[right_];
  hand_[seat] |= uint64_t{1} << t;
  ++count_[seat];
}

void State::pass(int seat) {
  ++passes_;
  not_holding_[seat] |= suit_[left_] | suit_[right_];
  const Bonuses& b = r_.bonuses;
  if (b.lead_pass && n_placed_ == 1) {
    if (passes_ == 1 && seat == (leader_ + 1) % seats_)
      lead_pass_ = 1;
    else if (b.lead_pass_cancel && passes_ == 2 && lead_pass_ == 1 && seat == (leader_ + 2) % seats_)
      lead_pass_ = 2;
  }
  const int placer_side = side_of(last_placer_);
  if (side_of(seat) != placer_side) {
    // first_pass_2: the first side in the game to make an opponent pass.
    if (b.first_pass_2 && !first_pass_done_ && first_pass_side_ < 0)
      first_pass_side_ = static_cast<int8_t>(placer_side);
    if (b.pass_20_10) {
      hand_bonus_[placer_side] = static_cast<int16_t>(hand_bonus_[placer_side] + (pass2010_n_ == 0 ? 20 : 10));
      ++pass2010_n_;
    }
  }
  if (passes_ == seats_ - 1) {
    // Every other seat passed after that tile: its player plays again, or
    // the hand is blocked (spec: play mechanism 6, Decision).
    if (b.three_passes) three_pass_[placer_side] = static_cast<int16_t>(three_pass_[placer_side] + b.three_passes);
    to_move_ = last_placer_;
    if (!can_play(last_placer_)) end_hand(HandEnd::Block);
    return;
  }
  to_move_ = static_cast<int8_t>(seat + 1 == seats_ ? 0 : seat + 1);
}

int State::nearest_to_leader(unsigned seat_mask) const {
  for (int k = 0; k < seats_; ++k) {
    const int s = (leader_ + k) % seats_;
    if ((seat_mask >> s) & 1) return s;
  }
  return -1;
}

// The seats among `among` with the fewest pips.
unsigned State::lowest_of(const uint8_t* pips, unsigned among) const {
  int m = 1 << 20;
  unsigned mask = 0;
  for (int s = 0; s < seats_; ++s)
    if ((among >> s) & 1) {
      if (pips[s] < m) {
        m = pips[s];
        mask = 0;
      }
      if (pips[s] == m) mask |= 1u << s;
    }
  return mask;
}

// The side that wins the hand blocked now, after the tie rule (-1: nobody
// scores), and whether block_winner alone left a tie (spec: Decision).
// The solver scores blocks with it too.
int State::block_winner(bool& tied) const {
  uint8_t pips[kMaxSeats] = {};
  for (int s = 0; s < seats_; ++s) pips[s] = static_cast<uint8_t>(SmallSet{{hand_[s]}}.pips());
  const int sides = num_sides();
  int side_pips[kMaxSeats] = {};
  for (int s = 0; s < seats_; ++s) side_pips[side_of(s)] += pips[s];
  int winner = -1;          // side
  unsigned tied_seats = 0;  // who is level when the block is a tie
  auto lowest_seats = [&](unsigned among) { return lowest_of(pips, among); };
  auto side_of_mask = [&](unsigned mask) {  // the one side of these seats, or -1
    int side = -1;
    for (int s = 0; s < seats_; ++s)
      if ((mask >> s) & 1) {
        if (side >= 0 && side != side_of(s)) return -1;
        side = side_of(s);
      }
    return side;
  };
  const unsigned all = (1u << seats_) - 1;
  switch (r_.block_winner) {
    case BlockWinner::LowestPlayer: {
      // Two partners sharing the lowest count is no tie (Decision).
      const unsigned low = lowest_seats(all);
      winner = side_of_mask(low);
      if (winner < 0) tied_seats = low;
      break;
    }
    case BlockWinner::LowestTeam: {
      int m = 1 << 20, count = 0;
      for (int sd = 0; sd < sides; ++sd) {
        if (side_pips[sd] < m) {
          m = side_pips[sd];
          count = 0;
          winner = sd;
        }
        if (side_pips[sd] == m) ++count;
      }
      if (count > 1) {
        winner = -1;
        for (int s = 0; s < seats_; ++s)
          if (side_pips[side_of(s)] == m) tied_seats |= 1u << s;
      }
      break;
    }
    case BlockWinner::LastVsNext: {
      const int a = last_placer_, n = (a + 1) % seats_;
      if (pips[a] != pips[n])
        winner = side_of(pips[a] < pips[n] ? a : n);
      else
        tied_seats = (1u << a) | (1u << n);
      break;
    }
    case BlockWinner::LastVsOpponents: {
      const int a = last_placer_;
      unsigned opp = 0;
      for (int s = 0; s < seats_; ++s)
        if (side_of(s) != side_of(a)) opp |= 1u << s;
      const unsigned low = lowest_seats(opp);
      const int lo = pips[std::countr_zero(low)];
      if (pips[a] < lo)
        winner = side_of(a);
      else if (pips[a] == lo)
        tied_seats = low | (1u << a);
      else {
        winner = side_of_mask(low);  // individual play: the lowest opponent
        if (winner < 0) tied_seats = low;
      }
      break;
    }
  }
  tied = winner < 0;
  if (winner < 0) {
    switch (r_.block_tie) {
      case BlockTie::LastPlayerWins:
        winner = side_of(last_placer_);
        break;
      case BlockTie::ClosestToLeader:
        winner = r_.teams() ? side_of(leader_) : side_of(nearest_to_leader(tied_seats));
        break;
      case BlockTie::LastPlayerLoses:
        if (r_.teams())
          winner = 1 - side_of(last_placer_);
        else {
          const unsigned others = tied_seats & ~(1u << last_placer_);
          winner = side_of(nearest_to_leader(others ? others : (all & ~(1u << last_placer_))));
        }
        break;
      case BlockTie::LowestPlayerWins: {
        const unsigned low = lowest_seats(all);
        winner = side_of_mask(low);
        if (std::popcount(low) > 1 && !r_.teams()) winner = -1;
        break;
      }
      default:
        break;  // void rules: nobody scores
    }
  }
  return winner;
}

void State::end_hand(HandEnd how) {
  const bool capicua = last_.capicua;
  last_ = HandResult{};
  last_.capicua = how == HandEnd::Domino && capicua;
  last_.end = how;
  last_.last_placer = last_placer_;
  last_.leader = leader_;
  for (int s = 0; s < seats_; ++s) last_.pips[s] = static_cast<uint8_t>(SmallSet{{hand_[s]}}.pips());
  int winner = -1;  // side
  if (how == HandEnd::Domino) {
    winner = side_of(last_placer_);
    last_.winner_seat = last_placer_;
  } else {
    bool tied = false;
    winner = block_winner(tied);
    last_.tied = tied;
    if (winner >= 0) {
      unsigned mine = 0;
      for (int s = 0; s < seats_; ++s)
        if (side_of(s) == winner) mine |= 1u << s;
      last_.winner_seat = static_cast<int8_t>(nearest_to_leader(lowest_of(last_.pips, mine)));
    }
  }
  last_.winner_side = static_cast<int8_t>(winner);
  score_hand();
}

void State::score_hand() {
  HandResult& h = last_;
  const int sides = num_sides();
  const int w = h.winner_side;
  int total = 0;
  for (int s = 0; s < seats_; ++s) total += h.pips[s];
  ++hands_;
  ++hand_in_game_;
  h.number = hand_in_game_;
  if (w >= 0) {
    int pts = 0;
    switch (r_.scoring) {
      case Scoring::Wins:
        pts = 0;
        break;  // counted below
      case Scoring::OthersPips:
        for (int s = 0; s < seats_; ++s)
          if (side_of(s) != w) pts += h.pips[s];
        break;
      case Scoring::AllPips:
        pts = total;
        break;
      case Scoring::AllPipsFloor10:
        pts = total - total % 10;
        break;
      case Scoring::AllPipsRound10:
        pts = (total + 5) / 10 * 10;
        break;
      case Scoring::CubanTens:
        pts = (total + 9) / 10;
        if (pts == 1) pts = 2;
        break;
      case Scoring::LosersOwnPips:
        for (int s = 0; s < seats_; ++s)
          if (side_of(s) != w) h.pip_points[side_of(s)] = static_cast<int16_t>(h.pip_points[side_of(s)] + h.pips[s]);
        break;
    }
    if (r_.scoring != Scoring::LosersOwnPips && r_.scoring != Scoring::Wins) {
      if (r_.bonuses.capicua_double && h.capicua) pts *= 2;
      h.pip_points[w] = static_cast<int16_t>(pts);
    }
  }
  // Bonuses (spec: Bonuses), itemised, added even when the hand is void.
  const Bonuses& b = r_.bonuses;
  const bool domino = h.end == HandEnd::Domino;
  if (domino && b.capicua && h.capicua) {
    const Tile t{static_cast<uint8_t>(placed_[n_placed_ - 1] & 0x7f)};
    if (!(b.capicua_no_zero && t.shows(0))) h.add(BonusKind::Capicua, w, b.capicua);
  }
  if (b.lead_pass && lead_pass_ == 1) h.add(BonusKind::LeadPass, side_of(leader_), b.lead_pass);
  for (int sd = 0; sd < sides; ++sd) {
    h.add(BonusKind::ThreePasses, sd, three_pass_[sd]);
    h.add(BonusKind::Pass2010, sd, hand_bonus_[sd]);
  }
  if (b.early_hands && w >= 0 && hand_in_game_ <= 4) {
    static constexpr int kEarly[] = {100, 75, 50, 25};
    h.add(BonusKind::EarlyHand, w, kEarly[hand_in_game_ - 1]);
  }
  if (domino && b.blank_double_domino && (placed_[n_placed_ - 1] & 0x7f) == Tile::of(0, 0).index)
    h.add(BonusKind::BlankDoubleDomino, w, 100);
  if (domino && b.ones_ends && left_ == 1 && right_ == 1) h.add(BonusKind::OnesEnds, w, 100);
  if (h.end == HandEnd::Block && b.first_block_win && w >= 0 && !first_block_done_) {
    first_block_done_ = true;
    h.add(BonusKind::FirstBlockWin, w, 100);
  }
  for (int sd = 0; sd < sides; ++sd) {
    int t = h.pip_points[sd];
    for (int i = 0; i < h.n_items; ++i)
      if (h.items[i].side == sd) t += h.items[i].points;
    h.total[sd] = static_cast<int16_t>(t);
  }
  if (first_pass_side_ >= 0) {
    // first_pass_2 counts only if the side's score is above 0 once this hand
    // is scored; otherwise it is lost for the game (Decision).
    first_pass_done_ = true;
    const int sd = first_pass_side_;
    if (score_[sd] + h.total[sd] > 0) {
      h.add(BonusKind::FirstPass, sd, 2);
      h.total[sd] = static_cast<int16_t>(h.total[sd] + 2);
    }
  }

  bool restart = false;  // the next leader comes from the first-hand rule
  if (r_.scoring == Scoring::Wins) {
    // Win counting (spec: Win counting).
    for (int sd = 0; sd < sides; ++sd) score_[sd] += h.total[sd];  // bonuses, if any
    if (w >= 0) {
      int add = 1;
      if (tie_double_pending_) {
        add = 2;
        tie_double_pending_ = false;
      }
      if (double_up_pending_) {
        double_up_pending_ = false;
        for (int sd = 0; sd < sides; ++sd) score_[sd] = 0;
        score_[w] = 2;
        h.pip_points[w] = 2;
      } else {
        score_[w] += add;
        h.pip_points[w] = static_cast<int16_t>(add);
      }
      h.total[w] = static_cast<int16_t>(h.total[w] + h.pip_points[w]);
      bool all_scored = true, all_at_one = true;
      for (int sd = 0; sd < sides; ++sd) {
        all_scored &= score_[sd] >= 1;
        all_at_one &= score_[sd] == 1;
      }
      // jamaica_double_up: two sides (teams) exactly 1 win each, 3 or 4
      // individual players at least 1 each (spec: Win counting, Decision).
      const bool double_up = r_.jamaica_double_up && (sides > 2 ? all_scored : all_at_one);
      if (r_.wins_need_shutout && all_scored) {
        if (double_up) {
          double_up_pending_ = true;
          h.double_up = true;
        } else {
          for (int sd = 0; sd < sides; ++sd) score_[sd] = 0;
          h.wins_reset = true;
        }
        restart = true;
      } else if (score_[w] >= r_.target) {
        winners_ = static_cast<uint8_t>(1u << w);
      }
    }
    if (h.tied && r_.tie_doubles_next) tie_double_pending_ = true;
  } else {
    bool reached = false;
    for (int sd = 0; sd < sides; ++sd) {
      score_[sd] += h.total[sd];
      reached |= score_[sd] >= r_.target;
    }
    if (reached) {
      // Most points wins; with losers_own_pips the fewest (reaching loses).
      const bool low_wins = r_.scoring == Scoring::LosersOwnPips;
      int best = low_wins ? 1 << 30 : -(1 << 30);
      for (int sd = 0; sd < sides; ++sd) best = low_wins ? std::min(best, score_[sd]) : std::max(best, score_[sd]);
      for (int sd = 0; sd < sides; ++sd)
        if (score_[sd] == best) winners_ |= static_cast<uint8_t>(1u << sd);
    }
  }
  if (r_.single_hand && !winners_)  // the hand's winner wins; nobody: a shared draw
    winners_ = static_cast<uint8_t>(w >= 0 ? 1u << w : (1u << sides) - 1);
  if (winners_) {
    phase_ = Phase::GameOver;
    to_move_ = -1;
    return;  // h.next stays None
  }
  // The next hand's leader, named in the result (spec: What the engine exposes).
  first_rule_ = false;
  choice_pending_ = false;
  h.next = NextLead::Rotate;
  if (restart)
    first_rule_ = true;
  else if (w < 0) {
    switch (r_.block_tie) {
      case BlockTie::Void:
        leader_ = static_cast<int8_t>((leader_ + 1) % seats_);
        break;
      case BlockTie::VoidSameLeader:
        h.next = NextLead::SameLeader;
        break;
      case BlockTie::VoidReset:
        first_rule_ = true;
        break;
      default:  // a tie rule that still left nobody (lowest_player_wins)
        if (r_.next_leader == NextLeader::Rotate)
          leader_ = static_cast<int8_t>((leader_ + 1) % seats_);
        else
          first_rule_ = true;
    }
  } else {
    switch (r_.next_leader) {
      case NextLeader::Rotate:
        leader_ = static_cast<int8_t>((leader_ + 1) % seats_);
        break;
      case NextLeader::Winner:
        leader_ = h.winner_seat;
        h.next = NextLead::Winner;
        break;
      case NextLeader::WinningTeamChooses:
        h.next = NextLead::Winner;  // individual players: the winner (spec: next_leader)
        if (r_.teams()) {
          choice_pending_ = true;
          chooser_ = h.winner_seat;  // the team's choice, entered by the hand's winner
          h.next = NextLead::TeamChooses;
        } else {
          leader_ = h.winner_seat;
        }
        break;
    }
  }
  if (first_rule_) h.next = NextLead::FirstHandRule;
  h.next_leader = h.next == NextLead::FirstHandRule ? -1 : h.next == NextLead::TeamChooses ? chooser_ : leader_;
  start_hand();
}

void State::returns(double* out) const {
  const int n = std::popcount(static_cast<unsigned>(winners_));
  for (int s = 0; s < seats_; ++s) out[s] = (n && ((winners_ >> side_of(s)) & 1)) ? 1.0 / n : 0.0;
}

void State::scores(double* per_side) const {
  for (int sd = 0; sd < num_sides(); ++sd) per_side[sd] = score_[sd];
}

int State::line(std::pair<int, int>* out) const {
  // Rebuild the line from the placement order: left placements prepend.
  std::pair<int, int> buf[2 * kMaxSetTiles + 1];
  int lo = kMaxSetTiles, hi = kMaxSetTiles;  // [lo, hi)
  int l = -1, r = -1;
  for (int i = 0; i < n_placed_; ++i) {
    const Tile t{static_cast<uint8_t>(placed_[i] & 0x7f)};
    const bool left = placed_[i] & 0x80;
    if (i == 0) {
      buf[hi++] = {t.high(), t.low()};
      l = t.high();
      r = t.low();
    } else if (left) {
      buf[--lo] = {t.other(l), l};
      l = t.other(l);
    } else {
      buf[hi++] = {r, t.other(r)};
      r = t.other(r);
    }
  }
  std::copy(buf + lo, buf + hi, out);
  return hi - lo;
}

int State::opening_index() const {
  int left = 0;
  for (int i = 1; i < n_placed_; ++i) left += (placed_[i] & 0x80) ? 1 : 0;
  return left;
}

State State::masked_for(int seat) const {
  State m = *this;
  for (int s = 0; s < seats_; ++s)
    if (s != seat) m.hand_[s] = m.dealt_[s] = 0;
  if (seat >= 0 && seat < seats_) m.dealt_[seat] = 0;
  std::fill(std::begin(m.stock_), std::end(m.stock_), uint8_t{0});
  m.rng_ = Rng(0);
  return m;
}

Observation State::observe(int seat) const { return Observation{seat, masked_for(seat)}; }

State State::sample(const Observation& o, Rng& rng) {
  State s = o.masked;
  const int me = o.seat;
  s.rng_.reseed(rng.next());
  if (s.phase_ == Phase::Deal || s.phase_ == Phase::GameOver) return s;
  // Unknown tiles: the set less my hand, everything played and the tiles
  // drawn for the lead (public, asleep at the end of the stock).
  const uint64_t known_asleep = s.lead_drawn_ & s.set_mask_;
  const uint64_t unknown = s.set_mask_ & ~s.hand_[me] & ~s.played_ & ~known_asleep;
  std::vector<Tile> tiles;
  for (uint64_t x = unknown; x; x &= x - 1) tiles.push_back(Tile{static_cast<uint8_t>(std::countr_zero(x))});
  // Places: the other seats, then the undealt tiles (boneyard and sleeping).
  std::vector<int> cap;
  std::vector<int> seat_of_place;
  for (int k = 0; k < s.seats_; ++k)
    if (k != me) {
      cap.push_back(s.count_[k]);
      seat_of_place.push_back(k);
    }
  cap.push_back(s.undealt_count() - std::popcount(known_asleep));
  std::vector<uint32_t> allowed(tiles.size());
  for (size_t i = 0; i < tiles.size(); ++i) {
    uint32_t a = 1u << (cap.size() - 1);
    for (size_t p = 0; p < seat_of_place.size(); ++p)
      if (!((s.not_holding_[seat_of_place[p]] >> tiles[i].index) & 1)) a |= 1u << p;
    allowed[i] = a;
  }
  auto place = sample_assignment(tiles, allowed, cap, rng);
  if (place.empty()) {  // contradictory constraints (cannot happen for real histories): drop them
    for (auto& a : allowed) a = (1u << cap.size()) - 1;
    place = sample_assignment(tiles, allowed, cap, rng);
  }
  for (int k = 0; k < s.seats_; ++k)
    if (k != me) s.hand_[k] = 0;
  uint8_t undealt[kMaxSetTiles];
  int un = 0;
  for (size_t i = 0; i < tiles.size(); ++i) {
    const size_t p = static_cast<size_t>(place[i]);
    if (p < seat_of_place.size())
      s.hand_[seat_of_place[p]] |= uint64_t{1} << tiles[i].index;
    else
      undealt[un++] = tiles[i].index;
  }
  rng.shuffle(undealt, un);
  for (uint64_t x = known_asleep; x; x &= x - 1) undealt[un++] = static_cast<uint8_t>(std::countr_zero(x));
  std::copy(undealt, undealt + un, s.stock_ + s.stock_pos_);
  return s;
}

State State::sampled(int seat, Rng& rng) const { return sample(observe(seat), rng); }

}  // namespace boneyard::line
