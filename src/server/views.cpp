#include "server/views.h"

#include <set>

#include "record/protocol.h"
#include "server/chat.h"
#include "server/players.h"
#include "server/public_log.h"

namespace boneyard::server {

using nlohmann::json;

namespace {
// The hand in play's number, for the log (the last one once the game is over).
int log_hand(const AnyState& st) { return static_cast<int>(st.hands().size()) + (st.terminal() ? 0 : 1); }
}  // namespace

json public_view(const AnyState& st) {
  json v = st.view(st.num_seats());  // a seat nobody holds: every hand hidden
  v["seat"] = nullptr;
  return v;
}

json TableViews::rematch(const Table& t, int seat) {
  if (seat < 0) return {{"table", t.rematch}, {"seat", nullptr}, {"token", t.rematch_spectate}};
  // A seat that did not accept (it went to a bot) has no place there.
  if (t.seat_at(seat).rematch_token.empty()) return {{"table", t.rematch}, {"seat", nullptr}, {"token", nullptr}};
  // The new table's spectator link too: the app's "Share" offers it, as at the old table.
  return {{"table", t.rematch},
          {"seat", (seat + t.n - 1) % t.n},
          {"token", t.seat_at(seat).rematch_token},
          {"spectate", t.rematch_spectate}};
}

int never_moved_seat(const Table& t) {
  // Within the first hand only: a game some hands old has really started.
  if (!t.session || t.over() || !t.broken.empty() || t.clock_s <= 0 || !t.session->state().hands().empty()) return -1;
  std::set<size_t> by_bot;
  for (const auto& [n, why] : t.bot_events) by_bot.insert(n);
  for (int k = 0; k < t.n; ++k) {
    const Seat& s = t.seat_at(k);
    if (!s.human() || s.clock.timeouts == 0) continue;
    bool own = false;
    const auto& ev = t.session->events();
    for (size_t i = 0; i < ev.size() && !own; ++i) own = !ev[i].chance && ev[i].seat == k && !by_bot.count(i);
    if (!own) return k;
  }
  return -1;
}

json TableViews::message(Table& t, int seat, bool with_log) const {
  json m{{"type", "state"},
         {"table", t.id},
         {"game", t.game},
         {"seat", seat >= 0 ? json(seat) : json(nullptr)},
         {"commitment", t.commitment},
         {"provably_fair", t.provably_fair}};
  json seats = json::array();
  for (int k = 0; k < t.n; ++k) {
    const Seat& s = t.seat_at(k);
    seats.push_back({{"seat", k},
                     {"player", s.player},
                     {"joined", s.human() ? json(s.joined) : json(true)},
                     {"connected", s.human() ? json(s.connections > 0) : json(true)},
                     {"autopilot", s.autopilot}});
  }
  m["seats"] = seats;
  m["rated"] = t.rated;
  Players::view(t, m);
  if (!t.rematch.empty()) m["rematch"] = rematch(t, seat);
  if (t.rematch.empty() && t.rematch_asked > 0) {
    json yes = json::array();
    for (int k = 0; k < t.n; ++k)
      if (t.seat_at(k).rematch_yes) yes.push_back(k);
    m["rematch_offer"] = {{"accepted", yes}, {"asked", t.rematch_asked}};
  }
  if (!t.bot_events.empty()) {
    // The takeover bot's moves for people (the log says whose move it was).
    json played = json::array();
    const size_t from = t.bot_events.size() > kLogEntries ? t.bot_events.size() - kLogEntries : 0;
    for (size_t i = from; i < t.bot_events.size(); ++i) {
      const auto& [n, why] = t.bot_events[i];
      const int who = t.session && n < t.session->events().size() ? t.session->events()[n].seat : -1;
      played.push_back({{"n", n}, {"seat", who}, {"why", why}});
    }
    m["bot_played"] = played;
  }
  if (t.clock_s > 0) m["clock"] = clock_.view(t);
  json notices = json::array();
  const size_t from = t.notices.size() > 20 ? t.notices.size() - 20 : 0;
  for (size_t i = from; i < t.notices.size(); ++i) notices.push_back(t.notices[i]);
  m["notices"] = notices;
  m["chat"] = Chat::view(t, seat);  // this audience's lines only
  if (const int idle = never_moved_seat(t); idle >= 0) m["abortable"] = {{"idle_seat", idle}};
  if (!t.broken.empty()) {
    m["status"] = t.aborted ? "aborted" : "broken";
    m["error"] = t.broken;
    return m;
  }
  if (!t.session) {
    m["status"] = "waiting";
    m["version"] = 0;
    m["view"] = nullptr;
    m["waiting_for"] = json::array();
    for (int k = 0; k < t.n; ++k)
      if (t.human(k) && !t.seat_at(k).joined) m["waiting_for"].push_back(k);
    m["legal"] = json::array();
    m["to_act"] = false;
    return m;
  }
  const AnyState& st = t.session->state();
  m["status"] = t.over() ? "over" : "playing";
  if (t.stopped) m["stopped"] = true;  // ended at the server's limit on a game's length, not by the rules
  m["version"] = t.session->events().size();
  m["view"] = seat >= 0 ? st.view(seat) : public_view(st);
  const Actor a = st.actor();
  m["actor"] = actor_json(a);
  const bool to_act = seat >= 0 && a.acts(seat);
  m["to_act"] = to_act;
  m["legal"] = to_act ? json(st.legal_moves(seat)) : json::array();
  m["scores"] = st.scores();
  m["hands_finished"] = st.hands().size();
  if (with_log) m["log"] = public_log(*t.session, kLogEntries, log_hand(st));  // "Last moves"
  if (t.finished()) {
    if (st.terminal()) m["returns"] = st.returns();  // a stopped game has no result
    m["secret"] = t.secret;
  }
  return m;
}

std::string TableViews::message_text(Table& t, int seat) const {
  const bool log = t.broken.empty() && t.session;
  std::string text = message(t, seat, !log).dump(-1, ' ', false, json::error_handler_t::replace);
  if (log) {
    text.pop_back();  // the closing brace
    text += ",\"log\":";
    t.log_text.append(*t.session, log_hand(t.session->state()), text);
    text += '}';
  }
  return text;
}

}  // namespace boneyard::server
