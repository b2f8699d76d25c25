// Several nodes on one PostgreSQL (shards.h, docs/server.md "Beyond one
// machine"): two Hubs in this process, each with its own Storage (its own
// connections) on one database, as two `boneyard serve --node-id` would be.
// Run by ctest server_cluster inside pg_virtualenv; never against SQLite
// (one SQLite file is one process's).
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>

#include "client.h"
#include "core/game.h"
#include "server/net.h"
#include "server/storage.h"
#include "server/tables.h"
#include "test_store.h"

namespace boneyard::test {
namespace {

using nlohmann::json;

struct Node {
  boost::asio::io_context ioc;
  std::unique_ptr<server::Storage> store;
  std::unique_ptr<server::Hub> hub;
  Node(const std::string& db, const std::string& id, int lease_s = 2) {
    server::HubConfig cfg;
    cfg.run_bots = false;  // people only: every move is the test's
    cfg.node_id = id;
    cfg.lease_s = lease_s;
    store = std::make_unique<server::Storage>(db, false);
    hub = std::make_unique<server::Hub>(*store, ioc, cfg);
  }
  ~Node() {
    hub.reset();
    store.reset();
  }
  json health() { return hub->health(); }
  size_t owned() { return health()["cluster"]["owned"].size(); }
};

// The status of a request: 200, or its ApiError's (and its message).
template <class F>
std::pair<int, std::string> status(F&& f) {
  try {
    f();
    return {200, ""};
  } catch (const server::ApiError& e) {
    return {e.status, e.what()};
  }
}

template <class P>
bool eventually(P&& p, double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    if (p()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return p();
}

class ClusterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(testing_postgres()) << "ClusterTest needs PostgreSQL: run it as ctest -R server_cluster "
                                       "(BONEYARD_TEST_STORE=postgresql inside pg_virtualenv)";
    register_all_games();
    db = test_db(":memory:");
  }
  std::string db;
};

// The seat to act at a table, as `hub` sees it, and its state.
std::pair<int, json> actor(server::Hub& hub, const json& t) {
  for (int k = 0; k < 4; ++k) {
    json s = hub.get(t["id"], t["tokens"][std::to_string(k)]);
    if (s["to_act"] == true) return {k, s};
  }
  ADD_FAILURE() << "nobody acts";
  return {-1, json()};
}
int play(server::Hub& hub, const json& t) {
  auto [seat, s] = actor(hub, t);
  return hub.move(t["id"], t["tokens"][std::to_string(seat)], s["legal"][0])["version"].get<int>();
}

TEST_F(ClusterTest, ANodeThatLostItsLeaseCannotWriteAndTheTableDoesNotFork) {
  auto a = std::make_unique<Node>(db, "a");
  ASSERT_EQ(a->owned(), 64u) << "alone, a node holds every shard: " << a->health().dump();
  const json t = a->hub->create({{"game", "latin"}, {"seats", {"human", "human", "human", "human"}}});
  const std::string id = t["id"];
  for (int k = 0; k < 4; ++k) a->hub->join(id, t["tokens"][std::to_string(k)], std::nullopt);
  for (int i = 0; i < 3; ++i) play(*a->hub, t);
  const int at_a = a->hub->get(id, t["tokens"]["0"])["version"];

  // Node a stops renewing (as a process paused by SIGSTOP would); node b
  // comes up, finds every shard held, then takes them once a's leases lapse.
  a->hub->shards().pause(true);
  Node b(db, "b");
  ASSERT_TRUE(eventually([&] { return b.owned() == 64u; }, 15)) << b.health().dump();
  json at_b;
  // (Its tables load right after the leases are taken.)
  ASSERT_TRUE(eventually([&] { return status([&] { at_b = b.hub->get(id, t["tokens"]["0"]); }).first == 200; }, 10))
      << "b loaded the table";
  EXPECT_EQ(at_b["version"], at_a) << "b goes on from what a stored";

  // a wakes up and plays on its stale copy: the move (the next event, which
  // nobody has stored yet, so nothing else would stop it) is refused by the
  // fence.
  auto [seat, s] = actor(*a->hub, t);
  const auto [code, why] =
      status([&, seat = seat, s = s] { a->hub->move(id, t["tokens"][std::to_string(seat)], s["legal"][0]); });
  EXPECT_EQ(code, 503);
  EXPECT_NE(why.find("no longer holds the lease"), std::string::npos) << why;

  // b plays on from the stored state: one history, without a's move.
  int version = at_a;
  for (int i = 0; i < 3; ++i) version = play(*b.hub, t);
  EXPECT_EQ(version, at_a + 3);
  const auto stored = b.store->load(id);
  ASSERT_TRUE(stored);
  EXPECT_EQ(stored->events.size(), static_cast<size_t>(version)) << "a's refused move is not stored";

  // a's renewal runs again: it finds its shards gone, drops their tables,
  // and says so in /api/health; the table is b's.
  a->hub->shards().pause(false);
  a->hub->shards().tick();
  const json ha = a->health();
  ASSERT_FALSE(ha["cluster"]["lost"].empty()) << "loud in /api/health: " << ha.dump();
  EXPECT_EQ(ha["tables"], 0) << ha.dump();
  EXPECT_TRUE(ha["cluster"]["owned"].empty()) << ha.dump();
  const auto [where, elsewhere] = status([&] { a->hub->get(id, t["tokens"]["0"]); });
  EXPECT_EQ(where, 421) << elsewhere;

  // Every node gone, a new one replays the stored history to the same state.
  a.reset();
  const json last = b.hub->get(id, t["tokens"]["0"]);
  b.hub.reset();
  b.store.reset();
  Node c(db, "c");
  ASSERT_EQ(c.owned(), 64u) << c.health().dump();
  json again;
  ASSERT_EQ(status([&] { again = c.hub->get(id, t["tokens"]["0"]); }).first, 200);
  for (const char* k : {"version", "view", "legal", "to_act", "scores"}) EXPECT_EQ(again[k], last[k]) << k;
}

// The quick-match queue's writes are fenced as a table's are: node a,
// paused past its lease while a player waits, is replaced by b, which loads
// the queue; a's late change of the queue (the player leaving through a) is
// refused, b's queue is what the store keeps, and a lets the queue go.
TEST_F(ClusterTest, APausedNodesLateQueueWriteIsRefusedAndTheQueueStaysTheNextHolders) {
  auto a = std::make_unique<Node>(db, "a");
  ASSERT_EQ(a->owned(), 64u) << a->health().dump();
  const json ana = a->hub->create_player({{"name", "Ana"}});
  const json who{{"key", ana["key"]}};
  ASSERT_EQ(a->hub->quickmatch_join({{"key", ana["key"]}, {"game", "latin"}})["status"], "waiting");

  a->hub->shards().pause(true);
  Node b(db, "b");
  ASSERT_TRUE(eventually([&] { return b.owned() == 64u; }, 15)) << b.health().dump();
  json at_b;
  ASSERT_TRUE(eventually([&] { return status([&] { at_b = b.hub->quickmatch_status(who); }).first == 200; }, 10));
  EXPECT_EQ(at_b["status"], "waiting") << "b loaded the queue: " << at_b;

  // Ana leaves through a, which still believes it holds the queue (its
  // renewals have not run since): the queue's write is refused.
  a->hub->quickmatch_leave(who);
  a->hub->shards().pause(false);
  const auto rows = b.store->seekers();
  ASSERT_EQ(rows.size(), 1u) << "a's removal of Ana's entry was refused";
  EXPECT_EQ(b.hub->quickmatch_status(who)["status"], "waiting");
  // a lets the queue (shard 0) go on its next round, and says so.
  a->hub->shards().tick();
  EXPECT_FALSE(a->hub->shards().owns(server::Shards::kMatchShard));
  EXPECT_FALSE(a->health()["cluster"]["lost"].empty()) << a->health().dump();
  EXPECT_EQ(status([&] { a->hub->quickmatch_status(who); }).first, 421);
}

// A shard's tables are never left unloaded: a load that fails (the store
// failed mid-read) is tried again until it succeeds, or a request for its
// tables would hear "being loaded" for as long as the node holds the shard.
TEST_F(ClusterTest, AShardWhoseTablesFailedToLoadIsLoadedAgain) {
  server::Storage store(db, false);
  // A node "y" that never holds a presence took shard 1 for 2 s: x takes it
  // when that lapses, on its loader thread.
  ASSERT_TRUE(store.acquire_lease(server::Shards::lease_name(1), "y", 2));
  server::Shards x(store, "x", 4, 2);
  std::mutex m;
  std::vector<std::set<int>> takes;
  int failures = 0;
  x.start({[&](const std::set<int>& s) {
             std::lock_guard lk(m);
             takes.push_back(s);
             if (s.count(1) && failures == 0) {
               ++failures;
               throw std::runtime_error("the store went away mid-read");
             }
           },
           [](const std::set<int>&, const std::string&) {}});
  ASSERT_TRUE(eventually(
      [&] {
        std::lock_guard lk(m);
        return takes.size() >= 3;
      },
      15));
  x.stop_renewal();
  std::lock_guard lk(m);
  EXPECT_EQ(takes[0], (std::set<int>{0, 2, 3})) << "at start, the free shards";
  EXPECT_EQ(takes[1], std::set<int>{1}) << "the lapsed one (this load fails)";
  EXPECT_EQ(takes[2], std::set<int>{1}) << "and again";
  EXPECT_EQ(failures, 1);
  EXPECT_TRUE(x.owns(1));
}

TEST_F(ClusterTest, NodesShareTheShardsAndMakeNewTablesOnTheirOwn) {
  Node a(db, "a");
  Node b(db, "b");
  ASSERT_TRUE(eventually([&] { return a.owned() == 32u && b.owned() == 32u; }, 15))
      << a.health().dump() << b.health().dump();
  EXPECT_EQ(a.health()["cluster"]["presence"], "held") << "each node holds its presence in the store";
  for (auto* n : {&a, &b}) {
    const json t = n->hub->create({{"game", "latin"}, {"seats", {"human", "human", "human", "human"}}});
    const int shard = n->hub->shards().shard_of(t["id"]);
    EXPECT_TRUE(n->hub->shards().owns(shard)) << t["id"] << " on shard " << shard;
    Node& other = n == &a ? b : a;
    EXPECT_EQ(status([&] { other.hub->get(t["id"], t["tokens"]["0"]); }).first, 421);
  }
}

// Item 2 of issue 33: a client that knows one node plays every table. Two
// real servers (HTTP) on the database: requests for a table of b's, sent
// to a, are forwarded to b and answered as b answers them.
TEST_F(ClusterTest, ANodeForwardsRequestsForATableItDoesNotPlayToItsOwner) {
  auto config = [&](const std::string& node) {
    server::ServerConfig c;
    c.port = 0;
    c.db = db;
    c.full_sync = false;
    c.hub.bot_threads = 2;
    c.hub.run_bots = false;
    c.hub.node_id = node;
    c.hub.lease_s = 2;
    c.limits.create.burst = 1000;
    c.trusted_proxies = {"127.0.0.1"};  // the other node forwards with the client's address
    return c;
  };
  server::Server a(config("a"));
  a.start();
  server::Server b(config("b"));
  b.start();
  auto owned = [](server::Server& s) { return s.hub().health()["cluster"]["owned"].size(); };
  ASSERT_TRUE(eventually([&] { return owned(a) == 32u && owned(b) == 32u; }, 15));
  const Reply made =
      post(b.port(), "/api/tables", {{"game", "latin"}, {"seats", {"human", "human", "human", "human"}}});
  ASSERT_EQ(made.status, 201) << made.body;
  const std::string id = made.j["id"];
  const json tokens = made.j["tokens"];
  // Everything through a: the joins, the state, a move.
  for (int k = 0; k < 4; ++k) {
    const Reply r = post(a.port(), "/api/tables/" + id + "/join", {{"token", tokens[std::to_string(k)]}});
    ASSERT_EQ(r.status, 200) << r.body;
  }
  int seat = -1;
  json state;
  for (int k = 0; k < 4 && seat < 0; ++k) {
    const Reply r = get(a.port(), "/api/tables/" + id + "?token=" + tokens[std::to_string(k)].get<std::string>());
    ASSERT_EQ(r.status, 200) << r.body;
    if (r.j["to_act"] == true) seat = k, state = r.j;
  }
  ASSERT_GE(seat, 0);
  // One move, one event: never "redeal" (a seat dealt five doubles is
  // offered one first; it deals again, a second event).
  auto one_event_move = [](const json& legal) {
    for (const auto& m : legal)
      if (m != "redeal") return m;
    return legal[0];
  };
  const Reply moved = post(a.port(), "/api/tables/" + id + "/moves",
                           {{"token", tokens[std::to_string(seat)]}, {"move", one_event_move(state["legal"])}});
  ASSERT_EQ(moved.status, 200) << moved.body;
  EXPECT_EQ(moved.j["version"], state["version"].get<int>() + 1);
  // b played it (a holds nothing of the table), and b says the same.
  EXPECT_EQ(a.hub().health()["tables"], 0);
  const Reply at_b = get(b.port(), "/api/tables/" + id + "?token=" + tokens["0"].get<std::string>());
  EXPECT_EQ(at_b.j["version"], moved.j["version"]);
  // A WebSocket to a is relayed to b: the seat's state, a move, its answer.
  {
    int next = -1;
    json st;
    for (int k = 0; k < 4 && next < 0; ++k) {
      const Reply r = get(b.port(), "/api/tables/" + id + "?token=" + tokens[std::to_string(k)].get<std::string>());
      if (r.j["to_act"] == true) next = k, st = r.j;
    }
    ASSERT_GE(next, 0);
    WsClient ws(a.port(), "/ws?table=" + id + "&token=" + tokens[std::to_string(next)].get<std::string>());
    ws.start_reading();
    const json first = ws.wait_for([](const json& j) { return j.value("type", "") == "state"; }, 20);
    ASSERT_FALSE(first.is_null()) << "no state through a";
    EXPECT_EQ(first["version"], moved.j["version"]);
    ws.send(json{{"type", "move"}, {"move", one_event_move(st["legal"])}}.dump());
    const json ack = ws.wait_for([](const json& j) { return j.value("type", "") == "ack"; }, 20);
    ASSERT_FALSE(ack.is_null()) << "no answer to the move through a";
    EXPECT_EQ(ack["version"], moved.j["version"].get<int>() + 1);
    EXPECT_EQ(a.hub().health()["tables"], 0) << "b played it";
  }
  // A request a node forwarded is answered where it lands, never sent on
  // again (no loop): a, asked as if by a node, says where the table is.
  net::io_context ioc;
  beast::tcp_stream s(ioc);
  s.expires_after(std::chrono::seconds(30));
  s.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), a.port()));
  http::request<http::string_body> q{http::verb::get, "/api/tables/" + id + "?token=" + tokens["0"].get<std::string>(),
                                     11};
  q.set(http::field::host, "127.0.0.1");
  q.set("X-Boneyard-Forwarded", "b");
  http::write(s, q);
  beast::flat_buffer buf;
  http::response<http::string_body> res;
  http::read(s, buf, res);
  EXPECT_EQ(res.result_int(), 421u) << res.body();
}

// Item 7 of issue 33: a rated game changes each rating exactly once, whatever
// node stores it. Two nodes store two games of one subject (a bot level
// plays on every node) computed from the same rating, as two games ending
// at once on two nodes do: both changes count (before, the second
// overwrote the first). A game's write stored again (a commit in doubt,
// written once more) changes nothing: its history row is the receipt.
TEST_F(ClusterTest, TwoNodesRatingOneSubjectAtOnceBothCountAndEachGameOnce) {
  server::Storage a(db, false), b(db, false);
  auto game = [](const std::string& table, double rating) {
    server::Write w;
    w.table = table;
    server::StoredRating r;
    r.subject = "bot:casual";
    r.family = "line";
    r.rating = rating;
    r.rd = 300;
    r.games = 1;
    r.from = 1500;
    w.ratings.push_back(r);
    return w;
  };
  a.write(game("ta", 1520));
  b.write(game("tb", 1490));
  auto r = a.rating("bot:casual", "line");
  ASSERT_TRUE(r);
  EXPECT_DOUBLE_EQ(r->rating, 1510) << "both games' changes (+20 and -10) count";
  EXPECT_EQ(r->games, 2);
  b.write(game("ta", 1520));  // game ta's write once more (from the node that took its table over)
  r = b.rating("bot:casual", "line");
  EXPECT_DOUBLE_EQ(r->rating, 1510) << "one game changes a rating once";
  EXPECT_EQ(r->games, 2);
  EXPECT_EQ(a.rating_history("bot:casual", "line", 10).size(), 2u);
}

}  // namespace
}  // namespace boneyard::test
