// The web client (web/), embedded at build time by cmake/web_assets.cmake, and
// the lookup that serves it at "/": only the embedded paths exist, so a request
// can never reach a file outside them (no directory traversal by construction).
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sparts::server {

struct WebAsset {
    std::string_view path;  // "/index.html", "/app/app.js", "/lib/client.js"
    std::string_view body;
};

// Every embedded file (generated source).
const std::vector<WebAsset>& web_assets();

struct StaticFile {
    std::string_view body;
    std::string_view content_type;
    std::string etag;  // a strong validator: a hash of the body, quoted
};

// The file a GET of `target` serves ("/" is "/index.html"; a query string is
// ignored), or nullopt.
std::optional<StaticFile> find_static_file(std::string_view target);

// The content type for a path, from its extension.
std::string_view content_type_for(std::string_view path);

}  // namespace sparts::server
