// The leaderboard's page cursor, the same for every backend: "rating/player/rank" of the
// last player a page read, the rating in the shortest text that reads back to the same
// double (so that the next page starts exactly after it), and the rank of the last player
// the page showed (so that the next page's ranks go on from it without counting the players
// ahead). Opaque to clients; an older server's "rating/player" is still read (its rank is
// then counted).
#pragma once
#include <charconv>
#include <optional>
#include <string>
#include "storage/exact_double.hpp"

namespace sparts::storage {

struct LeaderboardCursor {
    double rating = 0;
    std::string player;
    std::optional<std::int64_t> rank{};  // players ranked up to here; none in an older server's cursor

    std::string text() const {
        return exact_text(rating) + "/" + player + (rank ? "/" + std::to_string(*rank) : std::string());
    }

    static std::optional<LeaderboardCursor> parse(const std::string& text) {
        const auto slash = text.find('/');
        if (slash == std::string::npos || slash + 1 >= text.size()) return std::nullopt;
        const auto rating = exact_number(text.substr(0, slash));
        if (!rating) return std::nullopt;
        LeaderboardCursor c{*rating, text.substr(slash + 1)};
        if (const auto last = text.rfind('/'); last != slash) {
            c.player = text.substr(slash + 1, last - slash - 1);
            std::int64_t rank = 0;
            const char* end = text.data() + text.size();
            const auto [at, ec] = std::from_chars(text.data() + last + 1, end, rank);
            if (ec != std::errc() || at != end || rank < 0 || last + 1 == text.size() || text.size() - last > 19)
                return std::nullopt;
            c.rank = rank;
        }
        return c;
    }
};

}  // namespace sparts::storage
