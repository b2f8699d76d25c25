// One persistence path (Hub::persist_and_wait): a write that fails, injected
// in the database itself (a trigger that refuses one kind of row), rolls its
// table back in one place, whatever the change was; the next change of the
// same table is stored. A failed chat line never makes the next move be
// refused, and a failed move never makes the next chat line be refused.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <boost/asio/io_context.hpp>
#include <filesystem>
#include <string>

#include "beside_db.h"
#include "client.h"
#include "core/game.h"
#include "server/storage.h"
#include "server/tables.h"

namespace boneyard::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct PersistWorld {
  fs::path dir = temp_dir("boneyard-persist", "t");
  std::string db = (dir / "p.db").string();
  boost::asio::io_context ioc;
  server::Storage store{db, false};
  std::unique_ptr<server::Hub> hub;
  json t;
  PersistWorld() {
    register_all_games();
    server::HubConfig cfg;
    cfg.run_bots = false;  // people only: every move is the test's
    hub = std::make_unique<server::Hub>(store, ioc, cfg);
    t = hub->create({{"game", "latin"}, {"seats", {"human", "human", "human", "human"}}});
    for (int k = 0; k < 4; ++k) hub->join(id(), token(k), std::nullopt);
  }
  ~PersistWorld() {
    hub.reset();
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string id() const { return t["id"]; }
  std::string token(int k) const { return t["tokens"][std::to_string(k)]; }
  // The seat to act, and its state.
  std::pair<int, json> actor() {
    for (int k = 0; k < 4; ++k) {
      json s = hub->get(id(), token(k));
      if (s["to_act"] == true) return {k, s};
    }
    ADD_FAILURE() << "nobody acts";
    return {-1, json()};
  }
  // The status of a request: 200, or its ApiError's.
  template <class F>
  int status(F&& f) {
    try {
      f();
      return 200;
    } catch (const server::ApiError& e) {
      return e.status;
    }
  }
};

TEST(Persist, AFailedChatLineDoesNotRefuseTheNextMoveOfTheTable) {
  PersistWorld w;
  sql(w.db,
      "CREATE TRIGGER boom BEFORE INSERT ON chat WHEN NEW.text = 'boom' BEGIN SELECT RAISE(ABORT, 'injected'); END");
  EXPECT_EQ(w.status([&] { w.hub->chat(w.id(), w.token(0), {{"text", "boom"}}); }), 503);
  const auto [actor, state] = w.actor();
  const int seat = actor;  // named apart: the lambdas below capture them
  const json before = state;
  ASSERT_GE(seat, 0);
  // The same table's next change is stored: the move, then another line.
  json moved;
  EXPECT_EQ(w.status([&] { moved = w.hub->move(w.id(), w.token(seat), before["legal"][0]); }), 200);
  // (the move, and any chance outcome that follows it)
  EXPECT_GT(moved["version"], before["version"].get<int>()) << moved.dump();
  EXPECT_EQ(w.status([&] { w.hub->chat(w.id(), w.token(0), {{"text", "hello"}}); }), 200);
  const json after = w.hub->get(w.id(), w.token(1));
  ASSERT_EQ(after["chat"].size(), 1u) << "the failed line is never shown: " << after["chat"].dump();
  EXPECT_EQ(after["chat"][0]["text"], "hello");
  // And it is all stored: a new server on the database sees the move and the line.
  w.hub.reset();
  auto st = w.store.load(w.id());
  ASSERT_TRUE(st);
  EXPECT_EQ(st->events.size(), moved["version"].get<size_t>());
  ASSERT_EQ(st->chat.size(), 1u);
  EXPECT_EQ(st->chat[0].text, "hello");
}

TEST(Persist, AFailedMoveDoesNotRefuseTheNextChatLineAndTheTableGoesOn) {
  PersistWorld w;
  const auto [actor, state] = w.actor();
  const int seat = actor;  // named apart: the lambdas below capture them
  const json before = state;
  ASSERT_GE(seat, 0);
  sql(w.db, "CREATE TRIGGER boom BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'injected'); END");
  EXPECT_EQ(w.status([&] { w.hub->move(w.id(), w.token(seat), before["legal"][0]); }), 503);
  // Rolled back: the table is as it was before the move.
  const json back = w.hub->get(w.id(), w.token(seat));
  for (const char* k : {"version", "view", "legal", "to_act", "scores"}) EXPECT_EQ(back[k], before[k]) << k;
  // The same table's next change is stored.
  EXPECT_EQ(w.status([&] { w.hub->chat(w.id(), w.token(seat), {{"text", "hello"}}); }), 200);
  EXPECT_EQ(w.hub->get(w.id(), w.token(0))["chat"].size(), 1u);
  // Once the database takes events again, the move is made.
  sql(w.db, "DROP TRIGGER boom");
  json moved;
  EXPECT_EQ(w.status([&] { moved = w.hub->move(w.id(), w.token(seat), before["legal"][0]); }), 200);
  EXPECT_GT(moved["version"], before["version"].get<int>()) << "the move, and any chance outcome that follows it";
  EXPECT_EQ(w.store.load_events(w.id()).size(), moved["version"].get<size_t>()) << "all of it stored";
}

}  // namespace
}  // namespace boneyard::test
