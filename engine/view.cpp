#include "engine/view.hpp"

#include <type_traits>

namespace sparts {

SeatView view_of(const Game& game, Viewer viewer) {
    const GameState& s = game.state();
    const Ruleset& r = game.rules();
    const bool is_seat = viewer < r.seats;
    SeatView v;
    v.viewer = viewer;
    v.seats = static_cast<std::uint8_t>(r.seats);
    v.phase = s.phase;
    v.hand_number = s.hand;
    v.dealer = s.dealer;
    v.kind = s.hand_rules.kind;
    v.turn = s.turn;
    v.waiting_for = game.waiting_for();
    for (int i = 0; i < r.seats; ++i) v.hand_sizes[i] = static_cast<std::uint8_t>(s.hands[i].size());

    v.pass_count = s.phase == Phase::passing ? s.round_count : s.hand_rules.pass_count;
    v.pass_distance = s.phase == Phase::passing ? s.round_distance : s.hand_rules.pass_distance;
    v.pass_round = s.pass_round;
    v.pass_back_count = s.round_back_count;
    // A seat that sits a nil pass out has not passed: it passes nothing.
    v.passed_mask = static_cast<std::uint16_t>(s.passed_mask & (s.phase == Phase::passing ? game.passing_seats() : 0xffff));

    v.center_size = s.center_size;
    v.center_given = s.center_given;
    v.center_taker = s.center_taker;

    v.bids = s.bids;
    if (r.secret_bids)
        for (int i = 0; i < r.seats; ++i)
            if (i != viewer && v.bids[i] >= 0) v.bids[i] = kHiddenBid;
    v.trick = s.trick;
    v.trick_number = s.trick_number;
    v.tricks = s.tricks;
    v.hearts_broken = s.hearts_broken;
    v.spades_broken = s.spades_broken;
    if (s.hand_rules.kind == HandKind::hearts || s.hand_rules.kind == HandKind::sparts) {
        CardSet scoring = CardSet::suit(Suit::hearts);
        for (int deck = 0; deck < 2; ++deck) {
            scoring.insert(Card::of(queen, Suit::spades, deck));
            // The jack of diamonds scores in Sparts hands, and in the hearts preset's Omnibus.
            if (s.hand_rules.kind == HandKind::sparts || r.jack_of_diamonds != 0) scoring.insert(Card::of(jack, Suit::diamonds, deck));
        }
        CardSet center;
        for (int i = 0; i < s.center_given; ++i) center.insert(s.center[i]);
        for (int i = 0; i < r.seats; ++i) v.points_taken[i] = s.won[i] & scoring & ~center;
    }

    for (int i = 0; i < r.seats; ++i) v.partners[i] = game.hand_partners(static_cast<Seat>(i));
    v.side_count = static_cast<std::uint8_t>(r.sides());
    v.scores = s.scores;
    v.bags = s.bags;
    v.blind_nils = s.blind;

    if (is_seat) {
        // Blind nil: cards still face down are not the seat's to see yet.
        v.hand = (s.face_down >> viewer) & 1 ? CardSet() : s.hands[viewer];
        v.passed = s.passed[viewer];
        v.received = s.received[viewer];
        CardSet center;
        for (int i = 0; i < s.center_given; ++i) center.insert(s.center[i]);
        v.center_cards = center & s.won[viewer];
        v.legal = game.legal_moves(viewer);
    }
    return v;
}

Event redact(const Event& event, Viewer viewer) {
    if (viewer == kArchive) return event;
    return std::visit(
        [&](const auto& e) -> Event {
            using T = std::decay_t<decltype(e)>;
            if constexpr (std::is_same_v<T, CardsDealt>) {
                return CardsDealt{e.seat, e.count, viewer == e.seat ? e.cards : CardSet()};
            } else if constexpr (std::is_same_v<T, CardsPassed>) {
                return CardsPassed{e.from, e.to, e.count, viewer == e.from ? e.cards : CardSet()};
            } else if constexpr (std::is_same_v<T, CardsReceived>) {
                return CardsReceived{e.seat, e.from, e.count,
                                     viewer == e.seat || viewer == e.from ? e.cards : CardSet()};
            } else if constexpr (std::is_same_v<T, BidMade>) {
                const bool shown = !e.secret || viewer == e.seat;
                return BidMade{e.seat, shown ? e.bid : kHiddenBid, shown && e.nil, e.secret, e.blind};
            } else if constexpr (std::is_same_v<T, CenterTaken>) {
                return CenterTaken{e.seat, e.count, viewer == e.seat ? e.cards : CardSet()};
            } else {
                return e;  // public in full
            }
        },
        event);
}

CardSet cards_shown(const Event& event) {
    return std::visit(
        [](const auto& e) -> CardSet {
            using T = std::decay_t<decltype(e)>;
            if constexpr (std::is_same_v<T, CardsDealt> || std::is_same_v<T, CardsPassed> ||
                          std::is_same_v<T, CardsReceived> || std::is_same_v<T, CenterTaken>) {
                return e.cards;
            } else if constexpr (std::is_same_v<T, CardPlayed>) {
                return CardSet::of(e.card);
            } else if constexpr (std::is_same_v<T, TrickWon>) {
                CardSet s;
                for (int i = 0; i < e.count; ++i) s.insert(e.cards[i]);
                return s;
            } else {
                return CardSet();
            }
        },
        event);
}

}  // namespace sparts
