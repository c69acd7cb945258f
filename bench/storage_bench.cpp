// The storage benchmark.
//
//   storage_bench append [--seconds S] [--tables N] [--db PATH]
//     N tables each keep one batch in flight (an action and its two events, as
//     a card play writes), as the server's tables do while their clients wait
//     for the events; prints events committed a second, batches per commit.
//
//   storage_bench open-tables --db PATH [--tables N] [--actions K]
//     writes N open tables, each with a game of `spades` in progress after K
//     random legal actions (and their events), for measuring how long the
//     server takes to bring them back: start sparts-server on PATH and read
//     its "open tables brought back in ... ms" line.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/game.hpp"
#include "engine/random_policy.hpp"
#include "protocol/action_json.hpp"
#include "protocol/event_json.hpp"
#include "protocol/ruleset_json.hpp"
#include "storage/sqlite/sqlite_store.hpp"

using namespace sparts;
using namespace sparts::storage;

namespace {

struct Args {
    std::string mode;
    std::string db = "storage-bench.db";
    double seconds = 5;
    int tables = 1000;
    int actions = 40;
};

std::unique_ptr<SqliteStore> open_fresh(const std::string& path) {
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
    auto store = SqliteStore::open(path);
    if (!store) {
        std::fprintf(stderr, "%s\n", store.error().c_str());
        std::exit(1);
    }
    return std::move(*store);
}

Batch table_rows(const std::string& id, int number) {
    Batch b{OpenTable{id, number, R"({"options":{},"preset":"spades"})", "spades", 4, false, "", 60, "p0", 1}};
    for (int s = 0; s < 4; ++s) b.push_back(PutSeat{id, s, "p" + std::to_string(s), "P" + std::to_string(s), false, ""});
    return b;
}

int append(const Args& a) {
    auto store = open_fresh(a.db);
    for (int t = 0; t < a.tables; ++t) store->submit(table_rows("t" + std::to_string(t), t), nullptr);
    store->flush();
    const Action action = Action::play(*parse_card("QS"));
    std::vector<std::uint64_t> seq(static_cast<std::size_t>(a.tables), 0);
    std::mutex m;
    std::condition_variable cv;
    std::vector<int> ready;  // tables whose batch has committed
    for (int t = 0; t < a.tables; ++t) ready.push_back(t);
    std::uint64_t events = 0;
    const auto start = std::chrono::steady_clock::now();
    const auto stats0 = store->stats();
    for (;;) {
        std::vector<int> go;
        {
            std::unique_lock lock(m);
            cv.wait(lock, [&] { return !ready.empty(); });
            go.swap(ready);
        }
        if (std::chrono::steady_clock::now() - start > std::chrono::duration<double>(a.seconds)) break;
        for (int t : go) {
            const std::string id = "t" + std::to_string(t);
            auto& s = seq[static_cast<std::size_t>(t)];
            Batch b{EngineEvents{id, s + 1, 2, 1, 1, Cause{2, action, {}}}};
            s += 2;
            events += 2;
            store->submit(std::move(b), [&, t] {
                {
                    std::lock_guard lock(m);
                    ready.push_back(t);
                }
                cv.notify_one();
            });
        }
    }
    store->flush();
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const auto stats = store->stats();
    const double commits = static_cast<double>(stats.commits - stats0.commits);
    std::printf("tables %d: %.0f events/s committed, %.0f commits/s, %.1f batches per commit (%.1f s, WAL, synchronous=NORMAL)\n",
                a.tables, static_cast<double>(events) / secs, commits / secs,
                static_cast<double>(stats.batches - stats0.batches) / std::max(1.0, commits), secs);
    return 0;
}

int open_tables(const Args& a) {
    auto store = open_fresh(a.db);
    const auto rules = make_ruleset("spades", {});
    if (!rules) return 1;
    const std::string ruleset = to_json(*rules).dump();
    Rng rng(7, 0);
    for (int t = 0; t < a.tables; ++t) {
        const std::string id = "t" + std::to_string(t + 1);
        Batch b = table_rows(id, t + 1);
        const std::uint64_t seed = 1000 + static_cast<std::uint64_t>(t);
        b.push_back(StartGame{id, 1, seed, ruleset, R"([{"player":"p0","name":"P0"}])", 1, {}});
        Game g = *Game::create(*rules, seed);
        std::uint64_t seq = 0;
        const auto dealt = g.start();
        b.push_back(EngineEvents{id, seq + 1, static_cast<std::uint32_t>(dealt.size()), 1, 1, std::nullopt});
        seq += dealt.size();
        for (int i = 0; i < a.actions && !g.over(); ++i) {
            Seat seat = 0;
            while (!((g.waiting_for() >> seat) & 1)) ++seat;
            const Action action = random_action(g.legal_moves(seat), rng);
            const auto applied = g.apply(seat, action);
            if (!applied) return 1;
            b.push_back(EngineEvents{id, seq + 1, static_cast<std::uint32_t>(applied->size()), 1, 2,
                                     Cause{seat, action, {}}});
            seq += applied->size();
        }
        store->submit(std::move(b), nullptr);
    }
    store->flush();
    std::printf("%s: %d open spades tables, %d actions each\n", a.db.c_str(), a.tables, a.actions);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    Args a;
    if (argc < 2) {
        std::fprintf(stderr, "usage: storage_bench append|open-tables [--db PATH] [--seconds S] [--tables N] [--actions K]\n");
        return 1;
    }
    a.mode = argv[1];
    for (int i = 2; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--db")) a.db = argv[i + 1];
        else if (!std::strcmp(argv[i], "--seconds")) a.seconds = std::atof(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--tables")) a.tables = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--actions")) a.actions = std::atoi(argv[i + 1]);
    }
    if (a.mode == "append") return append(a);
    if (a.mode == "open-tables") return open_tables(a);
    std::fprintf(stderr, "unknown mode %s\n", a.mode.c_str());
    return 1;
}
