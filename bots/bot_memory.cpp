#include "bots/bot_memory.hpp"

#include <algorithm>
#include <type_traits>

#include "engine/joker_deck.hpp"
#include "engine/view.hpp"

namespace sparts {

BotMemory::BotMemory(const Ruleset& rules, Seat seat) : rules_(rules), seat_(seat) { bids_.fill(kNoBid); }

void BotMemory::start_hand(const HandStarted& e) {
    hand_ = e.hand;
    kind_ = e.kind;
    dealer_ = e.dealer;
    dealt_ = passed_ = received_ = played_ = center_cards_ = CardSet();
    passed_to_ = known_held_ = played_by_ = won_ = {};
    voids_ = tricks_ = {};
    bids_.fill(kNoBid);
    nil_ = {};
    center_taker_ = kNoSeat;
    center_taken_ = 0;
    trick_number_ = 0;
    trick_open_ = false;
}

void BotMemory::on_card(const CardPlayed& e) {
    played_.insert(e.card);
    played_by_[e.seat].insert(e.card);
    known_held_[e.seat].erase(e.card);
    trick_number_ = e.trick;
    if (!trick_open_) {
        trick_open_ = true;
        trick_lead_ = e.card;
        return;
    }
    // Not following the suit led shows a void: following suit comes before every
    // other rule, and only a Spartsel joker may be played instead (seed 002). In
    // Joker Spades the jokers and raised deuces follow as spades (joker_deck.hpp).
    const JokerDeck jd = rules_.joker_deck;
    if (jd == JokerDeck::none && (trick_lead_.is_joker() || e.card.is_joker())) return;
    const Suit led = suit_in_play(jd, trick_lead_);
    if (suit_in_play(jd, e.card) != led)
        voids_[e.seat] = static_cast<std::uint8_t>(voids_[e.seat] | (1u << static_cast<int>(led)));
}

BotMemory BotMemory::imagined(Seat other, CardSet hand, CardSet center_cards) const {
    BotMemory m = *this;
    if (other == seat_) return m;
    m.seat_ = other;
    m.dealt_ = hand | played_by_[other];
    m.passed_ = m.received_ = CardSet();
    m.passed_to_ = m.known_held_ = {};
    m.center_cards_ = center_cards;
    return m;
}

void BotMemory::observe(const Event& raw) {
    const Event event = redact(raw, seat_);
    std::visit(
        [&](const auto& e) {
            using T = std::decay_t<decltype(e)>;
            if constexpr (std::is_same_v<T, HandStarted>) {
                start_hand(e);
            } else if constexpr (std::is_same_v<T, CardsDealt>) {
                if (e.seat == seat_) dealt_ = e.cards;
            } else if constexpr (std::is_same_v<T, HandKindChosen>) {
                kind_ = e.kind;
            } else if constexpr (std::is_same_v<T, CardsPassed>) {
                if (e.from == seat_) {
                    passed_ |= e.cards;
                    passed_to_[e.to] |= e.cards;
                    known_held_[e.to] |= e.cards;
                }
            } else if constexpr (std::is_same_v<T, CardsReceived>) {
                if (e.seat == seat_) {
                    received_ |= e.cards;
                    for (auto& k : known_held_) k &= ~e.cards;  // a card passed back
                }
            } else if constexpr (std::is_same_v<T, BidMade>) {
                bids_[e.seat] = e.bid;
                nil_[e.seat] = e.nil;
            } else if constexpr (std::is_same_v<T, BidsRevealed>) {
                for (int s = 0; s < e.count; ++s) bids_[s] = e.bids[s];
            } else if constexpr (std::is_same_v<T, CardPlayed>) {
                on_card(e);
            } else if constexpr (std::is_same_v<T, TrickWon>) {
                for (int i = 0; i < e.count; ++i) won_[e.winner].insert(e.cards[i]);
                ++tricks_[e.winner];
                trick_open_ = false;
            } else if constexpr (std::is_same_v<T, CenterTaken>) {
                center_taker_ = e.seat;
                center_taken_ += e.count;
                if (e.seat == seat_) center_cards_ |= e.cards;
            } else if constexpr (std::is_same_v<T, HandScored>) {
                for (int i = 0; i < e.side_count(); ++i) scores_[i] = e.sides[i].score, bags_[i] = e.sides[i].bags;
                ++hands_scored_;
                if (e.kind == HandKind::hearts) ++hearts_hands_played_;
            }
        },
        event);
}

void BotMemory::resume(std::span<const std::int32_t> scores, std::span<const std::int16_t> bags) {
    for (std::size_t i = 0; i < scores.size() && i < scores_.size(); ++i) scores_[i] = scores[i];
    for (std::size_t i = 0; i < bags.size() && i < bags_.size(); ++i) bags_[i] = bags[i];
    // Every hand before this one was scored; in the hearts preset every one was a Hearts hand
    // (its pass direction counts them). bga-sparts' count of Hearts hands is in no view.
    hands_scored_ = std::max(0, hand_ - 1);
    if (rules_.family() == Family::hearts) hearts_hands_played_ = hands_scored_;
}

}  // namespace sparts
