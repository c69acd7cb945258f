#include "tools/table_text.hpp"

#include "engine/view.hpp"
#include "tools/event_words.hpp"

namespace sparts::cli {

namespace {

std::string bids_allowed(std::uint32_t bids, bool zero_is_nil) {
    std::string s;
    for (int b = 0; b < 32; ++b) {
        if (!((bids >> b) & 1)) continue;
        int last = b;
        while (last + 1 < 32 && ((bids >> (last + 1)) & 1) && !(b == 0 && zero_is_nil)) ++last;
        if (!s.empty()) s += ", ";
        s += b == 0 && zero_is_nil ? "nil" : std::to_string(b);
        if (last > b) s += (last == b + 1 ? ", " : "..") + std::to_string(last);
        b = last;
    }
    return s;
}

}  // namespace

std::string table_text(const Game& game, Seat me) {
    const SeatView v = view_of(game, me);
    const Ruleset& rules = game.rules();
    const bool zero_is_nil = game.state().hand_rules.nil_allowed;
    std::string s = "--- Hand " + std::to_string(v.hand_number) + " (" + to_string(v.kind) + "), " +
                    seat_name(v.dealer, me) + (v.dealer == me ? " deal" : " deals") + "; " + to_string(v.phase) + " ---";

    s += "\nScores:";
    for (int i = 0; i < v.side_count; ++i) {
        s += (i ? ", " : " ") + side_name(rules, i, me) + " " + std::to_string(v.scores[i]);
        if (v.bags[i]) s += " (bags " + std::to_string(v.bags[i]) + ")";
    }
    if (game.state().hand_rules.bidding && (v.phase == Phase::bidding || v.phase == Phase::playing)) {
        s += "\nBids:";
        for (int i = 0; i < v.seats; ++i) {
            const int b = v.bids[i];
            s += (i ? ", " : " ") + seat_name(static_cast<Seat>(i), me) + " " +
                 (b < 0 ? std::string("-") : b == 0 && zero_is_nil ? std::string("nil") : std::to_string(b));
        }
    }
    if (v.phase == Phase::playing) {
        s += "\nTricks:";
        for (int i = 0; i < v.seats; ++i)
            s += (i ? ", " : " ") + seat_name(static_cast<Seat>(i), me) + " " + std::to_string(v.tricks[i]);
        s += "\nTrick " + std::to_string(v.trick_number) + ":";
        if (v.trick.count == 0) s += " " + seat_name(v.trick.leader, me) + (v.trick.leader == me ? " lead" : " leads");
        for (int i = 0; i < v.trick.count; ++i)
            s += (i ? ", " : " ") + seat_name(static_cast<Seat>((v.trick.leader + i) % v.seats), me) + " " +
                 to_string(v.trick.cards[i]);
    }
    if (v.center_size) {
        s += "\nCenter: " + std::to_string(v.center_size - v.center_given) + " of " + std::to_string(v.center_size) +
             " card(s) left";
        if (!v.center_cards.empty()) s += "; you took " + cards_text(v.center_cards);
    }
    s += "\nYour hand: " + cards_text(v.hand);

    const LegalMoves& m = v.legal;
    if (m.any) {
        switch (m.kind) {
            case ActionKind::play: s += "\nYou may play: " + cards_text(m.cards); break;
            case ActionKind::pass:
                s += "\nPass " + std::to_string(m.pass_count) + " card(s) (e.g. 'pass " +
                     to_string(m.cards.nth(0)) + " ...')";
                if (m.back_count)
                    s += ", and " + std::to_string(m.back_count) + " more back to the seat passing to you "
                         "(e.g. 'pass 2C 3C 4C back 5D')";
                break;
            case ActionKind::bid:
                if (m.blind_nil || m.show_cards) {
                    s += "\nYour cards are face down: 'blind' bids blind nil, 'look' shows them";
                    break;
                }
                s += "\nYou may bid: " + bids_allowed(m.bids, zero_is_nil);
                break;
            case ActionKind::choose: s += "\nChoose the game: spades or hearts"; break;
            case ActionKind::moon:
                s += "\nYou shot the moon: 'moon add' gives each opponent the moon's points (26, 52 for the sun), "
                     "'moon subtract' takes them off your score";
                break;
            case ActionKind::clock_expired:
            case ActionKind::show_cards: break;
        }
    }
    return s;
}

}  // namespace sparts::cli
