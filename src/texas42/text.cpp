// Text forms of Texas 42: moves, chance outcomes, hand results, the JSON
// view and the table as a person sees it.
#include "core/text.h"

#include <fmt/format.h>

#include <cctype>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "texas42/state.h"

namespace boneyard::texas42 {

using nlohmann::json;

namespace {

const char* phase_name(Phase p) {
  switch (p) {
    case Phase::DealerDraw:
      return "dealer_draw";
    case Phase::Deal:
      return "deal";
    case Phase::Bidding:
      return "bidding";
    case Phase::Trumps:
      return "trumps";
    case Phase::Play:
      return "play";
    case Phase::GameOver:
      return "game_over";
  }
  return "?";
}

json tiles_json(uint32_t bits) {
  json a = json::array();
  for (int i = kTiles - 1; i >= 0; --i)
    if ((bits >> i) & 1) a.push_back(to_string(Tile{static_cast<uint8_t>(i)}));
  return a;
}

std::string tiles_text(uint32_t bits) { return to_string(SmallSet{{bits}}); }

constexpr const char* kNumberNames[] = {"blanks", "ones", "twos", "threes", "fours", "fives", "sixes"};

const char* bid_kind_name(BidKind k) {
  switch (k) {
    case BidKind::None:
      return "none";
    case BidKind::Points:
      return "points";
    case BidKind::Marks:
      return "marks";
    case BidKind::Plunge:
      return "plunge";
    case BidKind::Splash:
      return "splash";
  }
  return "?";
}

// Parses a number 0..6 or a suit word ("5", "5s", "fives", "blanks").
int parse_number_word(std::string_view w) {
  if (w.size() == 1 && w[0] >= '0' && w[0] <= '6') return w[0] - '0';
  if (w.size() == 2 && w[0] >= '0' && w[0] <= '6' && w[1] == 's') return w[0] - '0';
  for (int n = 0; n <= 6; ++n)
    if (w == kNumberNames[n] || w == std::string(kNumberNames[n]).substr(0, std::string(kNumberNames[n]).size() - 1))
      return n;
  if (w == "blank" || w == "zeros" || w == "zero" || w == "0s") return 0;
  return -1;
}

int parse_trump_word(std::string_view w) {
  const int n = parse_number_word(w);
  if (n >= 0) return n;
  if (w == "doubles" || w == "double" || w == "dubs") return kDoublesTrump;
  if (w == "follow-me" || w == "followme" || w == "follow" || w == "follow_me" || w == "no-trump" || w == "notrump" ||
      w == "no-trumps" || w == "nt" || w == "none")
    return kFollowMe;
  if (w == "nello" || w == "nel-o" || w == "nelo" || w == "nil") return kNello;
  if (w == "sevens" || w == "7s") return kSevens;
  return -1;
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}
}  // namespace

std::string trump_name(int trump) {
  if (trump >= 0 && trump <= 6) return kNumberNames[trump];
  switch (trump) {
    case kDoublesTrump:
      return "doubles";
    case kFollowMe:
      return "follow-me";
    case kNello:
      return "nello";
    case kSevens:
      return "sevens";
    default:
      return "none";
  }
}

std::string bid_text(int points, BidKind kind) {
  if (points <= 0) return "pass";
  switch (kind) {
    case BidKind::Points:
      return std::to_string(points);
    case BidKind::Marks:
      return fmt::format("{} marks", points / 42);
    case BidKind::Plunge:
      return fmt::format("plunge ({} marks)", points / 42);
    case BidKind::Splash:
      return fmt::format("splash ({} marks)", points / 42);
    default:
      return "?";
  }
}

std::string Texas42::side_name(const State&, int side) {
  return fmt::format("team {} (seats {}+{})", side, side, side + 2);
}

std::string State::move_text(Move m) const {
  switch (m.kind) {
    case Move::Pass:
      return "pass";
    case Move::Bid:
      return fmt::format("bid:{}", m.arg);
    case Move::Marks:
      return fmt::format("bid:{}marks", m.arg);
    case Move::Plunge:
      return fmt::format("plunge:{}marks", m.arg);
    case Move::Splash:
      return fmt::format("splash:{}marks", m.arg);
    case Move::Trumps:
      return m.arg <= 6 ? fmt::format("trump:{}", m.arg) : "trump:" + trump_name(m.arg);
    case Move::Play:
      return to_string(m.tile());
  }
  return "?";
}

// The move for people: "bid 30", "trumps: fives", "lead 6-6".
std::string State::move_words(int seat, Move m) const {
  (void)seat;
  switch (m.kind) {
    case Move::Pass:
      return "pass";
    case Move::Bid:
      return fmt::format("bid {}", m.arg);
    case Move::Marks:
      return fmt::format("bid {} marks", m.arg);
    case Move::Plunge:
      return fmt::format("plunge for {} marks", m.arg);
    case Move::Splash:
      return fmt::format("splash for {} marks", m.arg);
    case Move::Trumps:
      if (m.arg == kFollowMe) return "no trumps (follow-me)";
      if (m.arg == kNello) return "nello (lose every trick)";
      if (m.arg == kSevens) return "sevens";
      return "trumps: " + trump_name(m.arg);
    case Move::Play:
      return (trick_n_ == 0 ? "lead " : "play ") + to_string(m.tile());
  }
  return move_text(m);
}

Move State::parse_move(int seat, std::string_view text) const {
  MoveList<Move, Texas42::kMaxMoves> legal;
  legal_moves(seat, legal);
  std::string options;
  for (const Move& m : legal) options += (options.empty() ? "" : ", ") + move_text(m);
  if (options.empty()) options = "none (" + to_string(actor()) + ")";
  auto fail = [&](const std::string& why) {
    return Error(fmt::format("illegal move '{}': {}; legal now: {}", text, why, options));
  };
  const std::string t = lower_trim(text);
  if (t.empty()) throw fail("empty move");
  for (const Move& m : legal)
    if (t == move_text(m)) return m;
  auto find = [&](Move want, const std::string& why) {
    for (const Move& m : legal)
      if (m == want) return m;
    throw fail(why);
  };
  // Words: "bid 31", "bid: 2 marks", "trump fives", "[6|4]".
  std::vector<std::string> w;
  {
    std::string cur;
    for (char c : t) {
      if (c == ' ' || c == ':' || c == '=' || c == '\t') {
        if (!cur.empty()) w.push_back(cur);
        cur.clear();
      } else {
        cur += c;
      }
    }
    if (!cur.empty()) w.push_back(cur);
  }
  // Only separators (":", "=", " : "): no word to read.
  if (w.empty()) throw fail("no move in it; say pass, bid:30, trump:5 or a tile like 6-4");
  std::string rest;
  for (size_t i = 1; i < w.size(); ++i) rest += w[i];
  const std::string& head = w[0];
  auto marks_of = [](std::string r) -> int {  // "2marks", "2m", "2mark" -> 2
    for (const char* suffix : {"marks", "mark", "m"}) {
      const std::string sfx = suffix;
      if (r.size() > sfx.size() && r.compare(r.size() - sfx.size(), sfx.size(), sfx) == 0) {
        r.resize(r.size() - sfx.size());
        return r.size() <= 2 ? parse_whole<int>(r).value_or(-1) : -1;
      }
    }
    return -1;
  };
  auto bid_move = [&](const std::string& r) -> Move {
    if (all_digits(r) && r.size() <= 4) {
      const int v = *parse_whole<int>(r);
      if (v >= 30 && v <= 42) return {Move::Bid, static_cast<uint8_t>(v)};
      if (v > 42 && v % 42 == 0 && v / 42 <= kMaxMarks) return {Move::Marks, static_cast<uint8_t>(v / 42)};
      if (v > 42 && v % 42 == 0) throw fail(fmt::format("the highest bid is {} marks ({})", kMaxMarks, 42 * kMaxMarks));
      throw fail("a bid is 30 to 42 points or a number of marks (84, 126, 168 or '2marks')");
    }
    const int k = marks_of(r);
    if (k == 1) return {Move::Bid, 42};  // 1 mark = 42 (spec: Bidding)
    if (k >= 2 && k <= kMaxMarks) return {Move::Marks, static_cast<uint8_t>(k)};
    if (k > kMaxMarks) throw fail(fmt::format("the highest bid is {} marks ({})", kMaxMarks, 42 * kMaxMarks));
    if (r.empty()) throw fail("a bid needs its amount: bid 30 to bid 42, or bid 2marks");
    throw fail(fmt::format("'{}' is not a bid; say bid:30 .. bid:42 or bid:2marks", r));
  };
  auto bid_why = [&](Move m) {
    if (phase_ != Phase::Bidding) return std::string("it is not the bidding now");
    if (m.kind == Move::Pass) return std::string("the dealer must bid after three passes (forced_bid)");
    if (m.kind == Move::Marks && high_bid_ < 42 && m.arg == 2)
      return std::string(r_.open_two_marks
                             ? "2 marks may only be bid as the opening bid or once someone has bid 42 (1 mark)"
                             : "2 marks may only be bid once someone has bid 42 (1 mark)");
    if (value_of(m) <= high_bid_) return fmt::format("a bid must be higher than {}", bid_text(high_bid_, high_kind_));
    // Said with the most allowed now, and "no one has bid yet" rather than "(pass)".
    const int top = high_bid_ >= 42 ? high_bid_ / 42 + 1 : high_bid_ == 0 && r_.open_two_marks ? 2 : 1;
    return fmt::format(
        "a mark bid may go only one mark above the highest bid, so at most {} now ({})",
        top == 1 ? std::string("1 mark (42)") : fmt::format("{} marks", top),
        high_bid_ == 0 ? std::string("no one has bid yet") : "the highest bid is " + bid_text(high_bid_, high_kind_));
  };
  if (head == "pass" || head == "p") return find({Move::Pass, 0}, bid_why({Move::Pass, 0}));
  if (head == "bid" || head == "b") {
    const Move m = bid_move(rest);
    return find(m, bid_why(m));
  }
  if (phase_ == Phase::Bidding && (all_digits(head) || marks_of(head) > 0)) {
    const Move m = bid_move(head + rest);
    return find(m, bid_why(m));
  }
  if (head == "plunge" || head == "splash") {
    const bool plunge = head == "plunge";
    for (const Move& m : legal)
      if (m.kind == (plunge ? Move::Plunge : Move::Splash)) return m;
    if (!(plunge ? r_.plunge : r_.splash))
      throw fail(fmt::format("{} is off in these rules (option {}=on)", head, head));
    throw fail(plunge
                   ? "a plunge needs at least four doubles in hand, during the bidding"
                   : "a splash needs at least three doubles in hand, during the bidding, and goes to 3 marks at most");
  }
  int trump = -1;
  if (head == "trump" || head == "trumps" || head == "t") {
    trump = parse_trump_word(rest);
    if (trump < 0)
      throw fail(fmt::format("unknown trumps '{}'; say 0..6, doubles, follow-me{}{}", rest, r_.nello ? ", nello" : "",
                             r_.sevens ? ", sevens" : ""));
  } else if (w.size() == 1 && (phase_ == Phase::Trumps || (head.size() > 2 && parse_trump_word(head) >= 0))) {
    trump = parse_trump_word(head);
  }
  if (trump >= 0) {
    if (phase_ != Phase::Trumps) throw fail("trumps are named only after the bidding, by the declarer");
    for (const Move& m : legal)
      if (m.kind == Move::Trumps && m.arg == trump) return m;
    if ((trump == kNello && !r_.nello) || (trump == kSevens && !r_.sevens))
      throw fail(fmt::format("{} is off in these rules", trump_name(trump)));
    throw fail(fmt::format("{} needs a winning bid of at least 1 mark (42) and is not open to a plunge or splash",
                           trump_name(trump)));
  }
  // A tile.
  Tile tile;
  try {
    tile = parse_tile(t, 6);
  } catch (const Error& e) {
    throw fail(e.what());
  }
  if (phase_ != Phase::Play) throw fail("no tile can be played now");
  if (!((hand_[seat] >> tile.index) & 1)) throw fail(fmt::format("seat {} does not hold {}", seat, to_string(tile)));
  for (const Move& m : legal)
    if (m.kind == Move::Play && m.arg == tile.index) return m;
  const int led = led_suit();
  const std::string suit_name = led == kTrumpSuit ? "trumps" : led == kDoublesSuit ? "doubles" : kNumberNames[led];
  throw fail(fmt::format("{} was led ({}) and seat {} must follow {}", to_string(Tile{trick_[0]}), suit_name, seat,
                         suit_name));
}

std::string State::chance_text() const {
  if (last_chance_ == 1) {
    std::string s = "draw";
    for (int k = 0; k < kSeats; ++k) s += " " + to_string(Tile{static_cast<uint8_t>(draw_[k])});
    return s;
  }
  if (last_chance_ == 2) {
    std::string s = "deal";
    for (int k = 0; k < kSeats; ++k) {
      if (k) s += " /";
      s += " " + tiles_text(hand_[k] | played_by_[k]);
    }
    return s;
  }
  return "";
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
  in >> tok;
  if (phase_ == Phase::DealerDraw) {
    const char* form = "expected 'draw <tile of seat 0> <seat 1> <seat 2> <seat 3>' (the first-dealer draw)";
    if (tok != "draw") throw Error(fmt::format("bad chance outcome '{}': {}", text, form));
    Tile tiles[kSeats];
    int n = 0;
    while (in >> tok) {
      if (n == kSeats) throw Error(fmt::format("bad draw '{}': more than 4 tiles; {}", text, form));
      tiles[n++] = parse_tile(tok, 6);
    }
    if (n != kSeats) throw Error(fmt::format("bad draw '{}': {} tiles; {}", text, n, form));
    draw_for_dealer(tiles);
    return;
  }
  if (phase_ != Phase::Deal) throw Error(fmt::format("no chance event is pending now: {}", to_string(actor())));
  const char* form = "expected 'deal <7 tiles of seat 0> / <seat 1> / <seat 2> / <seat 3>'";
  if (tok != "deal") throw Error(fmt::format("bad deal '{}': {}", text, form));
  uint32_t hands[kSeats] = {};
  int seat = 0;
  while (in >> tok) {
    if (tok == "/") {
      if (++seat >= kSeats) throw Error(fmt::format("bad deal '{}': more than 4 hands; {}", text, form));
      continue;
    }
    const Tile t = parse_tile(tok, 6);
    if ((hands[seat] >> t.index) & 1)
      throw Error(fmt::format("bad deal '{}': {} twice in seat {}'s hand", text, tok, seat));
    hands[seat] |= uint32_t{1} << t.index;
  }
  if (seat != kSeats - 1)
    throw Error(fmt::format("bad deal '{}': {} hands given, Texas 42 has 4 seats; {}", text, seat + 1, form));
  deal(hands);
}

json hand_result_json(const State&, const HandResult& h) {
  json j{{"number", h.number},
         {"dealer", h.dealer},
         {"declarer", h.declarer},
         {"bid", h.bid},
         {"bid_kind", bid_kind_name(h.bid_kind)},
         {"bid_text", bid_text(h.bid, h.bid_kind)},
         {"trumps", trump_name(h.trump)},
         {"made", h.made},
         {"stopped_early", h.stopped_early},
         {"tricks_played", h.tricks_played},
         {"winner_side", h.winner_side},
         {"last_trick_winner", h.last_trick_winner}};
  j["points"] = {h.points[0], h.points[1]};
  j["tricks"] = {h.tricks[0], h.tricks[1]};
  j["gained"] = {h.gained[0], h.gained[1]};
  return j;
}

std::string hand_result_text(const State& s, const HandResult& h) {
  const int bidders = State::side_of(h.declarer);
  const char* unit = s.rules().scoring == Scoring::Marks ? "mark" : "point";
  std::string out = fmt::format("Hand {}: seat {} bid {} in {}; team {} took {} in {}, team {} {} in {}", h.number,
                                h.declarer, bid_text(h.bid, h.bid_kind), trump_name(h.trump), bidders,
                                boneyard::count_of(h.points[bidders], "point", "points"),
                                boneyard::count_of(h.tricks[bidders], "trick", "tricks"), 1 - bidders,
                                h.points[1 - bidders], boneyard::count_of(h.tricks[1 - bidders], "trick", "tricks"));
  if (h.stopped_early)
    out += fmt::format(" (decided after {})", boneyard::count_of(h.tricks_played, "trick", "tricks"));
  out += fmt::format("\n  {}: ", h.made ? "made" : "set");
  bool any = false;
  for (int sd = 0; sd < 2; ++sd)
    if (h.gained[sd]) {
      out += fmt::format("{}team {} scores {} {}{}", any ? ", " : "", sd, h.gained[sd], unit,
                         h.gained[sd] == 1 ? "" : "s");
      any = true;
    }
  if (!any) out += "nobody scores";
  return out;
}

HandSummary State::last_hand() const {
  HandSummary h;
  h.winner_side = last_.winner_side;
  h.side_points = {static_cast<double>(last_.gained[0]), static_cast<double>(last_.gained[1])};
  h.how = last_.made ? "made" : "set";
  h.text = hand_result_text(*this, last_);
  h.detail_json = hand_result_json(*this, last_).dump();
  return h;
}

json State::options_json() const { return to_json(r_); }

json State::view(int seat) const {
  const bool all = seat < 0;
  json j{{"family", "texas-42"}, {"phase", phase_name(phase_)}, {"hand_number", hands_ + (terminal() ? 0 : 1)}};
  j["seat"] = all ? json(nullptr) : json(seat);
  const Actor a = actor();
  j["actor"] = a.kind == Actor::Seat ? json(a.seat) : a.kind == Actor::Chance ? json("chance") : json(nullptr);
  j["dealer"] = dealer_ >= 0 ? json(dealer_) : json(nullptr);
  if (draw_[0] >= 0) {
    j["first_dealer_draw"] = json::array();
    for (int k = 0; k < kSeats; ++k) j["first_dealer_draw"].push_back(to_string(Tile{static_cast<uint8_t>(draw_[k])}));
  }
  j["bids"] = json::array();
  for (int k = 0; k < kSeats; ++k)
    j["bids"].push_back(bids_[k] < 0 ? json(nullptr) : json(bid_text(bids_[k], bid_kinds_[k])));
  j["high_bid"] = high_bid_;
  j["declarer"] = declarer_ >= 0 ? json(declarer_) : json(nullptr);
  j["trumps"] = trump_ == kNoTrumpYet ? json(nullptr) : json(trump_name(trump_));
  if (sitting_out() >= 0) j["sitting_out"] = sitting_out();
  j["hands"] = json::array();
  for (int k = 0; k < kSeats; ++k) {
    json h{{"seat", k}, {"side", side_of(k)}, {"count", std::popcount(hand_[k])}};
    h["tiles"] = (all || k == seat) ? tiles_json(hand_[k]) : json(nullptr);
    j["hands"].push_back(h);
  }
  if (!all && seat < kSeats && to_move_ == seat && phase_ == Phase::Play) j["playable"] = tiles_json(playable(seat));
  j["trick"] = json::array();
  for (int i = 0; i < trick_n_; ++i)
    j["trick"].push_back({{"seat", trick_seats_[i]}, {"tile", to_string(Tile{trick_[i]})}});
  j["tricks"] = json::array();
  for (int k = 0; k < n_tricks_; ++k) {
    json tr{{"leader", trick_leaders_[k]}, {"winner", trick_winners_[k]}};
    // tricks_face_down: a turned trick's tiles are not shown (spec: Scoring).
    if (all || !r_.tricks_face_down) {
      tr["tiles"] = json::array();
      for (int i = 0; i < kSeats; ++i)
        if (tricks_[k][i] != 0xff) tr["tiles"].push_back(to_string(Tile{tricks_[k][i]}));
    }
    j["tricks"].push_back(tr);
  }
  j["points_taken"] = {points_[0], points_[1]};
  j["tricks_taken"] = {tricks_won_[0], tricks_won_[1]};
  j["scores"] = {score_[0], score_[1]};
  j["scoring"] = name(r_.scoring);
  j["target"] = r_.scoring == Scoring::Marks ? r_.target_marks : r_.target_points;
  j["single_hand"] = r_.single_hand;  // one hand decides: no target is played to
  j["redeals"] = redeals_;
  if (hands_ > 0) j["last_hand"] = hand_result_json(*this, last_);
  if (terminal()) j["winner_side"] = winners_ == 1 ? 0 : 1;
  return j;
}

std::string State::render(int seat) const {
  std::string out;
  const bool marks = r_.scoring == Scoring::Marks;
  // Between hands the table still shows the hand just played: it is headed
  // with that hand and its dealer, not the next.
  const bool between = phase_ == Phase::Deal && n_tricks_ > 0;
  const int dealer = between ? last_.dealer : dealer_;
  // One hand only: no target to play to (single_hand).
  if (r_.single_hand)
    out += fmt::format("Texas 42 - one hand   {}:   team 0 (seats 0+2) {}   team 1 (seats 1+3) {}\n",
                       marks ? "marks" : "points", score_[0], score_[1]);
  else
    out += fmt::format("Texas 42 - hand {}   {} to {}:   team 0 (seats 0+2) {}   team 1 (seats 1+3) {}\n",
                       hands_ + (terminal() || between ? 0 : 1), marks ? "marks" : "points",
                       marks ? r_.target_marks : r_.target_points, score_[0], score_[1]);
  if (dealer >= 0) out += fmt::format("Dealer: seat {}", dealer);
  if (last_was_redeal_ && phase_ != Phase::GameOver) out += "   (all four passed last deal: redealt)";
  if (dealer_ >= 0) out += "\n";
  if (phase_ != Phase::DealerDraw && (phase_ != Phase::Deal || between)) {
    out += "Bids:";
    for (int i = 1; i <= kSeats; ++i) {
      const int k = (dealer + i) & 3;
      if (bids_[k] < 0) break;
      out += fmt::format("  seat {} {}", k, bid_text(bids_[k], bid_kinds_[k]));
    }
    out += "\n";
  }
  if (declarer_ >= 0) {
    out += fmt::format("Declarer: seat {} (team {}), bid {}, trumps: {}", declarer_, side_of(declarer_),
                       bid_text(high_bid_, high_kind_), trump_ == kNoTrumpYet ? "not named yet" : trump_name(trump_));
    if (sitting_out() >= 0) out += fmt::format(" (seat {} sits out)", sitting_out());
    out += "\n";
  }
  if (phase_ == Phase::Play || n_tricks_ > 0) {
    out += fmt::format("Taken: team 0 {} {}   team 1 {} {}\n", boneyard::count_of(tricks_won_[0], "trick", "tricks"),
                       boneyard::count_of(points_[0], "point", "points"),
                       boneyard::count_of(tricks_won_[1], "trick", "tricks"),
                       boneyard::count_of(points_[1], "point", "points"));
    if (n_tricks_ > 0 && !r_.tricks_face_down) {
      const int k = n_tricks_ - 1;
      // Who played which tile: the trick goes round from its leader
      // (a seat sitting out plays nothing).
      out += "Last trick:";
      for (int i = 0, seat_k = trick_leaders_[k]; i < kSeats; ++i, seat_k = (seat_k + 1) % kSeats) {
        if (seat_k == sitting_out()) seat_k = (seat_k + 1) % kSeats;
        if (tricks_[k][i] != 0xff)
          out += fmt::format("{} seat {} {}", i ? "," : "", seat_k, to_string(Tile{tricks_[k][i]}));
      }
      out += fmt::format("  won by seat {}\n", trick_winners_[k]);
    }
  }
  if (phase_ == Phase::Play) {
    out += fmt::format("Trick {}:", n_tricks_ + 1);
    if (trick_n_ == 0) out += fmt::format(" seat {} to lead", to_move_);
    for (int i = 0; i < trick_n_; ++i)
      out += fmt::format("  seat {} [{}|{}]", trick_seats_[i], Tile{trick_[i]}.high(), Tile{trick_[i]}.low());
    out += "\n";
  }
  for (int k = 0; k < kSeats; ++k) {
    const bool show = seat < 0 || k == seat;
    const char* who = k == seat ? " you" : (seat >= 0 && k == (seat + 2) % kSeats) ? " partner" : "";
    out += fmt::format("  seat {} (team {}){}: {}", k, side_of(k), who,
                       boneyard::count_of(std::popcount(hand_[k]), "tile", "tiles"));
    if (show && hand_[k]) {
      // '*' marks the tiles this seat may play now.
      const uint32_t ok = (phase_ == Phase::Play && to_move_ == k) ? playable(k) : 0;
      out += "  ";
      for (int i = kTiles - 1; i >= 0; --i)
        if ((hand_[k] >> i) & 1) {
          const Tile t{static_cast<uint8_t>(i)};
          out += fmt::format(" [{}|{}]{}", t.high(), t.low(), ((ok >> i) & 1) ? "*" : "");
        }
    }
    out += "\n";
  }
  switch (phase_) {
    case Phase::DealerDraw:
      out += "Waiting for the draw for first dealer\n";
      break;
    case Phase::Deal:
      out += between ? fmt::format("Seat {} deals hand {} next\n", dealer_, hands_ + 1) : "Waiting for the deal\n";
      break;
    case Phase::Bidding:
      out += fmt::format("Seat {} to bid (highest so far: {})\n", to_move_,
                         high_bid_ ? bid_text(high_bid_, high_kind_) : "none");
      break;
    case Phase::Trumps:
      out += fmt::format("Seat {} names trumps\n", to_move_);
      break;
    case Phase::Play:
      out += fmt::format("Seat {} to play{}\n", to_move_, seat == to_move_ ? " (* = may play)" : "");
      break;
    case Phase::GameOver:
      out += fmt::format("Game over: team {} wins\n", winners_ == 1 ? 0 : 1);
      break;
  }
  // The last hand's result between hands only: once the next deal is
  // out, the board is about that hand.
  if (hands_ > 0 && (phase_ == Phase::Deal || phase_ == Phase::DealerDraw || phase_ == Phase::GameOver))
    out += hand_result_text(*this, last_) + "\n";
  return out;
}

}  // namespace boneyard::texas42
