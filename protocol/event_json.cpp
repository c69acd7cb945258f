#include "protocol/event_json.hpp"
#include "protocol/overloaded.hpp"

#include "engine/view.hpp"
#include "protocol/card_json.hpp"

namespace sparts {

using nlohmann::json;

namespace {

json seats_of(std::uint16_t mask) {
    json a = json::array();
    for (int s = 0; s < kMaxSeats; ++s)
        if ((mask >> s) & 1) a.push_back(s);
    return a;
}

json side_json(const SideScore& side) {
    json sheet = json::object();
    for (int c = 0; c < kScoreComponentCount; ++c)
        if (side.delta[c]) sheet[to_string(static_cast<ScoreComponent>(c))] = side.delta[c];
    return {{"seats", seats_of(side.seats)},
            {"bid", side.bid < 0 ? json(nullptr) : json(side.bid)},
            {"tricks", side.tricks},
            {"nil_bids", side.nil_bids},
            {"nils_made", side.nils_made},
            {"score_sheet", std::move(sheet)},
            {"hand_total", side.hand_total},
            {"score", side.score},
            {"bags", side.bags}};
}

// The members of each kind of event, `type` aside. No catch-all overload: an
// event kind added to the engine must be given its wire form here before the
// project builds again, so no event goes out half rendered.
json members(const Event& event) {
    return std::visit(
        overloaded{
            [](const HandStarted& e) -> json {
                return {{"hand", e.hand}, {"dealer", e.dealer}, {"kind", to_string(e.kind)},
                        {"hand_size", e.hand_size}, {"center_size", e.center_size}};
            },
            [](const CardsDealt& e) -> json {
                return {{"seat", e.seat}, {"count", e.count}, {"cards", to_json(e.cards)}};
            },
            [](const ChoiceStarted& e) -> json { return {{"chooser", e.chooser}}; },
            [](const HandKindChosen& e) -> json { return {{"seat", e.seat}, {"kind", to_string(e.kind)}}; },
            [](const PassingStarted& e) -> json {
                json j = {{"count", e.count}, {"distance", e.distance}, {"round", e.round}, {"back_count", e.back_count}};
                // Only when some seats sit the round out (a nil pass): the seats that pass.
                if (e.seats) {
                    json seats = json::array();
                    for (int s = 0; s < 16; ++s)
                        if ((e.seats >> s) & 1) seats.push_back(s);
                    j["seats"] = std::move(seats);
                }
                return j;
            },
            [](const CardsPassed& e) -> json {
                return {{"from", e.from}, {"to", e.to}, {"count", e.count}, {"cards", to_json(e.cards)}};
            },
            [](const CardsReceived& e) -> json {
                return {{"seat", e.seat}, {"from", e.from}, {"count", e.count}, {"cards", to_json(e.cards)}};
            },
            [](const BiddingStarted& e) -> json { return {{"first", e.first}}; },
            [](const BidMade& e) -> json {
                json j = {{"seat", e.seat}};
                if (e.bid != kHiddenBid) j["bid"] = e.blind ? json("blind_nil") : e.nil ? json("nil") : json(e.bid);  // absent: secret
                if (e.secret) j["secret"] = true;
                return j;
            },
            [](const BidsRevealed& e) -> json {
                json bids = json::array();
                for (int i = 0; i < e.count; ++i) bids.push_back(e.bids[i]);
                return {{"bids", std::move(bids)}};
            },
            [](const PlayStarted& e) -> json { return {{"leader", e.leader}}; },
            [](const CardPlayed& e) -> json {
                return {{"seat", e.seat}, {"card", to_json(e.card)}, {"trick", e.trick}};
            },
            [](const HeartsBroken& e) -> json { return {{"seat", e.seat}}; },
            [](const SpadesBroken& e) -> json { return {{"seat", e.seat}}; },
            [](const TrickWon& e) -> json {
                json cards = json::array();  // in play order, not a set
                for (int i = 0; i < e.count; ++i) cards.push_back(to_json(e.cards[i]));
                return {{"trick", e.trick}, {"leader", e.leader}, {"winner", e.winner}, {"cards", std::move(cards)}};
            },
            [](const CenterTaken& e) -> json {
                return {{"seat", e.seat}, {"count", e.count}, {"cards", to_json(e.cards)}};
            },
            [](const HandScored& e) -> json {
                json sides = json::array();
                for (int i = 0; i < e.side_count(); ++i) sides.push_back(side_json(e.sides[i]));
                json j = {{"hand", e.hand}, {"kind", to_string(e.kind)}, {"sides", std::move(sides)}};
                if (e.reversed) j["reversed"] = true;  // reverse partners declared
                return j;
            },
            [](const BagPenalty& e) -> json {
                return {{"side", e.side}, {"times", e.times}, {"points", e.points},
                        {"to_opponents", e.to_opponents}, {"bags_after", e.bags_after}};
            },
            [](const GameOver& e) -> json {
                json scores = json::array(), ranks = json::array();
                for (int i = 0; i < e.side_count; ++i) {
                    scores.push_back(e.scores[i]);
                    ranks.push_back(e.ranks[i]);
                }
                return {{"reason", to_string(e.reason)}, {"hands_played", e.hands_played},
                        {"scores", std::move(scores)}, {"ranks", std::move(ranks)}};
            },
            [](const MoonShot& e) -> json { return {{"seat", e.seat}, {"side", e.side}, {"points", e.points}}; },
        },
        event);
}

bool has_secret_cards(const Event& e) {
    return std::holds_alternative<CardsDealt>(e) || std::holds_alternative<CardsPassed>(e) ||
           std::holds_alternative<CardsReceived>(e) || std::holds_alternative<CenterTaken>(e);
}

}  // namespace

json to_json(const Event& event) {
    json j = members(event);
    j["type"] = event_name(event);
    return j;
}

json to_json(const Event& event, Viewer viewer) {
    // redact() is the one place that says who may see what; whatever it
    // strips is left out altogether rather than sent as an empty list.
    const Event seen = redact(event, viewer);
    json j = to_json(seen);
    if (has_secret_cards(seen) && cards_shown(seen).empty()) j.erase("cards");
    return j;
}

json to_json(const GameOver& over) { return to_json(Event(over)); }

bool is_secret(const Event& e) {
    if (const auto* b = std::get_if<BidMade>(&e)) return b->secret;
    return has_secret_cards(e);
}

json archive_json(const Event& event) { return is_secret(event) ? to_json(event) : to_json(event, kSpectator); }

}  // namespace sparts
