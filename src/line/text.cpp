// Text forms of the line game: moves, deals, the JSON view and the table as
// a person sees it.
#include "core/text.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <sstream>

#include "line/state.h"
#include "line/words.h"

namespace boneyard::line {

using nlohmann::json;

namespace {

const char* phase_name(Phase p) {
  switch (p) {
    case Phase::Deal:
      return "deal";
    case Phase::Redeal:
      return "redeal";
    case Phase::ChooseLeader:
      return "choose_leader";
    case Phase::Play:
      return "play";
    case Phase::GameOver:
      return "game_over";
  }
  return "?";
}

json tiles_json(uint64_t bits) {
  json a = json::array();
  for (int i = 63; i >= 0; --i)
    if ((bits >> i) & 1) a.push_back(to_string(Tile{static_cast<uint8_t>(i)}));
  return a;
}

// Bonus items in words, as players say them (spec: Bonuses).
const char* bonus_words(BonusKind k) {
  switch (k) {
    case BonusKind::FirstPass:
      return "first pass";
    case BonusKind::CapicuaDouble:
      return "capicúa doubles the pips";
    case BonusKind::Capicua:
      return "capicúa";
    case BonusKind::LeadPass:
      return "pass on the lead";
    case BonusKind::ThreePasses:
      return "three passes";
    case BonusKind::Pass2010:
      return "passes forced";
    case BonusKind::EarlyHand:
      return "early hand";
    case BonusKind::BlankDoubleDomino:
      return "out with 0-0";
    case BonusKind::OnesEnds:
      return "out with both ends 1";
    case BonusKind::FirstBlockWin:
      return "first block won";
  }
  return "bonus";
}

// The scoring rule in words (spec: Options, scoring).
std::string scoring_words(const Rules& r) {
  const bool teams = r.teams();
  switch (r.scoring) {
    case Scoring::Wins:
      // Jamaica's six-love: the target wins only while another side has none.
      return r.wins_need_shutout
                 ? fmt::format("1 win per hand; {} wins only as a shutout ({}-love)", r.target, r.target)
                 : "1 win per hand";
    case Scoring::OthersPips:
      return teams ? "the losing team's pips" : r.seats() == 2 ? "the opponent's pips" : "the other players' pips";
    case Scoring::AllPips:
      return teams ? "all pips (both teams)" : "all pips (every hand)";
    case Scoring::LosersOwnPips:
      return "losers score their own pips; reaching the target loses";
    case Scoring::AllPipsFloor10:
      return "all pips, rounded down to tens";
    case Scoring::AllPipsRound10:
      return "all pips, rounded to the nearest ten";
    case Scoring::CubanTens:
      return "all pips in tens, rounded up (at least 2)";
  }
  return "?";
}

// The active bonuses in words for the header; empty when there are none.
std::string bonuses_words(const Bonuses& b) {
  std::vector<std::string> v;
  if (b.lead_pass)
    v.push_back(fmt::format("pass on the lead +{}{}", b.lead_pass,
                            b.lead_pass_cancel ? " (void if the partner passes too)" : ""));
  if (b.three_passes) v.push_back(fmt::format("three passes +{}", b.three_passes));
  if (b.capicua) v.push_back(fmt::format("capicúa +{}{}", b.capicua, b.capicua_no_zero ? " (no tile showing 0)" : ""));
  if (b.capicua_double) v.push_back("capicúa doubles the pips");
  if (b.first_pass_2) v.push_back("first pass +2");
  if (b.pass_20_10) v.push_back("passes forced +20, then +10");
  if (b.early_hands) v.push_back("early hands +100/75/50/25");
  if (b.blank_double_domino) v.push_back("out with 0-0 +100");
  if (b.ones_ends) v.push_back("out with both ends 1 +100");
  if (b.first_block_win) v.push_back("first block won +100");
  std::string s;
  for (auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// What happens after a tied block (spec: Options, block_tie).
const char* tie_words(BlockTie t, bool teams) {
  switch (t) {
    case BlockTie::VoidReset:
      return "nobody scores; the next leader is chosen as for a first hand";
    case BlockTie::LastPlayerWins:
      return "the side of the last tile wins";
    case BlockTie::ClosestToLeader:
      return teams ? "the leader's team wins" : "the tied player nearest the leader wins";
    case BlockTie::Void:
      return "nobody scores; the seat after the leader leads next";
    case BlockTie::VoidSameLeader:
      return "nobody scores; the same leader leads again";
    case BlockTie::LastPlayerLoses:
      return "the side of the last tile loses";
    case BlockTie::LowestPlayerWins:
      return "the single lowest player wins";
  }
  return "?";
}

std::string pips_word(int n) { return count_of(n, "pip", "pips"); }

// "8 + 8 = 16 pips" for a team, "8 pips" for one seat.
std::string side_pips_text(const State& s, const HandResult& h, int side) {
  std::vector<int> v;
  for (int k = 0; k < s.num_seats(); ++k)
    if (s.side_of(k) == side) v.push_back(h.pips[k]);
  int sum = 0;
  for (int x : v) sum += x;
  if (v.size() == 1) return pips_word(sum);
  return fmt::format("{} = {}", fmt::join(v, " + "), pips_word(sum));
}

// Why a block went the way it did, in numbers (spec: block_winner).
std::string block_why(const State& s, const HandResult& h) {
  const Rules& r = s.rules();
  const int seats = s.num_seats();
  auto seat_pips = [&](int k) { return fmt::format("seat {}: {}", k, pips_word(h.pips[k])); };
  auto cmp = [](int a, int b) { return a < b ? "<" : a > b ? ">" : "="; };
  std::string out;
  // Individual play: a team is one player.
  const BlockWinner rule =
      r.block_winner == BlockWinner::LowestTeam && !r.teams() ? BlockWinner::LowestPlayer : r.block_winner;
  switch (rule) {
    case BlockWinner::LowestTeam: {
      int tot[2] = {};
      for (int k = 0; k < seats; ++k) tot[s.side_of(k)] += h.pips[k];
      const int first = tot[1] < tot[0] ? 1 : 0;
      out = fmt::format("team {}: {} {} team {}: {}", first, side_pips_text(s, h, first),
                        cmp(tot[first], tot[1 - first]), 1 - first, side_pips_text(s, h, 1 - first));
      break;
    }
    case BlockWinner::LastVsNext: {
      const int a = h.last_placer, n = (a + 1) % seats;
      out = fmt::format("seat {} (last tile): {} {} seat {} (next): {}", a, pips_word(h.pips[a]),
                        cmp(h.pips[a], h.pips[n]), n, pips_word(h.pips[n]));
      break;
    }
    case BlockWinner::LastVsOpponents: {
      const int a = h.last_placer;
      std::vector<std::string> opp;
      int lo = 1 << 20;
      for (int k = 0; k < seats; ++k)
        if (s.side_of(k) != s.side_of(a)) {
          opp.push_back(seat_pips(k));
          lo = std::min(lo, static_cast<int>(h.pips[k]));
        }
      out = fmt::format("seat {} (last tile): {} {} the lower opponent ({})", a, pips_word(h.pips[a]),
                        cmp(h.pips[a], lo), fmt::join(opp, ", "));
      break;
    }
    case BlockWinner::LowestPlayer: {
      std::vector<int> order(static_cast<size_t>(seats));
      for (int k = 0; k < seats; ++k) order[static_cast<size_t>(k)] = k;
      std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return h.pips[a] < h.pips[b]; });
      for (size_t i = 0; i < order.size(); ++i)
        out += (i ? fmt::format(" {} ", cmp(h.pips[order[i - 1]], h.pips[order[i]])) : "") + seat_pips(order[i]);
      out += " (the lowest player wins)";
      break;
    }
  }
  if (h.tied) out += fmt::format("; a tie: {}", tie_words(r.block_tie, r.teams()));
  return out;
}

// The line as a person reads it, wrapped to the terminal.
std::string line_text(const State& s, std::string_view first, std::string_view indent) {
  std::pair<int, int> ln[kMaxSetTiles];
  const int n = s.line(ln);
  std::vector<std::string> items;
  for (int i = 0; i < n; ++i) items.push_back(fmt::format("[{}|{}]", ln[i].first, ln[i].second));
  return wrap_items(items, first, indent, terminal_width());
}
}  // namespace

const char* name(NextLead n) {
  switch (n) {
    case NextLead::None:
      return "none";
    case NextLead::Rotate:
      return "rotate";
    case NextLead::Winner:
      return "winner";
    case NextLead::SameLeader:
      return "same_leader";
    case NextLead::TeamChooses:
      return "winning_team_chooses";
    case NextLead::FirstHandRule:
      return "first_hand_rule";
  }
  return "?";
}

// Who leads the next hand (spec: What the engine exposes): null when the
// game is over.
static json next_leader_json(const State& s, const HandResult& h) {
  if (h.next == NextLead::None) return nullptr;
  json j{{"how", name(h.next)}};
  switch (h.next) {
    case NextLead::TeamChooses: {
      const int side = s.side_of(h.next_leader);
      j["seat"] = nullptr;
      j["side"] = side;
      j["seats"] = json::array({side, side + 2});
      j["chooser"] = h.next_leader;
      break;
    }
    case NextLead::FirstHandRule:
      j["seat"] = nullptr;  // known after the next deal
      j["rule"] = name(s.rules().first_leader);
      break;
    default:
      j["seat"] = h.next_leader;
      break;
  }
  return j;
}

static std::string next_leader_text(const State& s, const HandResult& h) {
  switch (h.next) {
    case NextLead::None:
      return "";
    case NextLead::TeamChooses:
      return fmt::format("; {} chooses who leads next", LineGame::side_name(s, s.side_of(h.next_leader)));
    case NextLead::FirstHandRule:
      // The rule in words, not its option value (issue 36, 6).
      return s.rules().first_leader == FirstLeader::HighestDouble
                 ? "; the holder of the highest double leads the next hand, as in the first"
                 : "; the next leader is drawn for, as in the first hand";
    default:
      return fmt::format("; seat {} leads next", h.next_leader);
  }
}

std::string LineGame::side_name(const State& s, int side) {
  if (s.rules().teams()) return fmt::format("team {} (seats {}+{})", side, side, side + 2);
  return fmt::format("seat {}", side);
}

std::string State::move_text(Move m) const {
  switch (m.kind) {
    case Move::Lead:
      return to_string(m.tile());
    case Move::Left:
      return to_string(m.tile()) + ":L";
    case Move::Right:
      return to_string(m.tile()) + ":R";
    case Move::Pass:
      return "pass";
    case Move::Draw:
      return "draw";
    case Move::Redeal:
      return "redeal";
    case Move::Keep:
      return "keep";
    case Move::Leader:
      return fmt::format("leader:{}", m.arg);
  }
  return "?";
}

// The move for people: "lead 6-6", "6-4 on the left", "seat 2 leads".
std::string State::move_words(int seat, Move m) const { return words_heard(*this, seat, m, seat); }

std::string words_heard(const State& s, int seat, Move m, int listener) {
  switch (m.kind) {
    case Move::Lead:
      return "lead " + to_string(m.tile());
    case Move::Left:
      // Both ends show one number: the one placement there is, whichever
      // end was typed (spec: Play, 3), so no side is named.
      return to_string(m.tile()) + (s.left_end() == s.right_end() ? " on either end" : " on the left");
    case Move::Right:
      return to_string(m.tile()) + " on the right";
    case Move::Pass:
      return "pass";
    case Move::Draw:
      return "draw";
    case Move::Redeal:
      return "redeal (a new deal)";
    case Move::Keep:
      return "keep this deal";
    case Move::Leader:
      // The winning team's choice of its leader: "you lead" in your own list,
      // "names itself to lead" when another seat hears it.
      if (listener == seat) return m.arg == seat ? "you lead" : fmt::format("seat {} leads", m.arg);
      if (m.arg == listener) return "names you to lead";
      return m.arg == seat ? "names itself to lead" : fmt::format("names seat {} to lead", m.arg);
  }
  return s.move_text(m);
}

Move State::parse_move(int seat, std::string_view text) const {
  MoveList<Move, LineGame::kMaxMoves> legal;
  legal_moves(seat, legal);
  std::string t = lower_trim(text);
  auto fail = [&](const std::string& why) {  // the legal list only on failure: replays parse every move
    std::string options;
    for (const Move& m : legal) options += (options.empty() ? "" : ", ") + move_text(m);
    return Error(fmt::format("illegal move '{}': {}; legal now: {}", text, why, options));
  };
  if (t.empty()) throw fail("empty move");
  for (const Move& m : legal)
    if (t == move_text(m)) return m;
  if (t == "pass" || t == "draw" || t == "redeal" || t == "keep") {
    // Why not, in the rules' terms (the caller already says "not allowed").
    bool tile = false, draw = false;
    for (const Move& m : legal) {
      tile = tile || m.kind == Move::Lead || m.kind == Move::Left || m.kind == Move::Right;
      draw = draw || m.kind == Move::Draw;
    }
    if (t == "redeal" || t == "keep") throw fail("there is no redeal to ask for or refuse now");
    if (tile) throw fail(fmt::format("a tile in hand fits: {} only when none does", t));
    if (t == "pass" && draw) throw fail("draw first: pass only when the boneyard has nothing left to draw");
    if (t == "draw") throw fail("the boneyard has no tile left to draw");
    throw fail(fmt::format("'{}' is not one of the moves now", t));
  }
  if (t.rfind("leader", 0) == 0) {
    std::string_view rest = std::string_view(t).substr(6);
    while (!rest.empty() && (rest.front() == ':' || rest.front() == ' ' || rest.front() == '=')) rest.remove_prefix(1);
    for (const Move& m : legal)
      if (m.kind == Move::Leader && rest == std::to_string(m.arg)) return m;
    throw fail("the leader must be this seat or its partner");
  }
  // A tile, with an optional end: "6-4", "6-4:L", "6-4 left", "[6|4] r".
  int end = 0;  // 0 any, 1 left, 2 right
  std::string tile_part = t;
  const auto cut = t.find_first_of(": ");
  if (cut != std::string::npos) {
    std::string e = lower_trim(t.substr(cut + 1));
    tile_part = t.substr(0, cut);
    if (e == "l" || e == "left")
      end = 1;
    else if (e == "r" || e == "right")
      end = 2;
    else
      throw fail(fmt::format("unknown end '{}'; use L or R", e));
  }
  Tile tile;
  try {
    tile = parse_tile(tile_part, r_.max_pip());
  } catch (const Error& e) {
    throw fail(e.what());
  }
  // Both ends show one number: the one placement there is listed as the
  // left end's, and either end names it.
  if (end == 2 && n_placed_ > 0 && left_ == right_) end = 1;
  if (phase_ != Phase::Play) throw fail("no tile can be played now");
  if (!((hand_[seat] >> tile.index) & 1)) throw fail(fmt::format("seat {} does not hold {}", seat, to_string(tile)));
  Move found{};
  int n = 0;
  for (const Move& m : legal) {
    if ((m.kind != Move::Lead && m.kind != Move::Left && m.kind != Move::Right) || m.arg != tile.index) continue;
    if ((end == 1 && m.kind == Move::Right) || (end == 2 && m.kind == Move::Left)) continue;
    found = m;
    ++n;
  }
  if (n == 1) return found;
  if (n > 1)
    throw fail(fmt::format("{} fits both ends; say {}:L or {}:R", to_string(tile), to_string(tile), to_string(tile)));
  if (n_placed_ == 0)
    throw fail(fmt::format("this lead must be {}", to_string(Tile{static_cast<uint8_t>(forced_lead_)})));
  if (end && ((hand_[seat] & (suit_[left_] | suit_[right_])) >> tile.index & 1))
    throw fail(fmt::format("{} does not fit the {} end ({})", to_string(tile), end == 1 ? "left" : "right",
                           end == 1 ? left_ : right_));
  throw fail(fmt::format("{} does not fit the open ends {} and {}", to_string(tile), left_, right_));
}

std::string State::chance_text() const {
  std::string s = "deal";
  for (int k = 0; k < seats_; ++k) {
    if (k) s += " /";
    for (int i = 63; i >= 0; --i)
      if ((dealt_[k] >> i) & 1) s += " " + to_string(Tile{static_cast<uint8_t>(i)});
  }
  if (stock_n_) {
    s += " stock";
    for (int i = 0; i < stock_n_; ++i) s += " " + to_string(Tile{stock_[i]});
  }
  if (drawn_leader_) s += fmt::format(" leader {}", static_cast<int>(leader_));
  if (lead_drawn_) {
    s += " drawn";
    for (int i = 63; i >= 0; --i)
      if ((lead_drawn_ >> i) & 1) s += " " + to_string(Tile{static_cast<uint8_t>(i)});
  }
  return s;
}

void State::apply_chance_text(std::string_view text) {
  std::string t(text);
  std::string spaced;
  for (char c : t) {
    if (c == '/')
      spaced += " / ";
    else
      spaced += c;
  }
  std::istringstream in(spaced);
  std::string tok;
  const char* form =
      "expected 'deal <tiles of seat 0> / <seat 1> / ... [stock <undealt tiles in draw order>] [leader K [drawn <tiles "
      "drawn for the lead>]]'";
  if (!(in >> tok) || tok != "deal") throw Error(fmt::format("bad deal '{}': {}", text, form));
  SmallSet hands[kMaxSeats];
  int seat = 0;
  uint8_t stock[kMaxSetTiles];
  int stock_n = -1, leader = -1;
  uint64_t drawn = 0;
  enum { Hands, Stock, Leader, Done, Drawn } part = Hands;
  while (in >> tok) {
    if (tok == "/") {
      if (part != Hands) throw Error(fmt::format("bad deal '{}': '/' after the hands; {}", text, form));
      if (++seat >= seats_)
        throw Error(fmt::format("bad deal '{}': more than {} hands; {}", text, static_cast<int>(seats_), form));
      continue;
    }
    if (tok == "stock") {
      part = Stock;
      stock_n = 0;
      continue;
    }
    if (tok == "leader") {
      part = Leader;
      continue;
    }
    if (tok == "drawn") {
      if (part != Done) throw Error(fmt::format("bad deal '{}': 'drawn' goes after 'leader K'; {}", text, form));
      part = Drawn;
      continue;
    }
    if (part == Leader) {
      if (tok.size() != 1 || tok[0] < '0' || tok[0] >= '0' + seats_)
        throw Error(fmt::format("bad deal '{}': leader must be a seat 0..{}", text, seats_ - 1));
      leader = tok[0] - '0';
      part = Done;
      continue;
    }
    if (part == Done) throw Error(fmt::format("bad deal '{}': unexpected '{}' at the end; {}", text, tok, form));
    const Tile tile = parse_tile(tok, r_.max_pip());
    if (part == Drawn) {
      if ((drawn >> tile.index) & 1) throw Error(fmt::format("bad deal '{}': {} drawn twice", text, tok));
      drawn |= uint64_t{1} << tile.index;
      continue;
    }
    if (part == Stock) {
      if (stock_n >= kMaxSetTiles) throw Error(fmt::format("bad deal '{}': too many stock tiles", text));
      stock[stock_n++] = tile.index;
    } else {
      if (hands[seat].has(tile)) throw Error(fmt::format("bad deal '{}': {} twice in seat {}'s hand", text, tok, seat));
      hands[seat].add(tile);
    }
  }
  if (seat != seats_ - 1)
    throw Error(fmt::format("bad deal '{}': {} hands given, this game has {} seats; {}", text, seat + 1,
                            static_cast<int>(seats_), form));
  if (part == Leader) throw Error(fmt::format("bad deal '{}': 'leader' needs a seat number", text));
  deal(hands, stock, stock_n, leader, drawn);
}

json hand_result_json(const State& s, const HandResult& h) {
  const int sides = s.num_sides();
  json j{{"number", h.number},
         {"end", h.end == HandEnd::Domino ? "domino" : "block"},
         {"tied", h.tied},
         {"winner_side", h.winner_side >= 0 ? json(h.winner_side) : json(nullptr)},
         {"winner_seat", h.winner_seat >= 0 ? json(h.winner_seat) : json(nullptr)},
         {"last_placer", h.last_placer},
         {"leader", h.leader},
         {"capicua", h.capicua}};
  j["pips"] = json::array();
  for (int k = 0; k < s.num_seats(); ++k) j["pips"].push_back(h.pips[k]);
  j["pip_points"] = json::array();
  j["total"] = json::array();
  for (int sd = 0; sd < sides; ++sd) {
    j["pip_points"].push_back(h.pip_points[sd]);
    j["total"].push_back(h.total[sd]);
  }
  j["bonuses"] = json::array();
  for (int i = 0; i < h.n_items; ++i)
    j["bonuses"].push_back(
        {{"bonus", bonus_name(h.items[i].kind)}, {"side", h.items[i].side}, {"points", h.items[i].points}});
  if (h.wins_reset) j["wins_reset"] = true;
  if (h.double_up) j["double_up_pending"] = true;
  j["next_leader"] = next_leader_json(s, h);
  return j;
}

std::string hand_result_text(const State& s, const HandResult& h) {
  std::string out = fmt::format("Hand {}: ", h.number);
  if (h.end == HandEnd::Domino)
    out += fmt::format("seat {} went out{}", h.last_placer, h.capicua ? " with a capicúa" : "");
  else
    out += fmt::format("blocked (last tile by seat {}){}", h.last_placer, h.tied ? ", tied" : "");
  out += ".";  // the pips left are in the table that follows
  if (h.end == HandEnd::Block) out += "\n  Block: " + block_why(s, h);
  out += "\n  ";
  // "team 1 wins the hand and scores 35 (pips 10, three passes +25)"; the
  // scoring rule itself is in the header.
  const bool wins = s.rules().scoring == Scoring::Wins;
  auto scored = [&](int sd) {
    std::vector<std::string> bonus;
    for (int i = 0; i < h.n_items; ++i)
      if (h.items[i].side == sd)
        bonus.push_back(fmt::format("{} {:+d}", bonus_words(h.items[i].kind), h.items[i].points));
    std::string x = wins ? count_of(h.total[sd], "win", "wins") : std::to_string(h.total[sd]);
    if (!bonus.empty())
      x += fmt::format(" ({}{})",
                       h.pip_points[sd] ? fmt::format("{} {}, ", wins ? "wins" : "pips", h.pip_points[sd]) : "",
                       fmt::join(bonus, ", "));
    return x;
  };
  if (h.winner_side >= 0) {
    out += LineGame::side_name(s, h.winner_side) + " wins the hand";
    if (h.total[h.winner_side]) out += " and scores " + scored(h.winner_side);
  } else {
    out += "nobody wins the hand";
  }
  for (int sd = 0; sd < s.num_sides(); ++sd)
    if (sd != h.winner_side && h.total[sd])
      out += fmt::format("; {} scores {}", LineGame::side_name(s, sd), scored(sd));
  if (h.wins_reset)
    out +=
        fmt::format("; every side has a win, so no {}-love shutout is left: the counts start over", s.rules().target);
  if (h.double_up) out += "; all square: the next hand's winner goes to 2";
  out += next_leader_text(s, h);
  return out;
}

// The table as the hand ended: the final line and every hand's tiles (all
// are shown when the pips are counted).
std::string hand_end_table(const State& s) {
  std::string out = s.placed_count() ? line_text(s, "  Final line: ", "              ") : "  Final line: (empty)";
  for (int k = 0; k < s.num_seats(); ++k) {
    const SmallSet h = s.hand(k);
    out += fmt::format("\n  seat {}: {}", k,
                       h.empty() ? "out" : fmt::format("{}  ({})", to_string(h), pips_word(h.pips())));
  }
  return out;
}

HandSummary State::last_hand() const {
  HandSummary h;
  h.winner_side = last_.winner_side;
  for (int sd = 0; sd < num_sides(); ++sd) h.side_points.push_back(last_.total[sd]);
  h.how = last_.end == HandEnd::Domino ? "domino"
          : last_.tied                 ? (last_.winner_side >= 0 ? "block (tie rule)" : "block (void)")
                                       : "block";
  const json detail = hand_result_json(*this, last_);
  h.detail_json = detail.dump();
  h.next_json = detail["next_leader"].dump();
  // Called as the hand ends, while the line and the hands are still there.
  h.text = hand_result_text(*this, last_) + "\n" + hand_end_table(*this);
  return h;
}

json State::options_json() const { return to_json(r_); }

json State::view(int seat) const {
  const bool all = seat < 0;
  json j{{"family", "line"}, {"phase", phase_name(phase_)}, {"hand_number", hands_ + (terminal() ? 0 : 1)}};
  j["seat"] = all ? json(nullptr) : json(seat);
  const Actor a = actor();
  j["actor"] = a.kind == Actor::Seat ? json(a.seat) : a.kind == Actor::Chance ? json("chance") : json(nullptr);
  j["leader"] = leader_;
  std::pair<int, int> ln[kMaxSetTiles];
  const int n = line(ln);
  j["line"] = json::array();
  for (int i = 0; i < n; ++i) j["line"].push_back(fmt::format("{}-{}", ln[i].first, ln[i].second));
  j["ends"] = left_ >= 0 ? json::array({left_, right_}) : json(nullptr);
  // The opening tile's place in "line": a board lays both arms out from it.
  if (n > 0) j["opening"] = opening_index();
  j["hands"] = json::array();
  for (int k = 0; k < seats_; ++k) {
    json h{{"seat", k}, {"side", side_of(k)}, {"count", count_[k]}};
    h["tiles"] = (all || k == seat) ? tiles_json(hand_[k]) : json(nullptr);
    h["known_not_holding"] = tiles_json(not_holding_[k] & ~played_);
    j["hands"].push_back(h);
  }
  j["boneyard"] = stock_left();
  j["sleeping"] = undealt_count() - stock_left();
  if (lead_drawn_) j["drawn_for_lead"] = tiles_json(lead_drawn_);  // public, never used in play
  // Why this hand's leader leads, when a draw chose it: each seat's (last)
  // tile, turned up for all to see before it went back (draw_before_deal:
  // into the shuffle, so it says nothing of where the tile is now).
  if (deals_leader_by_draw() && leader_draw_[0] >= 0) {
    json d = json::array();
    for (int k = 0; k < seats_; ++k)
      d.push_back(leader_draw_[k] >= 0 ? json(to_string(Tile{static_cast<uint8_t>(leader_draw_[k])})) : json(nullptr));
    j["lead_draws"] = d;
  }
  if (all) {
    j["stock"] = json::array();
    for (int i = stock_pos_; i < stock_n_; ++i) j["stock"].push_back(to_string(Tile{stock_[i]}));
  }
  j["passes_in_row"] = passes_;
  if (forced_lead_ >= 0 && n_placed_ == 0 && phase_ == Phase::Play)
    j["must_lead"] = to_string(Tile{static_cast<uint8_t>(forced_lead_)});
  j["scores"] = json::array();
  for (int sd = 0; sd < num_sides(); ++sd) j["scores"].push_back(score_[sd]);
  j["target"] = r_.target;
  j["single_hand"] = r_.single_hand;  // one hand decides: no target is played to
  j["scoring"] = name(r_.scoring);
  j["block_tie"] = name(r_.block_tie);  // public rule: says what a tied block gives
  if (hands_ > 0) j["last_hand"] = hand_result_json(*this, last_);
  if (terminal()) {
    j["winners"] = json::array();
    for (int sd = 0; sd < num_sides(); ++sd)
      if ((winners_ >> sd) & 1) j["winners"].push_back(sd);
  }
  return j;
}

// Why this seat leads the hand (spec: first_leader, next_leader, block_tie).
std::string lead_reason(const State& s) {
  const int l = s.leader();
  const Rules& r = s.rules();
  if (s.forced_lead() >= 0) {
    const Tile t{static_cast<uint8_t>(s.forced_lead())};
    return fmt::format("Seat {} has the lead: {} is the {} dealt", l, to_string(t),
                       t.is_double() ? "highest double" : "tile with the most pips (no doubles were dealt)");
  }
  bool drew = false;
  for (int k = 0; k < s.num_seats(); ++k) drew |= s.leader_draw(k) >= 0;
  if (drew && s.deals_leader_by_draw()) {
    std::vector<std::string> d;
    for (int k = 0; k < s.num_seats(); ++k)
      if (s.leader_draw(k) >= 0) {
        const Tile t{static_cast<uint8_t>(s.leader_draw(k))};
        if (!d.empty()) d.back() += ",";
        d.push_back(fmt::format("{}seat {} {} ({})", d.empty() ? "(" : "", k, to_string(t), t.pips()));
      }
    d.back() += ")";
    // A tie on pips is broken by the higher number: say so.
    const Tile lt{static_cast<uint8_t>(s.leader_draw(l))};
    int tied = 0;
    for (int k = 0; k < s.num_seats(); ++k)
      if (s.leader_draw(k) >= 0 && Tile{static_cast<uint8_t>(s.leader_draw(k))}.pips() == lt.pips()) ++tied;
    if (tied > 1) {
      d.back() += ";";
      for (const std::string& w :
           std::vector<std::string>{"tie", "on", std::to_string(lt.pips()), "pips:", "the", "higher", "number,"})
        d.push_back(w);
      d.push_back(fmt::format("{}", lt.high()));
    }
    // Spec: the drawn tiles go back and are shuffled before the deal, so a
    // seat may hold a tile another drew; said, lest it look like a leak.
    if (r.first_leader == FirstLeader::DrawBeforeDeal) {
      d.back() += ";";
      for (const char* w : {"the", "drawn", "tiles", "then", "went", "back", "for", "the", "shuffle"}) d.push_back(w);
    }
    return wrap_items(d, fmt::format("Seat {} has the lead: the highest draw for the lead ", l), "  ", terminal_width(),
                      " ");
  }
  // Spec (redeal_five_doubles): the leader does not change, and leads any tile.
  if (s.hands_finished() == 0 && s.redeals() > 0)
    return fmt::format(
        "Seat {} keeps the lead and may lead any tile: a redeal for five doubles does not change the "
        "leader",
        l);
  if (s.hands_finished() == 0) return fmt::format("Seat {} has the lead", l);
  if (s.last_result().winner_side < 0)
    return fmt::format("Seat {} has the lead: the last hand was void ({})", l, tie_words(r.block_tie, r.teams()));
  switch (r.next_leader) {
    case NextLeader::Rotate:
      return fmt::format("Seat {} has the lead: the lead passes to the next seat each hand", l);
    case NextLeader::Winner:
      return fmt::format("Seat {} has the lead: the winner of the last hand leads", l);
    case NextLeader::WinningTeamChooses:
      return r.teams() ? fmt::format("Seat {} has the lead: chosen by the team that won the last hand", l)
                       : fmt::format("Seat {} has the lead: the winner of the last hand leads", l);
  }
  return fmt::format("Seat {} has the lead", l);
}

std::string State::render(int seat) const {
  std::string out;
  const int sides = num_sides();
  const int width = terminal_width();
  out += fmt::format("Hand {}   target {}: {}\n", hands_ + (terminal() ? 0 : 1), r_.target, scoring_words(r_));
  if (const std::string b = bonuses_words(r_.bonuses); !b.empty()) out += "Bonuses: " + b + "\n";
  std::vector<std::string> sc;
  for (int sd = 0; sd < sides; ++sd) sc.push_back(fmt::format("{}: {}", LineGame::side_name(*this, sd), score_[sd]));
  out += wrap_items(sc, "Score: ", "       ", width, "   ") + "\n";
  if (n_placed_ == 0)
    out += "Line: (empty)\n";
  else
    out += line_text(*this, "Line: ", "      ") + fmt::format("\n      open ends: left {}, right {}\n", left_, right_);
  const bool playing = phase_ == Phase::Play || phase_ == Phase::Redeal || phase_ == Phase::ChooseLeader;
  std::vector<std::string> label;
  size_t label_w = 0;
  for (int k = 0; k < seats_; ++k) {
    const char* who = k == seat ? " you" : (seat >= 0 && r_.teams() && k == (seat + 2) % seats_) ? " partner" : "";
    label.push_back(fmt::format("seat {}{}{}:", k, r_.teams() ? fmt::format(" (team {})", side_of(k)) : "", who));
    label_w = std::max(label_w, label.back().size());
  }
  for (int k = 0; k < seats_; ++k) {
    const bool show = seat < 0 || k == seat;
    out += fmt::format("  {:<{}} {:>8}", label[static_cast<size_t>(k)], label_w, count_of(count_[k], "tile", "tiles"));
    if (show) out += "   " + to_string(SmallSet{{hand_[k]}});
    // While the team chooses, nobody is the leader yet.
    if (phase_ != Phase::Deal && phase_ != Phase::ChooseLeader && k == leader_) out += "   [leader]";
    if (playing && k == to_move_) out += "   <- to play";
    out += "\n";
  }
  if (r_.undealt == Undealt::Draw) out += fmt::format("Boneyard: {}\n", count_of(stock_left(), "tile", "tiles"));
  switch (phase_) {
    case Phase::Play:
      out += fmt::format("Seat {} to play", to_move_);
      if (n_placed_ == 0 && forced_lead_ >= 0)
        out += fmt::format(" (must lead {})", to_string(Tile{static_cast<uint8_t>(forced_lead_)}));
      out += "\n";
      if (n_placed_ < seats_) out += lead_reason(*this) + "\n";  // for everyone's first turn
      break;
    case Phase::Redeal:
      out += fmt::format("Seat {} holds five or more doubles and may demand a redeal\n", to_move_);
      break;
    case Phase::ChooseLeader:
      out += fmt::format("Seat {}'s team chooses who leads: seat {} or seat {}\n", to_move_, to_move_,
                         (to_move_ + 2) % seats_);
      break;
    case Phase::Deal:
      out += "Waiting for the deal\n";
      break;
    case Phase::GameOver: {
      // "team 1 wins", or "seat 0 and seat 2 share the win".
      std::vector<std::string> who;
      for (int sd = 0; sd < sides; ++sd)
        if ((winners_ >> sd) & 1) who.push_back(LineGame::side_name(*this, sd));
      out += fmt::format("Game over: {} {}\n", fmt::join(who, " and "), who.size() > 1 ? "share the win" : "wins");
      break;
    }
  }
  return out;
}

}  // namespace boneyard::line
