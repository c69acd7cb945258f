// Seed 002's partnerships: regular, rotating, progressive and reverse partners.
#include <doctest/doctest.h>

#include <algorithm>

#include "engine/game.hpp"
#include "engine/view.hpp"
#include "engine/random_policy.hpp"
#include "engine/sparts_scoring.hpp"
#include "support/harness_policy.hpp"

using namespace sparts;
using sparts::testing::next_actor;

namespace {

Ruleset rules_of(std::vector<OptionSetting> options) {
    auto r = make_ruleset("spartsel", options);
    REQUIRE_MESSAGE(r, (r ? "" : r.error().message));
    return *r;
}

ScoreSheet count_of(int points) {
    ScoreSheet s{};
    add(s, ScoreComponent::hearts, points);
    return s;
}

// Plays one hand with random legal actions; returns its bids and its score.
struct PlayedHand {
    std::array<int, kMaxSeats> bids{};
    std::array<int, kMaxSeats> tricks{};
    Seat dealer = 0;
    HandScored scored{};
};

PlayedHand play_hand(Game& g, Rng& rng) {
    PlayedHand h;
    h.dealer = g.state().dealer;
    const int hand = g.state().hand;
    while (!g.over()) {
        const Seat s = next_actor(g);
        auto r = g.apply(s, random_action(g.legal_moves(s), rng));
        REQUIRE(r);
        for (const Event& e : *r) {
            if (auto* b = std::get_if<BidMade>(&e)) h.bids[b->seat] = b->bid;
            if (auto* t = std::get_if<TrickWon>(&e)) ++h.tricks[t->winner];
            if (auto* hs = std::get_if<HandScored>(&e); hs && hs->hand == hand) {
                h.scored = *hs;
                return h;
            }
        }
    }
    FAIL("the hand was not scored");
    return h;
}

}  // namespace

// Seed 002, "Progressive Partners", its five-player example, line by line:
//   A 2 3 2 2 -10 -2 -2 -12 / B 4 7 5 7 +70 -18 -24 +46 / C 1 2 0 1 -10 0 +10 0 /
//   D 3 5 2 4 -10 -6 -8 -18 / E 1 5 1 6 +51 +10 -8 +43
// (bid, contract, tricks taken, tricks with the partner, trick score, count,
// count with the partner, total). "A bids 2 and C bids 1, so A's contract is for 3."
TEST_CASE("partners: the seed's five-player progressive table, line by line") {
    const std::array<SpartsSeat, 5> seats{{{2, 2, count_of(-2)},
                                           {4, 5, count_of(-18)},
                                           {1, 0, count_of(0)},
                                           {3, 2, count_of(-6)},
                                           {1, 1, count_of(10)}}};
    SpartsCombination how;
    how.partners = Partners::progressive;
    how.line_count = 5;
    for (int s = 0; s < 5; ++s) how.lines[s] = static_cast<std::uint16_t>((1u << s) | (1u << ((s + 2) % 5)));
    how.column = ScoringColumn::sparts;
    how.trick_value = rules_of({{"seats", "5"}, {"partners", "progressive"}, {"scoring", "sparts"}}).effective_trick_value();
    CHECK(how.trick_value == 10);
    const auto lines = score_sparts_hand(seats, how);
    const int contract[5] = {3, 7, 2, 5, 5}, tricks[5] = {2, 7, 1, 4, 6}, trick_score[5] = {-10, 70, -10, -10, 51},
              count[5] = {-2, -24, 10, -8, -8}, totals[5] = {-12, 46, 0, -18, 43};
    for (int s = 0; s < 5; ++s) {
        INFO("seat " << "ABCDE"[s]);
        CHECK(lines[s].contract == contract[s]);
        CHECK(lines[s].tricks == tricks[s]);
        CHECK(get(lines[s].sheet, ScoreComponent::contract) + get(lines[s].sheet, ScoreComponent::overtricks) +
                  get(lines[s].sheet, ScoreComponent::set) ==
              trick_score[s]);
        CHECK(get(lines[s].sheet, ScoreComponent::hearts) == count[s]);
        CHECK(total(lines[s].sheet) == totals[s]);
    }
}

// "Reverse Partners- When the final trick is taken by the queen of spades,
// reverse partners is declared. A person's bid is not their own, but the sum of
// everyone else's and their count is not of their own cards, but of everyone else's."
TEST_CASE("partners: reverse partners sum everyone else's bid, tricks and count") {
    const std::array<SpartsSeat, 4> seats{{{3, 4, count_of(-13)}, {2, 1, count_of(-2)}, {4, 5, count_of(0)}, {1, 3, count_of(-10)}}};
    SpartsCombination how;
    how.line_count = 4;
    for (int s = 0; s < 4; ++s) how.lines[s] = static_cast<std::uint16_t>(1u << s);
    how.reversed = true;
    const auto lines = score_sparts_hand(seats, how);
    CHECK(lines[0].contract == 7);
    CHECK(lines[0].tricks == 9);
    CHECK(get(lines[0].sheet, ScoreComponent::hearts) == -12);
    CHECK(get(lines[0].sheet, ScoreComponent::contract) == 70);
    CHECK(get(lines[0].sheet, ScoreComponent::overtricks) == 2);
    CHECK(lines[1].contract == 8);
    CHECK(lines[1].tricks == 12);
}

TEST_CASE("partners: reverse partners are declared in a real game when the queen of spades wins the last trick") {
    const Ruleset r = rules_of({{"reverse_partners", "true"}, {"hands", "0"}, {"target_score", "10000"}});
    int declared = 0, not_declared = 0;
    for (std::uint64_t seed = 1; seed <= 60 && declared < 3; ++seed) {
        Game g = std::move(*Game::create(r, seed));
        g.start();
        Rng rng(seed, 1);
        for (int hand = 0; hand < 4 && !g.over(); ++hand) {
            const PlayedHand h = play_hand(g, rng);
            if (!h.scored.reversed) {
                ++not_declared;
                for (int s = 0; s < 4; ++s) CHECK(h.scored.sides[s].bid == h.bids[s]);
                continue;
            }
            ++declared;
            int all = 0;
            for (int s = 0; s < 4; ++s) all += h.bids[s];
            for (int s = 0; s < 4; ++s) {
                CHECK(h.scored.sides[s].bid == all - h.bids[s]);
                CHECK(h.scored.sides[s].tricks == 13 - h.tricks[s]);
            }
        }
    }
    CHECK(declared > 0);
    CHECK(not_declared > 0);
}

// "Regular Partners- Players combine their bids and their scores (tricks and
// count). The first partner to bid, indicates a number. The final partner to
// bid, gives the actual number for the partnership."
TEST_CASE("partners: regular partners keep one score per team and bid their last partner's bid") {
    const Ruleset r = rules_of({{"seats", "6"}, {"partners", "regular"}, {"teams", "3"}});
    CHECK(r.sides() == 3);
    CHECK(r.side_seats(0) == 0b001001);  // seats 0 and 3: across
    CHECK(r.effective_trick_value() == 10);  // 6 playing teams
    Game g = std::move(*Game::create(r, 4));
    g.start();
    Rng rng(4, 1);
    const PlayedHand h = play_hand(g, rng);
    CHECK(h.scored.side_count() == 3);
    for (int team = 0; team < 3; ++team) {
        const int a = team, b = team + 3;
        // The later of the two in bidding order, from the dealer's left.
        const int last = (a - h.dealer - 1 + 6) % 6 > (b - h.dealer - 1 + 6) % 6 ? a : b;
        CHECK(h.scored.sides[team].bid == h.bids[last]);
        CHECK(h.scored.sides[team].tricks == h.tricks[a] + h.tricks[b]);
        CHECK(h.scored.sides[team].score == h.scored.sides[team].hand_total);
    }
    CHECK(g.state().scores[0] == h.scored.sides[0].score);
}

// RULINGS.md: "the Spartsel dealer rule counts partnership bids".
TEST_CASE("partners: the Spartsel dealer rule counts partnership bids") {
    const Ruleset r = rules_of({{"partners", "regular"}});
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        Game g = std::move(*Game::create(r, seed));
        g.start();
        Rng rng(seed, 1);
        while (g.phase() != Phase::bidding || g.state().bids_made < 3) {
            const Seat s = next_actor(g);
            REQUIRE(g.apply(s, random_action(g.legal_moves(s), rng)));
        }
        const Seat dealer = g.state().dealer;
        REQUIRE(next_actor(g) == dealer);
        // Bidding runs dealer+1, dealer+2 (the dealer's partner), dealer+3, dealer: the
        // other team's bid is dealer+3's, and the dealer's bid replaces its partner's.
        const Seat other_last = static_cast<Seat>((dealer + 3) % 4);
        const int forbidden = 13 - g.state().bids[other_last];
        const LegalMoves m = g.legal_moves(dealer);
        for (int b = 0; b <= 13; ++b) CHECK(((m.bids >> b) & 1) == (b != forbidden));
    }
}

// "Rotating Partners- Partners are different on each hand with rotating partners
// (receiving the same score for that hand, but keeping separate overall scores)."
TEST_CASE("partners: rotating partners share a hand's score by the plan, and keep their own totals") {
    const Ruleset r = rules_of({{"seats", "5"}, {"partners", "rotating"}, {"partner_plan", "2,0"}});
    CHECK(r.sides() == 5);
    Game g = std::move(*Game::create(r, 6));
    g.start();
    Rng rng(6, 1);
    const PlayedHand first = play_hand(g, rng);
    // Hand 1: two teams around the table from the dealer's left (3 and 2 seats).
    std::array<int, 2> team_size{};
    for (int s = 0; s < 5; ++s) {
        const std::uint16_t mates = first.scored.sides[s].seats;
        ++team_size[((s - first.dealer - 1 + 5) % 5) % 2];
        for (int t = 0; t < 5; ++t)
            if ((mates >> t) & 1) CHECK(first.scored.sides[t].hand_total == first.scored.sides[s].hand_total);
    }
    CHECK(team_size[0] == 3);
    CHECK(team_size[1] == 2);
    const PlayedHand second = play_hand(g, rng);  // plan "0": no partners
    for (int s = 0; s < 5; ++s) {
        CHECK(second.scored.sides[s].seats == (1u << s));
        CHECK(second.scored.sides[s].score == first.scored.sides[s].hand_total + second.scored.sides[s].hand_total);
    }
}

// "Progressive Partners- ... Your partner is the person 2 to you left. ... Your
// partnership bid and score is the combination of yours and your partners."
TEST_CASE("partners: progressive partners in a real game") {
    const Ruleset r = rules_of({{"seats", "5"}, {"partners", "progressive"}});
    Game g = std::move(*Game::create(r, 9));
    g.start();
    Rng rng(9, 1);
    const PlayedHand h = play_hand(g, rng);
    for (int s = 0; s < 5; ++s) {
        const int p = (s + 2) % 5;
        CHECK(h.scored.sides[s].seats == ((1u << s) | (1u << p)));
        CHECK(h.scored.sides[s].bid == h.bids[s] + h.bids[p]);
        CHECK(h.scored.sides[s].tricks == h.tricks[s] + h.tricks[p]);
    }
}

// Seed 002: "This is best if it can also be rotated (e.g. 2 to the left on deal one, 3 to the left
// on deal two...)"; RULINGS.md: the distance runs 2, 3, ..., n - 1, then from 2 again.
TEST_CASE("partners: progressive partners rotated: 2 to the left on hand 1, 3 on hand 2, 4 on hand 3, 2 again on hand 4") {
    const Ruleset r = rules_of({{"seats", "5"}, {"partners", "progressive"}, {"progressive_rotated", "true"}, {"hands", "4"}});
    Game g = std::move(*Game::create(r, 11));
    g.start();
    Rng rng(11, 1);
    for (const int distance : {2, 3, 4, 2}) {
        CAPTURE(distance);
        // The players see this hand's partners before they bid.
        const SeatView before = view_of(g, 0);
        for (int s = 0; s < 5; ++s) CHECK(before.partners[s] == ((1u << s) | (1u << ((s + distance) % 5))));
        const PlayedHand h = play_hand(g, rng);
        for (int s = 0; s < 5; ++s) {
            const int p = (s + distance) % 5;
            CHECK(h.scored.sides[s].seats == ((1u << s) | (1u << p)));
            CHECK(h.scored.sides[s].bid == h.bids[s] + h.bids[p]);
            CHECK(h.scored.sides[s].tricks == h.tricks[s] + h.tricks[p]);
        }
    }
    // Without the option, 2 to the left on every hand.
    const Ruleset plain = rules_of({{"seats", "5"}, {"partners", "progressive"}, {"hands", "2"}});
    Game p = std::move(*Game::create(plain, 11));
    p.start();
    Rng rng2(11, 1);
    play_hand(p, rng2);
    CHECK(view_of(p, 0).partners[0] == ((1u << 0) | (1u << 2)));
}

TEST_CASE("partners: impossible partnerships are refused") {
    auto rotated_alone = make_ruleset("spartsel", std::vector<OptionSetting>{{"progressive_rotated", "true"}});
    REQUIRE_FALSE(rotated_alone);
    CHECK(rotated_alone.error().code == ErrorCode::invalid_option_value);
    CHECK(rotated_alone.error().message.find("partners to progressive") != std::string::npos);
    auto rotated_spades = make_ruleset("spades", std::vector<OptionSetting>{{"progressive_rotated", "true"}});
    REQUIRE_FALSE(rotated_spades);
    CHECK(rotated_spades.error().code == ErrorCode::option_not_for_ruleset);
    auto too_many = make_ruleset("spartsel", std::vector<OptionSetting>{{"partners", "regular"}, {"teams", "3"}});
    REQUIRE_FALSE(too_many);
    CHECK(too_many.error().code == ErrorCode::invalid_option_value);
    auto plan = make_ruleset("spartsel", std::vector<OptionSetting>{{"partners", "rotating"}, {"partner_plan", "2,1"}});
    REQUIRE_FALSE(plan);
    CHECK(plan.error().message.find("hand 2") != std::string::npos);
    auto two = make_ruleset("spartsel", std::vector<OptionSetting>{{"seats", "2"}, {"partners", "progressive"}});
    REQUIRE_FALSE(two);
    auto spades = make_ruleset("spades", std::vector<OptionSetting>{{"partners", "regular"}});
    REQUIRE_FALSE(spades);
    CHECK(spades.error().code == ErrorCode::option_not_for_ruleset);
}
