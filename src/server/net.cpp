#include "server/net.h"

#include <fmt/format.h>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <deque>
#include <iostream>
#include <memory>
#include <thread>

#include "server/http_limits.h"
#include "server/http_routes.h"
#include "server/proxy.h"
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
  net::thread_pool* hash;  // requests that hash a password, at most passwords->capacity at once
  PasswordLane* passwords;
  Limits* limits;
  std::shared_ptr<Limits> limits_owner;  // for the connection slots
};

// One counted connection (Limits::open); released when the last session
// holding it (HTTP, then the WebSocket it became) is gone.
// It shares the Limits: a session whose handler is still queued when the
// server is torn down is destroyed with the io_context, after the Impl's
// other members.
class ConnSlot {
 public:
  ConnSlot(std::shared_ptr<Limits> l, std::string addr) : limits_(std::move(l)), addr_(std::move(addr)) {}
  ~ConnSlot() { limits_->close(addr_); }
  ConnSlot(const ConnSlot&) = delete;
  ConnSlot& operator=(const ConnSlot&) = delete;
  const std::string& addr() const { return addr_; }

 private:
  std::shared_ptr<Limits> limits_;
  std::string addr_;
};

// Every response carries these: no MIME sniffing, no Referer (a seat's
// token is in the page's URL), no framing; the app runs only its own
// script and talks only to its own server.
void security_headers(http::response<http::string_body>& res) {
  res.set("X-Content-Type-Options", "nosniff");
  res.set("Referrer-Policy", "no-referrer");
  res.set("X-Frame-Options", "DENY");
  res.set("Content-Security-Policy",
          "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:; "
          "connect-src 'self'; "
          "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
}

std::string error_json(const std::string& msg) {
  return json{{"type", "error"}, {"error", msg}}.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace

namespace {

class WsSession : public Subscriber, public std::enable_shared_from_this<WsSession> {
 public:
  // client: the client's address (the peer's, or the one a trusted proxy gave).
  WsSession(tcp::socket&& s, Ctx ctx, std::shared_ptr<ConnSlot> slot, bool lobby, std::string client)
      : ws_(std::move(s)),
        ctx_(ctx),
        bucket_(ctx.cfg->ws_rate, ctx.cfg->ws_burst),
        slot_(std::move(slot)),
        subscribe_timer_(ws_.get_executor()),
        lobby_(lobby),
        client_(std::move(client)) {}

  void run(http::request<http::string_body> req) {
    req_ = std::move(req);
    // A connection that holds no seat (a bad table or token) may not stay:
    // it is closed after its error, or after this long if it never reads it.
    subscribe_timer_.expires_after(std::chrono::seconds(ctx_.cfg->ws_subscribe_timeout_s));
    subscribe_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
      if (ec || self->subscribed_) return;
      self->dead_ = true;
      beast::error_code ec2;
      beast::get_lowest_layer(self->ws_).socket().close(ec2);
    });
    try {
      const Target t = parse_target(sv(req_.target()));
      if (auto it = t.query.find("table"); it != t.query.end()) table_ = it->second;
      if (auto it = t.query.find("token"); it != t.query.end()) token_ = it->second;
      if (auto it = t.query.find("entropy"); it != t.query.end()) entropy_ = it->second;
    } catch (const std::exception&) {
    }
    if (ctx_.cfg->ws_send_buffer > 0) {
      beast::error_code ec;
      beast::get_lowest_layer(ws_).socket().set_option(net::socket_base::send_buffer_size(ctx_.cfg->ws_send_buffer),
                                                       ec);
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

  // The table left this node: closed ("going away") once the queue is sent.
  void moved() override {
    net::post(ws_.get_executor(), [self = shared_from_this()] {
      if (self->dead_ || self->closing_) return;
      self->close_code_ = websocket::close_code::going_away;
      self->close_after_flush_ = true;
      if (self->q_.empty()) {
        self->closing_ = true;
        self->ws_.async_close(self->close_code_, [self](beast::error_code) {});
      }
    });
  }

 private:
  void on_accept(beast::error_code ec) {
    if (ec) return;
    if (lobby_) {  // the lobby's feed: its list now, then on every change
      try {
        ctx_.hub->lobby_subscribe(shared_from_this());
        subscribed_ = true;
        lobby_here();
      } catch (const std::exception& e) {
        enqueue(std::make_shared<const std::string>(error_json(e.what())));
        close_after_flush_ = true;
      }
      do_read();
      return;
    }
    try {
      seat_ = ctx_.hub->subscribe(table_, token_, entropy_, shared_from_this());
      subscribed_ = true;
      subscribe_timer_.cancel();
    } catch (const ApiError& e) {
      if (e.status == 421 && ctx_.hub->shards().enabled() && req_.count("X-Boneyard-Forwarded") == 0) {
        relay(e.what());  // another node plays the table
      } else {
        enqueue(std::make_shared<const std::string>(error_json(e.what())));
        close_after_flush_ = true;
      }
    } catch (const std::exception& e) {
      enqueue(std::make_shared<const std::string>(error_json(e.what())));
      close_after_flush_ = true;
    }
    do_read();
  }

  // A table another node plays: this connection is relayed to that node's
  // /ws (the same target, the client's address in X-Forwarded-For), every
  // message both ways, until either side closes. Its address is looked up
  // off the network threads. Unreachable: the 421's message, then closed.
  void relay(const std::string& why) {
    relaying_ = true;
    subscribe_timer_.cancel();
    net::post(*ctx_.slow, [self = shared_from_this(), why] {
      std::string address;
      try {
        auto& sh = self->ctx_.hub->shards();
        const std::string owner = sh.owner_of(sh.shard_of(self->table_));
        if (!owner.empty() && owner != sh.node()) address = sh.address_of(owner);
      } catch (const std::exception&) {
      }
      net::post(self->ws_.get_executor(), [self, address, why] { self->connect_up(address, why); });
    });
  }

  void connect_up(const std::string& address, const std::string& why) {
    const size_t colon = address.rfind(':');
    beast::error_code ec;
    tcp::endpoint ep;
    if (colon != std::string::npos) {
      const auto ip = net::ip::make_address(address.substr(0, colon), ec);
      if (!ec) ep = tcp::endpoint(ip, static_cast<unsigned short>(std::atoi(address.c_str() + colon + 1)));
    }
    if (colon == std::string::npos || ec || dead_) return up_failed(why);
    up_ = std::make_unique<websocket::stream<beast::tcp_stream>>(ws_.get_executor());
    beast::get_lowest_layer(*up_).expires_after(std::chrono::seconds(10));
    beast::get_lowest_layer(*up_).async_connect(ep, [self = shared_from_this(), address, why](beast::error_code ec) {
      if (ec || self->dead_) return self->up_failed(why);
      self->up_->set_option(websocket::stream_base::decorator(
          [client = self->client_, node = self->ctx_.hub->shards().node()](websocket::request_type& r) {
            r.set("X-Forwarded-For", client);
            r.set("X-Boneyard-Forwarded", node);
          }));
      self->up_->async_handshake(address, std::string(sv(self->req_.target())), [self, why](beast::error_code ec) {
        if (ec || self->dead_) return self->up_failed(why);
        beast::get_lowest_layer(*self->up_).expires_never();
        self->up_->set_option(websocket::stream_base::timeout::suggested(beast::role_type::client));
        self->up_open_ = true;
        self->read_up();
        if (!self->upq_.empty()) self->write_up();
      });
    });
  }

  void up_failed(const std::string& why) {
    enqueue(std::make_shared<const std::string>(error_json(why)));
    close_after_flush_ = true;
  }

  void read_up() {
    up_->async_read(up_buf_, [self = shared_from_this()](beast::error_code ec, size_t) {
      if (ec) {  // the owner closed (or went away): so does this side
        self->up_open_ = false;
        if (!self->closing_ && !self->dead_) {
          self->closing_ = true;
          self->ws_.async_close(websocket::close_code::going_away, [self](beast::error_code) {});
        }
        return;
      }
      auto msg = std::make_shared<const std::string>(beast::buffers_to_string(self->up_buf_.data()));
      self->up_buf_.consume(self->up_buf_.size());
      self->enqueue(msg);
      self->read_up();
    });
  }

  void write_up() {
    up_->text(true);
    up_->async_write(net::buffer(upq_.front()), [self = shared_from_this()](beast::error_code ec, size_t) {
      if (ec) return;
      self->upq_.pop_front();
      if (!self->upq_.empty()) self->write_up();
    });
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
      enqueue(
          std::make_shared<const std::string>(error_json("binary messages are not accepted: send JSON text; closing")));
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
    if (relaying_) {  // to the table's node (queued until it is connected)
      upq_.push_back(text);
      if (up_open_ && upq_.size() == 1) write_up();
      return;
    }
    if (lobby_) {
      json j = json::parse(text.size() < 256 ? text : std::string(), nullptr, false);
      if (j.is_object() && j.value("type", json()) == "here") {
        lobby_here();
        return;
      }
      enqueue(std::make_shared<const std::string>(
          error_json("the lobby's feed takes only {\"type\": \"here\"} (a person is looking): it sends the list")));
      return;
    }
    enqueue(std::make_shared<const std::string>(
        handle_ws_message(*ctx_.hub, table_, token_, subscribed_, text, ctx_.limits, ctx_.limits->network(client_))));
  }

  // The lobby's feed: (re)armed by its page's {"type": "here"}; once it
  // runs out, an "idle" message, then closed (the page reconnects when its
  // person comes back).
  void lobby_here() {
    subscribe_timer_.expires_after(std::chrono::seconds(ctx_.cfg->lobby_idle_s));
    subscribe_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
      if (ec || self->dead_ || self->close_after_flush_) return;
      self->enqueue(std::make_shared<const std::string>(
          json{{"type", "idle"}, {"message", "the lobby's list paused: nobody was looking"}}.dump()));
      self->close_code_ = websocket::close_code::going_away;
      self->close_after_flush_ = true;  // once the message is written (enqueue started it)
    });
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
    if (!q_.empty())
      write_next();
    else if (close_after_flush_ && !closing_) {
      closing_ = true;
      ws_.async_close(close_code_, [self = shared_from_this()](beast::error_code) {});
    }
  }

  void finish() {
    dead_ = true;
    subscribe_timer_.cancel();
    if (up_) {
      beast::error_code ec;
      beast::get_lowest_layer(*up_).socket().close(ec);
    }
    if (subscribed_) {
      subscribed_ = false;
      if (lobby_)
        ctx_.hub->lobby_unsubscribe(this);
      else
        ctx_.hub->unsubscribe(table_, seat_, this);
    }
  }

  websocket::stream<beast::tcp_stream> ws_;
  http::request<http::string_body> req_;
  beast::flat_buffer buf_;
  std::deque<std::shared_ptr<const std::string>> q_;
  Ctx ctx_;
  TokenBucket bucket_;
  std::shared_ptr<ConnSlot> slot_;
  net::steady_timer subscribe_timer_;
  bool lobby_ = false;  // /ws/lobby: the lobby's feed, no table
  // Relayed to the node that plays the table (relay()).
  bool relaying_ = false, up_open_ = false;
  std::unique_ptr<websocket::stream<beast::tcp_stream>> up_;
  beast::flat_buffer up_buf_;
  std::deque<std::string> upq_;
  std::string client_;
  std::string table_, token_;
  std::optional<std::string> entropy_;
  int seat_ = -1;
  bool subscribed_ = false, close_after_flush_ = false, closing_ = false, dead_ = false;
  websocket::close_code close_code_ = websocket::close_code::policy_error;  // moved(), an idle lobby: going_away
};

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(tcp::socket&& s, Ctx ctx, std::shared_ptr<ConnSlot> slot)
      : stream_(std::move(s)),
        buf_(read_buffer_max(*ctx.cfg)),
        ctx_(ctx),
        bucket_(ctx.cfg->http_rate, ctx.cfg->http_burst),
        slot_(std::move(slot)) {}
  void run() {
    net::dispatch(stream_.get_executor(), beast::bind_front_handler(&HttpSession::do_read, shared_from_this()));
  }

 private:
  void do_read() {
    parser_.emplace();
    limit_parser(*parser_, *ctx_.cfg);
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
    if (ec == http::error::header_limit || ec == http::error::buffer_overflow) {
      send(error_response(431, "the request header is too large"), false, 11);
      return;
    }
    if (ec) {
      if (ec.category() == http::make_error_code(http::error::bad_target).category())
        send(error_response(400, fmt::format("malformed HTTP request: {}", ec.message())), false, 11);
      else
        close();
      return;
    }
    auto& req = parser_->get();
    {
      std::vector<std::string> forwarded;
      for (auto [it, end] = req.equal_range("X-Forwarded-For"); it != end; ++it)
        forwarded.emplace_back(sv(it->value()));
      client_ = client_address(slot_->addr(), forwarded, ctx_.cfg->trusted_proxies);
      from_node_ = req.count("X-Boneyard-Forwarded") > 0;
    }
    if (websocket::is_upgrade(req)) {
      std::string path;
      try {
        path = parse_target(sv(req.target())).path;
      } catch (const std::exception&) {
      }
      if (path != "/ws" && path != "/ws/lobby") {
        send(error_response(404, "WebSocket connections go to /ws?table=ID&token=T, or /ws/lobby for the lobby"), false,
             req.version());
        return;
      }
      // Another site's page may not open a seat's connection with the
      // visitor's browser (cross-site WebSocket hijacking).
      if (!origin_allowed(sv(req[http::field::origin]), sv(req[http::field::host]), ctx_.cfg->allow_origins)) {
        send(error_response(
                 403, "WebSocket connections are accepted from this server's own pages only (see --allow-origin)"),
             false, req.version());
        return;
      }
      stream_.expires_never();
      std::make_shared<WsSession>(stream_.release_socket(), ctx_, slot_, path == "/ws/lobby", client_)
          ->run(parser_->release());
      return;
    }
    if (!bucket_.take()) {
      send(error_response(429, "too many requests: slow down"), req.keep_alive() && bucket_.refused_in_row() < 100,
           req.version());
      return;
    }
    const bool head = req.method() == http::verb::head;
    const bool hashes = hashes_password(sv(req.method_string()), sv(req.target()));
    if (hashes && ++ctx_.passwords->in_flight > ctx_.passwords->capacity) {
      // The password pool and its queue are full: refused at once, so
      // guessing passwords never holds up the other requests.
      --ctx_.passwords->in_flight;
      HttpResponse r = error_response(503, "the server is busy checking passwords: try again in 1 s");
      r.headers.emplace_back("Retry-After", "1");
      send(std::move(r), req.keep_alive(), req.version(), head);
      return;
    }
    if (hashes || runs_slow(sv(req.method_string()), sv(req.target()))) {
      // Thought about (or hashed) on a pool of its own; the answer is sent
      // from this session's strand. The next request is read after it is sent.
      net::post(hashes ? *ctx_.hash : *ctx_.slow,
                [self = shared_from_this(), method = std::string(sv(req.method_string())),
                 target = std::string(sv(req.target())), body = std::move(req.body()),
                 ct = std::string(sv(req[http::field::content_type])), head, keep = req.keep_alive(),
                 version = req.version(), hashes]() mutable {
                  // Nothing may leave this pool's thread: an exception there would end the process.
                  try {
                    HttpResponse r = self->route(method, target, body, ct);
                    if (hashes) --self->ctx_.passwords->in_flight;
                    self->forward_if_elsewhere(r, method, target, body, ct);
                    net::post(self->stream_.get_executor(), [self, r = std::move(r), keep, version, head]() mutable {
                      self->send(std::move(r), keep, version, head);
                    });
                  } catch (const std::exception& e) {
                    if (hashes) --self->ctx_.passwords->in_flight;
                    std::cerr << "boneyard serve: a request failed: " << e.what() << std::endl;
                    net::post(self->stream_.get_executor(), [self] { self->close(); });
                  }
                });
      return;
    }
    HttpResponse r = route(sv(req.method_string()), sv(req.target()), req.body(), sv(req[http::field::content_type]),
                           sv(req[http::field::accept_encoding]), sv(req[http::field::if_none_match]));
    if (r.status == 421 && !from_node_ && ctx_.hub->shards().enabled()) {
      // Another node plays the table: asked of it off the io threads.
      net::post(*ctx_.slow, [self = shared_from_this(), r = std::move(r), method = std::string(sv(req.method_string())),
                             target = std::string(sv(req.target())), body = std::move(req.body()),
                             ct = std::string(sv(req[http::field::content_type])), head, keep = req.keep_alive(),
                             version = req.version()]() mutable {
        self->forward_if_elsewhere(r, method, target, body, ct);
        net::post(self->stream_.get_executor(), [self, r = std::move(r), keep, version, head]() mutable {
          self->send(std::move(r), keep, version, head);
        });
      });
      return;
    }
    send(std::move(r), req.keep_alive(), req.version(), head);
  }

  // On the slow pool. A table another node plays (421): the request is
  // asked of that node (proxy.h) and its answer becomes r, so a client that
  // knows one node plays every table. Unreachable owner: r stays the 421.
  void forward_if_elsewhere(HttpResponse& r, const std::string& method, const std::string& target,
                            const std::string& body, const std::string& ct) {
    if (r.status != 421 || from_node_ || !ctx_.hub->shards().enabled()) return;
    try {
      const Target t = parse_target(target);
      const std::string prefix = "/api/tables/";
      auto& sh = ctx_.hub->shards();
      int shard = -1;
      if (t.path == "/api/quickmatch") {
        shard = Shards::kMatchShard;  // one queue, on its node (Hub::matchmaker_here)
      } else {
        if (t.path.rfind(prefix, 0) != 0) return;
        const size_t end = t.path.find('/', prefix.size());
        shard = sh.shard_of(t.path.substr(prefix.size(), end == std::string::npos ? end : end - prefix.size()));
      }
      const std::string owner = sh.owner_of(shard);
      if (owner.empty() || owner == sh.node()) return;
      const std::string address = sh.address_of(owner);
      r = forward_request(address, method, target, body, ct, client_, sh.node());
    } catch (const std::exception& e) {
      std::cerr << "boneyard serve: forwarding a request to the table's node failed: " << e.what() << std::endl;
    }
  }

  HttpResponse route(std::string_view method, std::string_view target, std::string_view body, std::string_view ct,
                     std::string_view accept_encoding = {}, std::string_view if_none_match = {}) {
    // The client's network (IPv6 /64): what every per-address share counts.
    Request rq{method,         target,          body,         ct, ctx_.limits->network(client_), ctx_.limits,
               ctx_.passwords, accept_encoding, if_none_match};
    return handle_request(*ctx_.hub, ctx_.cfg->static_dir, rq);
  }

  // head: HEAD answers GET's status and headers, Content-Length included, without the body.
  void send(HttpResponse r, bool keep_alive, unsigned version, bool head = false) {
    res_ = {};
    res_.version(version);
    res_.result(static_cast<http::status>(r.status));
    res_.set(http::field::server, "boneyard");
    res_.set(http::field::content_type, r.content_type);
    res_.set(http::field::cache_control, "no-store");
    security_headers(res_);
    for (const auto& [k, v] : r.headers) res_.set(k, v);
    res_.keep_alive(keep_alive);
    const size_t length = r.body.size();
    if (!head) res_.body() = std::move(r.body);
    res_.prepare_payload();
    if (head) res_.content_length(length);
    stream_.expires_after(std::chrono::seconds(ctx_.cfg->read_timeout_s));
    http::async_write(stream_, res_,
                      beast::bind_front_handler(&HttpSession::on_write, shared_from_this(), !keep_alive));
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
    stream_.async_read_some(net::buffer(drain_buf_.get(), kDrainChunk),
                            [self = shared_from_this()](beast::error_code ec, size_t n) {
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
  std::string client_;      // the current request's client address (client_address())
  bool from_node_ = false;  // the current request was forwarded by another node
  http::response<http::string_body> res_;
  std::unique_ptr<char[]> drain_buf_;  // only while lingering
  size_t drained_ = 0;
  Ctx ctx_;
  TokenBucket bucket_;
  std::shared_ptr<ConnSlot> slot_;
};

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  // The acceptor, its pause timer and close() share one strand: a close on
  // one thread never races an accept being re-armed on another (UBSan saw
  // Boost's reactor touch a closed descriptor at shutdown).
  Listener(net::io_context& ioc, const tcp::endpoint& ep, Ctx ctx)
      : ioc_(ioc), strand_(net::make_strand(ioc)), acc_(strand_), ctx_(ctx), pause_(strand_) {
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
    if (!acc_.is_open()) return;
    if (ec) {
      // Out of descriptors (or another failure of the system): accepting
      // again at once would spin a core. Pause, so the connections being
      // served finish and free theirs.
      if (ec != net::error::operation_aborted && ec != net::error::connection_aborted) {
        log_throttled(fmt::format("accept failed: {}; pausing new connections for 100 ms", ec.message()));
        pause_.expires_after(std::chrono::milliseconds(100));
        pause_.async_wait([self = shared_from_this()](beast::error_code) {
          if (self->acc_.is_open()) self->do_accept();
        });
        return;
      }
      do_accept();
      return;
    }
    // Whatever happens to this connection, the listener goes on accepting.
    try {
      beast::error_code ec2;
      const auto peer = socket.remote_endpoint(ec2);
      const std::string addr = ec2 ? std::string("?") : peer.address().to_string();
      // A trusted proxy's connections are many clients': counted in the
      // total only (their addresses' shares apply per request).
      const bool proxy = is_trusted_proxy(addr, ctx_.cfg->trusted_proxies);
      if (!ctx_.limits->open(addr, !proxy)) {
        refuse(std::move(socket));
      } else {
        auto slot = std::make_shared<ConnSlot>(ctx_.limits_owner, addr);
        std::make_shared<HttpSession>(std::move(socket), ctx_, std::move(slot))->run();
      }
    } catch (const std::exception& e) {
      log_throttled(fmt::format("a new connection failed: {}", e.what()));
    }
    do_accept();
  }
  // At a connection cap: a short 503 if the socket takes it at once, then
  // closed. Nothing waits on the client.
  static void refuse(tcp::socket socket) {
    static const std::string kBusy =
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 5\r\nConnection: close\r\n"
        "Content-Length: 69\r\n\r\n{\"error\":\"too many connections; try again in a few seconds (server busy)\"}";
    beast::error_code ec;
    socket.non_blocking(true, ec);
    if (!ec) socket.write_some(net::buffer(kBusy), ec);
    socket.shutdown(tcp::socket::shutdown_both, ec);
    socket.close(ec);
  }
  void log_throttled(const std::string& msg) {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_log_ < std::chrono::seconds(5)) return;
    last_log_ = now;
    std::cerr << "boneyard serve: " << msg << std::endl;
  }
  net::io_context& ioc_;
  net::strand<net::io_context::executor_type> strand_;
  tcp::acceptor acc_;
  Ctx ctx_;
  net::steady_timer pause_;
  std::chrono::steady_clock::time_point last_log_{};
};

}  // namespace

struct Server::Impl {
  ServerConfig cfg;
  net::io_context ioc;
  std::optional<net::executor_work_guard<net::io_context::executor_type>> guard;
  std::unique_ptr<Storage> db;
  std::unique_ptr<Hub> hub;
  std::unique_ptr<net::thread_pool> slow;  // destroyed before the hub
  std::unique_ptr<net::thread_pool> hash;  // argon2id, off the io threads
  PasswordLane passwords;
  std::shared_ptr<Limits> limits;
  std::shared_ptr<Listener> listener;
  std::vector<std::thread> threads;
  bool stopped = false;
};

Server::Server(ServerConfig cfg) : impl_(std::make_unique<Impl>()) {
  impl_->cfg = std::move(cfg);
  auto& c = impl_->cfg;
  // Several nodes share one PostgreSQL; an SQLite file is one process's
  // (its lock), so a node id there would only pretend.
  if (!c.hub.node_id.empty() && !is_postgres_url(c.db))
    throw Error(
        "--node-id is for several nodes on one PostgreSQL database (--db postgresql://...): an SQLite "
        "file is served by one process");
  impl_->db = std::make_unique<Storage>(c.db, StoreOptions{c.full_sync, c.db_pool});
  impl_->hub = std::make_unique<Hub>(*impl_->db, impl_->ioc, c.hub);
  beast::error_code ec;
  const auto addr = net::ip::make_address(c.host, ec);
  if (ec) throw Error(fmt::format("bad --host '{}': {}", c.host, ec.message()));
  impl_->slow = std::make_unique<net::thread_pool>(2);
  impl_->hash = std::make_unique<net::thread_pool>(static_cast<size_t>(std::max(1, c.hash_threads)));
  impl_->passwords.capacity = std::max(1, c.hash_threads) + std::max(0, c.hash_queue);
  c.limits.max_connections = connection_cap(c.limits.max_connections);
  impl_->limits = std::make_shared<Limits>(c.limits);
  impl_->listener = std::make_shared<Listener>(impl_->ioc, tcp::endpoint(addr, c.port),
                                               Ctx{impl_->hub.get(), &impl_->cfg, impl_->slow.get(), impl_->hash.get(),
                                                   &impl_->passwords, impl_->limits.get(), impl_->limits});
  // Where the other nodes forward requests for this node's tables.
  impl_->hub->shards().set_address(
      fmt::format("{}:{}", addr.is_unspecified() ? std::string(addr.is_v6() ? "::1" : "127.0.0.1") : c.host, port()));
}

Server::~Server() { stop(); }

unsigned short Server::port() const { return impl_->listener->port(); }
Hub& Server::hub() { return *impl_->hub; }

void Server::start() {
  impl_->guard.emplace(impl_->ioc.get_executor());
  impl_->listener->start();
  const int n = std::max(1, impl_->cfg.io_threads);
  for (int i = 0; i < n; ++i)
    impl_->threads.emplace_back([this] {
      // An exception out of a handler (a parser's, an allocation's) ends
      // the connection it belonged to (its session is released as the
      // stack unwinds), never the thread or the process.
      for (;;) {
        try {
          impl_->ioc.run();
          return;
        } catch (const std::exception& e) {
          std::cerr << "boneyard serve: a connection failed: " << e.what() << std::endl;
        } catch (...) {
          std::cerr << "boneyard serve: a connection failed" << std::endl;
        }
      }
    });
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
  impl_->hash->join();
  impl_->hub->shutdown();
}

}  // namespace boneyard::server
