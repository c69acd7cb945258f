#include <doctest/doctest.h>

#include "storage/game_log.hpp"
#include "storage/played_game.hpp"

using namespace sparts::storage;

namespace game_log_test {

GameLog log_of(const sparts::test::PlayedGame& g) {
    GameLog log;
    for (const Write& w : g.writes) {
        if (const auto* e = std::get_if<EngineEvents>(&w))
            log.entries.push_back(GameLogEntry::engine_events(e->seq, e->at, e->count, e->cause));
        else if (const auto* t = std::get_if<AppendEvent>(&w))
            log.entries.push_back(GameLogEntry::table(t->seq, t->at, t->type, t->payload));
    }
    return log;
}

}  // namespace game_log_test

using game_log_test::log_of;

TEST_CASE("a game log encodes in a few bytes an action and renders the events as they were published") {
    for (const std::string preset : {"spades", "bga-sparts", "sparts", "spartsel", "worldwinner-spades"}) {
        CAPTURE(preset);
        for (std::uint64_t seed : {1u, 2u, 3u}) {
            CAPTURE(seed);
            const auto g = sparts::test::play_game("t1", 3, seed, 100, 1'700'000'000'000, -1, preset);
            const GameLog log = log_of(g);
            const std::string bytes = encode(log);
            // the deal, then per action a tag, two deltas (a quarter second: two bytes), a count, a seat, two bytes of action; a time-out every 40 actions
            CHECK(bytes.size() <= 10 * g.actions.size() + 600);
            auto back = decode_game_log(bytes);
            REQUIRE_MESSAGE(back, (back ? "" : back.error()));
            CHECK(back->entries == log.entries);
            auto rendered = render(*back, g.ruleset, seed, 3);
            REQUIRE_MESSAGE(rendered, (rendered ? "" : rendered.error()));
            REQUIRE(rendered->events.size() == g.events.size());
            for (std::size_t i = 0; i < g.events.size(); ++i) {
                CAPTURE(i);
                CHECK(rendered->events[i].seq == g.events[i].seq);
                CHECK(rendered->events[i].at == g.events[i].at);
                CHECK(rendered->events[i].game == 3);
                CHECK(rendered->events[i].type == g.events[i].type);
                CHECK(rendered->events[i].payload == g.events[i].payload);
            }
            REQUIRE(rendered->actions.size() == g.actions.size());
            for (std::size_t i = 0; i < g.actions.size(); ++i) CHECK(rendered->actions[i].action == g.actions[i].action);
        }
    }
}

TEST_CASE("an action the compact form cannot give back to the byte is kept as its text") {
    GameLog log;
    GameLogEntry deal;
    deal.seq = 1;
    deal.events = 3;
    log.entries.push_back(deal);
    GameLogEntry odd;
    odd.seq = 4;
    odd.at = -5;  // before the epoch, and going back
    odd.cause = cause_from_text(2, R"({"type":"play","card":"QS"})");  // members in another order than the server writes
    CHECK_FALSE(odd.cause->text.empty());
    CHECK(cause_from_text(2, R"({"card":"QS","type":"play"})").text.empty());  // the server's own form: compact
    log.entries.push_back(odd);
    GameLogEntry verbatim;
    verbatim.kind = GameLogEntry::Kind::table_event;
    verbatim.seq = 9;  // a gap
    verbatim.at = 1'800'000'000'000;
    verbatim.type = "seat_taken";
    verbatim.payload = R"({"type":"seat_taken","seat":1,"player":{"id":"p\u00e9","name":"Zoë"}})";
    log.entries.push_back(verbatim);
    auto back = decode_game_log(encode(log));
    REQUIRE(back);
    CHECK(back->entries == log.entries);
}

TEST_CASE("a damaged game log is refused with a message, never read past its end") {
    const auto g = sparts::test::play_game("t1", 1, 5, 0, 1000, 60);
    const std::string bytes = encode(log_of(g));
    for (std::size_t cut = 0; cut < bytes.size(); ++cut) {
        auto back = decode_game_log(std::string_view(bytes).substr(0, cut));
        // A cut between two entries leaves a shorter log that decodes; any other cut is refused.
        if (back) CHECK(back->entries.size() < log_of(g).entries.size());
    }
    CHECK_FALSE(decode_game_log(""));
    CHECK_FALSE(decode_game_log(std::string("\x02\x00", 2)));             // another format
    CHECK_FALSE(decode_game_log(std::string("\x01\x00\x09\x00\x00", 5)));  // an unknown tag
    std::string bad_card = std::string("\x01\x00", 2);
    bad_card += std::string("\x01\x02\x00\x01\x00\x03\x7f", 7);  // play card id 127
    CHECK_FALSE(decode_game_log(bad_card));
    // An action the engine refuses: the render says which entry.
    GameLog log = log_of(g);
    log.entries[5].cause->action = sparts::Action::choose(sparts::HandKind::hearts);
    auto rendered = render(log, g.ruleset, 5, 1);
    REQUIRE_FALSE(rendered);
    CHECK(rendered.error().find("entry 5") != std::string::npos);
}

TEST_CASE("engine event types are told from the table's own") {
    CHECK(is_engine_event("card_played"));
    CHECK(is_engine_event("game_over"));
    CHECK(is_engine_event("cards_dealt"));
    CHECK_FALSE(is_engine_event("game_started"));
    CHECK_FALSE(is_engine_event("seat_taken"));
    CHECK_FALSE(is_engine_event("standings"));
}

TEST_CASE("a log whose first actions were kept event by event (a game in progress at the version-4 migration) "
          "renders the rest through the engine, in step") {
    const auto g = sparts::test::play_game("t1", 1, 9, 0, 1000, 80);
    const GameLog whole = log_of(g);
    GameLog mixed;
    std::size_t next_event = 0;  // index into g.events
    for (std::size_t i = 0; i < whole.entries.size(); ++i) {
        const GameLogEntry& e = whole.entries[i];
        const std::size_t n = e.kind == GameLogEntry::Kind::engine ? e.events : 1;
        // The deal stays an engine entry; the first twenty actions become stored events.
        if (e.kind == GameLogEntry::Kind::engine && e.cause && i < 24) {
            for (std::size_t k = 0; k < n; ++k) {
                const auto& ev = g.events[next_event + k];
                mixed.entries.push_back(GameLogEntry::table(ev.seq, ev.at, ev.type, ev.payload,
                                                            k == 0 ? e.cause : std::nullopt));
            }
        } else {
            mixed.entries.push_back(e);
        }
        next_event += n;
    }
    REQUIRE(mixed.entries.size() > whole.entries.size());
    auto back = decode_game_log(encode(mixed));
    REQUIRE(back);
    auto rendered = render(*back, g.ruleset, 9, 1);
    REQUIRE_MESSAGE(rendered, (rendered ? "" : rendered.error()));
    sparts::test::check_same_events(rendered->events, g.events);
    sparts::test::check_same_actions(rendered->actions, g.actions);
}
