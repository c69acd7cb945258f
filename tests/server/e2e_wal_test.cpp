// End to end: the running server checkpoints its write-ahead log. The
// checkpointer's connection had never read, and on such a connection SQLite
// 3.40's checkpoint copies nothing and reports success: the database file
// stayed at its first pages while sparts.db-wal grew without bound (1.9 GB in
// one run). Here a real server plays a whole game with a small restart
// threshold, and the log must be folded back and cut to its limit while the
// database file grows instead.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <sstream>
#include <string>
#include "http_client.hpp"
#include "test_client.hpp"
#include "test_server.hpp"

using namespace sparts::e2e;

namespace {


std::uintmax_t size_of(const std::filesystem::path& p) {
    std::error_code ec;
    const auto n = std::filesystem::file_size(p, ec);
    return ec ? 0 : n;
}

}  // namespace

TEST_CASE("e2e: while games are played the WAL is checkpointed, restarted and cut back to its limit, and the "
          "database file grows instead") {
    // (Since schema version 5 a whole game writes only some hundreds of kilobytes of log, 400 KB
    // under the sanitizers: a restart every 16 pages, the least the server takes, restarts it often.)
    constexpr int kRestartPages = 16;
    constexpr std::uintmax_t kLimit = 64 * 1024;
    TestServer server({"--wal-restart-pages", std::to_string(kRestartPages), "--wal-limit-bytes", std::to_string(kLimit),
                       "--bot-delay-ms", "10", "--messages-per-second", "100000"});
    const auto port = server.port();
    const auto db = server.dir() / "sparts.db";
    const auto wal = server.dir() / "sparts.db-wal";
    const std::uintmax_t db_at_start = size_of(db);

    EventLoop loop;
    TestClient human(loop, port, "wal-human");
    human.hello("human");
    const std::string table = human.request_ok(create_table("spades")).at("table").get<std::string>();
    human.request_ok({{"type", "sit"}, {"table", table}});
    for (int s = 1; s < 4; ++s) human.request_ok({{"type", "add_bot"}, {"table", table}});
    Bot me(human, table, 0, 11);
    human.request_ok({{"type", "start"}, {"table", table}});
    // A whole game of Spades: some 700 commits, each writing whole pages to the log (a few megabytes in all),
    // over several seconds (bots wait 10 ms a move), so that the checkpointer (twice a second) runs often.
    std::uintmax_t largest_wal = 0;
    // Seen at most a few pages over the limit after having been past it by more than a restart's worth
    // of pages (how far past depends on how the commits group, which depends on the build's speed).
    bool cut_back = false;
    run_until(loop, {&me}, [&] {
        const std::uintmax_t now = size_of(wal);
        if (largest_wal > kLimit + kRestartPages * 4120 && now <= kLimit + 32 * 4120) cut_back = true;
        largest_wal = std::max(largest_wal, now);
        return me.games_over == 1;
    }, "a game of spades played to the end");
    // The checkpointer runs twice a second: give it a moment after the last commit.
    // (A game's journal rows and record come to some tens of kilobytes since schema version 5.)
    constexpr std::uintmax_t kGrowth = 32 * 1024;
    for (int i = 0; i < 40 && size_of(db) <= db_at_start + kGrowth; ++i) loop.run_one(Clock::now() + Millis(100));

    const double restarts = metric(port, "sparts_db_wal_restarts_total");
    const double wal_metric = metric(port, "sparts_db_wal_bytes");
    MESSAGE("WAL largest " << largest_wal << " bytes, now " << size_of(wal) << "; database " << db_at_start << " -> "
                           << size_of(db) << " bytes; " << restarts << " restarts");
    // Restarts are needed only when a passive checkpoint falls behind the writer (the count is printed
    // above); whichever way, the log is bounded and its pages reach the database. A checkpoint on a
    // connection that never opened the log reports -1 pages.
    CHECK(metric(port, "sparts_db_checkpoints_total") > 0);
    CHECK(metric(port, "sparts_db_last_checkpoint_log_pages") >= 0);
    // Folded back: the database file holds the game now, not only the log.
    CHECK(size_of(db) > db_at_start + kGrowth);
    // Restarted (the checkpointer holds the writer between two commits for it) and cut back to its limit.
    CHECK(restarts >= 2);
    CHECK(cut_back);
    // The metric reads the file.
    CHECK(std::abs(wal_metric - static_cast<double>(size_of(wal))) < 1e6);
}
