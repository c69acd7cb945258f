// The bots (bots/bot.hpp): they only ever choose legal actions, in every
// preset and option variant; the same view, memory and generator give the same
// decision; and a decision depends on nothing the seat may not know, by
// construction (decide() takes no Game) and by test (two games that differ only
// in cards the seat has not seen give the same decision).
//
// The sweep plays a few hundred games per preset by default; SPARTS_RANDOM_GAMES
// sets another number, as for the random-play harness.
#include <doctest/doctest.h>

#include <bit>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

#include "bots/bot.hpp"
#include "bots/bot_game.hpp"
#include "engine/joker_deck.hpp"
#include "engine/view.hpp"
#include "support/fnv.hpp"
#include "support/variants.hpp"

using namespace sparts;
using namespace sparts::testing;

// Cheating is impossible by construction: a decision is a function of the
// seat's view, its memory and a generator, and neither can be made from a Game.
static_assert(std::is_same_v<decltype(&decide),
                             Action (*)(BotLevel, const SeatView&, const BotMemory&, Rng&, const BotOptions&)>);
static_assert(!std::is_constructible_v<BotMemory, const Game&>);
static_assert(!std::is_constructible_v<SeatView, const Game&>);
static_assert(!std::is_invocable_v<decltype(&decide), BotLevel, const Game&, const BotMemory&, Rng&,
                                   const BotOptions&>);

namespace {

int games_per_preset() {
    if (const char* env = std::getenv("SPARTS_RANDOM_GAMES")) return std::max(1, std::atoi(env));
    return 300;
}

struct Seats {
    std::vector<BotMemory> memory;
    std::vector<Rng> rng;
    Seats(const Ruleset& rules, std::uint64_t seed) {
        for (int s = 0; s < rules.seats; ++s) {
            memory.emplace_back(rules, static_cast<Seat>(s));
            rng.emplace_back(seed, 100 + static_cast<std::uint64_t>(s));
        }
    }
    void observe(std::span<const Event> events) {
        for (const Event& e : events)
            for (BotMemory& m : memory) m.observe(e);
    }
};

// What a seat's memory claims about the others must be true of the game.
bool memory_is_true(const Game& g, const BotMemory& m) {
    const GameState& s = g.state();
    for (int o = 0; o < g.rules().seats; ++o) {
        const Seat seat = static_cast<Seat>(o);
        for (int suit = 0; suit < kSuitCount; ++suit) {
            if (m.void_in(seat, static_cast<Suit>(suit)) &&
                !cards_of_suit(g.rules().joker_deck, s.hands[o], static_cast<Suit>(suit)).empty()) {
                FAIL_CHECK("seat " << int(m.seat()) << " believes seat " << o << " void in "
                                   << suit_name(static_cast<Suit>(suit)));
                return false;
            }
        }
        if (!s.hands[o].contains_all(m.known_held(seat)) && s.phase != Phase::passing) {
            FAIL_CHECK("seat " << int(m.seat()) << " believes seat " << o << " holds a card it does not");
            return false;
        }
        if (s.phase == Phase::playing && m.tricks(seat) != s.tricks[o]) {
            FAIL_CHECK("seat " << int(m.seat()) << " counts the tricks of seat " << o << " wrong");
            return false;
        }
        if (s.phase == Phase::playing && m.played().intersects(s.hands[o])) {
            FAIL_CHECK("seat " << int(m.seat()) << " believes a card in seat " << o << "'s hand was played");
            return false;
        }
    }
    return true;
}

struct SweepStats {
    long games = 0, decisions = 0, hands = 0;
};

// One game: `levels[s]` at seat s; every decision is legal, the same twice, and applied.
bool sweep_game(const Ruleset& rules, std::uint64_t seed, const std::vector<BotLevel>& levels, SweepStats& st) {
    auto created = Game::create(rules, seed);
    REQUIRE_MESSAGE(created, (created ? "" : created.error().message));
    Game g = std::move(*created);
    Seats seats(rules, seed);
    seats.observe(g.start());
    long actions = 0;
    while (!g.over()) {
        const Seat seat = static_cast<Seat>(std::countr_zero(g.waiting_for()));
        const SeatView view = view_of(g, seat);
        Rng again = seats.rng[seat];
        const Action a = decide(levels[seat], view, seats.memory[seat], seats.rng[seat]);
        if (!(decide(levels[seat], view, seats.memory[seat], again) == a)) {
            FAIL_CHECK("the same view, memory and generator gave two decisions (seed " << seed << ")");
            return false;
        }
        if (!g.legal_moves(seat).contains(a)) {
            FAIL_CHECK("the " << to_string(levels[seat]) << " bot chose an illegal " << to_string(a.kind)
                              << " (seed " << seed << ")");
            return false;
        }
        const auto r = g.apply(seat, a);
        if (!r) {
            FAIL_CHECK("a bot's action was refused: " << r.error().message);
            return false;
        }
        seats.observe(*r);
        ++actions;
        for (const BotMemory& m : seats.memory)
            if (!memory_is_true(g, m)) return false;
        if (actions > 200000) {
            FAIL_CHECK("the game does not end");
            return false;
        }
    }
    ++st.games;
    st.decisions += actions;
    st.hands += g.state().hands_scored;
    return true;
}

void sweep(const std::string& preset) {
    const auto vars = variants_of(preset);
    const int games = games_per_preset();
    SweepStats st;
    for (int i = 0; i < games; ++i) {
        const auto& var = vars[static_cast<std::size_t>(i) % vars.size()];
        auto rules = make_ruleset(var.preset, var.options);
        REQUIRE(rules);
        // Mostly basic at every seat; every fourth game basic against random players.
        std::vector<BotLevel> levels(static_cast<std::size_t>(rules->seats), BotLevel::basic);
        if (i % 4 == 3)
            for (int s = 1; s < rules->seats; s += 2) levels[static_cast<std::size_t>(s)] = BotLevel::random;
        if (!sweep_game(*rules, 7919ULL * static_cast<std::uint64_t>(i) + 3, levels, st)) break;
    }
    CHECK(st.games == games);
    MESSAGE(preset << ": " << st.games << " games, " << st.hands << " hands, " << st.decisions << " bot decisions");
}

}  // namespace

TEST_CASE("bots play only legal actions: bga-sparts") { sweep("bga-sparts"); }
TEST_CASE("bots play only legal actions: sparts") { sweep("sparts"); }
TEST_CASE("bots play only legal actions: spartsel") { sweep("spartsel"); }
TEST_CASE("bots play only legal actions: spades") { sweep("spades"); }
TEST_CASE("bots play only legal actions: worldwinner-spades") { sweep("worldwinner-spades"); }
TEST_CASE("bots play only legal actions: hearts") { sweep("hearts"); }

TEST_CASE("the same seed plays the same bot game") {
    for (const char* preset : {"bga-sparts", "sparts", "spartsel", "spades", "worldwinner-spades", "hearts"}) {
        INFO(preset);
        const Ruleset rules = *make_ruleset(preset, {});
        std::vector<BotLevel> levels(static_cast<std::size_t>(rules.seats), BotLevel::basic);
        levels[1] = BotLevel::random;
        const BotGameResult first = play_bot_game(rules, 42, levels);
        const BotGameResult second = play_bot_game(rules, 42, levels);
        CHECK(first.actions == second.actions);
        CHECK(first.over.scores == second.over.scores);
        CHECK(first.over.hands_played == second.over.hands_played);
    }
}

TEST_CASE("bot levels have names") {
    for (int i = 0; i < kBotLevelCount; ++i) {
        const auto level = static_cast<BotLevel>(i);
        CHECK(parse_bot_level(to_string(level)) == level);
    }
    CHECK_FALSE(parse_bot_level("expert"));
}

// ---------------------------------------------------------------- hidden state

namespace {

struct Step {
    Seat seat;
    Action action;
};

bool same_view(const SeatView& a, const SeatView& b) {
    return a.viewer == b.viewer && a.seats == b.seats && a.phase == b.phase && a.hand_number == b.hand_number &&
           a.dealer == b.dealer && a.kind == b.kind && a.turn == b.turn && a.waiting_for == b.waiting_for &&
           a.hand_sizes == b.hand_sizes && a.hand == b.hand && a.pass_count == b.pass_count &&
           a.pass_distance == b.pass_distance && a.pass_round == b.pass_round &&
           a.pass_back_count == b.pass_back_count && a.passed_mask == b.passed_mask && a.passed == b.passed &&
           a.received == b.received && a.center_size == b.center_size && a.center_given == b.center_given &&
           a.center_taker == b.center_taker && a.center_cards == b.center_cards && a.bids == b.bids &&
           a.trick == b.trick && a.trick_number == b.trick_number && a.tricks == b.tricks &&
           a.hearts_broken == b.hearts_broken && a.spades_broken == b.spades_broken && a.partners == b.partners &&
           a.side_count == b.side_count && a.scores == b.scores && a.bags == b.bags &&
           a.legal.any == b.legal.any && a.legal.kind == b.legal.kind && a.legal.cards == b.legal.cards &&
           a.legal.pass_count == b.legal.pass_count && a.legal.back_count == b.legal.back_count &&
           a.legal.bids == b.legal.bids && a.legal.choose_spades == b.legal.choose_spades &&
           a.legal.choose_hearts == b.legal.choose_hearts;
}

// The first hand of a basic game from `seed`: its deal and every action.
struct FirstHand {
    StackedDeal deal;
    std::vector<Step> steps;
};

FirstHand play_first_hand(const Ruleset& rules, std::uint64_t seed) {
    Game g = std::move(*Game::create(rules, seed));
    Seats seats(rules, seed);
    seats.observe(g.start());
    FirstHand out;
    for (int s = 0; s < rules.seats; ++s) out.deal.hands[s] = g.state().hands[s];
    for (int i = 0; i < g.state().center_size; ++i) out.deal.center.push_back(g.state().center[i]);
    while (!g.over() && g.state().hand == 1) {
        const Seat seat = static_cast<Seat>(std::countr_zero(g.waiting_for()));
        const Action a = decide(BotLevel::basic, view_of(g, seat), seats.memory[seat], seats.rng[seat]);
        out.steps.push_back({seat, a});
        seats.observe(*g.apply(seat, a));
    }
    return out;
}

// Replays `steps[0, k)` on `deal`; returns the game, seat 0's memory and its redacted events.
struct Replayed {
    Game game;
    BotMemory memory;
    std::uint64_t seen;
};

Replayed replay(const Ruleset& rules, std::uint64_t seed, const StackedDeal& deal, const std::vector<Step>& steps,
                std::size_t k) {
    auto created = Game::create(rules, seed, {deal});
    REQUIRE_MESSAGE(created, (created ? "" : created.error().message));
    Replayed out{std::move(*created), BotMemory(rules, 0), fnv1a("")};
    auto observe = [&](std::span<const Event> events) {
        for (const Event& e : events) {
            out.memory.observe(e);
            out.seen = fnv1a(describe(redact(e, 0)) + "\n", out.seen);
        }
    };
    observe(out.game.start());
    for (std::size_t i = 0; i < k; ++i) {
        const auto r = out.game.apply(steps[i].seat, steps[i].action);
        REQUIRE_MESSAGE(r, "a replayed action was refused: " << (r ? "" : r.error().message));
        observe(*r);
    }
    return out;
}

}  // namespace

TEST_CASE("a bot's decision does not depend on cards its seat has not seen") {
    const std::vector<Variant> cases = {
        {"spades", {}},
        {"worldwinner-spades", {}},
        {"bga-sparts", {}},
        {"sparts", {}},
        {"sparts", {{"seats", "5"}, {"multi_pass", "back"}}},
        {"spartsel", {{"seats", "5"}, {"jokers", "3"}, {"secret_bids", "true"}}},
        {"spartsel", {{"seats", "6"}, {"partners", "regular"}, {"teams", "3"}}},
        {"hearts", {}},
        {"hearts", {{"seats", "5"}, {"jack_of_diamonds", "true"}}},
    };
    int compared = 0;
    for (const auto& c : cases) {
        const Ruleset rules = *make_ruleset(c.preset, c.options);
        INFO(c.preset);
        for (std::uint64_t seed = 1; seed <= 6; ++seed) {
            const FirstHand first = play_first_hand(rules, seed);
            int decisions = 0;
            for (std::size_t k = 0; k < first.steps.size(); ++k) {
                if (first.steps[k].seat != 0 || decisions++ % 2 != 0) continue;
                // Cards seat 0 may know of by step k, and cards whose moves would change a
                // replayed action (passed or played), stay where they are; clubs (the
                // first lead) and the 7 of diamonds (the choice) too.
                CardSet fixed = first.deal.hands[0] | CardSet::suit(Suit::clubs) | CardSet::of(kSevenOfDiamonds) |
                                CardSet::jokers();
                for (std::size_t i = 0; i < k; ++i) {
                    const Action& a = first.steps[i].action;
                    fixed |= a.cards | a.back;
                    if (a.kind == ActionKind::play) fixed.insert(a.card);
                }
                // Swap one unseen card of a suit between two other seats.
                StackedDeal other = first.deal;
                bool swapped = false;
                for (int x = 1; x < rules.seats && !swapped; ++x) {
                    for (int y = x + 1; y < rules.seats && !swapped; ++y) {
                        for (Suit s : {Suit::diamonds, Suit::hearts, Suit::spades}) {
                            const CardSet cx = of_suit(other.hands[x], s) & ~fixed;
                            const CardSet cy = of_suit(other.hands[y], s) & ~fixed;
                            if (cx.empty() || cy.empty()) continue;
                            other.hands[x].erase(cx.first()), other.hands[x].insert(cy.first());
                            other.hands[y].erase(cy.first()), other.hands[y].insert(cx.first());
                            swapped = true;
                            break;
                        }
                    }
                }
                if (!swapped) continue;
                Replayed a = replay(rules, seed, first.deal, first.steps, k);
                Replayed b = replay(rules, seed, other, first.steps, k);
                REQUIRE_FALSE(a.game.state() == b.game.state());  // the hidden cards differ
                REQUIRE(a.seen == b.seen);                         // seat 0 saw the same events
                const SeatView va = view_of(a.game, 0), vb = view_of(b.game, 0);
                REQUIRE(same_view(va, vb));
                Rng ra(seed, 5), rb(seed, 5);
                const Action da = decide(BotLevel::basic, va, a.memory, ra);
                const Action db = decide(BotLevel::basic, vb, b.memory, rb);
                CHECK(da == first.steps[k].action);
                CHECK(da == db);
                if (compared % 3 == 0) {
                    // The strong bot too (its work counted, without the clock): its sampled
                    // deals are drawn from what the seat knows, so they are the same.
                    BotOptions counted;
                    counted.budget_us = 1500;
                    counted.clock_cap = false;
                    Rng sa(seed, 6), sb(seed, 6);
                    CHECK(decide(BotLevel::strong, va, a.memory, sa, counted) ==
                          decide(BotLevel::strong, vb, b.memory, sb, counted));
                }
                ++compared;
            }
        }
    }
    MESSAGE(compared << " decisions compared across games with different hidden cards");
    CHECK(compared > 100);
}

TEST_CASE("a bot's memory shows nothing its seat may not see") {
    // Fed the raw (unredacted) events of a whole game, a seat's memory still only
    // holds its own cards: observe() redacts for its seat first.
    const std::vector<OptionSetting> options = {{"seats", "5"}, {"secret_bids", "true"}};
    const Ruleset rules = *make_ruleset("spartsel", options);
    Game g = std::move(*Game::create(rules, 11));
    BotMemory memory(rules, 2);
    Rng rng(11, 1);
    std::vector<BotMemory> players;
    for (int s = 0; s < rules.seats; ++s) players.emplace_back(rules, static_cast<Seat>(s));
    for (const Event& e : g.start()) {
        memory.observe(e);
        for (auto& p : players) p.observe(e);
    }
    CHECK(memory.dealt() == g.state().hands[2]);
    bool checked_bids = false;
    while (!g.over() && g.state().hand == 1) {
        const Seat seat = static_cast<Seat>(std::countr_zero(g.waiting_for()));
        const auto r = g.apply(seat, decide(BotLevel::basic, view_of(g, seat), players[seat], rng));
        REQUIRE(r);
        for (const Event& e : *r) {
            memory.observe(e);
            for (auto& p : players) p.observe(e);
        }
        if (g.phase() == Phase::playing && !checked_bids) {
            for (int s = 0; s < rules.seats; ++s)
                CHECK(memory.bid(static_cast<Seat>(s)) == (s == 2 ? g.state().bids[s] : kHiddenBid));
            checked_bids = true;
        }
        for (int s = 0; s < rules.seats; ++s)
            if (s != 2)
                CHECK(memory.passed_to(static_cast<Seat>(s)).contains_all(memory.known_held(static_cast<Seat>(s))));
        CHECK((memory.center_cards() & ~g.state().won[2]).empty());
    }
    CHECK(checked_bids);
}
