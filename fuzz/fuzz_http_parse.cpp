// Fuzz target: raw bytes into the server's HTTP request parser, with the
// parser limits and the bounded read buffer every connection gets
// (server/http_limits.h), read as a keep-alive connection reads them: one
// request after another until an error. Any exception is a crash here, as
// it would end a connection on the server (a chunked trailer of 64 KiB used
// to abort the process). Inputs may be large: run with -max_len=100000.
#include <boost/asio/io_context.hpp>
#include <boost/beast/_experimental/test/stream.hpp>
#include <boost/beast/http/read.hpp>
#include <cstdint>
#include <string>

#include "server/http_limits.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace beast = boost::beast;
  namespace http = beast::http;
  static const boneyard::server::ServerConfig cfg;
  boost::asio::io_context ioc;
  beast::test::stream in(ioc, beast::string_view(reinterpret_cast<const char*>(data), size));
  in.read_size(1 + size % 4096);  // the bytes arrive in pieces, as from a socket
  in.close_remote();              // then the client hangs up (end of file)
  beast::flat_buffer buf(boneyard::server::read_buffer_max(cfg));
  for (int n = 0; n < 16; ++n) {
    http::request_parser<http::string_body> p;
    boneyard::server::limit_parser(p, cfg);
    beast::error_code ec;
    http::read(in, buf, p, ec);
    if (ec) break;
    if (p.get().body().size() > cfg.body_limit) __builtin_trap();
  }
  return 0;
}
