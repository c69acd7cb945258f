// The archive's page cursor, the same for every backend: "finished_ms/table/game"
// of the last game of a page. Opaque to clients.
#pragma once
#include <optional>
#include <string>
#include "storage/records.hpp"

namespace sparts::storage {

struct ArchiveCursor {
    Millis finished = 0;
    std::string table;
    int game = 0;

    std::string text() const { return std::to_string(finished) + "/" + table + "/" + std::to_string(game); }

    static std::optional<ArchiveCursor> parse(const std::string& text) {
        const auto a = text.find('/');
        const auto b = text.rfind('/');
        if (a == std::string::npos || a == b) return std::nullopt;
        try {
            return ArchiveCursor{std::stoll(text.substr(0, a)), text.substr(a + 1, b - a - 1), std::stoi(text.substr(b + 1))};
        } catch (const std::exception&) {
            return std::nullopt;
        }
    }
};

}  // namespace sparts::storage
