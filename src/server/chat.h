#pragma once
// Table chat (docs/server.md, "Chat"): what a line may be, and a table's
// lines: the seats' and the spectators' apart, each audience seeing only its
// own. The Hub stores a line with its table (persist_and_wait, as a move);
// the routes count them per token and per address (limits.h).
//
// Owns nothing of its own: a table's lines live in it (Table::chat), guarded
// by the table's lock, which every Chat call is made with.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "server/storage.h"
#include "server/table.h"

namespace boneyard::server {

// The quick phrases' ids; the app words each in the viewer's language.
const std::vector<std::string>& chat_phrases();
// The emotes' ids (quick reactions, no words): the app draws each.
const std::vector<std::string>& chat_emotes();

inline constexpr size_t kChatChars = 200;  // a free-text line, in characters (code points)
inline constexpr size_t kChatRecent = 50;  // lines of each audience kept in the state

// The line a request's body asks for, {"text": "..."}, {"phrase": ID} or
// {"emote": ID} (kept as the phrase "emote:ID", shown as {"emote": ID}):
// text or phrase set, the rest left to the Hub. Throws ApiError(400)
// naming what is wrong (empty, too long, control characters, bad UTF-8,
// an unknown phrase, both or neither).
ChatLine parse_chat(const nlohmann::json& body);

nlohmann::json chat_line_json(const ChatLine& line);

class Chat {
 public:
  // The lines stored with a table, back in it (a load).
  static void load(Table& t, const std::vector<ChatLine>& lines);
  // A new line from `seat` (-1: the spectator token): numbered, not shown yet.
  static ChatLine line(Table& t, int seat, ChatLine said);
  // Once stored: shown to its audience (the recent ones only).
  static void shown(Table& t, const ChatLine& line);
  // The lines `seat` may see (-1: the spectators').
  static nlohmann::json view(const Table& t, int seat);
};

}  // namespace boneyard::server
