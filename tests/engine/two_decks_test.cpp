// Two decks: identical cards, and the count of two decks.
#include <doctest/doctest.h>

#include "engine/game.hpp"
#include "engine/random_policy.hpp"
#include "support/harness_policy.hpp"

using namespace sparts;
using sparts::testing::next_actor;

// RULINGS.md: "With two decks, of two identical cards the one played first ranks
// higher." The second deck's ace of clubs is played first here, so the order of
// play, not which deck a card came from, decides.
TEST_CASE("two decks: of two identical cards the one played first wins") {
    auto r = make_ruleset("spartsel", std::vector<OptionSetting>{{"decks", "2"}});
    REQUIRE(r);
    REQUIRE(r->hand_size == 26);
    const Card two = *parse_card("2C"), two_b = *parse_card("2C'"), ace = *parse_card("AC"), ace_b = *parse_card("AC'");
    StackedDeal d;
    d.hands[0] = CardSet::of(two) | CardSet::of(two_b);
    d.hands[1] = CardSet::of(ace_b);
    d.hands[2] = CardSet::of(ace);
    CardSet rest = CardSet::deck(2, 0) & ~(d.hands[0] | d.hands[1] | d.hands[2]);
    for (int s = 0; s < 4; ++s)
        while (d.hands[s].size() < 26) d.hands[s].insert(rest.pop_first());
    // Hand 4 of four passes nothing, so it is played as stacked.
    Game g = std::move(*Game::create(*r, 12, std::vector<StackedDeal>(4, d)));
    g.start();
    Rng rng(12, 1);
    while (g.state().hand < 4 || g.phase() == Phase::bidding) {
        const Seat s = next_actor(g);
        REQUIRE(g.apply(s, random_action(g.legal_moves(s), rng)));
    }
    REQUIRE(g.phase() == Phase::playing);
    REQUIRE(g.state().trick.leader == 0);  // the only holder of the 2 of clubs
    REQUIRE(g.apply(0, Action::play(two)));
    REQUIRE(g.apply(1, Action::play(ace_b)));
    REQUIRE(g.apply(2, Action::play(ace)));
    const LegalMoves m = g.legal_moves(3);
    auto last = g.apply(3, Action::play(m.cards.first()));
    REQUIRE(last);
    const TrickWon* won = nullptr;
    for (const Event& e : *last)
        if ((won = std::get_if<TrickWon>(&e))) break;
    REQUIRE(won != nullptr);
    CHECK(won->winner == 1);
}
