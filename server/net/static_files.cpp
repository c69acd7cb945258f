#include <cstdint>
#include <string>
#include <unordered_map>
#include "server/net/web_assets.hpp"

namespace sparts::server {

namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string etag_of(std::string_view body) {
    std::uint64_t h = 14695981039346656037ULL;  // FNV-1a, 64 bits
    for (const char c : body) {
        h ^= static_cast<unsigned char>(c);
        h *= 1099511628211ULL;
    }
    static const char digits[] = "0123456789abcdef";
    std::string out = "\"";
    for (int shift = 60; shift >= 0; shift -= 4) out += digits[(h >> shift) & 0xF];
    out += '"';
    return out;
}

struct Entry {
    std::string_view body;
    std::string etag;
};

const std::unordered_map<std::string_view, Entry>& index() {
    static const std::unordered_map<std::string_view, Entry> files = [] {
        std::unordered_map<std::string_view, Entry> m;
        for (const auto& a : web_assets()) m.emplace(a.path, Entry{a.body, etag_of(a.body)});
        return m;
    }();
    return files;
}

}  // namespace

std::string_view content_type_for(std::string_view path) {
    if (ends_with(path, ".html")) return "text/html; charset=utf-8";
    if (ends_with(path, ".js") || ends_with(path, ".mjs")) return "text/javascript; charset=utf-8";
    if (ends_with(path, ".css")) return "text/css; charset=utf-8";
    if (ends_with(path, ".svg")) return "image/svg+xml";
    if (ends_with(path, ".json")) return "application/json";
    return "text/plain; charset=utf-8";  // .d.ts and anything else: shown as text
}

std::optional<StaticFile> find_static_file(std::string_view target) {
    std::string_view path = target.substr(0, target.find_first_of("?#"));
    if (path == "/") path = "/index.html";
    const auto& files = index();
    const auto it = files.find(path);
    if (it == files.end()) return std::nullopt;
    return StaticFile{it->second.body, content_type_for(path), it->second.etag};
}

}  // namespace sparts::server
