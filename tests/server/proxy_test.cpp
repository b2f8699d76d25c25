// Behind a front door (deploy/haproxy.cfg): the client's address comes from
// X-Forwarded-For only when the connection comes from a --trusted-proxy
// address, so per-address limits keep working behind the proxy and nobody
// can forge an address from outside.
#include <gtest/gtest.h>

#include "server_fixture.h"

namespace boneyard::test {
namespace {

using server::client_address;

TEST(ClientAddress, AForwardedForFromAnUntrustedPeerIsIgnored) {
  EXPECT_EQ(client_address("203.0.113.7", {"10.0.0.1"}, {}), "203.0.113.7");
  EXPECT_EQ(client_address("203.0.113.7", {"10.0.0.1"}, {"127.0.0.1"}), "203.0.113.7");
}

TEST(ClientAddress, ATrustedProxysLastEntryIsTheClient) {
  const std::vector<std::string> trusted{"127.0.0.1", "::1"};
  EXPECT_EQ(client_address("127.0.0.1", {"10.0.0.1"}, trusted), "10.0.0.1");
  // What a client sent itself comes first: the proxy's own entry is last.
  EXPECT_EQ(client_address("127.0.0.1", {"6.6.6.6, 10.0.0.2"}, trusted), "10.0.0.2");
  EXPECT_EQ(client_address("127.0.0.1", {"6.6.6.6", "10.0.0.3"}, trusted), "10.0.0.3");
  EXPECT_EQ(client_address("::1", {" 2001:db8::5 "}, trusted), "2001:db8::5");
  // An IPv4 proxy seen through an IPv6 socket is the same proxy.
  EXPECT_EQ(client_address("::ffff:127.0.0.1", {"10.0.0.4"}, trusted), "10.0.0.4");
  // No address in the header, or no header: the proxy's own.
  EXPECT_EQ(client_address("127.0.0.1", {"unknown"}, trusted), "127.0.0.1");
  EXPECT_EQ(client_address("127.0.0.1", {}, trusted), "127.0.0.1");
}

class ProxyTest : public ServerFixture {
 protected:
  ProxyTest() : ServerFixture("proxy") {}
  // POST /api/tables as a client behind the proxy at `forwarded`.
  int create(const std::string& forwarded) {
    return post_from(forwarded, port_, "/api/tables",
                     json{{"game", "latin"}, {"seats", {"human", "human", "human", "human"}}})
        .status;
  }
  server::ServerConfig one_table_each() const {
    auto c = config();
    c.limits.create = {0.0001, 1};  // one new table per address
    return c;
  }
};

TEST_F(ProxyTest, EachClientBehindATrustedProxyHasItsOwnShare) {
  auto c = one_table_each();
  c.trusted_proxies = {"127.0.0.1"};
  serve(c);
  EXPECT_EQ(create("10.0.0.1"), 201);
  EXPECT_EQ(create("10.0.0.1"), 429) << "the same client's second table";
  EXPECT_EQ(create("10.0.0.2"), 201) << "another client behind the same proxy";
  EXPECT_EQ(create("10.0.0.3, 10.0.0.1"), 429) << "a forged first entry does not hide the client";
}

TEST_F(ProxyTest, AForgedForwardedForFromAnUntrustedPeerChangesNothing) {
  serve(one_table_each());  // no --trusted-proxy: this test's connections are the clients
  EXPECT_EQ(create("10.0.0.1"), 201);
  EXPECT_EQ(create("10.0.0.2"), 429) << "the header is ignored: one address, one table";
}

}  // namespace
}  // namespace boneyard::test
