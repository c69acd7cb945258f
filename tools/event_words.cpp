#include "tools/event_words.hpp"
#include "protocol/overloaded.hpp"

#include <algorithm>
#include <bit>
#include <vector>

namespace sparts::cli {

namespace {

std::string cap(std::string s) {
    if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
    return s;
}

// "you play" / "seat 2 plays"
std::string does(Seat seat, Seat me, const std::string& verb) {
    return seat == me ? "You " + verb : cap(seat_name(seat, me)) + " " + verb + (verb.ends_with("s") ? "es" : "s");
}

std::string signed_number(int n) { return (n > 0 ? "+" : "") + std::to_string(n); }

std::string ordinal(int n) {
    const char* suffix = n == 1 ? "st" : n == 2 ? "nd" : n == 3 ? "rd" : "th";
    return std::to_string(n) + suffix;
}

}  // namespace

std::string seat_name(Seat seat, Seat me) {
    if (seat == kTableSeat) return "the table";
    return seat == me ? "you" : "seat " + std::to_string(seat);
}

std::string side_name(const Ruleset& rules, int side, Seat me) {
    const std::uint16_t seats = rules.side_seats(side);
    if (std::popcount(seats) == 1) return seat_name(static_cast<Seat>(side), me);
    std::string s = "seats ";
    bool mine = false, first = true;
    for (int i = 0; i < rules.seats; ++i) {
        if (!((seats >> i) & 1)) continue;
        s += (first ? "" : "+") + std::to_string(i);
        first = false;
        mine = mine || i == me;
    }
    return mine ? s + " (you)" : s;
}

std::string cards_text(CardSet cards) {
    std::string out;
    for (int s = 0; s < kSuitCount; ++s) {
        std::vector<Card> suit;
        for (Card c : of_suit(cards, static_cast<Suit>(s))) suit.push_back(c);
        // Ranks ascending, a second deck's copy beside its twin.
        std::sort(suit.begin(), suit.end(), [](Card a, Card b) { return a.face() != b.face() ? a.face() < b.face() : a < b; });
        if (suit.empty()) continue;
        if (!out.empty()) out += "  ";
        for (std::size_t i = 0; i < suit.size(); ++i) out += (i ? " " : "") + to_string(suit[i]);
    }
    for (Card c : cards & CardSet::jokers()) out += (out.empty() ? "" : "  ") + to_string(c);
    return out.empty() ? "(none)" : out;
}

std::string in_words(const Event& event, const Ruleset& rules, Seat me) {
    return std::visit(
        overloaded{
            [&](const HandStarted& e) -> std::string {
                std::string s = "\n=== Hand " + std::to_string(e.hand) + ": " + seat_name(e.dealer, me) +
                                (e.dealer == me ? " deal" : " deals") + ", " + std::to_string(e.hand_size) +
                                " cards each";
                if (e.center_size) s += ", " + std::to_string(e.center_size) + " to the center";
                if (e.kind != HandKind::undecided) s += std::string("; playing ") + to_string(e.kind);
                return s + " ===";
            },
            [&](const CardsDealt& e) -> std::string {
                if (e.seat != me) return "";
                return "You are dealt: " + cards_text(e.cards);
            },
            [&](const ChoiceStarted& e) -> std::string {
                if (e.chooser == me) return "You hold the 7 of diamonds: choose spades or hearts for this hand.";
                return cap(seat_name(e.chooser, me)) + " holds the 7 of diamonds and chooses the game.";
            },
            [&](const HandKindChosen& e) -> std::string {
                return does(e.seat, me, "choose") + " " + to_string(e.kind) + ".";
            },
            [&](const PassingStarted& e) -> std::string {
                if (e.distance == 0) return "No passing this hand.";
                const Seat to = static_cast<Seat>((me + e.distance) % rules.seats);
                std::string s = e.round > 1 ? "Now everyone passes " : "Everyone passes ";
                s += std::to_string(e.count) + " card(s) " + std::to_string(e.distance) +
                     " seat(s) to the left: you pass to " + seat_name(to, me);
                if (e.back_count) {
                    const Seat back = static_cast<Seat>((me - e.distance + rules.seats) % rules.seats);
                    s += ", and " + std::to_string(e.back_count) + " more back to " + seat_name(back, me);
                }
                return s + ".";
            },
            [&](const CardsPassed& e) -> std::string {
                if (e.from == me) return "You pass " + cards_text(e.cards) + " to " + seat_name(e.to, me) + ".";
                return cap(seat_name(e.from, me)) + " has passed.";
            },
            [&](const CardsReceived& e) -> std::string {
                if (e.seat != me) return "";
                return "You receive " + cards_text(e.cards) + " from " + seat_name(e.from, me) + ".";
            },
            [&](const BiddingStarted& e) -> std::string {
                return "Bidding starts with " + seat_name(e.first, me) + ".";
            },
            [&](const BidMade& e) -> std::string {
                if (e.bid == kHiddenBid) return does(e.seat, me, "bid") + " in secret.";
                return does(e.seat, me, "bid") + " " + (e.blind ? std::string("blind nil") : e.nil ? std::string("nil") : std::to_string(e.bid)) +
                       (e.secret ? " (secret)." : ".");
            },
            [&](const BidsRevealed& e) -> std::string {
                std::string s = "The bids are revealed:";
                for (int i = 0; i < e.count; ++i)
                    s += (i ? ", " : " ") + seat_name(static_cast<Seat>(i), me) + " " + std::to_string(e.bids[i]);
                return s + ".";
            },
            [&](const PlayStarted& e) -> std::string {
                return cap(seat_name(e.leader, me)) + (e.leader == me ? " lead" : " leads") + " the first trick.";
            },
            [&](const CardPlayed& e) -> std::string {
                return does(e.seat, me, "play") + " " + to_string(e.card) + ".";
            },
            [&](const HeartsBroken&) -> std::string { return "Hearts are broken."; },
            [&](const SpadesBroken&) -> std::string { return "Spades are broken."; },
            [&](const TrickWon& e) -> std::string {
                std::string cards;
                for (int i = 0; i < e.count; ++i) cards += (i ? " " : "") + to_string(e.cards[i]);
                return does(e.winner, me, "win") + " trick " + std::to_string(e.trick) + " (" + cards + ").";
            },
            [&](const CenterTaken& e) -> std::string {
                std::string s = does(e.seat, me, "take") + " the " + std::to_string(e.count) + " center card(s)";
                if (!e.cards.empty()) s += ": " + cards_text(e.cards);
                return s + ".";
            },
            [&](const HandScored& e) -> std::string {
                std::string s = "Hand " + std::to_string(e.hand) + " scored:";
                for (int i = 0; i < e.side_count(); ++i) {
                    const SideScore& side = e.sides[i];
                    s += "\n  " + side_name(rules, i, me) + ":";
                    if (side.bid >= 0) s += " bid " + std::to_string(side.bid) + ",";
                    s += " took " + std::to_string(side.tricks) + ";";
                    for (int c = 0; c < kScoreComponentCount; ++c)
                        if (side.delta[c])
                            s += std::string(" ") + to_string(static_cast<ScoreComponent>(c)) + " " +
                                 signed_number(side.delta[c]) + ",";
                    s += " hand " + signed_number(side.hand_total) + ", score " + std::to_string(side.score);
                    if (side.bags) s += " (bags " + std::to_string(side.bags) + ")";
                }
                return s;
            },
            [&](const BagPenalty& e) -> std::string {
                const std::string side = side_name(rules, e.side, me);
                const int points = e.points * e.times;
                if (e.to_opponents) return cap(side) + " reach the bag limit: the opponents get +" + std::to_string(points) + ".";
                return cap(side) + " reach the bag limit: -" + std::to_string(points) + " (bags now " +
                       std::to_string(e.bags_after) + ").";
            },
            [&](const MoonShot& e) -> std::string {
                const std::string what = e.points == 52 ? "the sun (every trick)" : "the moon";
                if (e.seat == me) return "You shot " + what + ": choose whether " + std::to_string(e.points) +
                                         " go onto every other score or off yours.";
                return cap(seat_name(e.seat, me)) + " shot " + what + " and chooses how it scores.";
            },
            [&](const GameOver& e) -> std::string {
                std::string s = "\n=== Game over (" + std::string(to_string(e.reason)) + ") after " +
                                std::to_string(e.hands_played) + " hand(s) ===";
                for (int i = 0; i < e.side_count; ++i)
                    s += "\n  " + ordinal(e.ranks[i]) + ": " + side_name(rules, i, me) + " with " +
                         std::to_string(e.scores[i]);
                return s;
            },
        },
        event);
}

}  // namespace sparts::cli
