// Table chat: per table, the seats' lines and the spectators' apart (each
// audience sees only its own), free text or quick phrases, stored with the
// table in the same group commit as its moves.
#include "server/chat.h"

#include <fmt/format.h>
#include <unicode/uchar.h>

#include <algorithm>
#include <ctime>

#include "server/players.h"

namespace boneyard::server {

using nlohmann::json;

const std::vector<std::string>& chat_phrases() {
  static const std::vector<std::string> p{"hello",       "buena",  "capicua", "paso",  "good_game",
                                          "well_played", "thanks", "oops",    "hurry", "bye"};
  return p;
}

const std::vector<std::string>& chat_emotes() {
  static const std::vector<std::string> e{"thumbs_up", "clap", "laugh", "wow", "sad", "thinking"};
  return e;
}

namespace {
// An emote is kept as a phrase under this prefix: stored and counted as any
// quick phrase (the same table column, the same rate limits).
constexpr std::string_view kEmote = "emote:";

// Code points of valid UTF-8 text; -1 when it is not valid UTF-8, holds a
// control character or a line or paragraph separator (a line is one line of
// visible text) or a bidirectional control other than the marks (an
// override would reorder the text after it).
long visible_chars(const std::string& s) {
  std::vector<char32_t> cps;
  if (!decode_utf8(s, cps)) return -1;
  for (const char32_t c : cps)
    if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c == 0x2028 || c == 0x2029 ||
        (is_bidi_control(c) && c != 0x200E && c != 0x200F))
      return -1;
  return static_cast<long>(cps.size());
}

// Whether a line shows anything: a letter, digit, punctuation or symbol
// (not only spaces, invisible characters, marks or the Braille blank).
bool shows_something(const std::string& s) {
  std::vector<char32_t> cps;
  decode_utf8(s, cps);
  for (const char32_t c : cps) {
    const auto uc = static_cast<UChar32>(c);
    if ((U_GET_GC_MASK(uc) & (U_GC_L_MASK | U_GC_N_MASK | U_GC_P_MASK | U_GC_S_MASK)) && c != 0x2800 &&
        !u_hasBinaryProperty(uc, UCHAR_DEFAULT_IGNORABLE_CODE_POINT))
      return true;
  }
  return false;
}

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(' ');
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(' ') - a + 1);
}
}  // namespace

ChatLine parse_chat(const json& body) {
  const bool has_text = body.contains("text"), has_phrase = body.contains("phrase"), has_emote = body.contains("emote");
  if (int(has_text) + int(has_phrase) + int(has_emote) != 1)
    throw ApiError(400,
                   "a chat line is 'text' (free text), 'phrase' (a quick phrase's id) or 'emote' (a reaction's id): "
                   "one of them");
  ChatLine line;
  if (has_emote) {
    const json& e = body["emote"];
    const auto& ids = chat_emotes();
    if (!e.is_string() || std::find(ids.begin(), ids.end(), e.get<std::string>()) == ids.end())
      throw ApiError(400, fmt::format("'emote' must be one of {}", fmt::join(ids, ", ")));
    line.phrase = std::string(kEmote) + e.get<std::string>();
    return line;
  }
  if (has_phrase) {
    const json& p = body["phrase"];
    const auto& ids = chat_phrases();
    if (!p.is_string() || std::find(ids.begin(), ids.end(), p.get<std::string>()) == ids.end())
      throw ApiError(400, fmt::format("'phrase' must be one of {}", fmt::join(ids, ", ")));
    line.phrase = p.get<std::string>();
    return line;
  }
  if (!body["text"].is_string()) throw ApiError(400, "'text' must be a string");
  const std::string raw = body["text"].get<std::string>();
  if (raw.size() > 4 * kChatChars) throw ApiError(400, fmt::format("a chat line is at most {} characters", kChatChars));
  line.text = trim(raw);
  const long n = visible_chars(line.text);
  if (n < 0)
    throw ApiError(
        400, "a chat line must be valid UTF-8 text on one line, without control characters or direction overrides");
  if (n == 0 || !shows_something(line.text))
    throw ApiError(400, "a chat line must not be empty (or show nothing: only spaces or invisible characters)");
  if (static_cast<size_t>(n) > kChatChars)
    throw ApiError(400, fmt::format("a chat line is at most {} characters; this one has {}", kChatChars, n));
  return line;
}

json chat_line_json(const ChatLine& c) {
  json j{{"n", c.n}, {"seat", c.seat >= 0 ? json(c.seat) : json(nullptr)}, {"at", c.at}};
  // The author's name as it was when the line was said: a later rename of
  // the seat does not change who earlier lines come from.
  if (!c.name.empty()) j["name"] = c.name;
  if (c.phrase.rfind(kEmote, 0) == 0)
    j["emote"] = c.phrase.substr(kEmote.size());
  else if (!c.phrase.empty())
    j["phrase"] = c.phrase;
  else
    j["text"] = c.text;
  return j;
}

void Chat::load(Table& t, const std::vector<ChatLine>& lines) {
  for (const ChatLine& c : lines) {
    if (c.audience < 0 || c.audience > 1) continue;
    t.chat[c.audience].push_back(c);
    t.chat_n = std::max(t.chat_n, c.n);
  }
}

ChatLine Chat::line(Table& t, int seat, ChatLine said) {
  said.seat = seat;
  said.name = seat >= 0 ? t.seat_at(seat).name : "";
  said.audience = seat >= 0 ? 0 : 1;
  said.n = ++t.chat_n;
  said.at = static_cast<int64_t>(std::time(nullptr));
  return said;
}

void Chat::shown(Table& t, const ChatLine& line) {
  auto& lines = t.chat[line.audience];
  lines.push_back(line);
  while (lines.size() > kChatRecent) lines.pop_front();
}

// A seat sees the seats' lines, the spectator token the spectators' lines:
// never the other audience's.
json Chat::view(const Table& t, int seat) {
  json out = json::array();
  for (const ChatLine& c : t.chat[seat >= 0 ? 0 : 1]) out.push_back(chat_line_json(c));
  return out;
}

}  // namespace boneyard::server
