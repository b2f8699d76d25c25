// WebSocket sessions (docs/server.md, "WebSocket"): a table's seat or its
// spectators, relayed to the node that plays the table when another does,
// or the lobby's live feed; each with its rate limit and send queue.
#include <fmt/format.h>

#include <chrono>
#include <deque>
#include <optional>

#include "server/http_routes.h"
#include "server/net_session.h"
#include "server/proxy.h"

namespace boneyard::server::session {

using nlohmann::json;

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
        enqueue(std::make_shared<const std::string>(
            error_json(fmt::format("too many messages ({}): slow down", limit_text(bucket_.limit())))));
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

}  // namespace

void start_websocket(tcp::socket&& socket, Ctx ctx, std::shared_ptr<ConnSlot> slot, bool lobby, std::string client,
                     http::request<http::string_body> req) {
  std::make_shared<WsSession>(std::move(socket), ctx, std::move(slot), lobby, std::move(client))->run(std::move(req));
}

}  // namespace boneyard::server::session
