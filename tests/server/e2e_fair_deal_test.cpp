// End to end: provably fair deals. Every client is shown the deal's commitment
// when the game starts (and in a snapshot mid-game, after a restart too); at the
// end the seed and salt are revealed, SHA-256 of them is that commitment, the
// seed deals again exactly the cards each seat was dealt, and the archived
// record passes `sparts verify --commitment` with the commitment shown at the
// start (and fails with another).
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>
#include "engine/game.hpp"
#include "http_client.hpp"
#include "protocol/deal_commitment.hpp"
#include "protocol/event_json.hpp"
#include "protocol/ruleset_json.hpp"
#include "test_client.hpp"
#include "test_server.hpp"

using namespace sparts::e2e;

namespace {

// The `event` of each event frame a bot was shown, of one type.
std::vector<json> events_of(const Bot& b, const std::string& type) {
    std::vector<json> out;
    for (const auto& f : b.events)
        if (f.at("event").value("type", "") == type) out.push_back(f.at("event"));
    return out;
}

std::string shell_quoted(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// `sparts verify FILE [--commitment HEX]`: its exit code and what it printed.
std::pair<int, std::string> sparts_verify(const std::filesystem::path& file, const std::string& commitment) {
    const auto out = file.string() + ".out";
    const std::string command = shell_quoted(SPARTS_CLI) + " verify " + shell_quoted(file.string()) + " --commitment " +
                                commitment + " >" + shell_quoted(out) + " 2>&1";
    const int status = std::system(command.c_str());
    std::ifstream in(out);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, text};
}

}  // namespace

TEST_CASE("e2e: the deal is committed to at the start, shown again after a restart, revealed at the end, and the "
          "seed deals every card each seat was dealt") {
    const std::string db = fresh_database_path("fair-deal");
    const std::vector<std::string> flags = {"--messages-per-second", "100000", "--database", db, "--table-grace", "600"};
    std::string table, commitment;
    std::vector<std::string> tokens;
    std::vector<std::uint64_t> last_seqs;
    std::vector<std::set<std::string>> hands;
    std::vector<int> trick_cards;
    std::vector<std::vector<json>> dealt(4);  // each seat's cards_dealt events, both servers

    // Server 1: four players and a spectator; everyone sees one commitment; SIGTERM mid-hand.
    {
        TestServer server(flags);
        EventLoop loop;
        TableGame g = set_up_table(loop, server.port(), "fair-1", create_table("spades", {{"hand_cap", 2}}), 4, 1, 77);
        table = g.table;
        g.clients[0]->request_ok({{"type", "start"}, {"table", table}});
        run_until(loop, g.all(), [&] { return g.seat(0).trick_cards == 2; }, "two cards into the first trick");
        for (Bot* b : g.all()) {
            const auto started = events_of(*b, "game_started");
            REQUIRE(started.size() == 1);
            const std::string c = started[0].value("deal_commitment", "");
            CHECK(sparts::is_deal_commitment(c));
            if (commitment.empty()) commitment = c;
            CHECK(c == commitment);
            // Nothing of the seed or salt while the game runs.
            CHECK(events_of(*b, "deal_revealed").empty());
        }
        REQUIRE(stop_server(server, loop).value_or(-1) == 0);
        for (std::size_t i = 0; i < g.bots.size(); ++i) {
            tokens.push_back(g.clients[i]->token());
            last_seqs.push_back(g.bots[i]->last_seq.value_or(0));
            hands.push_back(g.bots[i]->hand);
            trick_cards.push_back(g.bots[i]->trick_cards);
            if (i < 4) dealt[i] = events_of(*g.bots[i], "cards_dealt");
        }
    }

    // Server 2, same file: the table comes back with the same commitment, in a newcomer's snapshot too.
    TestServer server(flags);
    EventLoop loop;
    std::vector<std::unique_ptr<TestClient>> clients;
    std::vector<std::unique_ptr<Bot>> bots;
    for (std::size_t i = 0; i < 5; ++i) {
        clients.push_back(std::make_unique<TestClient>(loop, server.port(), "fair-2-" + std::to_string(i)));
        REQUIRE(clients.back()->hello("back", tokens[i]).value("type", "") == "ok");
        clients.back()->request_ok({{"type", "resume"}, {"table", table}, {"seq", last_seqs[i]}});
        bots.push_back(std::make_unique<Bot>(*clients.back(), table, i < 4 ? static_cast<int>(i) : -1, 900 + i));
        bots.back()->last_seq = last_seqs[i];
        bots.back()->hand = hands[i];
        bots.back()->trick_cards = trick_cards[i];
    }
    TestClient newcomer(loop, server.port(), "fair-2-newcomer");
    REQUIRE(newcomer.hello("late").value("type", "") == "ok");
    newcomer.request_ok({{"type", "watch"}, {"table", table}});
    const json snapshot = newcomer.wait_for([](const json& f) { return f.value("type", "") == "snapshot"; }, "snapshot");
    CHECK(snapshot.value("deal_commitment", "") == commitment);
    CHECK_FALSE(snapshot.contains("deal"));

    std::vector<Bot*> all;
    for (auto& b : bots) all.push_back(b.get());
    run_until(loop, all,
              [&] {
                  return std::all_of(all.begin(), all.end(), [](Bot* b) { return !events_of(*b, "deal_revealed").empty(); });
              },
              "the deal revealed after the restart");
    for (Bot* b : all)
        for (const auto& p : b->problems) FAIL_CHECK(p);

    // The reveal: right after game_over, the same for everyone, and it opens the commitment.
    std::string seed_text, salt;
    for (Bot* b : all) {
        const auto revealed = events_of(*b, "deal_revealed");
        REQUIRE(revealed.size() == 1);
        const json& r = revealed[0];
        CHECK(r.at("game") == 1);
        CHECK(r.at("commitment") == commitment);
        if (seed_text.empty()) seed_text = r.at("seed").get<std::string>(), salt = r.at("salt").get<std::string>();
        CHECK(r.at("seed") == seed_text);
        CHECK(r.at("salt") == salt);
        const auto over_at = std::find_if(b->events.begin(), b->events.end(),
                                          [](const json& f) { return f.at("event").value("type", "") == "game_over"; });
        REQUIRE(over_at != b->events.end());
        REQUIRE(over_at + 1 != b->events.end());
        CHECK((over_at + 1)->at("event").value("type", "") == "deal_revealed");
    }
    const std::uint64_t seed = std::stoull(seed_text);
    CHECK(sparts::deal_commitment(seed, salt) == commitment);
    // A finished game's snapshot reveals it too.
    TestClient after(loop, server.port(), "fair-2-after");
    REQUIRE(after.hello("later").value("type", "") == "ok");
    after.request_ok({{"type", "watch"}, {"table", table}});
    const json final_snapshot = after.wait_for([](const json& f) { return f.value("type", "") == "snapshot"; }, "snapshot");
    CHECK(final_snapshot.at("deal") == json({{"seed", seed_text}, {"salt", salt}, {"commitment", commitment}}));

    // The seed deals the first hand's cards exactly as each seat was shown them ...
    for (std::size_t i = 0; i < 4; ++i) {
        const auto more = events_of(*bots[i], "cards_dealt");
        dealt[i].insert(dealt[i].end(), more.begin(), more.end());
    }
    const auto rules = sparts::ruleset_from_json(json::parse(R"({"preset":"spades","options":{"hand_cap":2}})"));
    REQUIRE(rules);
    auto game = sparts::Game::create(*rules, seed);
    REQUIRE(game);
    std::vector<json> first_deal(4);
    for (const sparts::Event& e : game->start()) {
        const json seen = sparts::to_json(e);
        if (seen.value("type", "") == "cards_dealt") first_deal[seen.at("seat").get<std::size_t>()] = seen;
    }
    // ... and every hand's, as the archive deals them again from the revealed seed.
    const HttpReply r = http_get(server.port(), "/api/games/" + table + "/1");
    REQUIRE(r.status == 200);
    const json archived = json::parse(r.body);
    CHECK(archived.at("seed") == seed_text);
    CHECK(archived.at("salt") == salt);
    CHECK(archived.at("deal_commitment") == commitment);
    const json& archived_hands = archived.at("hands");
    REQUIRE(archived_hands.size() == 2);
    for (std::size_t s = 0; s < 4; ++s) {
        CAPTURE(s);
        std::erase_if(dealt[s], [&](const json& e) { return e.at("seat") != static_cast<int>(s); });  // others': counts only
        REQUIRE(dealt[s].size() == 2);
        CHECK(dealt[s][0].at("cards") == first_deal[s].at("cards"));
        for (std::size_t h = 0; h < 2; ++h) CHECK(dealt[s][h].at("cards") == archived_hands[h].at("deal").at(std::to_string(s)));
    }

    // The record: its deal proof, and sparts verify with the commitment shown at the start.
    const HttpReply rec = http_get(server.port(), "/api/games/" + table + "/1/record");
    REQUIRE(rec.status == 200);
    const json record = json::parse(rec.body);
    CHECK(record.at("deal") == json({{"salt", salt}, {"commitment", commitment}}));
    const auto file = std::filesystem::path(db).parent_path() / ("fair-deal-" + std::to_string(::getpid()) + ".json");
    std::ofstream(file) << rec.body;
    const auto [code, out] = sparts_verify(file, commitment);
    CHECK(code == 0);
    CHECK(out.find("deals committed to as shown") != std::string::npos);
    std::string other = commitment;
    other[0] = other[0] == '0' ? '1' : '0';
    CHECK(sparts_verify(file, other).first == 2);
    CHECK(archived.at("deal_verified") == true);

    // A salt changed in the database since: the archive and sparts verify both catch it, since they
    // check against the commitment the players were shown, not one made again from what is stored.
    REQUIRE(stop_server(server, loop).value_or(-1) == 0);
    {
        SQLite::Database raw(db, SQLite::OPEN_READWRITE);
        SQLite::Statement update(raw, "UPDATE archive SET salt = ? WHERE table_id = ?");
        update.bind(1, std::string(32, 'f'));
        update.bind(2, table);
        REQUIRE(update.exec() == 1);
    }
    TestServer after_tamper(flags);
    const HttpReply tampered = http_get(after_tamper.port(), "/api/games/" + table + "/1");
    REQUIRE(tampered.status == 200);
    CHECK(json::parse(tampered.body).at("deal_verified") == false);
    const HttpReply tampered_record = http_get(after_tamper.port(), "/api/games/" + table + "/1/record");
    REQUIRE(tampered_record.status == 200);
    std::ofstream(file) << tampered_record.body;
    const auto [tampered_code, tampered_out] = sparts_verify(file, commitment);
    CHECK(tampered_code == 2);
    CHECK(tampered_out.find("the deal proof fails") != std::string::npos);
}
