// Text forms of Dice & Dominoes: moves, deals and dice, the JSON view and the
// table as a person sees it.
#include "core/text.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <sstream>

#include "dice_dominoes/state.h"

namespace boneyard::dice_dominoes {

using nlohmann::json;

namespace {

std::string face(uint8_t f) { return f == kNone ? "?" : to_string(Tile{f}); }

// "6-6 5-4 0-0": highest face first, twins repeated.
std::string pile_text(uint64_t p) {
  std::string out;
  for (int f = kFaces - 1; f >= 0; --f)
    for (int c = 0; c < pile::copies(p, f); ++c) {
      if (!out.empty()) out += ' ';
      out += face(static_cast<uint8_t>(f));
    }
  return out;
}

json pile_json(uint64_t p) {
  json a = json::array();
  for (int f = kFaces - 1; f >= 0; --f)
    for (int c = 0; c < pile::copies(p, f); ++c) a.push_back(face(static_cast<uint8_t>(f)));
  return a;
}

const char* phase_name(Phase p) {
  switch (p) {
    case Phase::Deal:
      return "deal";
    case Phase::Roll:
      return "roll";
    case Phase::Choose:
      return "choose";
    case Phase::RerollChoice:
      return "reroll_or_keep";
    case Phase::GameOver:
      return "game_over";
  }
  return "?";
}

const char* payout_name(Payout p) {
  switch (p) {
    case Payout::Single:
      return "single";
    case Payout::Special:
      return "special";
    case Payout::Split:
      return "split";
    case Payout::AllOut:
      return "all_out";
  }
  return "?";
}

std::string seats_text(unsigned mask) {
  std::string s;
  for (int k = 0; k < kMaxSeats; ++k)
    if (mask >> k & 1) s += fmt::format("{}{}", s.empty() ? "seat " : ", ", k);
  return s;
}
}  // namespace

std::string DiceDominoes::side_name(const State&, int side) { return fmt::format("seat {}", side); }

std::string State::move_text(Move m) const {
  switch (m.kind) {
    case Move::Lay:
      return m.second == kNone ? face(m.first) : face(m.first) + "," + face(m.second);
    case Move::Reroll:
      return "reroll";
    case Move::Keep:
      return "keep";
  }
  return "?";
}

// The move for people: "lay 6-2 then 3-1 face down" where the order of
// preference can change what is revealed (spec: A round 3, Decision), else
// "lay 6-2 and 3-1 face down": the list holds that pair once, and a pair typed
// the other way round is the same move, said without an order it does not have.
std::string State::move_words(int seat, Move m) const {
  (void)seat;
  switch (m.kind) {
    case Move::Lay: {
      if (m.second == kNone) return fmt::format("lay {} face down", face(m.first));
      const uint8_t hi = std::max(m.first, m.second), lo = std::min(m.first, m.second);
      const bool ordered = dice_[0] > 0 && hi != lo && (kReveal.v[(dice_[0] - 1) * 6 + dice_[1] - 1][hi][lo] & 64) != 0;
      return fmt::format("lay {} {} {} face down", face(m.first), ordered ? "then" : "and", face(m.second));
    }
    case Move::Reroll:
      return "reroll (new match points)";
    case Move::Keep:
      return "keep the match points";
  }
  return move_text(m);
}

Move State::parse_move(int seat, std::string_view text) const {
  MoveList<Move, DiceDominoes::kMaxMoves> legal;
  legal_moves(seat, legal);
  const std::string t = lower_trim(text);
  auto fail = [&](const std::string& why) {
    std::string options;
    int shown = 0;
    for (const Move& m : legal) {
      if (shown++ == 40) {
        options += fmt::format(", ... ({} in all)", legal.size());
        break;
      }
      options += (options.empty() ? "" : ", ") + move_text(m);
    }
    if (options.empty()) options = "none for this seat";
    return Error(fmt::format("illegal move '{}' for seat {}: {}; legal now: {}", text, seat, why, options));
  };
  if (t.empty()) throw fail("empty move");
  for (const Move& m : legal)
    if (t == move_text(m)) return m;
  if (t == "reroll" || t == "keep") {
    throw fail(phase_ == Phase::RerollChoice ? fmt::format("only seat {} chooses now", chooser_)
                                             : "reroll or keep is chosen only after a W-perfect");
  }
  if (phase_ == Phase::RerollChoice) throw fail("the W-perfect player chooses reroll or keep");
  if (phase_ != Phase::Choose) throw fail("no tiles are laid now");
  if (!((pending_ >> seat) & 1)) throw fail(fmt::format("seat {} has already laid its tiles this round", seat));
  // One or two tiles in any tile notation, separated by ',', '+', '/' or
  // blanks: "6-2,3-1", "2-6 1-3", "[6|2] [3|1]".
  std::string spaced;
  for (char c : t) spaced += (c == ',' || c == '+' || c == '/' || c == ';') ? ' ' : c;
  std::istringstream in(spaced);
  std::string tok;
  uint8_t faces[2];
  int k = 0;
  while (in >> tok) {
    if (k == 2) throw fail("lay at most two tiles");
    try {
      faces[k++] = parse_tile(tok, 6).index;
    } catch (const Error& e) {
      throw fail(e.what());
    }
  }
  const int want = count_[seat] == 1 ? 1 : 2;
  if (k != want)
    throw fail(want == 1 ? "with one tile in hand, lay just that tile"
                         : fmt::format("lay exactly two tiles from your {} (in order of preference)", count_[seat]));
  uint64_t need = 0;
  for (int i = 0; i < k; ++i) pile::add(need, faces[i]);
  if ((need & hand_[seat]) != need) {
    // Name only what is missing: "3-3,6-1" with 3-3 held is about 6-1.
    const std::string hand = pile_text(hand_[seat]);
    if (k == 2 && faces[0] == faces[1] && pile::has(hand_[seat], faces[0]))
      throw fail(
          fmt::format("seat {} holds only one {}: name two tiles (hand: {})", seat, to_string(Tile{faces[0]}), hand));
    std::string missing;
    for (int i = 0; i < k; ++i)
      if (!pile::has(hand_[seat], faces[i]) && (i == 0 || faces[i] != faces[0]))
        missing += (missing.empty() ? "" : " ") + to_string(Tile{faces[i]});
    throw fail(fmt::format("seat {} does not hold {} (hand: {})", seat, missing, hand));
  }
  const uint8_t second = k == 2 ? faces[1] : kNone;
  for (const Move& m : legal)
    if (m.first == faces[0] && m.second == second) return m;
  // The same pair in the other order, where order changes nothing.
  if (k == 2)
    for (const Move& m : legal)
      if (m.first == faces[1] && m.second == faces[0]) return m;
  throw fail("not a legal choice");
}

std::string State::chance_text() const {
  if (last_chance_roll_) return fmt::format("roll {} {}", static_cast<int>(dice_[0]), static_cast<int>(dice_[1]));
  std::string s = "deal";
  for (int k = 0; k < r_.players; ++k) s += (k ? " / " : " ") + pile_text(dealt_[k]);
  if (stock_n_) {
    s += " stock";
    for (int i = 0; i < stock_n_; ++i) s += " " + face(stock_[i]);
  }
  return s;
}

void State::apply_chance_text(std::string_view text) {
  std::string spaced;
  for (char c : text) {
    if (c == '/')
      spaced += " / ";
    else
      spaced += c;
  }
  std::istringstream in(spaced);
  std::string tok;
  if (!(in >> tok)) throw Error(fmt::format("bad chance outcome '{}': expected 'deal ...' or 'roll A B'", text));
  if (tok == "roll") {
    if (phase_ != Phase::Roll)
      throw Error(fmt::format("bad chance outcome '{}': no roll is pending now ({})", text, phase_name(phase_)));
    int a = 0, b = 0;
    std::string extra;
    if (!(in >> a >> b) || (in >> extra))
      throw Error(fmt::format("bad roll '{}': expected 'roll A B' with dice 1..6", text));
    roll(a, b);
    return;
  }
  const char* form = "expected 'deal <4 tiles of seat 0> / <seat 1> / ... [stock <undealt tiles in draw order>]'";
  if (tok != "deal") throw Error(fmt::format("bad chance outcome '{}': expected 'deal ...' or 'roll A B'", text));
  if (phase_ != Phase::Deal)
    throw Error(fmt::format("bad deal '{}': no deal is pending now ({})", text, phase_name(phase_)));
  uint64_t hands[kMaxSeats] = {};
  uint8_t stock[kMaxTiles];
  int seat = 0, stock_n = -1;
  while (in >> tok) {
    if (tok == "/") {
      if (stock_n >= 0) throw Error(fmt::format("bad deal '{}': '/' after the stock; {}", text, form));
      if (++seat >= r_.players)
        throw Error(fmt::format("bad deal '{}': more than {} hands; {}", text, static_cast<int>(r_.players), form));
      continue;
    }
    if (tok == "stock") {
      if (stock_n >= 0) throw Error(fmt::format("bad deal '{}': 'stock' twice", text));
      stock_n = 0;
      continue;
    }
    const Tile tile = parse_tile(tok, 6);
    if (stock_n >= 0) {
      if (stock_n >= kMaxTiles) throw Error(fmt::format("bad deal '{}': too many stock tiles", text));
      stock[stock_n++] = tile.index;
    } else {
      if (pile::copies(hands[seat], tile.index) >= r_.sets)
        throw Error(fmt::format("bad deal '{}': {} too often in seat {}'s hand", text, tok, seat));
      pile::add(hands[seat], tile.index);
    }
  }
  if (seat != r_.players - 1)
    throw Error(fmt::format("bad deal '{}': {} hands given, this game has {} players; {}", text, seat + 1,
                            static_cast<int>(r_.players), form));
  deal(hands, stock, stock_n);
}

json round_json(const State& s, const RoundRecord& r, int seat) {
  json j{{"number", r.number},
         {"match_points", {r.dice[0], r.dice[1]}},
         {"roller", r.roller},
         {"kept_match_points", r.kept_dice}};
  j["top_special"] = r.top_rank ? json(rank_name(r.top_rank)) : json(nullptr);
  j["top_seat"] = r.top_seat >= 0 ? json(r.top_seat) : json(nullptr);
  j["leftover_unused"] = r.leftover_unused;
  if (r.chooser >= 0) j["chooser"] = r.chooser;
  j["seats"] = json::array();
  for (int k = 0; k < s.num_seats(); ++k) {
    const SeatRound& sr = r.seat[k];
    json x{{"seat", k}, {"laid", sr.n_laid}};
    json rev = json::array(), stood = json::array(), back = json::array(), down = json::array();
    for (int i = 0; i < sr.n_laid; ++i) {
      if (sr.revealed >> i & 1) {
        rev.push_back(face(sr.laid[i]));
        ((sr.stood >> i & 1) ? stood : back).push_back(face(sr.laid[i]));
      } else if (seat < 0 || seat == k) {
        down.push_back(face(sr.laid[i]));
      } else {
        down.push_back(nullptr);  // face down: hidden from the others
      }
    }
    x["revealed"] = rev;
    x["discarded"] = stood;
    x["sent_back"] = back;
    x["face_down"] = down;
    x["special"] = sr.rank ? json(rank_name(sr.rank)) : json(nullptr);
    x["drew"] = sr.drew;
    x["out"] = sr.out;
    j["seats"].push_back(x);
  }
  return j;
}

std::string round_text(const State& s, const RoundRecord& r, int seat) {
  if (r.number == 0) return "";
  std::string out = fmt::format("Round {}: match points {} and {}{}\n", r.number, r.dice[0], r.dice[1],
                                r.kept_dice ? " (kept)" : fmt::format(" (rolled by seat {})", r.roller));
  for (int k = 0; k < s.num_seats(); ++k) {
    const SeatRound& sr = r.seat[k];
    out += fmt::format("  seat {}: laid {}", k, sr.n_laid);
    std::string parts;
    for (int i = 0; i < sr.n_laid; ++i) {
      std::string t;
      if (sr.revealed >> i & 1) {
        t = face(sr.laid[i]);
        if (sr.stood >> i & 1)
          t += " discarded";
        else
          t += fmt::format(" back to the hand by seat {}'s {}", static_cast<int>(r.top_seat), rank_name(r.top_rank));
      } else if (seat < 0 || seat == k) {
        // Spec Play 5: a tile left face down goes back to the hand, unseen.
        t = face(sr.laid[i]) + " back to the hand face down (no die for it)";
      } else {
        t = "one back to the hand face down";
      }
      parts += (parts.empty() ? ": " : "; ") + t;
    }
    out += parts;
    const bool special = sr.rank && (sr.stood != 0) && sr.rank == r.top_rank;
    if (special) out += fmt::format("  [{}]", rank_name(sr.rank));
    if (sr.drew) out += "  drew 1";
    // Spec Play 4: a standing perfect or W-perfect skips the draw; said, so
    // a missing "drew 1" is not a mystery.
    if (special && sr.rank >= kRankPerfect && !sr.drew && !sr.out)
      out += fmt::format("  (no draw after a {})", rank_name(sr.rank));
    if (sr.out) out += "  OUT";
    out += "\n";
  }
  if (r.leftover_unused) out += "  Too few tiles left in the boneyard for everyone: they are not used.\n";
  if (r.chooser >= 0) out += fmt::format("  Seat {} made a W-perfect and chooses: reroll or keep.\n", r.chooser);
  return out;
}

json hand_result_json(const State& s, const HandResult& h) {
  json j{{"number", h.number}, {"rounds", h.rounds}, {"how", payout_name(h.how)},
         {"pot", h.pot},       {"share", h.share},   {"kept_in_pot", h.kept}};
  j["out"] = json::array();
  j["winners"] = json::array();
  j["net"] = json::array();
  for (int k = 0; k < s.num_seats(); ++k) {
    if (h.out_mask >> k & 1) j["out"].push_back(k);
    if (h.winner_mask >> k & 1) j["winners"].push_back(k);
    j["net"].push_back(h.net[k]);
  }
  if (h.winning_rank) j["winning_special"] = rank_name(h.winning_rank);
  return j;
}

std::string hand_result_text(const State& s, const HandResult& h) {
  // The round someone went out in, said (issue 36, 7): the hand's last.
  std::string out = fmt::format("Hand {}: {} went out in round {}. ", h.number, seats_text(h.out_mask), h.rounds);
  switch (h.how) {
    case Payout::Single:
      out += fmt::format("{} takes the pot of {}.", seats_text(h.winner_mask), h.pot);
      break;
    case Payout::Special:
      out += fmt::format("{} played a {} and {} the pot of {}", seats_text(h.winner_mask), rank_name(h.winning_rank),
                         std::popcount(static_cast<unsigned>(h.winner_mask)) > 1 ? "split" : "takes", h.pot);
      out += std::popcount(static_cast<unsigned>(h.winner_mask)) > 1 ? fmt::format(" ({} each).", h.share) : ".";
      break;
    case Payout::Split:
      out += fmt::format("The pot of {} is split: {} each.", h.pot, h.share);
      break;
    case Payout::AllOut:
      out += fmt::format("Everyone is out at once: the pot of {} carries over.", h.pot);
      break;
  }
  if (h.how != Payout::AllOut && h.kept) out += fmt::format(" {} chip(s) stay in the pot.", h.kept);
  out += "\n  chips this hand:";
  for (int k = 0; k < s.num_seats(); ++k) out += fmt::format("{}seat {}: {:+d}", k ? "   " : " ", k, h.net[k]);
  return out;
}

HandSummary State::last_hand() const {
  HandSummary h;
  h.winner_side = std::popcount(static_cast<unsigned>(last_.winner_mask)) == 1
                      ? std::countr_zero(static_cast<unsigned>(last_.winner_mask))
                      : -1;
  for (int k = 0; k < r_.players; ++k) h.side_points.push_back(last_.net[k]);
  h.how = payout_name(last_.how);
  // The round that ended the hand, as everyone saw it (face-down tiles stay hidden).
  h.text = round_text(*this, last_round_, kMaxSeats) + hand_result_text(*this, last_);
  h.detail_json = hand_result_json(*this, last_).dump();
  return h;
}

json State::options_json() const { return to_json(r_); }

json State::view(int seat) const {
  const bool all = seat < 0;
  const int n = r_.players;
  json j{{"family", "dice-and-dominoes"},
         {"phase", phase_name(phase_)},
         {"hand_number", hands_ + (terminal() ? 0 : 1)},
         {"hands", r_.hands},
         {"round", round_}};
  j["seat"] = all ? json(nullptr) : json(seat);
  const Actor a = actor();
  if (a.kind == Actor::Seat)
    j["actor"] = a.seat;
  else if (a.kind == Actor::Chance)
    j["actor"] = "chance";
  else if (a.kind == Actor::Simultaneous) {
    j["actor"] = "simultaneous";
    j["waiting_for"] = json::array();
    for (int k = 0; k < n; ++k)
      if (a.seats >> k & 1) j["waiting_for"].push_back(k);
  } else
    j["actor"] = nullptr;
  j["roller"] = roller_;
  j["match_points"] = dice_[0] ? json::array({dice_[0], dice_[1]}) : json(nullptr);
  j["kept_match_points"] = kept_;
  j["pot"] = pot_;
  j["ante"] = r_.ante;
  j["boneyard"] = boneyard();
  j["unused"] = unused();
  if (all) {
    j["stock"] = json::array();
    for (int i = stock_pos_; i < stock_n_; ++i) j["stock"].push_back(face(stock_[i]));
  }
  j["players"] = json::array();
  for (int k = 0; k < n; ++k) {
    json p{{"seat", k}, {"count", count_[k]}, {"chips", balance_[k]}};
    p["tiles"] = (all || k == seat) ? pile_json(hand_[k]) : json(nullptr);
    p["known_tiles"] = pile_json(known_[k]);
    p["discards"] = pile_json(discards_[k]);
    p["best_special"] = best_rank_[k] ? json(rank_name(best_rank_[k])) : json(nullptr);
    if (phase_ == Phase::Choose) {
      p["submitted"] = submitted(k);
      if (submitted(k) && (all || k == seat)) p["submission"] = move_text(submit_[k]);
    }
    j["players"].push_back(p);
  }
  if (last_round_.number) j["last_round"] = round_json(*this, last_round_, seat);
  if (hands_ > 0) j["last_hand"] = hand_result_json(*this, last_);
  if (terminal()) {
    double r[kMaxSeats];
    returns(r);
    j["winners"] = json::array();
    for (int k = 0; k < n; ++k)
      if (r[k] > 0) j["winners"].push_back(k);
  }
  return j;
}

std::string State::render(int seat) const {
  const int n = r_.players;
  // Balances as the score line after a hand writes them (cli/play.cpp):
  // "seat 0: -1", every ante paid so far included.
  std::string out =
      fmt::format("Hand {}/{}   round {}   pot {}   ante {}\nChips (antes included):", hands_ + (terminal() ? 0 : 1),
                  r_.hands, round_, pot_, r_.ante);
  for (int k = 0; k < n; ++k) out += fmt::format("{}seat {}: {}", k ? "   " : " ", k, balance_[k]);
  out += "\n";
  // The last hand's result while the next waits for its deal (once dealt,
  // it would repeat what the terminal said at the hand's end).
  if (hands_ > 0 && (phase_ == Phase::Deal || phase_ == Phase::GameOver)) out += hand_result_text(*this, last_) + "\n";
  if (last_round_.number) out += round_text(*this, last_round_, seat);
  if (dice_[0]) {
    out += fmt::format("Match points: {} and {}", dice_[0], dice_[1]);
    out += kept_ ? " (kept by the W-perfect player)\n" : fmt::format(" (rolled by seat {})\n", roller_);
  }
  for (int k = 0; k < n; ++k) {
    const bool show = seat < 0 || k == seat;
    out += fmt::format("  seat {}{}: {:>8}", k, k == seat ? " (you)" : "", count_of(count_[k], "tile", "tiles"));
    if (show)
      out += "   " + pile_text(hand_[k]);
    else if (known_[k])
      out += "   known: " + pile_text(known_[k]);
    if (discards_[k]) out += "   discarded: " + pile_text(discards_[k]);
    if (phase_ == Phase::Choose) out += submitted(k) ? "   [laid]" : "   [choosing]";
    out += "\n";
  }
  out += fmt::format("Boneyard: {}", count_of(boneyard(), "tile", "tiles"));
  // Too few to go round: nobody draws them (spec: A round, 6).
  if (unused()) out += fmt::format(" ({} set aside: too few for everyone who draws)", unused());
  out += "\n";
  switch (phase_) {
    case Phase::Deal:
      out += "Waiting for the deal\n";
      break;
    case Phase::Roll:
      out += fmt::format("Seat {} rolls the dice\n", roller_);
      break;
    case Phase::Choose:
      // The example from the seat's own tiles: any other would name a tile it may not hold.
      if (seat >= 0 && count_[seat] >= 2) {
        const std::string mine = pile_text(hand_[seat]);
        const size_t a = mine.find(' '), b = mine.find(' ', a + 1);
        out += fmt::format(
            "Lay two tiles face down (your last one if you hold one), the one you most want discarded "
            "first: e.g. {},{}\n",
            mine.substr(0, a), mine.substr(a + 1, b == std::string::npos ? std::string::npos : b - a - 1));
      } else {
        out += "Lay two tiles face down (your last one if you hold one), the one you most want discarded first\n";
      }
      break;
    case Phase::RerollChoice:
      out += fmt::format("Seat {} made a W-perfect: reroll (roll new match points) or keep (play these again)\n",
                         chooser_);
      break;
    case Phase::GameOver: {
      double r[kMaxSeats];
      returns(r);
      out += "Session over: best balance";
      for (int k = 0; k < n; ++k)
        if (r[k] > 0) out += fmt::format(" seat {}", k);
      out += fmt::format("; {} left in the pot\n", count_of(pot_, "chip", "chips"));
      break;
    }
  }
  return out;
}

}  // namespace boneyard::dice_dominoes
