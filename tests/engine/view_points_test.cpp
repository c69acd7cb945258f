// The view's points_taken: per seat, the scoring cards of the tricks it won this
// hand, counted here apart from the engine from the trick_won events; the same
// for every viewer (tricks are public), never a center card, empty in Spades hands.
#include <doctest/doctest.h>

#include <array>
#include <string>

#include "engine/game.hpp"
#include "engine/random_policy.hpp"
#include "engine/ruleset.hpp"
#include "engine/view.hpp"

namespace sparts {
namespace {

bool scoring(Card c, HandKind kind) {
    if (c.is_joker()) return false;
    if (c.suit() == Suit::hearts) return true;
    if (c.face() == kQueenOfSpades) return true;
    return kind == HandKind::sparts && c.suit() == Suit::diamonds && c.rank() == jack;
}

void check_game(const std::string& preset, const std::vector<OptionSetting>& options, std::uint64_t seed) {
    CAPTURE(preset);
    CAPTURE(seed);
    const Ruleset rules = *make_ruleset(preset, options);
    Game g = *Game::create(rules, seed);
    std::array<CardSet, kMaxSeats> expected{};
    CardSet center_cards;
    int hearts_or_sparts_hands = 0, checked = 0;
    auto seen = [&](std::span<const Event> events) {
        for (const Event& e : events) {
            if (std::holds_alternative<HandStarted>(e)) {
                expected = {};
                center_cards = CardSet();
            }
            if (const auto* c = std::get_if<CenterTaken>(&e)) center_cards |= c->cards;
            if (const auto* t = std::get_if<TrickWon>(&e)) {
                const HandKind kind = g.state().hand_rules.kind;
                for (int i = 0; i < t->count; ++i)
                    if (kind != HandKind::spades && scoring(t->cards[i], kind)) expected[t->winner].insert(t->cards[i]);
            }
        }
        if (g.over()) return;
        const HandKind kind = g.state().hand_rules.kind;
        if (kind == HandKind::hearts || kind == HandKind::sparts) ++hearts_or_sparts_hands;
        for (Viewer viewer : {Viewer{0}, kSpectator}) {
            const SeatView v = view_of(g, viewer);
            for (int s = 0; s < rules.seats; ++s) {
                CAPTURE(s);
                REQUIRE(v.points_taken[s] == expected[s]);
                CHECK(!v.points_taken[s].intersects(center_cards));
                if (kind == HandKind::spades) CHECK(v.points_taken[s].empty());
                ++checked;
            }
        }
    };
    seen(g.start());
    Rng rng(seed, 3);
    while (!g.over()) {
        Seat seat = 0;
        while (!((g.waiting_for() >> seat) & 1)) ++seat;
        auto applied = g.apply(seat, random_action(g.legal_moves(seat), rng));
        REQUIRE(applied);
        seen(*applied);
    }
    CHECK(checked > 0);
    if (preset != "spades") CHECK(hearts_or_sparts_hands > 0);
}

TEST_CASE("view: points_taken holds the scoring cards each seat won in tricks this hand, and no center card") {
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
        check_game("sparts", {{"seats", "5"}}, seed);       // a center of cards
        check_game("bga-sparts", {}, seed);                 // Hearts and Spades hands
        check_game("spartsel", {{"seats", "6"}, {"decks", "2"}}, seed);
        check_game("spades", {{"hand_cap", "2"}}, seed);
    }
}

}  // namespace
}  // namespace sparts
