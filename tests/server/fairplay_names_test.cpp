// Rated play people can trust (issue 32 item 8): names compared by their
// confusable skeleton, invisible and blank ones refused, guests off players'
// names, chat lines that keep their author's name.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "client.h"
#include "routes_world.h"
#include "server/limits.h"
#include "server/names.h"
#include "server_fixture.h"

namespace boneyard::test {
namespace {

using nlohmann::json;

// Issue 32 item 8: names are compared in a normalised form with confusables
// folded (UTS #39 skeleton), so a lookalike gets a suffix; invisible and
// blank names are refused with the rule that was broken.
TEST(FairPlayNames, LookalikeNamesAreOneNameAndInvisibleOrBlankOnesAreRefused) {
  RoutesWorld w;
  const auto make = [&](const std::string& name) { return w.post("/api/players", json{{"name", name}}.dump()); };
  ASSERT_EQ(make("José").second["name"], "José");
  auto [s1, decomposed] = make("Jose\xcc\x81");  // e + combining acute
  ASSERT_EQ(s1, 201) << decomposed.dump();
  EXPECT_EQ(decomposed["name"], "José 2") << "stored in NFC, and the same name as the precomposed one";
  ASSERT_EQ(make("Ann").second["name"], "Ann");
  EXPECT_EQ(make("\xd0\x90nn").second["name"], "\xd0\x90nn 2") << "Cyrillic А";
  EXPECT_EQ(make("\xef\xbc\xa1nn").second["name"], "\xef\xbc\xa1nn 3") << "fullwidth Ａ";
  EXPECT_EQ(make("B0b").second["name"], "B0b");
  EXPECT_EQ(make("Bob").second["name"], "Bob 2") << "0 and o are confusable";
  // Unusual spaces are ordinary ones: at the end they go, so "Ann" it is.
  for (const char* space : {"\xe2\x80\x8a", "\xe2\x80\x83", "\xe1\x9a\x80"}) {  // U+200A, U+2003, U+1680
    auto [s, p] = make(std::string("Ann") + space);
    ASSERT_EQ(s, 201) << p.dump();
    EXPECT_NE(p["name"], "Ann");
    EXPECT_EQ(p["name"].get<std::string>().rfind("Ann ", 0), 0u) << p.dump();
  }
  EXPECT_EQ(server::check_name("Mary\xe2\x80\x83\xe2\x80\x83Jane"), "Mary Jane");
  struct Case {
    std::string name, says;
  };
  const std::vector<Case> bad = {
      {"Ann\xe1\xa0\x8e", "invisible character (U+180E)"},
      {"Ann\xcd\x8f", "invisible character (U+034F)"},
      {"Ann\xef\xb8\x8f", "invisible character (U+FE0F)"},
      {"\xe3\x85\xa4", "invisible character (U+3164)"},
      {"\xe2\x80\x82", "empty"},
      {"\xe2\xa0\x80", "nothing visible"},
      {"\xe2\xa0\x80\xe2\xa0\x80 \xe2\xa0\x80", "nothing visible"},
      {"\xcc\x81\xcc\x81", "nothing visible"},
      {"x\xcc\x81\xcc\x82\xcc\x83\xcc\x84", "more than three"},
      {"Ann\xee\x80\x80", "private use (U+E000)"},
  };
  for (const auto& c : bad) {
    auto [s, e] = make(c.name);
    EXPECT_EQ(s, 400) << c.says << ": " << e.dump();
    EXPECT_NE(e.value("error", "").find(c.says), std::string::npos) << e.dump();
  }
}

// Issue 32 item 8: a guest cannot take a registered player's name (nor a
// lookalike of it); a guest's name stays once the game has begun; each chat
// line keeps its author's name as it was; chat refuses line separators and
// lines that show nothing.
TEST(FairPlayNames, GuestsKeepOffPlayersNamesAndChatLinesKeepTheirAuthorsName) {
  RoutesWorld w;
  ASSERT_EQ(w.post("/api/players", json{{"name", "Ann"}}.dump()).first, 201);
  auto [cs, t] =
      w.post("/api/tables", json{{"game", "latin"}, {"seats", {"bot:casual", "human", "human", "bot:casual"}}}.dump());
  ASSERT_EQ(cs, 201) << t.dump();
  const std::string id = t["id"], one = t["tokens"]["1"], two = t["tokens"]["2"];
  const auto join = [&](const std::string& token, const std::string& name) {
    return w.post("/api/tables/" + id + "/join", json{{"token", token}, {"name", name}}.dump());
  };
  for (const char* taken : {"Ann", "ANN", "\xd0\x90nn"}) {
    auto [s, e] = join(one, taken);
    EXPECT_EQ(s, 409) << taken << ": " << e.dump();
    EXPECT_NE(e.value("error", "").find("belongs to a registered player"), std::string::npos) << e.dump();
  }
  ASSERT_EQ(join(one, "Bo").first, 200);
  const auto say = [&](const std::string& token, const std::string& text) {
    return w.post("/api/tables/" + id + "/chat", json{{"token", token}, {"text", text}}.dump());
  };
  ASSERT_EQ(say(one, "hi, I'm Bo").first, 200);
  // Renamed before the game begins: the earlier line keeps "Bo".
  ASSERT_EQ(join(one, "Mallory").first, 200);
  ASSERT_EQ(say(one, "now Mallory").first, 200);
  auto [js, st] = join(two, "Cy");
  ASSERT_EQ(js, 200) << st.dump();
  const json chat = w.hub->get(id, one)["chat"];
  ASSERT_GE(chat.size(), 2u) << chat.dump();
  EXPECT_EQ(chat[0]["name"], "Bo") << chat.dump();
  EXPECT_EQ(chat[1]["name"], "Mallory") << chat.dump();
  // Once the game has begun, a guest's name stays.
  ASSERT_EQ(w.hub->get(id, one)["seats"][1]["name"], "Mallory");
  ASSERT_NE(w.hub->get(id, one)["status"], "waiting") << w.hub->get(id, one).dump();
  EXPECT_EQ(join(one, "Someone Else").first, 200);
  EXPECT_EQ(w.hub->get(id, one)["seats"][1]["name"], "Mallory");
  // Chat: no line or paragraph separators, no line that shows nothing.
  for (const char* bad : {"one\xe2\x80\xa8two", "one\xe2\x80\xa9two", "\xe3\x85\xa4", "\xe2\xa0\x80", "\xcc\x81",
                          "\xe2\x80\x8b\xe2\x80\x8b"}) {
    auto [s, e] = say(two, bad);
    EXPECT_EQ(s, 400) << e.dump();
  }
}

}  // namespace
}  // namespace boneyard::test
