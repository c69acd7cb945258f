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

// The boards a game is rated on: its preset's, and its rule set's (records.hpp, rule_set_board).
std::vector<std::string> boards_of(const FinishGame& game) {
    std::vector<std::string> out{game.preset};
    if (!game.rule_set.empty()) out.push_back(rule_set_board(game.rule_set));
    return out;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> RatingBook::keys_of(const FinishGame& game) {
    std::vector<std::pair<std::string, std::string>> out;
    if (!rateable(game)) return out;
    for (const std::string& board : boards_of(game))
        for (const RatedSeat& s : game.rated) out.emplace_back(s.player, board);
    return out;
}

bool RatingBook::apply(const FinishGame& game) {
    if (!rateable(game)) return false;
    for (const std::string& board : boards_of(game)) apply_on(game, board);
    return true;
}

void RatingBook::apply_on(const FinishGame& game, const std::string& board) {
    std::vector<ratings::GameSeat> seats;
    std::vector<std::string> abandoned;
    std::vector<PresetRating*> rows;
    for (const RatedSeat& s : game.rated) {
        auto [it, fresh] = rows_.try_emplace({s.player, board});
        if (fresh) {
            it->second.player = s.player;
            it->second.preset = board;
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
        changed_[{s.player, board}] = true;
    }
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
