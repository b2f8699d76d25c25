#include "record/session.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>

namespace boneyard {

using nlohmann::json;

Session::Session(std::string_view game, const OptionList& options, uint64_t seed)
    : entry_(&find_game(game)), options_(options), seed_(seed), state_(entry_->make(options, seed)) {
  players_.assign(static_cast<size_t>(state_->num_seats()), "");
}

std::string Session::apply(int seat, std::string_view move) {
  std::string canon = state_->apply(seat, move);
  push({false, seat, canon});
  return canon;
}

std::string Session::chance() {
  std::string text = state_->apply_chance();
  push({true, -1, text});
  return text;
}

void Session::chance(std::string_view outcome) {
  state_->apply_chance(outcome);
  push({true, -1, std::string(outcome)});
}

std::string Session::bot_move(int seat, AnyBot& bot) {
  std::string text = state_->play_bot(seat, bot);
  push({false, seat, text});
  return text;
}

void Session::push(RecordEvent e) {
  events_.push_back(std::move(e));
  if (state_->hands().size() > hand_ends_.size()) hand_ends_.push_back(events_.size() - 1);
}

void Session::settle_chance() {
  while (state_->actor().kind == Actor::Chance) chance();
}

json summary_json(const HandSummary& h) {
  json j{{"winner_side", h.winner_side >= 0 ? json(h.winner_side) : json(nullptr)},
         {"side_points", h.side_points},
         {"how", h.how},
         {"text", h.text}};
  if (!h.next_json.empty()) j["next_leader"] = json::parse(h.next_json);
  if (!h.detail_json.empty()) j["detail"] = json::parse(h.detail_json);
  return j;
}

json Session::result_json() const {
  json result{{"over", state_->terminal()}, {"scores", state_->scores()}};
  if (state_->terminal()) result["returns"] = state_->returns();
  return result;
}

json Session::record() const {
  json opts = json::object();
  for (const auto& [k, v] : options_) opts[k] = v;
  json ev = json::array();
  for (const auto& e : events_) {
    if (e.chance)
      ev.push_back({{"chance", e.text}});
    else
      ev.push_back({{"seat", e.seat}, {"move", e.text}});
  }
  json hands = json::array();
  for (const auto& h : state_->hands()) hands.push_back(summary_json(h));
  const json result = result_json();
  return {{"format", "boneyard-record"},
          {"version", 1},
          {"game", entry_->name},
          {"options", opts},
          {"effective_options", state_->options()},
          {"seed", seed_},
          {"players", players_},
          {"events", ev},
          {"hands", hands},
          {"result", result}};
}

namespace {
// A JSON value for a message, cut short: a whole events array is no help.
std::string shown(const json& v) {
  std::string s = v.dump(-1, ' ', false, json::error_handler_t::replace);
  if (s.size() > 60) s = s.substr(0, 57) + "...";
  return s;
}
}  // namespace

int64_t whole_number(const json& v, std::string_view what, int64_t lo, int64_t hi) {
  // Unsigned first: get<int64_t>() of 2^63 and above would wrap.
  const bool fits = v.is_number_unsigned() ? v.get<uint64_t>() <= static_cast<uint64_t>(hi) &&
                                                 v.get<uint64_t>() >= static_cast<uint64_t>(std::max<int64_t>(lo, 0))
                    : v.is_number_integer() ? v.get<int64_t>() >= lo && v.get<int64_t>() <= hi
                                            : false;
  if (!fits) throw Error(fmt::format("{} must be a whole number from {} to {}, not {}", what, lo, hi, shown(v)));
  return v.is_number_unsigned() ? static_cast<int64_t>(v.get<uint64_t>()) : v.get<int64_t>();
}

uint64_t whole_number_u64(const json& v, std::string_view what) {
  if (!v.is_number_unsigned())
    throw Error(fmt::format("{} must be a whole number from 0 to {}, not {}", what, UINT64_MAX, shown(v)));
  return v.get<uint64_t>();
}

namespace {
[[noreturn]] void bad(const std::string& why) { throw Error("bad record: " + why); }

// The field `key` of object j, which must be there.
const json& need(const json& j, const char* key, const std::string& where, const char* what) {
  auto it = j.find(key);
  if (it == j.end()) bad(fmt::format("{}missing '{}' ({})", where, key, what));
  return *it;
}

void want_type(bool ok, const json& v, const char* key, const std::string& where, const char* what) {
  if (!ok) bad(fmt::format("{}'{}' must be {}, not {}", where, key, what, shown(v)));
}

bool numbers(const json& v) {
  if (!v.is_array()) return false;
  for (const json& x : v)
    if (!x.is_number()) return false;
  return true;
}

// One recorded hand against the replayed one: every field but the text for
// a person (which another version may word differently).
void check_hand(size_t i, const json& want, const json& got) {
  const std::string where = fmt::format("hand {}: ", i + 1);
  if (!want.is_object()) bad(fmt::format("{}a hand must be an object, not {}", where, shown(want)));
  const json& w = need(want, "winner_side", where, "a side number or null");
  want_type(w.is_null() || w.is_number_integer(), w, "winner_side", where, "a side number or null");
  const json& sp = need(want, "side_points", where, "points per side");
  want_type(numbers(sp), sp, "side_points", where, "an array of numbers");
  const json& how = need(want, "how", where, "how the hand ended");
  want_type(how.is_string(), how, "how", where, "a string");
  if (want.contains("text")) want_type(want["text"].is_string(), want["text"], "text", where, "a string");
  if (want.contains("detail")) want_type(want["detail"].is_object(), want["detail"], "detail", where, "an object");
  for (const char* key : {"winner_side", "side_points", "how", "detail"}) {
    if (!want.contains(key)) continue;
    const json& g = got.contains(key) ? got[key] : json();
    if (want[key] == g) continue;
    // Nested values (the detail): name the first place where they part.
    if (want[key].is_structured() && g.is_structured()) {
      const json patch = json::diff(g, want[key]);
      if (!patch.empty() && patch[0].contains("path")) {
        const json::json_pointer at(patch[0]["path"].get<std::string>());
        auto value = [&](const json& j) { return j.contains(at) ? shown(j[at]) : std::string("nothing"); };
        bad(fmt::format("{}'{}' at {} replays to {} but the record says {}", where, key, at.to_string(), value(g),
                        value(want[key])));
      }
    }
    bad(fmt::format("{}'{}' replays to {} but the record says {}", where, key, shown(g), shown(want[key])));
  }
}
}  // namespace

Session Session::start_of_record(const json& r) {
  if (!r.is_object()) bad(fmt::format("expected a JSON object, not {}", r.type_name()));
  const auto fmt_it = r.find("format");
  if (fmt_it == r.end() || !fmt_it->is_string() || *fmt_it != "boneyard-record")
    bad(fmt::format("'format' must be \"boneyard-record\" (is this a Boneyard record?), not {}",
                    fmt_it == r.end() ? "missing" : shown(*fmt_it)));
  const auto ver = r.find("version");
  if (ver == r.end() || !ver->is_number_integer() || *ver != 1)
    bad(fmt::format("'version' must be 1 (this program reads version 1), not {}",
                    ver == r.end() ? "missing" : shown(*ver)));
  const json& g = need(r, "game", "", "a game name");
  want_type(g.is_string(), g, "game", "", "a game name (a string)");
  OptionList opts;
  if (r.contains("options")) {
    if (!r["options"].is_object())
      bad(fmt::format("'options' must be an object of strings, not {}", shown(r["options"])));
    for (const auto& [k, v] : r["options"].items()) {
      if (!v.is_string()) bad(fmt::format("option '{}' must be a string, not {}", k, shown(v)));
      opts.emplace_back(k, v.get<std::string>());
    }
  }
  if (r.contains("effective_options") && !r["effective_options"].is_object())
    bad(fmt::format("'effective_options' must be an object, not {}", shown(r["effective_options"])));
  const json& seed_field = need(r, "seed", "", "the game's seed");
  uint64_t seed = 0;
  try {
    seed = whole_number_u64(seed_field, "'seed'");
  } catch (const Error& e) {
    bad(e.what());
  }
  Session s(g.get<std::string>(), opts, seed);
  if (r.contains("players")) {
    const json& p = r["players"];
    bool ok = p.is_array() && p.size() == s.players_.size();
    for (size_t i = 0; ok && i < p.size(); ++i) ok = p[i].is_string();
    if (!ok)
      bad(fmt::format("'players' must be an array of {} strings (one per seat), not {}", s.players_.size(), shown(p)));
    for (size_t i = 0; i < p.size(); ++i) s.players_[i] = p[i].get<std::string>();
  }
  return s;
}

std::vector<RecordEvent> Session::record_events(const json& r) {
  if (!r.is_object()) bad(fmt::format("expected a JSON object, not {}", r.type_name()));
  const json& events = need(r, "events", "", "an array of events");
  want_type(events.is_array(), events, "events", "", "an array of events");
  std::vector<RecordEvent> out;
  for (const json& e : events) {
    const auto where = fmt::format("event {}: ", out.size());
    if (!e.is_object()) bad(fmt::format("{}an event must be an object, not {}", where, shown(e)));
    if (e.contains("chance")) {
      want_type(e["chance"].is_string(), e["chance"], "chance", where, "a string");
      out.push_back({true, -1, e["chance"].get<std::string>()});
    } else {
      const json& seat_field = need(e, "seat", where, "a seat number");
      int seat = 0;
      try {
        seat = static_cast<int>(whole_number(seat_field, "'seat'", 0, kMaxRecordSeat));
      } catch (const Error& err) {
        bad(where + err.what());
      }
      const json& m = need(e, "move", where, "the move's text");
      want_type(m.is_string(), m, "move", where, "a string");
      out.push_back({false, seat, m.get<std::string>()});
    }
  }
  return out;
}

void Session::apply_event(const RecordEvent& e) {
  try {
    if (e.chance)
      chance(e.text);
    else
      apply(e.seat, e.text);
  } catch (const Error& err) {
    throw Error(fmt::format("bad record: event {}: {}", events_.size(), err.what()));
  }
}

Session Session::from_record(const json& r, int upto) {
  Session s = start_of_record(r);
  const auto events = record_events(r);
  // Past the end is no point of this game (it was taken as the end).
  if (upto > static_cast<int>(events.size()))
    throw Error(fmt::format("'upto' is {}, past the record's end: it has {} events (0..{})", upto, events.size(),
                            events.size()));
  for (const auto& e : events) {
    if (upto >= 0 && static_cast<int>(s.events_.size()) >= upto) break;
    s.apply_event(e);
  }
  // The recorded hand results must be what the replay produced.
  const auto& got = s.state().hands();
  if (r.contains("hands")) {
    const json& want = r["hands"];
    want_type(want.is_array(), want, "hands", "", "an array of hand results");
    for (size_t i = 0; i < want.size() && i < got.size(); ++i) check_hand(i, want[i], summary_json(got[i]));
    if (upto < 0 && want.size() != got.size())
      bad(fmt::format("it lists {} hands but its events make {}", want.size(), got.size()));
  }
  // And so must the game's result, for a whole record.
  if (r.contains("result")) {
    const json& want = r["result"];
    want_type(want.is_object(), want, "result", "", "an object");
    const std::string where = "'result': ";
    const json& over = need(want, "over", where, "true or false");
    want_type(over.is_boolean(), over, "over", where, "true or false");
    const json& scores = need(want, "scores", where, "scores per side");
    want_type(numbers(scores), scores, "scores", where, "an array of numbers");
    const bool has_returns = want.contains("returns");
    if (has_returns) want_type(numbers(want["returns"]), want["returns"], "returns", where, "an array of numbers");
    if (upto < 0) {
      const json g = s.result_json();
      for (const char* key : {"over", "scores", "returns"}) {
        const json w = want.contains(key) ? want[key] : json();
        const json x = g.contains(key) ? g[key] : json();
        if (w != x)
          bad(fmt::format("{}'{}' replays to {} but the record says {}", where, key, x.is_null() ? "nothing" : shown(x),
                          w.is_null() ? "nothing" : shown(w)));
      }
    }
  }
  return s;
}

void check_json_depth(std::string_view text, int max_depth) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (const char c : text) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth)
        throw Error(fmt::format("JSON nested more than {} levels deep; nothing here needs that many", max_depth));
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
}

json parse_record_text(std::string_view text) {
  try {
    check_json_depth(text);
  } catch (const Error& e) {
    bad(e.what());
  }
  try {
    return json::parse(text);
  } catch (const json::out_of_range& e) {
    throw Error(fmt::format("bad record: {}", json_number_error(e)));
  } catch (const json::exception&) {
    throw Error("bad record: not valid JSON");
  }
}

std::string json_number_error(const std::exception& e) {
  // "[json.exception.out_of_range.406] number overflow parsing '1e400'"
  std::string what = e.what();
  const auto q = what.find('\'');
  return "number out of range" +
         (q == std::string::npos ? std::string() : ": " + what.substr(q) + " does not fit in a number");
}

namespace {
std::string sys_error() { return std::strerror(errno); }

// Writes all of `text` to a new hidden temporary file in dir; returns its path.
std::string write_temp(const std::string& dir, const std::string& text) {
  std::string tmp = dir + "/.boneyard-record-XXXXXX.tmp";
  const int fd = mkstemps(tmp.data(), 4);
  if (fd < 0) throw Error(fmt::format("cannot write into folder '{}': {}", dir, sys_error()));
  fchmod(fd, 0644);  // mkstemps makes it private; a record is not
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = sys_error();
      ::close(fd);
      ::unlink(tmp.c_str());
      throw Error(fmt::format("cannot write record into folder '{}': {}", dir, why));
    }
    done += static_cast<size_t>(n);
  }
  // On disk before the rename makes it the record: a crash leaves the old
  // whole record or the new one, never half of one.
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const std::string why = sys_error();
    ::unlink(tmp.c_str());
    throw Error(fmt::format("cannot write record into folder '{}': {}", dir, why));
  }
  return tmp;
}
}  // namespace

void write_file_atomically(const std::string& path, const std::string& text) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  const std::string tmp = write_temp(parent.empty() ? "." : parent.string(), text);
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = sys_error();
    ::unlink(tmp.c_str());
    throw Error(fmt::format("cannot write '{}': {}", path, why));
  }
}

void check_record_dir(const std::string& dir) {
  if (dir.empty()) throw Error("--record needs a folder name");
  std::error_code ec;
  // The folder itself is made when missing, but not the folders above it: a
  // mistyped path is refused rather than silently created (issue 36, 7).
  std::filesystem::path p(dir);
  if (!p.has_filename()) p = p.parent_path();  // "games/": the folder "games"
  const std::filesystem::path parent = p.parent_path();
  if (!parent.empty() && !std::filesystem::is_directory(parent, ec))
    throw Error(fmt::format("cannot use '{}' as the record folder: '{}' does not exist (create it first)", dir,
                            parent.string()));
  make_folder(dir, "the record folder", false);
}

void make_folder(const std::string& dir, std::string_view what, bool parents) {
  std::error_code ec;
  const auto refuse = [&](const std::string& why) {
    throw Error(fmt::format("cannot use '{}' as {}: {}", dir, what, why));
  };
  if (std::filesystem::exists(dir, ec) && !std::filesystem::is_directory(dir, ec)) refuse("it is a file, not a folder");
  if (parents)
    std::filesystem::create_directories(dir, ec);
  else
    std::filesystem::create_directory(dir, ec);
  if (ec || !std::filesystem::is_directory(dir, ec)) refuse(ec ? ec.message() : std::string("it is not a folder"));
  const std::string probe = write_temp(dir, "");  // throws "cannot write ..." where it cannot be written
  ::unlink(probe.c_str());
}

void RecordFile::hide_seed_until_end() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
  started_ = stamp;
}

const std::string& RecordFile::write(const Session& s, bool at_end) {
  nlohmann::json record = s.record();
  if (!started_.empty() && !at_end) record["seed"] = 0;  // the chance outcomes so far are in the events
  const std::string tmp = write_temp(dir_, record.dump(1) + "\n");
  if (!path_.empty()) {
    if (std::rename(tmp.c_str(), path_.c_str()) != 0) {
      const std::string why = sys_error();
      ::unlink(tmp.c_str());
      throw Error(fmt::format("cannot write record '{}': {}", path_, why));
    }
    return path_;
  }
  // The first write claims a name nobody has: link() fails on an existing
  // file, where rename() would replace it.
  for (int k = 1; k <= 100000; ++k) {
    // path / name: "games/" and "games" give "games/latin-5.json" alike.
    const std::string path =
        (std::filesystem::path(dir_) / fmt::format("{}-{}{}{}.json", s.entry().name,
                                                   started_.empty() ? std::to_string(s.seed()) : started_,
                                                   tag_.empty() ? "" : "-" + tag_, k == 1 ? "" : fmt::format("-{}", k)))
            .string();
    if (::link(tmp.c_str(), path.c_str()) == 0) {
      ::unlink(tmp.c_str());
      return path_ = path;
    }
    if (errno == EEXIST) continue;
    // A file system without hard links: claim the name with O_EXCL, then
    // rename the record over the (empty) claim.
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0 && errno == EEXIST) continue;
    if (fd >= 0 && ::close(fd) == 0 && std::rename(tmp.c_str(), path.c_str()) == 0) return path_ = path;
    const std::string why = sys_error();
    ::unlink(tmp.c_str());
    throw Error(fmt::format("cannot write record '{}': {}", path, why));
  }
  ::unlink(tmp.c_str());
  throw Error(
      fmt::format("cannot write record into '{}': every name for {}-{} is taken", dir_, s.entry().name, s.seed()));
}

std::string write_record(const Session& s, const std::string& dir, const std::string& tag) {
  check_record_dir(dir);
  return RecordFile(dir, tag).write(s);
}

bool play_out(Session& s, std::vector<std::unique_ptr<AnyBot>>& bots, const std::function<bool()>& stop,
              const std::function<void(int seat, double ms)>& decided) {
  AnyState& st = s.state();
  const int n = st.num_seats();
  for (int guard = 0; !st.terminal(); ++guard) {
    if (guard > 10000000) throw Error(fmt::format("{} game did not end", s.entry().name));
    if (stop && stop()) return false;
    const Actor a = st.actor();
    if (a.kind == Actor::Chance) {
      s.chance();
      continue;
    }
    for (int k = 0; k < n; ++k) {
      if (!a.acts(k)) continue;
      const auto t0 = std::chrono::steady_clock::now();
      s.bot_move(k, *bots[static_cast<size_t>(k)]);
      if (decided) decided(k, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      if (a.kind == Actor::Seat) break;
    }
  }
  return true;
}

}  // namespace boneyard
