// The client's address behind a trusted proxy (net.h), and a request asked
// of another node (proxy.h).
#include "server/proxy.h"

#include <fmt/format.h>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <optional>

#include "core/error.h"
#include "server/net.h"

namespace boneyard::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {
// An address as one spelling: an IPv4 client of an IPv6 socket as IPv4.
std::optional<net::ip::address> parse_address(std::string_view text) {
  std::string a(text);
  while (!a.empty() && (a.back() == ' ' || a.back() == '\t')) a.pop_back();
  size_t b = 0;
  while (b < a.size() && (a[b] == ' ' || a[b] == '\t')) ++b;
  a = a.substr(b);
  if (a.size() > 2 && a.front() == '[' && a.back() == ']') a = a.substr(1, a.size() - 2);
  beast::error_code ec;
  auto ip = net::ip::make_address(a, ec);
  if (ec) return std::nullopt;
  if (ip.is_v6() && ip.to_v6().is_v4_mapped())
    return net::ip::address(net::ip::make_address_v4(net::ip::v4_mapped, ip.to_v6()));
  return ip;
}
}  // namespace

bool is_trusted_proxy(const std::string& peer, const std::vector<std::string>& trusted) {
  if (trusted.empty()) return false;
  const auto p = parse_address(peer);
  if (!p) return false;
  for (const auto& t : trusted)
    if (parse_address(t) == p) return true;
  return false;
}

std::string client_address(const std::string& peer, const std::vector<std::string>& forwarded_for,
                           const std::vector<std::string>& trusted) {
  if (forwarded_for.empty() || !is_trusted_proxy(peer, trusted)) return peer;
  // The last entry of the last header is the one the proxy added.
  const std::string& last = forwarded_for.back();
  const size_t comma = last.rfind(',');
  const auto ip =
      parse_address(comma == std::string::npos ? std::string_view(last) : std::string_view(last).substr(comma + 1));
  return ip ? ip->to_string() : peer;
}

HttpResponse forward_request(const std::string& address, const std::string& method, const std::string& target,
                             const std::string& body, const std::string& ct, const std::string& client,
                             const std::string& node, int timeout_s) {
  const size_t colon = address.rfind(':');
  if (colon == std::string::npos) throw Error("no port in the node's address " + address);
  auto sv = [](beast::string_view v) { return std::string(v.data(), v.size()); };
  net::io_context ioc;
  beast::tcp_stream s(ioc);
  http::request<http::string_body> q{http::string_to_verb(method), target, 11};
  q.set(http::field::host, address);
  if (!ct.empty()) q.set(http::field::content_type, ct);
  if (!client.empty()) q.set("X-Forwarded-For", client);
  q.set("X-Boneyard-Forwarded", node);
  q.body() = body;
  q.prepare_payload();
  beast::flat_buffer buf;
  http::response_parser<http::string_body> p;
  p.body_limit(64u << 20);
  // Asynchronous on a private io_context, so the timeout bounds the whole
  // exchange (a paused node accepts the connection and never answers; the
  // synchronous calls would wait for it forever).
  beast::error_code err;
  s.expires_after(std::chrono::seconds(timeout_s));
  s.async_connect(tcp::endpoint(net::ip::make_address(address.substr(0, colon)),
                                static_cast<unsigned short>(std::stoi(address.substr(colon + 1)))),
                  [&](beast::error_code ec) {
                    if (ec) {
                      err = ec;
                      return;
                    }
                    http::async_write(s, q, [&](beast::error_code ec, size_t) {
                      if (ec) {
                        err = ec;
                        return;
                      }
                      http::async_read(s, buf, p, [&](beast::error_code ec, size_t) { err = ec; });
                    });
                  });
  ioc.run();
  if (err) throw Error(fmt::format("asking node {}: {}", address, err.message()));
  HttpResponse out;
  out.status = static_cast<int>(p.get().result_int());
  out.content_type = std::string(sv(p.get()[http::field::content_type]));
  out.body = std::move(p.get().body());
  if (p.get().count(http::field::retry_after))
    out.headers.emplace_back("Retry-After", std::string(sv(p.get()[http::field::retry_after])));
  beast::error_code ec;
  s.socket().shutdown(tcp::socket::shutdown_both, ec);
  return out;
}

}  // namespace boneyard::server
