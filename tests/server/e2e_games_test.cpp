// End to end: whole games through the real server over loopback WebSockets.
#include <doctest/doctest.h>

#include <algorithm>
#include "test_client.hpp"
#include "test_server.hpp"

using namespace sparts::e2e;

namespace {

// Every bot's problems (seq gaps or repeats, refused actions, a your_turn to a
// spectator...) as test failures.
void check_bots(const TableGame& g) {
    for (const auto& b : g.bots)
        for (const auto& p : b->problems) FAIL_CHECK(p);
}

const std::vector<std::string> kFlatOut = {"--messages-per-second", "100000", "--bot-delay-ms", "0"};

}  // namespace

TEST_CASE("e2e: four clients play a full game of every preset, with gapless seqs and one game_over") {
    TestServer server(kFlatOut);
    EventLoop loop;
    const std::vector<std::string> presets = {"bga-sparts", "sparts", "spartsel", "spades", "worldwinner-spades", "hearts"};
    // All five tables play at once, as they would on a live server.
    std::vector<TableGame> games;
    for (std::size_t i = 0; i < presets.size(); ++i)
        games.push_back(set_up_table(loop, server.port(), "games-" + presets[i], create_table(presets[i]), 4, 1, 100 + i));
    for (auto& g : games) g.clients[0]->request_ok({{"type", "start"}, {"table", g.table}});
    std::vector<Bot*> everyone;
    for (auto& g : games)
        for (Bot* b : g.all()) everyone.push_back(b);
    run_until(
        loop, everyone, [&] { return std::all_of(everyone.begin(), everyone.end(), [](Bot* b) { return b->games_over > 0; }); },
        "game over at every table", Millis(300'000));

    for (std::size_t i = 0; i < games.size(); ++i) {
        TableGame& g = games[i];
        CAPTURE(presets[i]);
        check_bots(g);
        const json& over = *g.seat(0).game_over;
        for (const auto& b : g.bots) {
            CHECK(*b->game_over == over);  // the same frame: same seq, same scores and ranks
            CHECK(b->hands_started >= 1);
            // Every event frame from the first on, one seq each, none missing.
            REQUIRE(!b->events.empty());
            CHECK(b->events.back().at("seq").get<std::uint64_t>() - b->events.front().at("seq").get<std::uint64_t>() + 1 ==
                  b->events.size());
        }
        const json& e = over.at("event");
        CHECK(e.at("scores").size() == e.at("ranks").size());
        CHECK(e.at("hands_played").get<int>() >= 1);
        for (int s = 0; s < 4; ++s) CHECK(g.seat(s).actions > 0);
        CHECK(g.bots[4]->actions == 0);
        CHECK(g.bots[4]->turns == 0);
    }
    // The server stops cleanly after all that (under a sanitizer: no report, no leak).
    const auto status = stop_server(server, loop);
    CHECK_MESSAGE(status == 0, server.output());
}
