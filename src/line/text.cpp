// Text forms of the line game: moves, deals, the JSON view and the table as
// a person sees it.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/text.h"
#include "line/state.h"

namespace boneyard::line {

using nlohmann::json;

namespace {

const char* phase_name(Phase p) {
  switch (p) {
    case Phase::Deal: return "deal";
    case Phase::Redeal: return "redeal";
    case Phase::ChooseLeader: return "choose_leader";
    case Phase::Play: return "play";
    case Phase::GameOver: return "game_over";
  }
  return "?";
}

json tiles_json(uint64_t bits) {
  json a = json::array();
  for (int i = 63; i >= 0; --i)
    if ((bits >> i) & 1) a.push_back(to_string(Tile{static_cast<uint8_t>(i)}));
  return a;
}
}  // namespace

const char* name(NextLead n) {
  switch (n) {
    case NextLead::None: return "none";
    case NextLead::Rotate: return "rotate";
    case NextLead::Winner: return "winner";
    case NextLead::SameLeader: return "same_leader";
    case NextLead::TeamChooses: return "winning_team_chooses";
    case NextLead::FirstHandRule: return "first_hand_rule";
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
    default: j["seat"] = h.next_leader; break;
  }
  return j;
}

static std::string next_leader_text(const State& s, const HandResult& h) {
  switch (h.next) {
    case NextLead::None: return "";
    case NextLead::TeamChooses:
      return fmt::format("; {} chooses who leads next", LineGame::side_name(s, s.side_of(h.next_leader)));
    case NextLead::FirstHandRule:
      return fmt::format("; the next leader comes from the first-hand rule ({})", name(s.rules().first_leader));
    default: return fmt::format("; seat {} leads next", h.next_leader);
  }
}

std::string LineGame::side_name(const State& s, int side) {
  if (s.rules().teams()) return fmt::format("team {} (seats {}+{})", side, side, side + 2);
  return fmt::format("seat {}", side);
}

std::string State::move_text(Move m) const {
  switch (m.kind) {
    case Move::Lead: return to_string(m.tile());
    case Move::Left: return to_string(m.tile()) + ":L";
    case Move::Right: return to_string(m.tile()) + ":R";
    case Move::Pass: return "pass";
    case Move::Draw: return "draw";
    case Move::Redeal: return "redeal";
    case Move::Keep: return "keep";
    case Move::Leader: return fmt::format("leader:{}", m.arg);
  }
  return "?";
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
  if (t == "pass" || t == "draw" || t == "redeal" || t == "keep") throw fail(fmt::format("'{}' is not allowed now", t));
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
    if (e == "l" || e == "left") end = 1;
    else if (e == "r" || e == "right") end = 2;
    else throw fail(fmt::format("unknown end '{}'; use L or R", e));
  }
  Tile tile;
  try {
    tile = parse_tile(tile_part, r_.max_pip());
  } catch (const Error& e) {
    throw fail(e.what());
  }
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
  if (n > 1) throw fail(fmt::format("{} fits both ends; say {}:L or {}:R", to_string(tile), to_string(tile), to_string(tile)));
  if (n_placed_ == 0) throw fail(fmt::format("this lead must be {}", to_string(Tile{static_cast<uint8_t>(forced_lead_)})));
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
    if (c == '/') spaced += " / ";
    else spaced += c;
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
      if (++seat >= seats_) throw Error(fmt::format("bad deal '{}': more than {} hands; {}", text, static_cast<int>(seats_), form));
      continue;
    }
    if (tok == "stock") { part = Stock; stock_n = 0; continue; }
    if (tok == "leader") { part = Leader; continue; }
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
    throw Error(fmt::format("bad deal '{}': {} hands given, this game has {} seats; {}", text, seat + 1, static_cast<int>(seats_), form));
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
    j["bonuses"].push_back({{"bonus", bonus_name(h.items[i].kind)}, {"side", h.items[i].side}, {"points", h.items[i].points}});
  if (h.wins_reset) j["wins_reset"] = true;
  if (h.double_up) j["double_up_pending"] = true;
  j["next_leader"] = next_leader_json(s, h);
  return j;
}

std::string hand_result_text(const State& s, const HandResult& h) {
  std::string out = fmt::format("Hand {}: ", h.number);
  if (h.end == HandEnd::Domino) out += fmt::format("seat {} went out{}", h.last_placer, h.capicua ? " with a capicua" : "");
  else out += fmt::format("blocked (last tile by seat {}){}", h.last_placer, h.tied ? ", tied" : "");
  out += ". Pips left:";
  for (int k = 0; k < s.num_seats(); ++k) out += fmt::format(" seat {} {}", k, h.pips[k]);
  out += "\n  ";
  if (h.winner_side >= 0) out += LineGame::side_name(s, h.winner_side) + " wins the hand";
  else out += "nobody wins the hand";
  for (int sd = 0; sd < s.num_sides(); ++sd) {
    if (h.total[sd] == 0) continue;
    out += fmt::format("; {} scores {}", LineGame::side_name(s, sd), h.total[sd]);
    std::string parts;
    if (h.pip_points[sd]) parts += fmt::format("{} {}", h.pip_points[sd], s.rules().scoring == Scoring::Wins ? "win(s)" : "for pips");
    for (int i = 0; i < h.n_items; ++i)
      if (h.items[i].side == sd) parts += fmt::format("{}{} {}", parts.empty() ? "" : " + ", h.items[i].points, bonus_name(h.items[i].kind));
    if (!parts.empty()) out += " (" + parts + ")";
  }
  if (h.wins_reset) out += "; every side has a win: the counts start over";
  if (h.double_up) out += "; all square: the next hand's winner goes to 2";
  out += next_leader_text(s, h);
  return out;
}

HandSummary State::last_hand() const {
  HandSummary h;
  h.winner_side = last_.winner_side;
  for (int sd = 0; sd < num_sides(); ++sd) h.side_points.push_back(last_.total[sd]);
  h.how = last_.end == HandEnd::Domino ? "domino" : last_.tied ? (last_.winner_side >= 0 ? "block (tie rule)" : "block (void)") : "block";
  const json detail = hand_result_json(*this, last_);
  h.detail_json = detail.dump();
  h.next_json = detail["next_leader"].dump();
  h.text = hand_result_text(*this, last_);
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
  if (all) {
    j["stock"] = json::array();
    for (int i = stock_pos_; i < stock_n_; ++i) j["stock"].push_back(to_string(Tile{stock_[i]}));
  }
  j["passes_in_row"] = passes_;
  if (forced_lead_ >= 0 && n_placed_ == 0 && phase_ == Phase::Play) j["must_lead"] = to_string(Tile{static_cast<uint8_t>(forced_lead_)});
  j["scores"] = json::array();
  for (int sd = 0; sd < num_sides(); ++sd) j["scores"].push_back(score_[sd]);
  j["target"] = r_.target;
  j["scoring"] = name(r_.scoring);
  if (hands_ > 0) j["last_hand"] = hand_result_json(*this, last_);
  if (terminal()) {
    j["winners"] = json::array();
    for (int sd = 0; sd < num_sides(); ++sd)
      if ((winners_ >> sd) & 1) j["winners"].push_back(sd);
  }
  return j;
}

std::string State::render(int seat) const {
  std::string out;
  const int sides = num_sides();
  out += fmt::format("Hand {}   target {} ({})   ", hands_ + (terminal() ? 0 : 1), r_.target, name(r_.scoring));
  for (int sd = 0; sd < sides; ++sd) out += fmt::format("{}: {}   ", LineGame::side_name(*this, sd), score_[sd]);
  out += "\n";
  std::pair<int, int> ln[kMaxSetTiles];
  const int n = line(ln);
  if (n == 0) out += "Line: (empty)\n";
  else {
    out += "Line: ";
    for (int i = 0; i < n; ++i) out += fmt::format("[{}|{}]", ln[i].first, ln[i].second);
    out += fmt::format("\n      open ends: left {}, right {}\n", left_, right_);
  }
  for (int k = 0; k < seats_; ++k) {
    const bool show = seat < 0 || k == seat;
    out += fmt::format("  seat {}{}{}: {:2} tiles", k, r_.teams() ? fmt::format(" (team {})", side_of(k)) : "",
                       k == seat ? " you" : "", count_[k]);
    if (show) out += "   " + to_string(SmallSet{{hand_[k]}});
    if (phase_ != Phase::Deal && k == leader_) out += "   [leader]";
    out += "\n";
  }
  if (r_.undealt == Undealt::Draw) out += fmt::format("Boneyard: {} tiles\n", stock_left());
  switch (phase_) {
    case Phase::Play:
      out += fmt::format("Seat {} to play", to_move_);
      if (n_placed_ == 0 && forced_lead_ >= 0) out += fmt::format(" (must lead {})", to_string(Tile{static_cast<uint8_t>(forced_lead_)}));
      out += "\n";
      break;
    case Phase::Redeal: out += fmt::format("Seat {} holds five or more doubles and may demand a redeal\n", to_move_); break;
    case Phase::ChooseLeader: out += fmt::format("Seat {}'s team chooses who leads (leader:{} or leader:{})\n", to_move_, to_move_, (to_move_ + 2) % seats_); break;
    case Phase::Deal: out += "Waiting for the deal\n"; break;
    case Phase::GameOver: {
      out += "Game over: ";
      const int w = std::popcount(static_cast<unsigned>(winners_));
      for (int sd = 0; sd < sides; ++sd)
        if ((winners_ >> sd) & 1) out += LineGame::side_name(*this, sd) + (w > 1 ? " shares the win " : " wins ");
      out += "\n";
      break;
    }
  }
  return out;
}

}  // namespace boneyard::line
