#include "engine/event.hpp"

#include <type_traits>

namespace sparts {

const char* to_string(HandKind kind) {
    switch (kind) {
        case HandKind::undecided: return "undecided";
        case HandKind::spades: return "spades";
        case HandKind::hearts: return "hearts";
        case HandKind::sparts: return "sparts";
    }
    return "?";
}

const char* to_string(Phase phase) {
    switch (phase) {
        case Phase::choosing: return "choosing";
        case Phase::passing: return "passing";
        case Phase::bidding: return "bidding";
        case Phase::playing: return "playing";
        case Phase::game_over: return "game_over";
        case Phase::moon_choice: return "moon_choice";
    }
    return "?";
}

const char* to_string(GameEndReason reason) {
    switch (reason) {
        case GameEndReason::target_score: return "target_score";
        case GameEndReason::hand_limit: return "hand_limit";
        case GameEndReason::hand_cap: return "hand_cap";
        case GameEndReason::game_clock: return "game_clock";
        case GameEndReason::mercy_rule: return "mercy_rule";
    }
    return "?";
}

const char* to_string(ScoreComponent c) {
    static constexpr const char* names[kScoreComponentCount] = {
        "contract", "overtricks", "set",   "zero_bid", "nil",         "base",    "no_tricks",
        "hearts",   "queen_of_spades", "ten_of_hearts", "jack_of_diamonds", "moon", "bag_penalty",
        "bag_back", "all_thirteen", "blind_nil"};
    return names[static_cast<int>(c)];
}

const char* event_name(const Event& e) {
    static constexpr const char* names[] = {
        "hand_started", "cards_dealt", "choice_started", "hand_kind_chosen", "passing_started",
        "cards_passed", "cards_received", "bidding_started", "bid_made", "bids_revealed", "play_started",
        "card_played", "hearts_broken", "spades_broken", "trick_won", "center_taken",
        "hand_scored", "bag_penalty", "game_over", "moon_shot"};
    static_assert(std::size(names) == std::variant_size_v<Event>);
    return names[e.index()];
}

namespace {

std::string cards_text(CardSet cards) {
    std::string s;
    for (Card c : cards) {
        if (!s.empty()) s += ',';
        s += to_string(c);
    }
    return s;
}

std::string n(int v) { return std::to_string(v); }

}  // namespace

std::string describe(const Event& ev) {
    std::string s = event_name(ev);
    std::visit(
        [&](const auto& e) {
            using T = std::decay_t<decltype(e)>;
            if constexpr (std::is_same_v<T, HandStarted>) {
                s += " hand=" + n(e.hand) + " dealer=" + n(e.dealer) + " kind=" + to_string(e.kind) +
                     " hand_size=" + n(e.hand_size) + " center=" + n(e.center_size);
            } else if constexpr (std::is_same_v<T, CardsDealt>) {
                s += " seat=" + n(e.seat) + " count=" + n(e.count) + " cards=" + cards_text(e.cards);
            } else if constexpr (std::is_same_v<T, ChoiceStarted>) {
                s += " chooser=" + n(e.chooser);
            } else if constexpr (std::is_same_v<T, HandKindChosen>) {
                s += " seat=" + n(e.seat) + " kind=" + to_string(e.kind);
            } else if constexpr (std::is_same_v<T, PassingStarted>) {
                s += " count=" + n(e.count) + " distance=" + n(e.distance);
                if (e.round > 1) s += " round=" + n(e.round);
                if (e.back_count) s += " back=" + n(e.back_count);
                if (e.seats) s += " seats=" + n(e.seats);
            } else if constexpr (std::is_same_v<T, CardsPassed>) {
                s += " from=" + n(e.from) + " to=" + n(e.to) + " count=" + n(e.count) + " cards=" + cards_text(e.cards);
            } else if constexpr (std::is_same_v<T, CardsReceived>) {
                s += " seat=" + n(e.seat) + " from=" + n(e.from) + " count=" + n(e.count) + " cards=" + cards_text(e.cards);
            } else if constexpr (std::is_same_v<T, BiddingStarted>) {
                s += " first=" + n(e.first);
            } else if constexpr (std::is_same_v<T, BidMade>) {
                s += " seat=" + n(e.seat) + " bid=" +
                     (e.bid == kHiddenBid ? std::string("hidden") : e.nil ? std::string("nil") : n(e.bid));
                if (e.secret) s += " secret";
                if (e.blind) s += " blind";
            } else if constexpr (std::is_same_v<T, BidsRevealed>) {
                s += " bids=";
                for (int i = 0; i < e.count; ++i) {
                    if (i) s += ',';
                    s += n(e.bids[i]);
                }
            } else if constexpr (std::is_same_v<T, PlayStarted>) {
                s += " leader=" + n(e.leader);
            } else if constexpr (std::is_same_v<T, CardPlayed>) {
                s += " seat=" + n(e.seat) + " card=" + to_string(e.card) + " trick=" + n(e.trick);
            } else if constexpr (std::is_same_v<T, HeartsBroken> || std::is_same_v<T, SpadesBroken>) {
                s += " seat=" + n(e.seat);
            } else if constexpr (std::is_same_v<T, TrickWon>) {
                s += " trick=" + n(e.trick) + " leader=" + n(e.leader) + " winner=" + n(e.winner) + " cards=";
                for (int i = 0; i < e.count; ++i) {
                    if (i) s += ',';
                    s += to_string(e.cards[i]);
                }
            } else if constexpr (std::is_same_v<T, CenterTaken>) {
                s += " seat=" + n(e.seat) + " count=" + n(e.count) + " cards=" + cards_text(e.cards);
            } else if constexpr (std::is_same_v<T, HandScored>) {
                s += " hand=" + n(e.hand) + " kind=" + to_string(e.kind);
                if (e.reversed) s += " reversed";
                for (int i = 0; i < e.side_count(); ++i) {
                    const SideScore& side = e.sides[i];
                    s += " | side=" + n(i) + " seats=" + n(side.seats) + " bid=" + n(side.bid) +
                         " tricks=" + n(side.tricks) + " nils=" + n(side.nil_bids) + "/" + n(side.nils_made);
                    for (int c = 0; c < kScoreComponentCount; ++c) {
                        if (!side.delta[c]) continue;
                        s += ' ';
                        s += to_string(static_cast<ScoreComponent>(c));
                        s += '=';
                        s += n(side.delta[c]);
                    }
                    s += " total=" + n(side.hand_total) + " score=" + n(side.score) + " bags=" + n(side.bags);
                }
            } else if constexpr (std::is_same_v<T, BagPenalty>) {
                s += " side=" + n(e.side) + " times=" + n(e.times) + " points=" + n(e.points) +
                     (e.to_opponents ? " to=opponents" : " to=self") + " bags_after=" + n(e.bags_after);
            } else if constexpr (std::is_same_v<T, GameOver>) {
                s += std::string(" reason=") + to_string(e.reason) + " hands=" + n(e.hands_played);
                for (int i = 0; i < e.side_count; ++i)
                    s += " | side=" + n(i) + " score=" + n(e.scores[i]) + " rank=" + n(e.ranks[i]);
            } else if constexpr (std::is_same_v<T, MoonShot>) {
                s += " seat=" + n(e.seat) + " side=" + n(e.side) + " points=" + n(e.points);
            }
        },
        ev);
    return s;
}

}  // namespace sparts
