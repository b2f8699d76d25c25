#include "server/net.h"

#include <fmt/format.h>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <memory>
#include <deque>
#include <iostream>
#include <thread>

#include "server/http_routes.h"
#include "server/storage.h"

namespace boneyard::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using nlohmann::json;

namespace {

std::string_view sv(beast::string_view s) { return {s.data(), s.size()}; }

struct Ctx {
  Hub* hub;
  const ServerConfig* cfg;
  net::thread_pool* slow;  // requests that think (hint, review, replay), off the io threads
};

// The routes that may think for a while: a hint (a bot's budget), a review
// (a solve per decision), a replay (every step's view).
bool slow_route(std::string_view target) {
  const std::string_view path = target.substr(0, target.find('?'));
  auto ends = [&](std::string_view s) { return path.size() >= s.size() && path.substr(path.size() - s.size()) == s; };
  return path.starts_with("/api/") && (ends("/hint") || ends("/review") || ends("/replay"));
}

// A token bucket: rate per second, up to burst.
class Bucket {
 public:
  Bucket(double rate, double burst) : rate_(rate), burst_(burst), tokens_(burst), last_(std::chrono::steady_clock::now()) {}
  bool take() {
    const auto now = std::chrono::steady_clock::now();
    tokens_ = std::min(burst_, tokens_ + rate_ * std::chrono::duration<double>(now - last_).count());
    last_ = now;
    if (tokens_ < 1) {
      ++refused_;
      return false;
    }
    tokens_ -= 1;
    refused_ = 0;
    return true;
  }
  int refused_in_row() const { return refused_; }

 private:
  double rate_, burst_, tokens_;
  std::chrono::steady_clock::time_point last_;
  int refused_ = 0;
};

std::string error_json(const std::string& msg) {
  return json{{"type", "error"}, {"error", msg}}.dump(-1, ' ', false, json::error_handler_t::replace);
}

class WsSession : public Subscriber, public std::enable_shared_from_this<WsSession> {
 public:
  WsSession(tcp::socket&& s, Ctx ctx)
      : ws_(std::move(s)), ctx_(ctx), bucket_(ctx.cfg->ws_rate, ctx.cfg->ws_burst) {}

  void run(http::request<http::string_body> req) {
    req_ = std::move(req);
    try {
      const Target t = parse_target(sv(req_.target()));
      if (auto it = t.query.find("table"); it != t.query.end()) table_ = it->second;
      if (auto it = t.query.find("token"); it != t.query.end()) token_ = it->second;
      if (auto it = t.query.find("entropy"); it != t.query.end()) entropy_ = it->second;
    } catch (const std::exception&) {
    }
    if (ctx_.cfg->ws_send_buffer > 0) {
      beast::error_code ec;
      beast::get_lowest_layer(ws_).socket().set_option(net::socket_base::send_buffer_size(ctx_.cfg->ws_send_buffer), ec);
    }
    auto to = websocket::stream_base::timeout::suggested(beast::role_type::server);
    to.idle_timeout = std::chrono::seconds(120);
    to.keep_alive_pings = true;
    ws_.set_option(to);
    ws_.read_message_max(ctx_.cfg->ws_message_limit);
    ws_.async_accept(req_, beast::bind_front_handler(&WsSession::on_accept, shared_from_this()));
  }

  void push(std::shared_ptr<const std::string> msg) override {
    net::post(ws_.get_executor(), [self = shared_from_this(), msg = std::move(msg)] { self->enqueue(msg); });
  }

 private:
  void on_accept(beast::error_code ec) {
    if (ec) return;
    try {
      seat_ = ctx_.hub->subscribe(table_, token_, entropy_, shared_from_this());
      subscribed_ = true;
    } catch (const ApiError& e) {
      enqueue(std::make_shared<const std::string>(error_json(e.what())));
      close_after_flush_ = true;
    } catch (const std::exception& e) {
      enqueue(std::make_shared<const std::string>(error_json(e.what())));
      close_after_flush_ = true;
    }
    do_read();
  }

  void do_read() { ws_.async_read(buf_, beast::bind_front_handler(&WsSession::on_read, shared_from_this())); }

  void on_read(beast::error_code ec, size_t) {
    if (ec) {
      finish();
      return;
    }
    const bool text = ws_.got_text();
    std::string msg = beast::buffers_to_string(buf_.data());
    buf_.consume(buf_.size());
    if (close_after_flush_) {
      do_read();
      return;
    }
    if (!text) {
      enqueue(std::make_shared<const std::string>(error_json("binary messages are not accepted: send JSON text; closing")));
      close_after_flush_ = true;
      do_read();
      return;
    }
    if (!bucket_.take()) {
      if (bucket_.refused_in_row() > 50) {
        enqueue(std::make_shared<const std::string>(error_json("too many messages; closing")));
        close_after_flush_ = true;
      } else {
        enqueue(std::make_shared<const std::string>(error_json("too many messages: slow down")));
      }
      do_read();
      return;
    }
    handle(msg);
    do_read();
  }

  void handle(const std::string& text) {
    std::string reply;
    try {
      const json j = json::parse(text, nullptr, false);
      if (j.is_discarded() || !j.is_object()) throw ApiError(400, "a message must be a JSON object");
      const std::string type = j.contains("type") && j["type"].is_string() ? j["type"].get<std::string>()
                               : j.contains("move")                      ? "move"
                                                                         : "";
      if (!subscribed_) throw ApiError(403, "not connected to a table");
      if (type == "move") {
        if (!j.contains("move") || !j["move"].is_string()) throw ApiError(400, "'move' must be a string");
        json m = ctx_.hub->move(table_, token_, j["move"].get<std::string>());
        reply = json{{"type", "ack"}, {"move", m["move"]}, {"version", m["version"]}}.dump();
      } else if (type == "entropy") {
        if (!j.contains("entropy") || !j["entropy"].is_string()) throw ApiError(400, "'entropy' must be a string");
        ctx_.hub->join(table_, token_, j["entropy"].get<std::string>());
        reply = json{{"type", "ack"}, {"entropy", true}}.dump();
      } else if (type == "get") {
        reply = ctx_.hub->get(table_, token_).dump(-1, ' ', false, json::error_handler_t::replace);
      } else if (type == "ping") {
        reply = json{{"type", "pong"}}.dump();
      } else {
        throw ApiError(400, "unknown message type: expected move, entropy, get or ping");
      }
    } catch (const ApiError& e) {
      reply = json{{"type", "error"}, {"status", e.status}, {"error", e.what()}}.dump(-1, ' ', false, json::error_handler_t::replace);
    } catch (const std::exception& e) {
      reply = error_json(e.what());
    }
    enqueue(std::make_shared<const std::string>(std::move(reply)));
  }

  void enqueue(const std::shared_ptr<const std::string>& msg) {
    if (dead_ || closing_) return;
    if (q_.size() >= ctx_.cfg->ws_queue_limit) {
      // A client that does not read: drop it rather than hold its messages.
      dead_ = true;
      beast::error_code ec;
      beast::get_lowest_layer(ws_).socket().close(ec);
      return;
    }
    q_.push_back(msg);
    if (q_.size() == 1) write_next();
  }

  void write_next() {
    ws_.text(true);
    ws_.async_write(net::buffer(*q_.front()), beast::bind_front_handler(&WsSession::on_write, shared_from_this()));
  }

  void on_write(beast::error_code ec, size_t) {
    if (ec) {
      dead_ = true;
      beast::error_code ec2;
      beast::get_lowest_layer(ws_).socket().close(ec2);
      return;
    }
    q_.pop_front();
    if (!q_.empty()) write_next();
    else if (close_after_flush_ && !closing_) {
      closing_ = true;
      ws_.async_close(websocket::close_code::policy_error, [self = shared_from_this()](beast::error_code) {});
    }
  }

  void finish() {
    dead_ = true;
    if (subscribed_) {
      subscribed_ = false;
      ctx_.hub->unsubscribe(table_, seat_, this);
    }
  }

  websocket::stream<beast::tcp_stream> ws_;
  http::request<http::string_body> req_;
  beast::flat_buffer buf_;
  std::deque<std::shared_ptr<const std::string>> q_;
  Ctx ctx_;
  Bucket bucket_;
  std::string table_, token_;
  std::optional<std::string> entropy_;
  int seat_ = -1;
  bool subscribed_ = false, close_after_flush_ = false, closing_ = false, dead_ = false;
};

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(tcp::socket&& s, Ctx ctx) : stream_(std::move(s)), ctx_(ctx), bucket_(ctx.cfg->http_rate, ctx.cfg->http_burst) {}
  void run() { net::dispatch(stream_.get_executor(), beast::bind_front_handler(&HttpSession::do_read, shared_from_this())); }

 private:
  void do_read() {
    parser_.emplace();
    parser_->body_limit(ctx_.cfg->body_limit);
    parser_->header_limit(static_cast<uint32_t>(ctx_.cfg->header_limit));
    stream_.expires_after(std::chrono::seconds(ctx_.cfg->read_timeout_s));
    http::async_read(stream_, buf_, *parser_, beast::bind_front_handler(&HttpSession::on_read, shared_from_this()));
  }

  void on_read(beast::error_code ec, size_t) {
    if (ec == http::error::end_of_stream || ec == net::error::eof || ec == beast::error::timeout ||
        ec == net::error::connection_reset || ec == net::error::operation_aborted) {
      close();
      return;
    }
    if (ec == http::error::body_limit) {
      send(error_response(413, "the request body is too large"), false, 11);
      return;
    }
    if (ec == http::error::header_limit) {
      send(error_response(431, "the request header is too large"), false, 11);
      return;
    }
    if (ec) {
      if (ec.category() == http::make_error_code(http::error::bad_target).category())
        send(error_response(400, fmt::format("malformed HTTP request: {}", ec.message())), false, 11);
      else close();
      return;
    }
    auto& req = parser_->get();
    if (websocket::is_upgrade(req)) {
      std::string path;
      try {
        path = parse_target(sv(req.target())).path;
      } catch (const std::exception&) {
      }
      if (path != "/ws") {
        send(error_response(404, "WebSocket connections go to /ws?table=ID&token=T"), false, req.version());
        return;
      }
      stream_.expires_never();
      std::make_shared<WsSession>(stream_.release_socket(), ctx_)->run(parser_->release());
      return;
    }
    if (!bucket_.take()) {
      send(error_response(429, "too many requests: slow down"), req.keep_alive() && bucket_.refused_in_row() < 100, req.version());
      return;
    }
    const bool head = req.method() == http::verb::head;
    if (slow_route(sv(req.target()))) {
      // Thought about on the slow pool; the answer is sent from this
      // session's strand. The next request is read after it is sent.
      net::post(*ctx_.slow, [self = shared_from_this(), method = std::string(sv(req.method_string())),
                             target = std::string(sv(req.target())), body = std::move(req.body()), head,
                             keep = req.keep_alive(), version = req.version()]() mutable {
        HttpResponse r = handle_request(*self->ctx_.hub, self->ctx_.cfg->static_dir, method, target, body);
        if (head) r.body.clear();
        net::post(self->stream_.get_executor(), [self, r = std::move(r), keep, version]() mutable {
          self->send(std::move(r), keep, version);
        });
      });
      return;
    }
    HttpResponse r = handle_request(*ctx_.hub, ctx_.cfg->static_dir, sv(req.method_string()), sv(req.target()), req.body());
    if (head) r.body.clear();
    send(std::move(r), req.keep_alive(), req.version());
  }

  void send(HttpResponse r, bool keep_alive, unsigned version) {
    res_ = {};
    res_.version(version);
    res_.result(static_cast<http::status>(r.status));
    res_.set(http::field::server, "boneyard");
    res_.set(http::field::content_type, r.content_type);
    res_.set(http::field::cache_control, "no-store");
    res_.keep_alive(keep_alive);
    res_.body() = std::move(r.body);
    res_.prepare_payload();
    stream_.expires_after(std::chrono::seconds(ctx_.cfg->read_timeout_s));
    http::async_write(stream_, res_, beast::bind_front_handler(&HttpSession::on_write, shared_from_this(), !keep_alive));
  }

  void on_write(bool close_after, beast::error_code ec, size_t) {
    if (ec) {
      close();
      return;
    }
    if (close_after) {
      linger_close();
      return;
    }
    do_read();
  }

  void close() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    stream_.socket().close(ec);
  }

  // After an answer that ends the connection (413, 431, 400, ...), the client
  // may still be sending its request: closing at once with unread bytes
  // makes the kernel send a reset, and the client loses the answer (a broken
  // pipe). So stop sending, read and drop what comes for a short while (a
  // few MiB, 2 s at most), then close: "lingering close", as web servers do.
  void linger_close() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    if (ec) {
      close();
      return;
    }
    stream_.expires_after(std::chrono::seconds(2));
    drain_buf_ = std::make_unique<char[]>(kDrainChunk);
    drain();
  }

  static constexpr size_t kDrainChunk = 16384;
  void drain() {
    stream_.async_read_some(net::buffer(drain_buf_.get(), kDrainChunk), [self = shared_from_this()](beast::error_code ec, size_t n) {
      self->drained_ += n;
      if (ec || self->drained_ > (8u << 20)) {
        self->close();
        return;
      }
      self->drain();
    });
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buf_;
  std::optional<http::request_parser<http::string_body>> parser_;
  http::response<http::string_body> res_;
  std::unique_ptr<char[]> drain_buf_;  // only while lingering
  size_t drained_ = 0;
  Ctx ctx_;
  Bucket bucket_;
};

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(net::io_context& ioc, const tcp::endpoint& ep, Ctx ctx) : ioc_(ioc), acc_(ioc), ctx_(ctx) {
    beast::error_code ec;
    acc_.open(ep.protocol(), ec);
    if (!ec) acc_.set_option(net::socket_base::reuse_address(true), ec);
    if (!ec) acc_.bind(ep, ec);
    if (!ec) acc_.listen(net::socket_base::max_listen_connections, ec);
    if (ec) throw Error(fmt::format("cannot listen on {}:{}: {}", ep.address().to_string(), ep.port(), ec.message()));
  }
  unsigned short port() const { return acc_.local_endpoint().port(); }
  void start() { do_accept(); }
  void close() {
    net::post(acc_.get_executor(), [self = shared_from_this()] {
      beast::error_code ec;
      self->acc_.close(ec);
    });
  }

 private:
  void do_accept() {
    acc_.async_accept(net::make_strand(ioc_), beast::bind_front_handler(&Listener::on_accept, shared_from_this()));
  }
  void on_accept(beast::error_code ec, tcp::socket socket) {
    if (!ec) std::make_shared<HttpSession>(std::move(socket), ctx_)->run();
    if (acc_.is_open()) do_accept();
  }
  net::io_context& ioc_;
  tcp::acceptor acc_;
  Ctx ctx_;
};

}  // namespace

struct Server::Impl {
  ServerConfig cfg;
  net::io_context ioc;
  std::optional<net::executor_work_guard<net::io_context::executor_type>> guard;
  std::unique_ptr<Storage> db;
  std::unique_ptr<Hub> hub;
  std::unique_ptr<net::thread_pool> slow;  // destroyed before the hub
  std::shared_ptr<Listener> listener;
  std::vector<std::thread> threads;
  bool stopped = false;
};

Server::Server(ServerConfig cfg) : impl_(std::make_unique<Impl>()) {
  impl_->cfg = std::move(cfg);
  auto& c = impl_->cfg;
  impl_->db = std::make_unique<Storage>(c.db, c.full_sync);
  impl_->hub = std::make_unique<Hub>(*impl_->db, impl_->ioc, c.hub);
  beast::error_code ec;
  const auto addr = net::ip::make_address(c.host, ec);
  if (ec) throw Error(fmt::format("bad --host '{}': {}", c.host, ec.message()));
  impl_->slow = std::make_unique<net::thread_pool>(2);
  impl_->listener =
      std::make_shared<Listener>(impl_->ioc, tcp::endpoint(addr, c.port), Ctx{impl_->hub.get(), &impl_->cfg, impl_->slow.get()});
}

Server::~Server() { stop(); }

unsigned short Server::port() const { return impl_->listener->port(); }
Hub& Server::hub() { return *impl_->hub; }

void Server::start() {
  impl_->guard.emplace(impl_->ioc.get_executor());
  impl_->listener->start();
  const int n = std::max(1, impl_->cfg.io_threads);
  for (int i = 0; i < n; ++i) impl_->threads.emplace_back([this] { impl_->ioc.run(); });
}

void Server::stop() {
  if (impl_->stopped) return;
  impl_->stopped = true;
  impl_->listener->close();
  impl_->guard.reset();
  impl_->ioc.stop();
  for (auto& t : impl_->threads) t.join();
  impl_->threads.clear();
  impl_->slow->join();  // a hint or review under way finishes; its answer is dropped
  impl_->hub->shutdown();
}

}  // namespace boneyard::server
