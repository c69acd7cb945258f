// The rating rows one commit reads and changes: rated games applied to them in order, with
// sparts::ratings::rate_game (ratings/game_rating.hpp). Both stores' writers use it inside the
// transaction that ends the games (so a rating moves with its game's end or not at all), and
// the rebuild from the archive (rating_rebuild.hpp) uses it for every game in turn.
#pragma once
#include <map>
#include <string>
#include <utility>
#include <vector>
#include "storage/records.hpp"

namespace sparts::storage {

class RatingBook {
public:
    // A row as the store holds it now.
    void put(PresetRating row);
    // A rated game of a host's named rule set (FinishGame::rule_set) is rated twice, each time
    // against the ratings its players had before it: on its preset's board and on the rule set's
    // (records.hpp, rule_set_board), as rows of their own.
    // The (player, preset) rows a rated game needs (none for a game apply() would not rate):
    // read them, put them, then apply it.
    static std::vector<std::pair<std::string, std::string>> keys_of(const FinishGame& game);
    // The game's players' rows after it: every one rated against the ratings all had before it
    // (a player without a row starts at 1500/350/0.06). A game that is not rated (no seats, or a
    // player in two seats) changes nothing: false.
    bool apply(const FinishGame& game);

    const PresetRating* find(const std::string& player, const std::string& preset) const;
    // The rows apply() changed, by (player, preset).
    std::vector<PresetRating> changed() const;
    // Every row, by (player, preset).
    std::vector<PresetRating> all() const;

private:
    void apply_on(const FinishGame& game, const std::string& board);

    std::map<std::pair<std::string, std::string>, PresetRating> rows_;
    std::map<std::pair<std::string, std::string>, bool> changed_;
};

}  // namespace sparts::storage
