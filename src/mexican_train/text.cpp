// Text forms of Mexican Train: moves, deals, the JSON view and the station
// as a person sees it.
#include "core/text.h"

#include <fmt/format.h>

#include <cctype>
#include <nlohmann/json.hpp>
#include <sstream>

#include "mexican_train/state.h"
#include "mexican_train/words.h"

namespace boneyard::mexican_train {

using nlohmann::json;

namespace {

const char* phase_name(Phase p) {
  switch (p) {
    case Phase::Deal:
      return "deal";
    case Phase::Opening:
      return "opening";
    case Phase::Play:
      return "play";
    case Phase::GameOver:
      return "game_over";
  }
  return "?";
}

json tiles_json(const TileSet& s) {
  json a = json::array();
  for (int i = kMaxSetTiles - 1; i >= 0; --i)
    if (s.has(Tile{static_cast<uint8_t>(i)})) a.push_back(to_string(Tile{static_cast<uint8_t>(i)}));
  return a;
}

}  // namespace

std::string train_name(int train) {
  return train == kMexican ? "the Mexican train" : fmt::format("seat {}'s train", train);
}

std::string MexicanTrain::side_name(const State&, int side) { return fmt::format("seat {}", side); }

std::string State::move_text(Move m) const {
  switch (m.kind) {
    case Move::Lay:
      return to_string(m.t()) + (m.train == kMexican ? std::string(":M") : fmt::format(":T{}", m.train));
    case Move::Draw:
      return "draw";
    case Move::Pass:
      return "pass";
    case Move::EndOpening:
      return "end_opening";
  }
  return "?";
}

// The move for people: "12-4 on seat 2's train", "end your opening turn".
std::string State::move_words(int seat, Move m) const { return words_heard(*this, seat, m, seat); }

std::string words_heard(const State& s, int seat, Move m, int listener) {
  switch (m.kind) {
    case Move::Lay: {
      // Whose train, as the listener says it: yours, its own, seat N's.
      const std::string where = m.train == kMexican   ? " on the Mexican train"
                                : m.train == listener ? " on your train"
                                : m.train == seat     ? " on its own train"
                                                      : fmt::format(" on seat {}'s train", m.train);
      // The doubles that nobody must cover, and why (spec Play 5, exceptions 1 and 2).
      const Tile t = m.t();
      std::string why;
      if (t.high() == t.low() && s.hand_count(seat) > 1) {  // a last tile ends the round (exception 3)
        if (m.train == seat && s.marked(seat) && s.phase() == Phase::Play)
          why = fmt::format(" ({} marker comes off; a double laid there needs no cover)",
                            listener == seat ? "your" : "its");
        else if (s.last_of_number(t.high()))
          why = fmt::format(" (the last tile showing {}: nobody covers it)", t.high());
      }
      return to_string(t) + where + why;
    }
    case Move::Draw: {
      if (listener != seat) return "draws";
      // Why nothing fits, when a double binds the turn (spec Play 5): it is
      // the oldest open double in normal turns, the seat's own new one in
      // its opening turn (the others' wait for the normal turns).
      const int t = s.phase() == Phase::Play && s.open_doubles() > 0 ? s.open_double_train(0)
                    : s.phase() == Phase::Opening && s.owes_cover()  ? seat
                                                                     : -1;
      if (t < 0) return "draw";
      const int n = s.train_end(t);
      return fmt::format("draw (the open double {}-{} on {} must be covered first)", n, n,
                         t == listener ? "your train" : train_name(t));
    }
    case Move::Pass:
      return listener == seat ? "pass (your marker goes on)" : "passes (its marker goes on)";
    case Move::EndOpening:
      return listener == seat ? "end your opening turn" : "ends its opening turn";
  }
  return s.move_text(m);
}

Move State::parse_move(int seat, std::string_view text) const {
  MoveList<Move, MexicanTrain::kMaxMoves> legal;
  legal_moves(seat, legal);
  const std::string t = lower_trim(text);
  std::string options;
  for (const Move& m : legal) options += (options.empty() ? "" : ", ") + move_text(m);
  auto fail = [&](const std::string& why) {
    return Error(fmt::format("illegal move '{}': {}; legal now: {}", text, why, options.empty() ? "(none)" : options));
  };
  if (t.empty()) throw fail("empty move");
  for (const Move& m : legal)
    if (t == lower_trim(move_text(m))) return m;
  auto only_kind = [&](Move::Kind k, const char* why) {
    for (const Move& m : legal)
      if (m.kind == k) return m;
    throw fail(why);
  };
  if (t == "draw") throw fail("drawing is only allowed when no tile can be laid, once a turn");
  if (t == "pass") throw fail("passing is only allowed when nothing fits and the boneyard is empty");
  if (t == "end_opening" || t == "end" || t == "stop" || t == "end opening")
    return only_kind(Move::EndOpening, phase_ == Phase::Opening
                                           ? "your opening turn goes on while a tile fits your own train"
                                           : "the opening turns are over (end_opening ends only an opening turn)");
  // A tile with an optional train: "12-4", "12-4:M", "12-4 mexican", "[12|4] T2", "12-4 own".
  std::string tile_part = t, train_part;
  const auto cut = t.find_first_of(": ");
  if (cut != std::string::npos) {
    tile_part = t.substr(0, cut);
    train_part = lower_trim(t.substr(cut + 1));
  }
  int train = -1;
  if (!train_part.empty()) {
    std::string_view tp = train_part;
    if (tp == "m" || tp == "mex" || tp == "mexican" || tp == "mexican_train")
      train = kMexican;
    else if (tp == "own" || tp == "mine" || tp == "me")
      train = seat;
    else {
      if (tp.front() == 't' || tp.front() == 's') tp.remove_prefix(1);
      if (tp.size() == 1 && tp[0] >= '0' && tp[0] < '0' + seats_)
        train = tp[0] - '0';
      else {
        std::string shown = train_part;  // as trains are written: "T9"
        for (char& ch : shown) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
        throw fail(
            fmt::format("unknown train '{}'; use M (Mexican), own, or T<seat> with seat 0..{}", shown, seats_ - 1));
      }
    }
  }
  Tile tile;
  try {
    tile = parse_tile(tile_part, r_.max_pip());
  } catch (const Error& e) {
    throw fail(e.what());
  }
  if (phase_ != Phase::Opening && phase_ != Phase::Play) throw fail("no tile can be laid now");
  if (!((hand_[seat][tile.high()] >> tile.low()) & 1))
    throw fail(fmt::format("seat {} does not hold {}", seat, to_string(tile)));
  Move found{};
  int n = 0;
  for (const Move& m : legal) {
    if (m.kind != Move::Lay || m.tile != tile.index) continue;
    if (train >= 0 && m.train != train) continue;
    found = m;
    ++n;
  }
  if (n == 1) return found;
  if (n > 1)
    throw fail(fmt::format("{} fits several trains; add the train, e.g. {}", to_string(tile), move_text(found)));
  if (drawn_tile_ >= 0 && drawn_tile_ != tile.index)
    throw fail(fmt::format("after a draw only the drawn tile {} may be laid",
                           to_string(Tile{static_cast<uint8_t>(drawn_tile_)})));
  if (phase_ == Phase::Opening)
    throw fail(fmt::format("in the opening turn tiles go on your own train, whose end is {}", end_[seat]));
  if (n_open_ > 0)
    throw fail(fmt::format("the double on {} is open and must be covered (with a tile showing {})",
                           train_name(open_[0]), end_[open_[0]]));
  if (train >= 0) {
    if (train != seat && train != kMexican && (train >= seats_ || !((marked_ >> train) & 1)))
      throw fail(fmt::format("{} carries no marker: only its owner may play on it", train_name(train)));
    throw fail(fmt::format("{} does not fit the end of {} ({})", to_string(tile), train_name(train), end_[train]));
  }
  throw fail(fmt::format("{} fits no train open to seat {}", to_string(tile), seat));
}

std::string State::chance_text() const {
  std::string s = "deal";
  for (int k = 0; k < seats_; ++k) {
    if (k) s += " /";
    TileSet dealt;
    const int hs = dealt_n_ / seats_;
    for (int i = k * hs; i < (k + 1) * hs; ++i) dealt.add(Tile{deck_[i]});
    const std::string h = to_string(dealt);
    if (!h.empty()) s += " " + h;
  }
  s += " stock";
  for (int i = dealt_n_; i < deck_n_; ++i) s += " " + to_string(Tile{deck_[i]});
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
  const char* form = "expected 'deal <tiles of seat 0> / <seat 1> / ... [stock <undealt tiles in draw order>]'";
  if (phase_ != Phase::Deal) throw Error(fmt::format("bad deal '{}': no deal is pending now", text));
  if (!(in >> tok) || tok != "deal") throw Error(fmt::format("bad deal '{}': {}", text, form));
  TileSet hands[kMaxSeats];
  int seat = 0;
  uint8_t stock[kMaxSetTiles];
  int stock_n = -1;
  while (in >> tok) {
    if (tok == "/") {
      if (stock_n >= 0) throw Error(fmt::format("bad deal '{}': '/' after the stock; {}", text, form));
      if (++seat >= seats_)
        throw Error(fmt::format("bad deal '{}': more than {} hands; {}", text, static_cast<int>(seats_), form));
      continue;
    }
    if (tok == "stock") {
      if (stock_n >= 0) throw Error(fmt::format("bad deal '{}': 'stock' twice", text));
      stock_n = 0;
      continue;
    }
    Tile tile;
    try {
      tile = parse_tile(tok, r_.max_pip());
    } catch (const Error& e) {
      throw Error(fmt::format("bad deal '{}': {}", text, e.what()));
    }
    if (stock_n >= 0) {
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
  deal(hands, stock, stock_n);
}

json round_result_json(const State& s, const RoundResult& r) {
  json j{{"round", r.number},
         {"end", r.end == RoundEnd::Domino ? "domino" : "blocked"},
         {"out_seat", r.out_seat >= 0 ? json(r.out_seat) : json(nullptr)},
         {"start_seat", r.start_seat},
         {"engine", to_string(Tile{r.engine})}};
  j["tiles_left"] = json::array();
  j["penalty"] = json::array();
  for (int k = 0; k < s.num_seats(); ++k) {
    j["tiles_left"].push_back(r.tiles_left[k]);
    j["penalty"].push_back(r.penalty[k]);
  }
  return j;
}

std::string round_result_text(const State& s, const RoundResult& r) {
  std::string out = fmt::format("Round {} (engine {}): ", r.number, to_string(Tile{r.engine}));
  if (r.end == RoundEnd::Domino)
    out += fmt::format("seat {} laid their last tile.", r.out_seat);
  else
    out += "blocked (boneyard empty, nobody could play).";
  out += "\n  Penalty (lower is better):";
  for (int k = 0; k < s.num_seats(); ++k) out += fmt::format("{}seat {}: {}", k ? "   " : " ", k, r.penalty[k]);
  return out;
}

// Every hand as the round ended (all are counted, so all are shown).
std::string round_end_hands(const State& s) {
  std::string out;
  for (int k = 0; k < s.num_seats(); ++k) {
    const TileSet h = s.hand(k);
    out += fmt::format("\n  seat {}: {}", k, h.empty() ? std::string("out") : to_string(h));
  }
  return out;
}

HandSummary State::last_hand() const {
  HandSummary h;
  h.winner_side = last_.out_seat;
  for (int k = 0; k < seats_; ++k) h.side_points.push_back(last_.penalty[k]);
  h.how = last_.end == RoundEnd::Domino ? "domino" : "block";
  // Called as the round ends, while the hands are still there.
  h.text = round_result_text(*this, last_) + round_end_hands(*this);
  h.detail_json = round_result_json(*this, last_).dump();
  return h;
}

json State::options_json() const { return to_json(r_); }

json State::view(int seat) const {
  const bool all = seat < 0;
  json j{{"family", "mexican-train"},
         {"phase", phase_name(phase_)},
         {"round", round_number()},
         {"rounds", r_.total_rounds()},
         {"start_seat", start_seat_}};
  j["seat"] = all ? json(nullptr) : json(seat);
  const Actor a = actor();
  j["actor"] = a.kind == Actor::Seat ? json(a.seat) : a.kind == Actor::Chance ? json("chance") : json(nullptr);
  // After a round, until the next deal, and after the last round, the
  // trains stay as they were laid: the board between rounds and at the game's
  // end is the round just played (public: every tile on it was laid face up),
  // with that round's engine (round_doubles has already chosen the next).
  const bool dealt = phase_ == Phase::Opening || phase_ == Phase::Play ||
                     ((phase_ == Phase::GameOver || phase_ == Phase::Deal) && rounds_done_ > 0);
  if (dealt) {
    j["engine"] = to_string(Tile::of(engine_pip_, engine_pip_));
    j["engine_seat"] = engine_seat_ >= 0 ? json(engine_seat_) : json(nullptr);
    j["engine_draws"] = engine_draws_;
    json trains = json::array();
    Tile buf[kMaxSetTiles];
    for (int k = 0; k <= kMexican; ++k) {
      if (k >= seats_ && k != kMexican) continue;
      const int n = train_tiles(k, buf);
      json tr{{"train", k == kMexican ? json("M") : json(k)},
              {"owner", k == kMexican ? json(nullptr) : json(k)},
              {"started", k != kMexican || n > 0},
              {"end", end_[k]},
              {"marker", k != kMexican && ((marked_ >> k) & 1)}};
      json tiles = json::array();
      int from = engine_pip_;
      for (int i = 0; i < n; ++i) {
        const int to = buf[i].other(from);
        tiles.push_back(fmt::format("{}-{}", from, to));
        from = to;
      }
      tr["tiles"] = tiles;
      bool open = false;
      for (int i = 0; i < n_open_; ++i) open |= open_[i] == k;
      tr["open_double"] = open;
      trains.push_back(tr);
    }
    j["trains"] = trains;
    json od = json::array();
    for (int i = 0; i < n_open_; ++i) od.push_back(open_[i] == kMexican ? json("M") : json(open_[i]));
    j["open_doubles"] = od;
    j["opening_turn"] = phase_ == Phase::Opening;
    if (drawn_tile_ >= 0 && (all || seat == to_move_))
      j["drawn_tile"] = to_string(Tile{static_cast<uint8_t>(drawn_tile_)});
    j["drew_this_turn"] = drawn_;
  }
  j["hands"] = json::array();
  for (int k = 0; k < seats_; ++k) {
    json h{{"seat", k}, {"count", count_[k]}};
    h["tiles"] = (all || k == seat) ? tiles_json(hand(k)) : json(nullptr);
    json v = json::array();
    for (int n = 0; n <= r_.max_pip(); ++n)
      if ((void_[k] >> n) & 1) v.push_back(n);
    h["known_void"] = v;
    j["hands"].push_back(h);
  }
  j["boneyard"] = stock_left();
  if (all) {
    j["stock"] = json::array();
    for (int i = stock_pos_; i < deck_n_; ++i) j["stock"].push_back(to_string(Tile{deck_[i]}));
  }
  j["scores"] = json::array();
  for (int k = 0; k < seats_; ++k) j["scores"].push_back(score_[k]);
  if (rounds_done_ > 0) j["last_round"] = round_result_json(*this, last_);
  if (terminal()) {
    double r[kMaxSeats];
    returns(r);
    j["winners"] = json::array();
    for (int k = 0; k < seats_; ++k)
      if (r[k] > 0) j["winners"].push_back(k);
  }
  return j;
}

std::string State::render(int seat) const {
  std::string out = fmt::format("Round {} of {}   {} set   start player: seat {}\n", round_number(), r_.total_rounds(),
                                name(r_.set), static_cast<int>(start_seat_));
  out += "Penalty so far:";
  for (int k = 0; k < seats_; ++k) out += fmt::format("  seat {}: {}", k, score_[k]);
  out += "\n";
  if (phase_ == Phase::Opening || phase_ == Phase::Play) {
    out += fmt::format("Engine {} in the station", to_string(Tile{engine_}));
    if (engine_seat_ >= 0)
      out += fmt::format(
          " (placed by seat {}{})", static_cast<int>(engine_seat_),
          engine_draws_ ? fmt::format(" after drawing {}", static_cast<int>(engine_draws_)) : std::string());
    out += "\nStation:\n";
    Tile buf[kMaxSetTiles];
    for (int k = 0; k <= kMexican; ++k) {
      if (k >= seats_ && k != kMexican) continue;
      const int n = train_tiles(k, buf);
      std::string label =
          k == kMexican ? std::string("Mexican train") : fmt::format("seat {}{}", k, k == seat ? " (you)" : "");
      const std::string head = fmt::format("  {:<15} ", label);
      if (k == kMexican && n == 0)
        out += head + fmt::format("(not started: any tile showing {} starts it)", static_cast<int>(engine_pip_));
      else {
        std::vector<std::string> items;
        for (int i = 0, from = engine_pip_; i < n; ++i) {
          const int to = buf[i].other(from);
          items.push_back(fmt::format("[{}|{}]", from, to));
          from = to;
        }
        if (items.empty()) items.push_back("(empty)");
        items.push_back(fmt::format("  -> open end {}", end_[k]));
        // Long trains wrap under their start, to the terminal's width.
        out += wrap_items(items, head, std::string(head.size(), ' '), terminal_width());
      }
      if (k != kMexican && ((marked_ >> k) & 1)) out += "  [MARKER: open to all]";
      for (int i = 0; i < n_open_; ++i)
        if (open_[i] == k) out += i == 0 ? "  [OPEN DOUBLE: must be covered]" : "  [open double, waiting]";
      out += "\n";
    }
  }
  out += "Hands:\n";
  for (int k = 0; k < seats_; ++k) {
    out += fmt::format("  seat {}{}: {:>8}", k, k == seat ? " (you)" : "", count_of(count_[k], "tile", "tiles"));
    if (seat < 0 || k == seat) out += "   " + to_string(hand(k));
    out += "\n";
  }
  out += fmt::format("Boneyard: {}\n", count_of(stock_left(), "tile", "tiles"));
  switch (phase_) {
    case Phase::Opening:
    case Phase::Play:
      out += fmt::format("Seat {} to play{}", static_cast<int>(to_move_),
                         phase_ == Phase::Opening ? " (opening turn: lay on your own train while tiles fit)" : "");
      if (drawn_tile_ >= 0 && (seat < 0 || seat == to_move_))
        out += fmt::format("; drew {}, which must be laid", to_string(Tile{static_cast<uint8_t>(drawn_tile_)}));
      else if (owes_cover_)
        out += "; must cover the double just laid";
      out += "\n";
      break;
    case Phase::Deal:
      out += "Waiting for the deal\n";
      break;
    case Phase::GameOver: {
      double r[kMaxSeats];
      returns(r);
      out += "Game over: lowest penalty wins:";
      for (int k = 0; k < seats_; ++k)
        if (r[k] > 0) out += fmt::format(" seat {}{}", k, r[k] < 1 ? " (shared)" : "");
      out += "\n";
      break;
    }
  }
  if (rounds_done_ > 0 && phase_ != Phase::GameOver) out += "Last round: " + round_result_text(*this, last_) + "\n";
  return out;
}

}  // namespace boneyard::mexican_train
