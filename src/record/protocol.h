#pragma once
// The JSON-lines engine protocol (docs/protocol.md): one request object per
// line in, one response object per line out. Every bad line gets
// {"ok":false,"error":...} and the session goes on.
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "record/session.h"

namespace boneyard {

nlohmann::json actor_json(const Actor& a);

class Protocol {
 public:
  Protocol();
  std::string handle(std::string_view line);  // one response line, no newline
  bool quit() const { return quit_; }

 private:
  nlohmann::json dispatch(const nlohmann::json& req);
  nlohmann::json status() const;
  Session& session();
  int seat_of(const nlohmann::json& req) const;
  void after_move(nlohmann::json& out, size_t hands_before);

  std::unique_ptr<Session> s_;
  bool auto_chance_ = true;
  bool quit_ = false;
  struct CachedBot {
    BotOptions budget;
    std::unique_ptr<AnyBot> bot;
  };
  std::map<std::pair<std::string, int>, CachedBot> bots_;
};

}  // namespace boneyard
