// sparts-bot's game side (tools/bot_client/seat_player.hpp): fed the frames a
// seat gets from the server (the events as that seat sees them, your_turn),
// it rebuilds the seat's view, and decides as a bot at the table would. Over
// whole games of every preset and option variant, its view agrees with the
// engine's view of the seat, and its (basic, deterministic) decisions are the
// ones the engine's own bot makes for that seat.
#include <doctest/doctest.h>

#include <bit>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bots/bot.hpp"
#include "engine/seed_support.hpp"
#include "engine/view.hpp"
#include "protocol/action_json.hpp"
#include "protocol/event_json.hpp"
#include "protocol/ruleset_json.hpp"
#include "protocol/view_json.hpp"
#include "support/variants.hpp"
#include "tools/bot_client/seat_player.hpp"

using namespace sparts;
using nlohmann::json;

namespace {

std::string bids_text(const SeatView& v) {
    std::string s;
    for (int i = 0; i < v.seats; ++i) s += std::to_string(v.bids[i]) + " ";
    return s;
}

bool same_view(const SeatView& a, const SeatView& b) {
    INFO("rebuilt bids " << bids_text(a) << "; true bids " << bids_text(b) << "; phase " << std::string(to_string(b.phase))
                         << ", hand " << int(b.hand_number));
    CHECK(a.phase == b.phase);
    CHECK(a.hand_number == b.hand_number);
    CHECK(a.dealer == b.dealer);
    CHECK(a.kind == b.kind);
    CHECK(a.hand == b.hand);
    CHECK(a.passed == b.passed);
    CHECK(a.received == b.received);
    CHECK(a.center_cards == b.center_cards);
    CHECK(a.center_given == b.center_given);
    bool same_bids = true;
    for (int s = 0; s < b.seats; ++s) same_bids &= a.bids[s] == b.bids[s];
    CHECK(same_bids);
    CHECK(a.trick == b.trick);
    CHECK(a.tricks == b.tricks);
    CHECK(a.hearts_broken == b.hearts_broken);
    CHECK(a.spades_broken == b.spades_broken);
    CHECK(a.partners == b.partners);
    CHECK(a.scores == b.scores);
    CHECK(a.bags == b.bags);
    CHECK(a.legal.cards == b.legal.cards);
    CHECK(a.legal.bids == b.legal.bids);
    if (a.phase == Phase::playing) {
        CHECK(a.trick_number == b.trick_number);
        CHECK(a.hand_sizes == b.hand_sizes);
    }
    return a.hand == b.hand && a.trick == b.trick && same_bids && a.tricks == b.tricks;
}

// What a seat restarted from a snapshot remembers of the hand, against the memory of the
// table's bot that watched it all. Where its own passed cards went is compared only for a
// pass of one round to one seat, which is all a view tells.
bool same_memory(const BotMemory& a, const BotMemory& b, bool compare_passes) {
    const int n = b.rules().seats;
    CHECK(a.hand_number() == b.hand_number());
    CHECK(a.played() == b.played());
    CHECK(a.center_taken() == b.center_taken());
    CHECK(a.center_cards() == b.center_cards());
    CHECK(a.trick_number() == b.trick_number());
    CHECK(a.hands_scored() == b.hands_scored());
    if (b.rules().family() == Family::hearts) CHECK(a.hearts_hands_played() == b.hearts_hands_played());
    bool same = a.played() == b.played();
    for (int s = 0; s < n; ++s) {
        const Seat seat = static_cast<Seat>(s);
        CAPTURE(s);
        CHECK(a.played_by(seat) == b.played_by(seat));
        CHECK(a.voids(seat) == b.voids(seat));
        CHECK(a.won(seat) == b.won(seat));
        CHECK(a.tricks(seat) == b.tricks(seat));
        same &= a.played_by(seat) == b.played_by(seat) && a.voids(seat) == b.voids(seat) && a.won(seat) == b.won(seat);
        if (compare_passes) {
            CHECK(a.known_held(seat) == b.known_held(seat));
            same &= a.known_held(seat) == b.known_held(seat);
        }
    }
    return same;
}

// One game: seat 0 is a SeatPlayer fed wire frames, the others the engine's bot.
// `moons`: counts seat 0's answers to a shot moon (moon_scoring "choose").
// `snapshot_at`: at seat 0's decision of that number (1-based), the SeatPlayer is
// replaced by a new one that starts from the table's snapshot, as after a restart.
int play(const Ruleset& rules, std::uint64_t seed, std::vector<StackedDeal> stacked = {}, int* moons = nullptr,
         int snapshot_at = 0) {
    Game g = *Game::create(rules, seed, std::move(stacked));
    int memories_compared = 0;
    auto fresh_player = [] {
        auto p = std::make_unique<botclient::SeatPlayer>(BotLevel::basic, BotOptions{}, 1);
        p->set_table("t1");
        p->on_message({{"type", "ok"}, {"re", "sit"}, {"table", "t1"}, {"seat", 0}});
        return p;
    };
    auto holder = fresh_player();
    std::vector<BotMemory> memory;
    std::vector<Rng> rng;
    for (int s = 0; s < rules.seats; ++s) {
        memory.emplace_back(rules, static_cast<Seat>(s));
        rng.emplace_back(seed, static_cast<std::uint64_t>(s));
    }
    std::uint64_t seq = 0;
    auto deliver = [&](std::span<const Event> events) {
        for (const Event& e : events) {
            for (BotMemory& m : memory) m.observe(e);
            holder->on_message({{"type", "event"}, {"table", "t1"}, {"seq", ++seq}, {"event", to_json(e, 0)}});
        }
    };
    holder->on_message({{"type", "event"},
                       {"table", "t1"},
                       {"seq", ++seq},
                       {"event", {{"type", "game_started"}, {"game", 1}, {"ruleset", to_json(rules)}}}});
    deliver(g.start());
    int decisions = 0;
    while (!g.over()) {
        const Seat seat = static_cast<Seat>(std::countr_zero(g.waiting_for()));
        const SeatView truth = view_of(g, seat);
        Action a = decide(BotLevel::basic, truth, memory[seat], rng[seat]);
        if (seat == 0) {
            if (decisions + 1 == snapshot_at) {
                holder = fresh_player();
                holder->on_message({{"type", "snapshot"}, {"table", "t1"}, {"seq", seq}, {"you", 0},
                                    {"info", {{"ruleset", to_json(rules)}}}, {"view", seat_view_json(g, 0)}});
            }
            botclient::SeatPlayer& player = *holder;
            if (snapshot_at > 0 && decisions + 1 >= snapshot_at && player.memory() &&
                player.memory()->hand_number() == memory[0].hand_number()) {
                const bool one_pass = truth.pass_round <= 1 && truth.pass_back_count == 0 && truth.pass_distance > 0;
                if (!same_memory(*player.memory(), memory[0], one_pass)) return -1;
                ++memories_compared;
            }
            const json legal = to_json(truth.legal, g.state().hand_rules.nil_allowed);
            const auto rebuilt = player.view_for(legal);
            REQUIRE(rebuilt);
            if (!same_view(*rebuilt, truth)) return -1;
            const auto out = player.on_message(
                {{"type", "your_turn"}, {"table", "t1"}, {"seat", 0}, {"seq", seq}, {"legal", legal}});
            REQUIRE(out.size() == 1);
            const auto acted = action_from_json(out[0].at("action"));
            REQUIRE(acted);
            CHECK(*acted == a);  // the same decision as the engine's bot with the true view
            a = *acted;
            if (moons && a.kind == ActionKind::moon) ++*moons;
            ++decisions;
        }
        deliver(*g.apply(seat, a));
    }
    if (snapshot_at == 0) CHECK(holder->games_over() == 1);
    else CHECK(memories_compared > 0);
    return decisions;
}

}  // namespace

TEST_CASE("sparts-bot rebuilds its seat's view from the wire and decides as the table's bot would") {
    for (const char* preset : {"bga-sparts", "sparts", "spartsel", "spades", "worldwinner-spades", "hearts"}) {
        const auto vars = testing::variants_of(preset);
        int decisions = 0;
        for (std::size_t i = 0; i < vars.size() && i < 6; ++i) {
            INFO(std::string(preset) << " variant " << i);
            auto rules = make_ruleset(vars[i].preset, vars[i].options);
            REQUIRE(rules);
            const int d = play(*rules, 1000 + i);
            REQUIRE(d >= 0);
            decisions += d;
        }
        MESSAGE(std::string(preset) << ": " << decisions << " decisions of seat 0 compared");
    }
    // Blind nil: dealt face down, the bids come after show_cards (or a blind nil) mid-bidding.
    for (const auto& options : {std::vector<OptionSetting>{{"blind_nil", "0"}},
                                std::vector<OptionSetting>{{"blind_nil", "100"}, {"nil_pass", "2"}}}) {
        auto rules = make_ruleset("spades", options);
        REQUIRE(rules);
        for (std::uint64_t seed = 2000; seed < 2004; ++seed) CHECK(play(*rules, seed) > 0);
    }
    // The shooter's choice (hearts, moon_scoring "choose"): seat 0 is dealt the top of every
    // suit and every heart from the 7 up, so it takes every trick of the first hand and answers.
    auto rules = make_ruleset("hearts", std::vector<OptionSetting>{{"moon_scoring", "choose"}, {"pass_rotation", "none"}});
    REQUIRE(rules);
    const StackedDeal deal = seedtest::moon_deal(*rules);
    int moons = 0;
    CHECK(play(*rules, 3000, {deal}, &moons) > 0);
    CHECK(moons >= 1);
}

// Restarted mid-hand, sparts-bot starts from the table's snapshot: its view's past_tricks tell it
// the hand's finished tricks (who played what, who showed a void, who won which cards), so its
// view and its decisions from there on are those of the table's bot, which watched every card.
TEST_CASE("sparts-bot restarted mid-hand from a snapshot decides as the table's bot that watched the hand") {
    for (const char* preset : {"bga-sparts", "sparts", "spartsel", "spades", "worldwinner-spades", "hearts"}) {
        const auto vars = testing::variants_of(preset);
        for (std::size_t i = 0; i < vars.size() && i < 4; ++i) {
            for (const int at : {6, 20}) {
                INFO(std::string(preset) << " variant " << i << ", snapshot at seat 0's decision " << at);
                auto rules = make_ruleset(vars[i].preset, vars[i].options);
                REQUIRE(rules);
                CHECK(play(*rules, 3000 + i, {}, nullptr, at) > at);
            }
        }
    }
}

// Seated mid-game (a reconnection), sparts-bot starts from the table's snapshot: the scores so
// far come from its view, not from events it never saw. The shooter's choice depends on them:
// at 80, 80, 30, 20 adding 26 would end the game with seat 0 tied, so it subtracts.
TEST_CASE("sparts-bot seated from a snapshot knows the scores so far, and answers a moon by them") {
    auto rules = make_ruleset("hearts", std::vector<OptionSetting>{{"moon_scoring", "choose"}, {"pass_rotation", "none"}});
    REQUIRE(rules);
    const StackedDeal deal = seedtest::moon_deal(*rules);
    Game g = *Game::create(*rules, 5, {deal});
    g.start();
    for (int guard = 0; guard < 100 && g.phase() == Phase::playing; ++guard) {
        const Seat s = static_cast<Seat>(std::countr_zero(g.waiting_for()));
        REQUIRE(g.apply(s, Action::play(g.legal_moves(s).cards.first())));
    }
    REQUIRE(g.phase() == Phase::moon_choice);
    REQUIRE(g.state().turn == 0);
    GameState st = g.state();
    st.scores[0] = 80, st.scores[1] = 80, st.scores[2] = 30, st.scores[3] = 20;
    g.reset(st);
    const SeatView view = view_of(g, 0);
    botclient::SeatPlayer player(BotLevel::basic, BotOptions{}, 1);
    player.set_table("t1");
    player.on_message({{"type", "snapshot"}, {"table", "t1"}, {"seq", 60}, {"you", 0},
                       {"info", {{"ruleset", to_json(*rules)}}}, {"view", to_json(view, false)}});
    const json legal = to_json(view.legal, false);
    const auto out = player.on_message({{"type", "your_turn"}, {"table", "t1"}, {"seat", 0}, {"seq", 60}, {"legal", legal}});
    REQUIRE(out.size() == 1);
    CHECK(out[0].at("action") == json{{"type", "moon"}, {"score", "subtract"}});
}
