#pragma once
// Table chat (docs/server.md, "Chat"): what a line may be. The Hub keeps
// and stores the lines (chat.cpp); the routes count them per token and per
// address (limits.h).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "server/storage.h"

namespace boneyard::server {

// The quick phrases' ids; the app words each in the viewer's language.
const std::vector<std::string>& chat_phrases();

inline constexpr size_t kChatChars = 200;  // a free-text line, in characters (code points)
inline constexpr size_t kChatRecent = 50;  // lines of each audience kept in the state

// The line a request's body asks for, {"text": "..."} or {"phrase": ID}:
// text or phrase set, the rest left to the Hub. Throws ApiError(400)
// naming what is wrong (empty, too long, control characters, bad UTF-8,
// an unknown phrase, both or neither).
ChatLine parse_chat(const nlohmann::json& body);

nlohmann::json chat_line_json(const ChatLine& line);

}  // namespace boneyard::server
