// Quick play's matching: who waits for which game, and which of them make a
// table now. Pure (no Asio, no clock of its own): the lobby owns one
// QuickPlayQueue per ruleset, on its strand, and asks it to match as players
// come and every quarter second.
//
// Decisions:
// - The longest waiting is seated first. Around it, players whose ratings are
//   within its band make a table: the band starts at ±100 rating points and
//   widens by 100 a second waited, so that a rare rating still finds a game.
// - Once the longest waiting has waited `bot_wait`, the table is made with the
//   players in its band and bots in the other seats: nobody waits longer.
// - A table is made whole or not at all: every seat a player of the queue or a bot.
#pragma once
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace sparts::server {

class QuickPlayQueue {
public:
    using Clock = std::chrono::steady_clock;
    struct Waiting {
        std::string player;
        double rating = 1500;
        Clock::time_point since{};
    };
    struct Match {
        std::vector<std::string> players;  // in the order they came; a seat each, from seat 0
        int bots = 0;                      // the other seats
    };

    QuickPlayQueue(int seats, std::chrono::milliseconds bot_wait) : seats_(seats), bot_wait_(bot_wait) {}

    // False if the player already waits here.
    bool add(Waiting w);
    bool remove(const std::string& player);
    bool contains(const std::string& player) const;
    std::size_t size() const { return waiting_.size(); }
    bool empty() const { return waiting_.empty(); }

    // The tables to make now; their players leave the queue.
    std::vector<Match> match(Clock::time_point now);

    // How far from a player's rating others may be, after waiting `waited`.
    static double band(Clock::duration waited);

private:
    int seats_;
    std::chrono::milliseconds bot_wait_;
    std::vector<Waiting> waiting_;  // in the order they came
};

}  // namespace sparts::server
