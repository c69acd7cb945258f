// The game side of `sparts-bot` (main.cpp is the network side): it reads the
// server's frames for one seat (protocol/PROTOCOL.md) and answers each
// `your_turn` with the engine's bot (bots/bot.hpp).
//
// The bot decides from a SeatView and a BotMemory, as at the server's own
// tables. The memory is fed the game's events as they arrive (parsed back from
// their wire form); the view is rebuilt for each decision from the memory, the
// trick on the table and the hand's pass as the events told them, with the
// legal moves of the `your_turn` itself (the server's word on what is legal).
// Sitting down in the middle of a game, the bot starts from the snapshot: its
// cards, the bids, the scores, and the hand's finished tricks (the view's
// past_tricks), which it reads card by card as if it had watched them. What
// no view tells stays unknown: where its cards went in a pass other than one
// round to one seat (a nil pass, multi-pass), and, in bga-sparts, how many
// Hearts hands came before (the next Hearts pass's direction).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bots/bot.hpp"
#include "engine/ruleset.hpp"

namespace sparts::botclient {

class SeatPlayer {
public:
    SeatPlayer(BotLevel level, const BotOptions& options, std::uint64_t seed);

    // Reads one server message; returns the requests to send in answer (acts).
    std::vector<nlohmann::json> on_message(const nlohmann::json& message);

    void set_table(std::string table) { table_ = std::move(table); }
    const std::string& table() const { return table_; }
    int seat() const { return seat_; }
    int games_over() const { return games_over_; }
    int decisions() const { return decisions_; }
    // The last game over event (its wire form), for the summary.
    const nlohmann::json& last_game_over() const { return last_over_; }
    // Acts the server refused for another reason than a stale turn.
    int refused() const { return refused_; }
    std::string last_refusal() const { return last_refusal_; }

    // The view a decision is made from, exposed for the tests.
    std::optional<SeatView> view_for(const nlohmann::json& legal) const;
    // What the seat remembers of the game (null before it knows the ruleset), for the tests.
    const BotMemory* memory() const { return memory_ ? &*memory_ : nullptr; }

private:
    void start_game(const Ruleset& rules);
    void on_engine_event(const nlohmann::json& event);
    void on_snapshot(const nlohmann::json& message);
    std::vector<nlohmann::json> on_your_turn(const nlohmann::json& message);

    BotLevel level_;
    BotOptions options_;
    std::uint64_t seed_;
    std::string table_;
    int seat_ = -1;
    std::optional<Ruleset> rules_;
    std::optional<BotMemory> memory_;
    std::optional<Rng> rng_;
    int game_ = 0;
    int games_over_ = 0;
    int decisions_ = 0;
    int refused_ = 0;
    std::string last_refusal_;
    nlohmann::json last_over_;

    // What the memory does not keep: the trick on the table, the broken suits,
    // this round's pass.
    Trick trick_{};
    int trick_number_ = 0;
    bool hearts_broken_ = false, spades_broken_ = false;
    std::uint16_t blind_nils_ = 0;  // the seats that bid blind nil this hand (it scores twice a nil)
    int pass_count_ = 0, pass_distance_ = 0, pass_round_ = 0, pass_back_count_ = 0;
    int passed_key_ = -1;  // the game, hand and round of the last pass made
};

}  // namespace sparts::botclient
