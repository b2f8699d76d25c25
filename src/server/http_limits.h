#pragma once
// The HTTP parser and read buffer every connection gets (net.cpp), shared
// with the fuzz target that feeds them raw bytes (fuzz/fuzz_http_parse.cpp).
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>

#include "server/net.h"

namespace boneyard::server {

// The read buffer is bounded by the header limit: a header, a chunk's
// header line or a chunked body's trailer larger than that fails the read
// (buffer_overflow, answered 431) before the parser builds it; unbounded,
// Beast throws on a trailer field over 64 KiB.
inline size_t read_buffer_max(const ServerConfig& c) { return c.header_limit + 4096; }

inline void limit_parser(boost::beast::http::request_parser<boost::beast::http::string_body>& p,
                         const ServerConfig& c) {
  p.body_limit(c.body_limit);
  p.header_limit(static_cast<uint32_t>(c.header_limit));
}

}  // namespace boneyard::server
