#include "storage/rating_book.hpp"

#include <set>
#include "ratings/game_rating.hpp"

namespace sparts::storage {

void RatingBook::put(PresetRating row) {
    auto key = std::make_pair(row.player, row.preset);
    rows_.insert_or_assign(std::move(key), std::move(row));
}

namespace {

bool rateable(const FinishGame& game) {
    if (game.rated.size() < 2 || game.preset.empty()) return false;
    std::set<std::string> seen;
    for (const RatedSeat& s : game.rated)
        if (s.player.empty() || !seen.insert(s.player).second) return false;
    return true;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> RatingBook::keys_of(const FinishGame& game) {
    std::vector<std::pair<std::string, std::string>> out;
    if (!rateable(game)) return out;
    for (const RatedSeat& s : game.rated) out.emplace_back(s.player, game.preset);
    return out;
}

bool RatingBook::apply(const FinishGame& game) {
    if (!rateable(game)) return false;
    std::vector<ratings::GameSeat> seats;
    std::vector<std::string> abandoned;
    std::vector<PresetRating*> rows;
    for (const RatedSeat& s : game.rated) {
        auto [it, fresh] = rows_.try_emplace({s.player, game.preset});
        if (fresh) {
            it->second.player = s.player;
            it->second.preset = game.preset;
        }
        PresetRating& row = it->second;
        rows.push_back(&row);
        seats.push_back({s.player, {row.rating, row.deviation, row.volatility}, s.team, s.place});
        if (s.abandoned) abandoned.push_back(s.player);
    }
    const auto after = ratings::rate_game(seats, abandoned);
    for (std::size_t i = 0; i < game.rated.size(); ++i) {
        const RatedSeat& s = game.rated[i];
        PresetRating& row = *rows[i];
        row.last_change = after[i].rating.rating - row.rating;
        row.rating = after[i].rating.rating;
        row.deviation = after[i].rating.deviation;
        row.volatility = after[i].rating.volatility;
        ++row.games;
        if (s.place == 1 && !s.abandoned) ++row.wins;
        row.stats += s.stats;
        row.last_table = game.table;
        row.last_game = game.game;
        row.updated = game.at;
        changed_[{s.player, game.preset}] = true;
    }
    return true;
}

const PresetRating* RatingBook::find(const std::string& player, const std::string& preset) const {
    const auto it = rows_.find({player, preset});
    return it == rows_.end() ? nullptr : &it->second;
}

std::vector<PresetRating> RatingBook::changed() const {
    std::vector<PresetRating> out;
    for (const auto& [key, yes] : changed_)
        if (yes) out.push_back(rows_.at(key));
    return out;
}

std::vector<PresetRating> RatingBook::all() const {
    std::vector<PresetRating> out;
    for (const auto& [key, row] : rows_) out.push_back(row);
    return out;
}

}  // namespace sparts::storage
