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
#include "server/net_session.h"
#include "server/proxy.h"
#include "server/storage.h"

namespace boneyard::server {

using nlohmann::json;
using namespace session;  // Ctx, ConnSlot, the namespaces' short names (net_session.h)

namespace {

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
      start_websocket(stream_.release_socket(), ctx_, slot_, path == "/ws/lobby", client_, parser_->release());
      return;
    }
    if (!bucket_.take()) {
      send(error_response(
               429, fmt::format("too many requests on this connection ({}): slow down", limit_text(bucket_.limit()))),
           req.keep_alive() && bucket_.refused_in_row() < 100, req.version());
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
