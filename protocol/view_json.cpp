#include "protocol/view_json.hpp"

#include "engine/finished_tricks.hpp"
#include "protocol/card_json.hpp"
#include "protocol/event_json.hpp"

namespace sparts {

using nlohmann::json;

namespace {

json seat_or_null(Seat seat) { return seat == kNoSeat ? json(nullptr) : json(seat); }

json viewer_json(Viewer v) {
    if (v == kSpectator) return "spectator";
    if (v == kArchive) return "archive";
    return v;
}

json seats_in(std::uint16_t mask, int seats) {
    json a = json::array();
    for (int s = 0; s < seats; ++s)
        if ((mask >> s) & 1) a.push_back(s);
    return a;
}

json bid_json(int bid, bool zero_bid_is_nil) {
    if (bid == kHiddenBid) return "secret";  // made, but hidden from this viewer
    if (bid < 0) return nullptr;            // not bid yet
    if (bid == 0 && zero_bid_is_nil) return "nil";
    return bid;
}

}  // namespace

json to_json(const LegalMoves& m, bool zero_bid_is_nil) {
    if (!m.any) return nullptr;
    json j = {{"kind", to_string(m.kind)}};
    switch (m.kind) {
        case ActionKind::play: j["cards"] = to_json(m.cards); break;
        case ActionKind::pass:
            j["count"] = m.pass_count;
            j["back_count"] = m.back_count;
            j["cards"] = to_json(m.cards);
            break;
        case ActionKind::bid: {
            json bids = json::array();
            for (int b = 0; b < 32; ++b)
                if ((m.bids >> b) & 1) bids.push_back(bid_json(b, zero_bid_is_nil));
            j["bids"] = std::move(bids);
            // Blind nil: the cards are face down, and the bids come once they are shown.
            if (m.blind_nil) j["blind_nil"] = true;
            if (m.show_cards) j["show_cards"] = true;
            break;
        }
        case ActionKind::choose: {
            json choices = json::array();
            if (m.choose_spades) choices.push_back("spades");
            if (m.choose_hearts) choices.push_back("hearts");
            j["choices"] = std::move(choices);
            break;
        }
        case ActionKind::moon: {
            json choices = json::array();
            if (m.moon_add) choices.push_back("add");
            if (m.moon_subtract) choices.push_back("subtract");
            j["choices"] = std::move(choices);
            break;
        }
        case ActionKind::clock_expired:
        case ActionKind::show_cards: break;
    }
    return j;
}

// Per seat, the seats whose results combine with its own this hand.
json partners_json(const SeatView& v) {
    json all = json::array();
    for (int s = 0; s < v.seats; ++s) all.push_back(seats_in(v.partners[s], v.seats));
    return all;
}

json to_json(const SeatView& v, bool zero_bid_is_nil) {
    const int n = v.seats;
    json hand_sizes = json::array(), bids = json::array(), tricks = json::array(), points_taken = json::array();
    for (int s = 0; s < n; ++s) {
        hand_sizes.push_back(v.hand_sizes[s]);
        bids.push_back((v.blind_nils >> s) & 1 ? json("blind_nil") : bid_json(v.bids[s], zero_bid_is_nil));
        tricks.push_back(v.tricks[s]);
        points_taken.push_back(to_json(v.points_taken[s]));
    }
    json scores = json::array(), bags = json::array();
    for (int i = 0; i < v.side_count; ++i) {
        scores.push_back(v.scores[i]);
        bags.push_back(v.bags[i]);
    }
    json trick_cards = json::array();
    for (int i = 0; i < v.trick.count; ++i)
        trick_cards.push_back({{"seat", (v.trick.leader + i) % n}, {"card", to_json(v.trick.cards[i])}});

    json j = {
        {"viewer", viewer_json(v.viewer)},
        {"seats", v.seats},
        {"phase", to_string(v.phase)},
        {"hand_number", v.hand_number},
        {"dealer", seat_or_null(v.dealer)},
        {"kind", to_string(v.kind)},
        {"turn", seat_or_null(v.turn)},
        {"waiting_for", seats_in(v.waiting_for, n)},
        {"hand_sizes", std::move(hand_sizes)},
        {"pass_count", v.pass_count},
        {"pass_distance", v.pass_distance},
        {"partners", partners_json(v)},
        {"pass_round", v.pass_round},
        {"pass_back_count", v.pass_back_count},
        {"passed_seats", seats_in(v.passed_mask, n)},
        {"center_size", v.center_size},
        {"center_given", v.center_given},
        {"center_taker", seat_or_null(v.center_taker)},
        {"bids", std::move(bids)},
        {"trick", {{"leader", seat_or_null(v.trick.leader)}, {"cards", std::move(trick_cards)}}},
        {"trick_number", v.trick_number},
        {"tricks", std::move(tricks)},
        {"hearts_broken", v.hearts_broken},
        {"spades_broken", v.spades_broken},
        {"points_taken", std::move(points_taken)},
        {"scores", std::move(scores)},
        {"bags", std::move(bags)},
    };
    // The viewer's own cards: only a seat has any (the view is built by allow-list,
    // and a spectator's holds none; leaving the members out says so plainly).
    if (v.viewer < n) {
        j["hand"] = to_json(v.hand);
        j["cards_passed"] = to_json(v.passed);
        j["cards_received"] = to_json(v.received);
        j["center_cards"] = to_json(v.center_cards);
        j["legal"] = to_json(v.legal, zero_bid_is_nil);
    }
    return j;
}

json seat_view_json(const Game& game, Viewer viewer) {
    json j = to_json(view_of(game, viewer), game.state().hand_rules.nil_allowed);
    // Outside SeatView, which the bots build for every simulated decision: only a
    // client coming back to the table needs the hand's finished tricks.
    json past = json::array();
    for (const TrickWon& t : finished_tricks(game)) {
        json trick = to_json(Event{t});
        trick.erase("type");
        past.push_back(std::move(trick));
    }
    j["past_tricks"] = std::move(past);
    return j;
}

}  // namespace sparts
