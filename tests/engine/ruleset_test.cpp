#include <doctest/doctest.h>

#include "engine/game.hpp"
#include "engine/option.hpp"
#include "engine/random_policy.hpp"
#include "support/harness_policy.hpp"

using namespace sparts;
using sparts::testing::next_actor;

TEST_CASE("every preset validates and names itself") {
    for (int p = 0; p < kPresetCount; ++p) {
        const auto preset = static_cast<Preset>(p);
        CHECK_FALSE(validate(preset_ruleset(preset)).has_value());
        auto parsed = parse_preset(to_string(preset));
        REQUIRE(parsed);
        CHECK(*parsed == preset);
    }
    auto bad = parse_preset("bridge");
    REQUIRE_FALSE(bad);
    CHECK(bad.error().code == ErrorCode::unknown_preset);
}

TEST_CASE("options are refused with a clear error and change nothing") {
    Ruleset r = preset_ruleset(Preset::spades);
    const Ruleset before = r;
    auto e = set_option(r, "no_such_option", "1");
    REQUIRE(e);
    CHECK(e->code == ErrorCode::unknown_option);
    e = set_option(r, "hearts_mode", "traditional");  // a bga-sparts option
    REQUIRE(e);
    CHECK(e->code == ErrorCode::option_not_for_ruleset);
    CHECK(e->message.find("spades") != std::string::npos);
    e = set_option(r, "sandbag_penalty", "7");
    REQUIRE(e);
    CHECK(e->code == ErrorCode::invalid_option_value);
    CHECK(e->message.find("off, 10, 5 or bag-back") != std::string::npos);
    e = set_option(r, "target_score", "lots");
    REQUIRE(e);
    CHECK(e->code == ErrorCode::invalid_option_value);
    CHECK(r.target_score == before.target_score);
    CHECK(r.bag_rule == before.bag_rule);
}

TEST_CASE("the seats option follows the deal tables and each preset's range") {
    auto five = make_ruleset("sparts", std::vector<OptionSetting>{{"seats", "5"}});
    REQUIRE(five);
    CHECK(five->hand_size == 10);
    CHECK(five->center_size() == 2);
    auto six = make_ruleset("sparts", std::vector<OptionSetting>{{"seats", "6"}});
    REQUIRE(six);
    CHECK(six->hand_size == 8);
    CHECK(six->center_size() == 4);
    auto seven = make_ruleset("spartsel", std::vector<OptionSetting>{{"seats", "7"}});
    REQUIRE(seven);
    CHECK(seven->hand_size == 7);
    CHECK(seven->center_size() == 3);
    auto too_many = make_ruleset("sparts", std::vector<OptionSetting>{{"seats", "7"}});
    REQUIRE_FALSE(too_many);
    CHECK(too_many.error().code == ErrorCode::invalid_option_value);
    CHECK(too_many.error().message.find("4 to 6") != std::string::npos);
}

TEST_CASE("deals that do not add up are refused") {
    Ruleset r = preset_ruleset(Preset::spartsel);
    r.hand_size = 14;
    auto e = validate(r);
    REQUIRE(e);
    CHECK(e->code == ErrorCode::invalid_deal);
    CHECK(e->message.find("56 cards") != std::string::npos);
}

TEST_CASE("options on the rules document's list carry a source and round-trip their value") {
    for (const OptionInfo& o : option_table()) {
        CHECK(std::string(o.source).size() > 10);
        for (int p = 0; p < kPresetCount; ++p) {
            Ruleset r = preset_ruleset(static_cast<Preset>(p));
            if (!option_applies(o, r.family())) continue;
            const std::string value = o.get(r);
            Ruleset again = r;
            CHECK_MESSAGE(!set_option(again, o.name, value), o.name);
            CHECK(o.get(again) == value);
        }
    }
}

TEST_CASE("a stacked deal must hold every card exactly once") {
    const Ruleset r = preset_ruleset(Preset::spades);
    StackedDeal d;
    const CardSet deck = CardSet::deck(1, 0);
    for (int i = 0; i < 52; ++i) d.hands[i % 4].insert(deck.nth(i));
    CHECK(Game::create(r, 1, {d}));
    StackedDeal twice = d;
    twice.hands[0].erase(twice.hands[0].first());
    twice.hands[0].insert(d.hands[1].first());
    auto bad = Game::create(r, 1, {twice});
    REQUIRE_FALSE(bad);
    CHECK(bad.error().code == ErrorCode::invalid_stacked_deal);
}

TEST_CASE("the hand cap ends a game that would run on") {
    auto r = make_ruleset("spades", std::vector<OptionSetting>{{"hand_cap", "2"}, {"target_score", "10000"}});
    REQUIRE(r);
    Game g = std::move(*Game::create(*r, 9));
    g.start();
    Rng rng(9, 1);
    GameOver over{};
    while (!g.over()) {
        const Seat s = next_actor(g);
        auto res = g.apply(s, random_action(g.legal_moves(s), rng));
        REQUIRE(res);
        for (const Event& e : *res)
            if (auto* o = std::get_if<GameOver>(&e)) over = *o;
    }
    CHECK(over.reason == GameEndReason::hand_cap);
    CHECK(over.hands_played == 2);
}

TEST_CASE("the game clock: only the table reports it, only games with a clock have one") {
    Game ww = std::move(*Game::create(preset_ruleset(Preset::worldwinner_spades), 4));
    ww.start();
    CHECK(ww.legal_moves(kTableSeat).kind == ActionKind::clock_expired);
    auto by_seat = ww.apply(0, Action::clock_expired());
    REQUIRE_FALSE(by_seat);
    CHECK(by_seat.error().code == ErrorCode::invalid_seat);
    auto r = ww.apply(kTableSeat, Action::clock_expired());
    REQUIRE(r);
    REQUIRE(r->size() == 1);
    const auto& over = std::get<GameOver>((*r)[0]);
    CHECK(over.reason == GameEndReason::game_clock);
    CHECK(over.hands_played == 0);
    CHECK(over.ranks[0] == 1);
    CHECK(over.ranks[1] == 1);  // 0 to 0: a shared rank
    CHECK(ww.over());
    auto after = ww.apply(kTableSeat, Action::clock_expired());
    REQUIRE_FALSE(after);
    CHECK(after.error().code == ErrorCode::game_over);

    Game spades = std::move(*Game::create(preset_ruleset(Preset::spades), 4));
    spades.start();
    CHECK_FALSE(spades.legal_moves(kTableSeat).any);
    auto none = spades.apply(kTableSeat, Action::clock_expired());
    REQUIRE_FALSE(none);
    CHECK(none.error().code == ErrorCode::no_game_clock);
}

TEST_CASE("the same seed deals the same cards, and different seeds differ") {
    const Ruleset r = preset_ruleset(Preset::sparts);
    Game a = std::move(*Game::create(r, 42)), b = std::move(*Game::create(r, 42)), c = std::move(*Game::create(r, 43));
    a.start(), b.start(), c.start();
    CHECK(a.state() == b.state());
    CHECK_FALSE(a.state().hands == c.state().hands);
    // A fixed point of the project's own shuffle, so that a change to it shows.
    CHECK(to_string(a.state().hands[0].first()) == to_string(b.state().hands[0].first()));
}

TEST_CASE("the project's PRNG gives the same numbers everywhere") {
    Rng rng(12345, 0);
    const std::uint64_t first = rng.next();
    Rng again(12345, 0);
    CHECK(again.next() == first);
    // Reference value of xoshiro256** seeded by SplitMix64 from (12345, stream 0).
    std::uint64_t st = 12345;
    std::uint64_t s[4];
    for (auto& w : s) w = splitmix64(st);
    const std::uint64_t expected = ((s[1] * 5) << 7 | (s[1] * 5) >> 57) * 9;
    CHECK(first == expected);
    for (int i = 0; i < 1000; ++i) CHECK(rng.below(7) < 7);
}

// Seed 002: "Deal an equal number of cards to each player (any extra going into
// the center)"; issue: "any deal whose numbers don't add up is refused with a
// clear error saying why".
TEST_CASE("a chosen hand size is dealt, and one that does not add up is refused with the reason") {
    auto six = make_ruleset("spartsel", std::vector<OptionSetting>{{"seats", "8"}, {"hand_size", "6"}});
    REQUIRE(six);
    CHECK(six->hand_size == 6);
    CHECK(six->center_size() == 4);
    Game g = std::move(*Game::create(*six, 1));
    g.start();
    for (int s = 0; s < 8; ++s) CHECK(g.state().hands[s].size() == 6);
    // The order of options does not matter: seats after hand_size keeps the chosen size.
    auto later = make_ruleset("spartsel", std::vector<OptionSetting>{{"hand_size", "6"}, {"seats", "8"}});
    REQUIRE(later);
    CHECK(later->hand_size == 6);

    auto too_big = make_ruleset("spartsel", std::vector<OptionSetting>{{"seats", "8"}, {"hand_size", "7"}});
    REQUIRE_FALSE(too_big);
    CHECK(too_big.error().code == ErrorCode::invalid_deal);
    CHECK(too_big.error().message == "8 hands of 7 need 56 cards, but only 52 are in play");
    auto center = make_ruleset("spartsel", std::vector<OptionSetting>{{"seats", "4"}, {"hand_size", "3"}});
    REQUIRE_FALSE(center);
    CHECK(center.error().message.find("40 cards in the center") != std::string::npos);
    auto two = make_ruleset("spartsel", std::vector<OptionSetting>{{"seats", "2"}, {"hand_size", "20"}});
    REQUIRE_FALSE(two);
    CHECK(two.error().message.find("two players") != std::string::npos);
    auto sparts = make_ruleset("sparts", std::vector<OptionSetting>{{"hand_size", "12"}});
    REQUIRE_FALSE(sparts);
    CHECK(sparts.error().code == ErrorCode::invalid_deal);
    auto back = make_ruleset("spartsel", std::vector<OptionSetting>{{"hand_size", "6"}, {"hand_size", "auto"}, {"seats", "5"}});
    REQUIRE(back);
    CHECK(back->hand_size == 10);
}
