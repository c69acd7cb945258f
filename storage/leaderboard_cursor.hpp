// The leaderboard's page cursor, the same for every backend: "rating/player" of the last
// player of a page, the rating in the shortest text that reads back to the same double (so
// that the next page starts exactly after it). Opaque to clients.
#pragma once
#include <optional>
#include <string>
#include "storage/exact_double.hpp"

namespace sparts::storage {

struct LeaderboardCursor {
    double rating = 0;
    std::string player;

    std::string text() const { return exact_text(rating) + "/" + player; }

    static std::optional<LeaderboardCursor> parse(const std::string& text) {
        const auto slash = text.find('/');
        if (slash == std::string::npos || slash + 1 >= text.size()) return std::nullopt;
        const auto rating = exact_number(text.substr(0, slash));
        if (!rating) return std::nullopt;
        return LeaderboardCursor{*rating, text.substr(slash + 1)};
    }
};

}  // namespace sparts::storage
