// A set of physical cards as a 128-bit mask (see card.hpp for the bit layout).
// Suit runs are contiguous, so "cards of a suit" is one AND per word and
// counting is popcount: no heap, no loops on the hot path.
#pragma once

#include <bit>
#include <cstdint>

#include "engine/card.hpp"

namespace sparts {

class CardSet {
public:
    constexpr CardSet() = default;
    constexpr CardSet(std::uint64_t lo, std::uint64_t hi) : lo_(lo), hi_(hi) {}
    static constexpr CardSet of(Card c) {
        return c.id() < 64 ? CardSet(std::uint64_t{1} << c.id(), 0)
                           : CardSet(0, std::uint64_t{1} << (c.id() - 64));
    }
    // Every card of one suit in both decks (mask with the cards in play).
    static constexpr CardSet suit(Suit s) {
        const std::uint64_t run = std::uint64_t{0x1FFF} << (16 * static_cast<int>(s));
        return CardSet(run, run);
    }
    static constexpr CardSet jokers() { return CardSet(0x8000800080008000ULL, 0); }
    // The cards of `decks` full decks plus the first `jokers` jokers.
    static constexpr CardSet deck(int decks, int jokers) {
        CardSet s(0x1FFF1FFF1FFF1FFFULL, decks > 1 ? 0x1FFF1FFF1FFF1FFFULL : 0);
        for (int j = 0; j < jokers; ++j) s.insert(Card::joker(j));
        return s;
    }

    constexpr bool empty() const { return (lo_ | hi_) == 0; }
    constexpr int size() const { return std::popcount(lo_) + std::popcount(hi_); }
    constexpr bool contains(Card c) const {
        return c.id() < 64 ? (lo_ >> c.id()) & 1 : (hi_ >> (c.id() - 64)) & 1;
    }
    constexpr bool contains_all(CardSet o) const { return (o & ~*this).empty(); }
    constexpr bool intersects(CardSet o) const { return !(*this & o).empty(); }
    constexpr void insert(Card c) { *this |= of(c); }
    constexpr void erase(Card c) { *this &= ~of(c); }

    // The lowest card by id: lowest rank of the lowest suit, first deck first.
    constexpr Card first() const {
        return lo_ ? Card::from_id(static_cast<std::uint8_t>(std::countr_zero(lo_)))
                   : Card::from_id(static_cast<std::uint8_t>(64 + std::countr_zero(hi_)));
    }
    constexpr Card pop_first() {
        const Card c = first();
        erase(c);
        return c;
    }
    // The n-th card (0-based) in id order; n < size().
    Card nth(int n) const;

    constexpr std::uint64_t lo() const { return lo_; }
    constexpr std::uint64_t hi() const { return hi_; }

    constexpr CardSet operator|(CardSet o) const { return {lo_ | o.lo_, hi_ | o.hi_}; }
    constexpr CardSet operator&(CardSet o) const { return {lo_ & o.lo_, hi_ & o.hi_}; }
    constexpr CardSet operator~() const { return {~lo_, ~hi_}; }
    constexpr CardSet& operator|=(CardSet o) { lo_ |= o.lo_; hi_ |= o.hi_; return *this; }
    constexpr CardSet& operator&=(CardSet o) { lo_ &= o.lo_; hi_ &= o.hi_; return *this; }
    friend constexpr bool operator==(CardSet a, CardSet b) = default;

    // Iteration in id order: for (Card c : set).
    class iterator {
    public:
        constexpr iterator(std::uint64_t lo, std::uint64_t hi) : lo_(lo), hi_(hi) {}
        constexpr Card operator*() const {
            return Card::from_id(static_cast<std::uint8_t>(lo_ ? std::countr_zero(lo_) : 64 + std::countr_zero(hi_)));
        }
        constexpr iterator& operator++() {
            if (lo_) lo_ &= lo_ - 1;
            else hi_ &= hi_ - 1;
            return *this;
        }
        constexpr bool operator!=(const iterator& o) const { return lo_ != o.lo_ || hi_ != o.hi_; }
    private:
        std::uint64_t lo_, hi_;
    };
    constexpr iterator begin() const { return iterator(lo_, hi_); }
    constexpr iterator end() const { return iterator(0, 0); }

private:
    std::uint64_t lo_ = 0;
    std::uint64_t hi_ = 0;
};

// The cards of `s` of suit `suit`, jokers excluded.
constexpr CardSet of_suit(CardSet s, Suit suit) { return s & CardSet::suit(suit); }

}  // namespace sparts
