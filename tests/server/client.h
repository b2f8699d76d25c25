#pragma once
// Test clients for the server: blocking HTTP and WebSocket over loopback,
// every operation bounded in time.
#include <unistd.h>

#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

namespace boneyard::test {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using nlohmann::json;

struct Reply {
  int status = 0;
  std::string body;
  json j;
  std::string retry_after;  // the Retry-After header ("" when absent)
};

// A new empty folder for one test's files: PREFIX-PID-TAG-N in the temp dir.
inline std::filesystem::path temp_dir(const std::string& prefix, const std::string& tag) {
  static std::atomic<int> n{0};
  const std::filesystem::path p = std::filesystem::temp_directory_path() /
                                  (prefix + "-" + std::to_string(getpid()) + "-" + tag + "-" + std::to_string(n++));
  std::filesystem::remove_all(p);
  std::filesystem::create_directories(p);
  return p;
}

// One request on a fresh connection; forwarded: an X-Forwarded-For header
// (a client behind a --trusted-proxy), none when "".
inline Reply request(unsigned short port, http::verb method, const std::string& target, const std::string& body = "",
                     const std::string& forwarded = "") {
  net::io_context ioc;
  beast::tcp_stream s(ioc);
  s.expires_after(std::chrono::seconds(60));
  s.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  http::request<http::string_body> req{method, target, 11};
  req.set(http::field::host, "127.0.0.1");
  if (!forwarded.empty()) req.set("X-Forwarded-For", forwarded);
  if (!body.empty()) {
    req.set(http::field::content_type, "application/json");
    req.body() = body;
  }
  req.prepare_payload();
  http::write(s, req);
  beast::flat_buffer buf;
  http::response_parser<http::string_body> p;
  p.body_limit(64u << 20);
  http::read(s, buf, p);
  Reply r;
  r.status = static_cast<int>(p.get().result_int());
  r.body = p.get().body();
  r.j = json::parse(r.body, nullptr, false);
  r.retry_after = std::string(p.get()[http::field::retry_after]);
  beast::error_code ec;
  s.socket().shutdown(tcp::socket::shutdown_both, ec);
  return r;
}
inline Reply get(unsigned short port, const std::string& target) { return request(port, http::verb::get, target); }
inline Reply post(unsigned short port, const std::string& target, const json& body) {
  return request(port, http::verb::post, target, body.dump());
}
// A POST from a client behind a --trusted-proxy at address `from`.
inline Reply post_from(const std::string& from, unsigned short port, const std::string& target, const json& body) {
  return request(port, http::verb::post, target, body.dump(), from);
}

// A WebSocket client: its own io thread reads every message into a queue
// and writes what send() gives it, one at a time.
class WsClient {
 public:
  // origin: the Origin header a browser would send ("" : none, as a program).
  WsClient(unsigned short port, const std::string& target, int rcvbuf = 0, const std::string& origin = "") : ws_(ioc_) {
    auto& sock = beast::get_lowest_layer(ws_).socket();
    sock.open(tcp::v4());
    if (rcvbuf > 0) sock.set_option(net::socket_base::receive_buffer_size(rcvbuf));
    beast::get_lowest_layer(ws_).expires_after(std::chrono::seconds(30));
    beast::get_lowest_layer(ws_).connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    if (!origin.empty())
      ws_.set_option(websocket::stream_base::decorator(
          [origin](websocket::request_type& r) { r.set(http::field::origin, origin); }));
    ws_.handshake("127.0.0.1", target);
    beast::get_lowest_layer(ws_).expires_never();
  }
  ~WsClient() { close(); }
  // Splits every message sent from here on into frames of `bytes` (a
  // fragmented message, as a client may send one). Before start_reading().
  void fragment(size_t bytes) {
    ws_.auto_fragment(true);
    ws_.write_buffer_bytes(bytes);
  }
  // Reading starts here; a client that never calls it never reads.
  void start_reading() {
    do_read();
    runner_ = std::thread([this] { ioc_.run(); });
  }
  void send(const std::string& text, bool binary = false) {
    net::post(ioc_, [this, text, binary] {
      wq_.emplace_back(text, binary);
      if (wq_.size() == 1) write_next();
    });
  }
  // The next message (waits up to `secs`); "" when closed or none came.
  std::string next(double secs = 30) {
    std::unique_lock lk(m_);
    cv_.wait_for(lk, std::chrono::duration<double>(secs), [&] { return !msgs_.empty() || closed_; });
    if (msgs_.empty()) return "";
    std::string s = std::move(msgs_.front());
    msgs_.pop_front();
    return s;
  }
  // Waits for a message satisfying pred; returns it (null on timeout/close).
  template <class P>
  json wait_for(P pred, double secs = 60) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(secs);
    while (std::chrono::steady_clock::now() < end) {
      std::string s = next(std::chrono::duration<double>(end - std::chrono::steady_clock::now()).count());
      if (s.empty()) {
        if (is_closed()) return nullptr;
        continue;
      }
      json j = json::parse(s, nullptr, false);
      if (!j.is_discarded() && pred(j)) return j;
    }
    return nullptr;
  }
  bool wait_closed(double secs) {
    std::unique_lock lk(m_);
    return cv_.wait_for(lk, std::chrono::duration<double>(secs), [&] { return closed_; });
  }
  bool is_closed() {
    std::lock_guard lk(m_);
    return closed_ && msgs_.empty();
  }
  std::vector<std::string> all() {
    std::lock_guard lk(m_);
    return all_;
  }
  void close() {
    if (done_) return;
    done_ = true;
    if (runner_.joinable()) {
      net::post(ioc_, [this] {
        beast::error_code ec;
        beast::get_lowest_layer(ws_).socket().shutdown(tcp::socket::shutdown_both, ec);
        beast::get_lowest_layer(ws_).socket().close(ec);
      });
      runner_.join();
    } else {
      beast::error_code ec;
      beast::get_lowest_layer(ws_).socket().close(ec);
    }
  }

 private:
  void do_read() {
    ws_.async_read(buf_, [this](beast::error_code ec, size_t) {
      std::lock_guard lk(m_);
      if (ec) {
        closed_ = true;
        cv_.notify_all();
        return;
      }
      msgs_.push_back(beast::buffers_to_string(buf_.data()));
      all_.push_back(msgs_.back());
      buf_.consume(buf_.size());
      cv_.notify_all();
      do_read();
    });
  }
  void write_next() {
    ws_.binary(wq_.front().second);
    ws_.async_write(net::buffer(wq_.front().first), [this](beast::error_code ec, size_t) {
      wq_.pop_front();
      if (!ec && !wq_.empty()) write_next();
    });
  }
  net::io_context ioc_;
  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buf_;
  std::thread runner_;
  std::mutex m_;
  std::condition_variable cv_;
  std::deque<std::string> msgs_;
  std::vector<std::string> all_;
  std::deque<std::pair<std::string, bool>> wq_;
  bool closed_ = false, done_ = false;
};

}  // namespace boneyard::test
