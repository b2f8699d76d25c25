#pragma once
// The app's files under --static (web/dist): contained in their folder,
// precompressed copies to clients that take gzip, cached by content hash.
#include <string>

#include "server/http_routes.h"

namespace boneyard::server {

// GET of `path` (already percent-decoded) under `dir` ("" = nothing is
// served: 404). ".." and hidden files are refused (403), as is a symbolic
// link out of the folder; a folder is its index.html; an unchanged file is
// 304 by its ETag.
HttpResponse serve_static(const std::string& dir, const std::string& path, const Request& req);

}  // namespace boneyard::server
