// The archive's page cursor, the same for every backend: "finished_ms/id" of the last
// game of a page, `id` the game's place in the archive (the order games were archived
// in, which breaks ties between games finished in the same millisecond). Opaque to
// clients.
//
// A server before schema version 10 (SQLite; 6 for PostgreSQL) gave "finished_ms/table/game":
// such a cursor is still read (a client paging through an upgrade goes on where it was),
// the game it names looked up for its id.
#pragma once
#include <charconv>
#include <optional>
#include <string>
#include <string_view>
#include "storage/records.hpp"

namespace sparts::storage {

struct ArchiveCursor {
    Millis finished = 0;
    std::int64_t id = 0;
    // An older server's cursor: the game to look its id up by (id is then 0).
    std::string table{};
    int game = 0;

    std::string text() const { return std::to_string(finished) + "/" + std::to_string(id); }
    bool legacy() const { return !table.empty(); }

    static std::optional<ArchiveCursor> parse(std::string_view text) {
        const auto a = text.find('/');
        const auto b = text.rfind('/');
        if (a == std::string_view::npos) return std::nullopt;
        ArchiveCursor c;
        if (!number(text.substr(0, a), c.finished)) return std::nullopt;
        if (a == b) {
            if (!number(text.substr(a + 1), c.id) || c.id <= 0) return std::nullopt;
            return c;
        }
        std::int64_t game = 0;
        if (!number(text.substr(b + 1), game) || game <= 0 || game > 1000000 || b == a + 1) return std::nullopt;
        c.table = std::string(text.substr(a + 1, b - a - 1));
        c.game = static_cast<int>(game);
        return c;
    }

private:
    static bool number(std::string_view s, std::int64_t& out) {
        if (s.empty() || s.size() > 16) return false;
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
        return ec == std::errc() && end == s.data() + s.size() && out >= 0;
    }
};

}  // namespace sparts::storage
