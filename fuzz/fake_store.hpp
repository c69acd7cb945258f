// An in-memory storage::Store for the archive fuzz target: a few finished games,
// played through the engine when the store is made and kept as the SQLite store
// would keep them (events and actions as the protocol's JSON, players, result).
// list_games filters, orders and pages as SqliteStore::list_games does; the
// write side does nothing.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "storage/store.hpp"

namespace sparts::fuzz {

class FakeStore final : public storage::Store {
public:
    // Holds: t1 game 1 (sparts, one hand, four people: p1..p4), t1 game 2
    // (worldwinner-spades, ended by the table's clock in its second hand, with standings) and
    // t2 game 1 (spartsel, three seats, a person and two bots).
    FakeStore();

    const std::vector<storage::ArchivedGame>& games() const { return games_; }

    void submit(storage::Batch, std::function<void()> done) override { if (done) done(); }
    bool flush(std::optional<std::chrono::milliseconds>) override { return true; }
    std::vector<storage::StoredPlayer> players() override { return {}; }
    std::optional<storage::StoredPlayer> find_player(const std::string&) override { return std::nullopt; }
    std::vector<storage::OpenTableState> open_tables() override { return {}; }
    std::uint64_t last_table_number() override { return 2; }
    std::vector<storage::StoredBan> bans() override { return {}; }
    std::vector<storage::PendingWebhook> pending_webhooks(std::size_t) override { return {}; }
    storage::ArchivePage list_games(const storage::ArchiveQuery& query) override;
    std::optional<storage::ArchivedGame> load_game(const std::string& table, int game) override;
    // The fake keeps its games rendered, never encoded, and no fuzz target rebuilds ratings from records: none.
    std::optional<storage::ArchivedRecord> load_record(const std::string&, int) override { return std::nullopt; }
    storage::LeaderboardPage leaderboard(const storage::LeaderboardQuery&) override { return {}; }
    std::optional<storage::PlayerRatings> player_ratings(const std::string&) override { return std::nullopt; }
    std::vector<storage::ArchivedGameSummary> oldest_games(storage::Millis, int) override { return {}; }
    std::vector<storage::PresetRating> retired_ratings() override { return {}; }
    Outcome<std::unique_ptr<RetirementHold>, std::string> hold_retirement() override {
        return std::unique_ptr<RetirementHold>(std::make_unique<RetirementHold>());  // held
    }
    Stats stats() const override { return {}; }

private:
    std::vector<storage::ArchivedGame> games_;
    std::vector<std::vector<std::string>> player_ids_;  // per game, the people who sat in it
};

}  // namespace sparts::fuzz
