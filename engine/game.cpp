#include "engine/game.hpp"

#include <algorithm>
#include <stdexcept>

#include "engine/finished_tricks.hpp"
#include "engine/hearts_scoring.hpp"
#include "engine/joker_deck.hpp"
#include "engine/rng.hpp"
#include "engine/sparts_scoring.hpp"
#include "engine/spades_scoring.hpp"

namespace sparts {

namespace {

constexpr CardSet kHearts = CardSet::suit(Suit::hearts);
constexpr CardSet kSpades = CardSet::suit(Suit::spades);
constexpr CardSet kQueensOfSpades =
    CardSet::of(kQueenOfSpades) | CardSet::of(Card::of(queen, Suit::spades, 1));

constexpr std::uint16_t bit(int seat) { return static_cast<std::uint16_t>(1u << seat); }

RuleError error(ErrorCode code, std::string message) { return {code, std::move(message)}; }

}  // namespace

Result<Game> Game::create(const Ruleset& rules, std::uint64_t seed, std::vector<StackedDeal> stacked) {
    if (auto e = validate(rules)) return *e;
    const CardSet deck = deck_in_play(rules);
    for (std::size_t h = 0; h < stacked.size(); ++h) {
        const auto& d = stacked[h];
        CardSet all;
        int total = 0;
        auto fail = [&](const std::string& why) {
            return error(ErrorCode::invalid_stacked_deal,
                         "stacked deal for hand " + std::to_string(h + 1) + ": " + why);
        };
        for (int s = 0; s < rules.seats; ++s) {
            if (d.hands[s].size() != rules.hand_size)
                return fail("seat " + std::to_string(s) + " has " + std::to_string(d.hands[s].size()) +
                            " cards, not " + std::to_string(rules.hand_size));
            all |= d.hands[s];
            total += d.hands[s].size();
        }
        for (int s = rules.seats; s < kMaxSeats; ++s)
            if (!d.hands[s].empty()) return fail("cards dealt to a seat that is not at the table");
        if (static_cast<int>(d.center.size()) != rules.center_size())
            return fail("the center has " + std::to_string(d.center.size()) + " cards, not " +
                        std::to_string(rules.center_size()));
        for (Card c : d.center) all.insert(c), ++total;
        if (total != rules.cards_in_play() || all != deck)
            return fail("the hands and the center must hold every card in play exactly once");
    }
    return Game(rules, seed, std::move(stacked));
}

Game::Game(const Ruleset& rules, std::uint64_t seed, std::vector<StackedDeal> stacked)
    : rules_(rules), seed_(seed), stacked_(std::move(stacked)) {
    s_.bids.fill(-1);
    // Room for the longest step, so that play never allocates: a hand's last card with the
    // next deal gives at most 16 events at 10 seats (random games of every preset), 11 at 4.
    // (64 had been reserved: 31 KB a game at 496 bytes an event, most of a table's memory.)
    events_.reserve(static_cast<std::size_t>(rules.seats) + 8);
}

Game Game::resume(const Ruleset& rules, std::uint64_t seed, const GameState& state) {
    Game g(rules, seed, {});
    g.s_ = state;
    return g;
}

std::span<const Event> Game::start() {
    events_.clear();
    // RULINGS.md: "the first dealer is drawn from the table's seed".
    Rng rng(seed_, 0);
    s_.dealer = static_cast<Seat>(rng.below(static_cast<std::uint64_t>(rules_.seats)));
    deal_hand();
    return events_;
}

// ---------------------------------------------------------------- the deal

void Game::deal_hand() {
    const int n = rules_.seats, hs = rules_.hand_size;
    ++s_.hand;
    s_.hands = {};
    s_.won = {};
    s_.passed = {};
    s_.received = {};
    s_.in_transit = {};
    s_.in_transit_back = {};
    s_.passed_mask = 0;
    s_.pass_round = 0;
    s_.round_distance = s_.round_count = s_.round_back_count = 0;
    s_.bids.fill(-1);
    s_.bids_made = 0;
    s_.face_down = s_.blind = 0;
    s_.trick = {};
    s_.required_lead = {};
    s_.trick_number = 0;
    s_.tricks = {};
    s_.hearts_broken = s_.spades_broken = false;
    s_.reversed = false;
    s_.played_count = 0;
    s_.plays_recorded = true;
    s_.center_size = static_cast<std::uint8_t>(rules_.center_size());
    s_.center_given = 0;
    s_.center_taker = kNoSeat;
    s_.hand_rules = {};

    if (s_.hand <= stacked_.size()) {
        const StackedDeal& d = stacked_[s_.hand - 1];
        for (int s = 0; s < n; ++s) s_.hands[s] = d.hands[s];
        std::copy(d.center.begin(), d.center.end(), s_.center.begin());
    } else {
        // Shuffle the cards in play, then deal one at a time clockwise from the
        // dealer's left; what is left over goes to the center in order.
        std::array<Card, 128> deck{};
        int count = 0;
        for (Card c : deck_in_play(rules_)) deck[count++] = c;
        Rng rng(seed_, s_.hand);
        rng.shuffle(std::span<Card>(deck.data(), static_cast<std::size_t>(count)));
        for (int i = 0; i < n * hs; ++i) s_.hands[(s_.dealer + 1 + i) % n].insert(deck[i]);
        for (int i = n * hs; i < count; ++i) s_.center[i - n * hs] = deck[i];
    }

    const HandKind kind = rules_.choose_by_seven_of_diamonds ? HandKind::undecided : rules_.hand_kind;
    emit(HandStarted{s_.hand, s_.dealer, kind, static_cast<std::uint8_t>(hs), s_.center_size});
    // Blind nil: a seat that may bid it gets its cards face down, shown when it decides.
    s_.face_down = blind_nil_seats();
    for (int s = 0; s < n; ++s)
        if (!((s_.face_down >> s) & 1)) emit(CardsDealt{static_cast<Seat>(s), static_cast<std::uint8_t>(hs), s_.hands[s]});

    if (rules_.choose_by_seven_of_diamonds) {
        Seat chooser = static_cast<Seat>((s_.dealer + 1) % n);  // if the 7 is not dealt
        for (int s = 0; s < n; ++s)
            if (s_.hands[s].contains(kSevenOfDiamonds)) chooser = static_cast<Seat>(s);
        s_.phase = Phase::choosing;
        s_.turn = chooser;
        emit(ChoiceStarted{chooser});
        return;
    }
    begin_hand_kind(kind);
}

void Game::begin_hand_kind(HandKind kind) {
    s_.hand_rules = hand_rules(rules_, kind, s_.hand, s_.hearts_hands_played);
    begin_passing_or_next();
}

void Game::begin_passing_or_next() {
    const HandRules& h = s_.hand_rules;
    if (h.pass_count > 0) {
        if (h.pass_distance != 0) {
            begin_pass_round(1, h.pass_distance, h.pass_count, h.multi_pass == MultiPass::both_ways ? 1 : 0);
            return;
        }
        emit(PassingStarted{h.pass_count, 0, 1, 0});  // a no-pass hand, announced
    }
    begin_bidding_or_play();
}

void Game::begin_pass_round(int round, int distance, int count, int back_count, std::uint16_t seats) {
    s_.phase = Phase::passing;
    s_.turn = kNoSeat;
    // A seat that sits the round out (a nil pass's other side) counts as passed already.
    s_.passed_mask = seats ? static_cast<std::uint16_t>(((1u << rules_.seats) - 1) & ~seats) : std::uint16_t{0};
    s_.pass_round = static_cast<std::uint8_t>(round);
    s_.round_distance = static_cast<std::uint8_t>(distance);
    s_.round_count = static_cast<std::uint8_t>(count);
    s_.round_back_count = static_cast<std::uint8_t>(back_count);
    emit(PassingStarted{s_.round_count, s_.round_distance, s_.pass_round, s_.round_back_count, seats});
}

void Game::begin_bidding_or_play() {
    if (s_.hand_rules.bidding) {
        s_.phase = Phase::bidding;
        s_.turn = static_cast<Seat>((s_.dealer + 1) % rules_.seats);
        emit(BiddingStarted{s_.turn});
        return;
    }
    begin_play();
}

void Game::begin_play() {
    const int n = rules_.seats;
    Seat leader = static_cast<Seat>((s_.dealer + 1) % n);
    switch (s_.hand_rules.first_lead) {
        case FirstLead::dealer_left: break;
        case FirstLead::dealer_partner: leader = static_cast<Seat>((s_.dealer + n / 2) % n); break;
        case FirstLead::lowest_club: {
            // "If no one has the 2 (it is in the center), then the 3 leads, and then the 4";
            // with two decks, the first holder clockwise from the dealer's left (RULINGS.md).
            const CardSet clubs = CardSet::suit(Suit::clubs);
            bool found = false;
            for (int r = 0; r < kRankCount && !found; ++r) {
                const CardSet face = clubs & (CardSet::of(Card::of(static_cast<Rank>(r), Suit::clubs)) |
                                              CardSet::of(Card::of(static_cast<Rank>(r), Suit::clubs, 1)));
                for (int i = 1; i <= n && !found; ++i) {
                    const Seat s = static_cast<Seat>((s_.dealer + i) % n);
                    if (s_.hands[s].intersects(face)) {
                        leader = s;
                        s_.required_lead = s_.hands[s] & face;
                        found = true;
                    }
                }
            }
            break;
        }
    }
    s_.phase = Phase::playing;
    s_.trick_number = 1;
    s_.trick = {};
    s_.trick.leader = leader;
    s_.turn = leader;
    emit(PlayStarted{leader});
}

// ---------------------------------------------------------------- actions

Result<std::span<const Event>> Game::apply(Seat seat, const Action& a) {
    events_.clear();
    if (s_.phase == Phase::game_over) return error(ErrorCode::game_over, "the game is over");
    if (a.kind == ActionKind::clock_expired) {
        if (seat != kTableSeat)
            return error(ErrorCode::invalid_seat, "only the table itself reports the game clock");
        if (rules_.game_clock_seconds == 0)
            return error(ErrorCode::no_game_clock, "this game has no game clock");
        end_game(GameEndReason::game_clock);
        return std::span<const Event>(events_);
    }
    if (seat >= rules_.seats)
        return error(ErrorCode::invalid_seat, "seat " + std::to_string(seat) + " is not at this table");

    auto phase_is = [&](Phase p, const char* what) -> std::optional<RuleError> {
        if (s_.phase == p) return std::nullopt;
        return error(ErrorCode::wrong_phase, std::string("cannot ") + what + " now: the hand is " +
                                                 (s_.phase == Phase::choosing  ? "waiting for the choice of game"
                                                  : s_.phase == Phase::passing ? "passing"
                                                  : s_.phase == Phase::bidding ? "bidding"
                                                  : s_.phase == Phase::moon_choice ? "waiting for the shooter's choice"
                                                                               : "playing tricks"));
    };
    auto turn_is = [&]() -> std::optional<RuleError> {
        if (seat == s_.turn) return std::nullopt;
        return error(ErrorCode::not_your_turn, "it is seat " + std::to_string(s_.turn) + "'s turn");
    };

    switch (a.kind) {
        case ActionKind::choose:
            if (auto e = phase_is(Phase::choosing, "choose the game")) return *e;
            if (auto e = turn_is()) return *e;
            if (a.choice != HandKind::spades && a.choice != HandKind::hearts)
                return error(ErrorCode::invalid_choice, "choose spades or hearts");
            on_choose(seat, a.choice);
            break;
        case ActionKind::pass:
            if (auto e = phase_is(Phase::passing, "pass")) return *e;
            if (auto e = check_pass(seat, a.cards, a.back)) return *e;
            on_pass(seat, a.cards, a.back);
            break;
        case ActionKind::bid:
            if (auto e = phase_is(Phase::bidding, "bid")) return *e;
            if (auto e = turn_is()) return *e;
            if ((s_.face_down >> seat) & 1) {
                if (!a.blind || a.bid != 0)
                    return error(ErrorCode::cards_face_down, "your cards are face down: bid blind nil, or show them first");
                // A blind nil is a nil: min_side_bid may forbid it after the partner's bid.
                if (!(allowed_bids(seat) & 1u))
                    return error(ErrorCode::side_bid_too_low, "your side must bid at least " + std::to_string(rules_.min_side_bid) +
                                                                  " together: show your cards and bid");
                on_bid(seat, 0, true);
                break;
            }
            if (a.blind)
                return error(ErrorCode::blind_nil_not_allowed,
                             "blind nil is bid before looking at your cards, by a side far enough behind");
            if (auto e = check_bid(seat, a.bid)) return *e;
            on_bid(seat, a.bid);
            break;
        case ActionKind::show_cards:
            if (auto e = phase_is(Phase::bidding, "show your cards")) return *e;
            if (auto e = turn_is()) return *e;
            if (!((s_.face_down >> seat) & 1)) return error(ErrorCode::wrong_phase, "your cards are already shown");
            show_cards(seat);
            break;
        case ActionKind::play:
            if (auto e = phase_is(Phase::playing, "play a card")) return *e;
            if (auto e = turn_is()) return *e;
            if (auto e = check_play(seat, a.card)) return *e;
            on_play(seat, a.card);
            break;
        case ActionKind::moon:
            if (auto e = phase_is(Phase::moon_choice, "choose how the moon scores")) return *e;
            if (auto e = turn_is()) return *e;
            score_hand(a.subtract);
            break;
        case ActionKind::clock_expired: break;  // handled above
    }
    return std::span<const Event>(events_);
}

std::uint16_t Game::passing_seats() const {
    const std::uint16_t all = static_cast<std::uint16_t>((1u << rules_.seats) - 1);
    if (s_.phase != Phase::passing) return 0;
    const std::uint16_t nil_pass = nil_pass_seats();
    return nil_pass ? nil_pass : all;
}

std::uint16_t Game::waiting_for() const {
    switch (s_.phase) {
        case Phase::passing: return static_cast<std::uint16_t>(((1u << rules_.seats) - 1) & ~s_.passed_mask);
        case Phase::game_over: return 0;
        default: return s_.turn == kNoSeat ? 0 : bit(s_.turn);
    }
}

LegalMoves Game::legal_moves(Seat seat) const {
    LegalMoves m;
    if (s_.phase == Phase::game_over) return m;
    if (seat == kTableSeat) {
        if (rules_.game_clock_seconds > 0) m.any = true, m.kind = ActionKind::clock_expired;
        return m;
    }
    if (seat >= rules_.seats) return m;
    switch (s_.phase) {
        case Phase::choosing:
            if (seat != s_.turn) break;
            m.any = true, m.kind = ActionKind::choose;
            m.choose_spades = m.choose_hearts = true;
            break;
        case Phase::passing:
            if (s_.passed_mask & bit(seat)) break;
            m.any = true, m.kind = ActionKind::pass;
            m.cards = s_.hands[seat];
            m.pass_count = s_.round_count;
            m.back_count = s_.round_back_count;
            break;
        case Phase::bidding:
            if (seat != s_.turn) break;
            m.any = true, m.kind = ActionKind::bid;
            if ((s_.face_down >> seat) & 1) {
                // The bids come once the cards are shown; a blind nil is a nil, as min_side_bid sees it.
                m.show_cards = true;
                m.blind_nil = (allowed_bids(seat) & 1u) != 0;
                break;
            }
            m.bids = allowed_bids(seat);
            break;
        case Phase::playing:
            if (seat != s_.turn) break;
            m.any = true, m.kind = ActionKind::play;
            m.cards = playable(seat);
            break;
        case Phase::moon_choice:
            if (seat != s_.turn) break;
            m.any = true, m.kind = ActionKind::moon;
            m.moon_add = m.moon_subtract = true;
            break;
        case Phase::game_over: break;
    }
    return m;
}

// ---------------------------------------------------------------- choosing and passing

void Game::on_choose(Seat seat, HandKind kind) {
    emit(HandKindChosen{seat, kind});
    begin_hand_kind(kind);
}

std::optional<RuleError> Game::check_pass(Seat seat, CardSet cards, CardSet back) const {
    if (s_.bids_made == rules_.seats && !(nil_pass_seats() & bit(seat)))
        return error(ErrorCode::wrong_phase, "only a nil bidder and partner pass now");
    if (s_.passed_mask & bit(seat)) return error(ErrorCode::already_passed, "you have already passed");
    if (cards.size() != s_.round_count || back.size() != s_.round_back_count || cards.intersects(back)) {
        std::string want = "pass exactly " + std::to_string(s_.round_count) + " card(s)";
        if (s_.round_back_count) want += " to the left and " + std::to_string(s_.round_back_count) + " other back";
        return error(ErrorCode::pass_wrong_count, want);
    }
    if (!s_.hands[seat].contains_all(cards | back))
        return error(ErrorCode::card_not_in_hand, "you can only pass cards from your hand");
    return std::nullopt;
}

void Game::on_pass(Seat seat, CardSet cards, CardSet back) {
    const int n = rules_.seats;
    const Seat to = static_cast<Seat>((seat + s_.round_distance) % n);
    s_.hands[seat] &= ~(cards | back);
    s_.passed[seat] |= cards | back;
    s_.in_transit[seat] = cards;
    s_.in_transit_back[seat] = back;
    s_.passed_mask = static_cast<std::uint16_t>(s_.passed_mask | bit(seat));
    emit(CardsPassed{seat, to, static_cast<std::uint8_t>(cards.size()), cards});
    if (!back.empty()) {
        const Seat from = static_cast<Seat>((seat - s_.round_distance + n) % n);  // who passes to this seat
        emit(CardsPassed{seat, from, static_cast<std::uint8_t>(back.size()), back});
    }
    if (s_.passed_mask == (1u << n) - 1) finish_passing();
}

void Game::finish_passing() {
    // Simultaneous passing: the cards arrive only once everyone has passed.
    const int n = rules_.seats, d = s_.round_distance;
    auto deliver = [&](int to, int from, CardSet cards) {
        if (cards.empty()) return;  // a seat that sat out a nil pass
        s_.received[to] |= cards;
        s_.hands[to] |= cards;
        emit(CardsReceived{static_cast<Seat>(to), static_cast<Seat>(from), static_cast<std::uint8_t>(cards.size()), cards});
    };
    for (int to = 0; to < n; ++to) {
        deliver(to, (to - d + n) % n, s_.in_transit[(to - d + n) % n]);
        if (s_.round_back_count) deliver(to, (to + d) % n, s_.in_transit_back[(to + d) % n]);
    }
    s_.in_transit = {};
    s_.in_transit_back = {};
    // Multi-pass A: "passing 1 back to the person who passed to you (after the first pass is completed)".
    if (s_.pass_round == 1 && s_.hand_rules.multi_pass == MultiPass::back_after) {
        begin_pass_round(2, n - d, 1, 0);
        return;
    }
    if (s_.bids_made == rules_.seats) {
        begin_play();  // a nil pass, after the bidding
        return;
    }
    begin_bidding_or_play();
}

// ---------------------------------------------------------------- bidding

std::uint32_t Game::allowed_bids(Seat seat) const {
    const HandRules& h = s_.hand_rules;
    const int hs = rules_.hand_size;
    std::uint32_t mask = 0;
    for (int b = h.min_bid; b <= hs; ++b) mask |= 1u << b;
    if (h.nil_allowed) mask |= 1u;
    if (h.kind == HandKind::spades && rules_.bid_style != BidStyle::standard) {
        // Whiz and Mirror name the bid from the spades held, whatever min_bid says;
        // Suicide keeps min_bid above its 4.
        const bool fixed = rules_.bid_style == BidStyle::whiz || rules_.bid_style == BidStyle::mirror;
        mask = style_bids(seat) & (fixed ? (2u << hs) - 1 : mask);
    }
    if (rules_.min_side_bid > 0 && h.kind == HandKind::spades) {
        // A minimum side bid (docs/RULES.md): once a partner has bid, the side's bids
        // (a nil as 0) must reach it; a nil only if the partner's bid already does.
        const std::uint16_t side = rules_.side_seats(rules_.side_of(seat));
        int partners_bid = 0;
        bool partner_bid = false;
        for (int t = 0; t < rules_.seats; ++t)
            if (t != seat && ((side >> t) & 1) && s_.bids[t] >= 0) partner_bid = true, partners_bid += s_.bids[t];
        if (partner_bid) {
            const int need = rules_.min_side_bid - partners_bid;
            for (int b = 0; b < need && b <= hs; ++b) mask &= ~(1u << b);
        }
    }
    if (h.dealer_cannot_make_total && s_.bids_made == rules_.seats - 1) {
        // Seed 002: "the dealer cannot declare a number that would make the total
        // declared equal to the number available."
        // With regular or rotating partners a team's bid is its last partner's
        // (the dealer's own, for the dealer's team); otherwise bids add up (RULINGS.md).
        const int n = rules_.seats;
        const bool teams = rules_.partners == Partners::regular || rules_.partners == Partners::rotating;
        const auto offset = [&](int t) { return (t - s_.dealer - 1 + n) % n; };
        const std::uint16_t own_team = hand_partners(seat);
        int others = 0;
        for (int t = 0; t < n; ++t) {
            if (t == seat || s_.bids[t] < 0) continue;
            if (teams) {
                const std::uint16_t team = hand_partners(static_cast<Seat>(t));
                if (team & own_team) continue;
                bool last = true;
                for (int m = 0; m < n; ++m)
                    if (((team >> m) & 1) && offset(m) > offset(t)) last = false;
                if (!last) continue;
            }
            others += s_.bids[t];
        }
        const int forbidden = hs - others;
        if (forbidden >= 0 && forbidden <= hs) mask &= ~(1u << forbidden);
    }
    return mask;
}

// Suicide, Whiz and Mirror (docs/RULES.md bid_style): the bids the style leaves a
// seat, nil as bit 0. A joker or raised deuce is a spade for the count.
std::uint32_t Game::style_bids(Seat seat) const {
    const int spades = cards_of_suit(rules_.joker_deck, s_.hands[seat], Suit::spades).size();
    switch (rules_.bid_style) {
        case BidStyle::standard: break;
        case BidStyle::whiz: return 1u | (1u << spades);
        case BidStyle::mirror: return 1u << spades;  // none: 0, a nil
        case BidStyle::suicide: {
            const std::uint32_t four_up = ~0u << 4;
            for (int t = 0; t < rules_.seats; ++t)
                if (t != seat && rules_.side_of(static_cast<Seat>(t)) == rules_.side_of(seat) && s_.bids[t] >= 0)
                    return s_.bids[t] == 0 ? four_up : 1u;  // the opposite of the partner's
            return 1u | four_up;
        }
    }
    return ~0u;
}

std::optional<RuleError> Game::check_bid(Seat seat, int bid) const {
    if (bid >= 0 && bid < 32 && ((allowed_bids(seat) >> bid) & 1)) return std::nullopt;
    const HandRules& h = s_.hand_rules;
    const int hs = rules_.hand_size;
    if (rules_.bid_style != BidStyle::standard && h.kind == HandKind::spades && bid >= 0 && bid <= hs &&
        !((style_bids(seat) >> bid) & 1)) {
        const int spades = cards_of_suit(rules_.joker_deck, s_.hands[seat], Suit::spades).size();
        const std::string n = std::to_string(spades);
        switch (rules_.bid_style) {
            case BidStyle::whiz: return error(ErrorCode::bid_out_of_range, "in Whiz you bid your spades (" + n + ") or nil");
            case BidStyle::mirror:
                return error(ErrorCode::bid_out_of_range,
                             spades ? "in Mirror you bid exactly your spades: " + n : "in Mirror, with no spades you bid nil");
            default:
                return error(ErrorCode::bid_out_of_range,
                             "in Suicide one partner bids nil and the other 4 or more: bid " +
                                 std::string((style_bids(seat) & 1u) ? (style_bids(seat) == 1u ? "nil" : "nil or 4 or more") : "4 or more"));
        }
    }
    if (bid >= 0 && bid <= hs && rules_.min_side_bid > 0 && (bid >= h.min_bid || (bid == 0 && h.nil_allowed)) &&
        !h.dealer_cannot_make_total)
        return error(ErrorCode::side_bid_too_low,
                     "your side must bid at least " + std::to_string(rules_.min_side_bid) + " together");
    if (bid >= 0 && bid <= hs && h.dealer_cannot_make_total && (bid >= h.min_bid || (bid == 0 && h.nil_allowed)))
        return error(ErrorCode::dealer_cannot_make_total,
                     "as the last to bid you may not make the bids total " + std::to_string(hs));
    std::string range = h.nil_allowed ? "nil or " + std::to_string(std::max<int>(h.min_bid, 1)) + " to " + std::to_string(hs)
                                      : std::to_string(h.min_bid) + " to " + std::to_string(hs);
    return error(ErrorCode::bid_out_of_range, "bids are " + range + ", not " + std::to_string(bid));
}

void Game::on_bid(Seat seat, int bid, bool blind) {
    s_.bids[seat] = static_cast<std::int8_t>(bid);
    ++s_.bids_made;
    emit(BidMade{seat, static_cast<std::int8_t>(bid), s_.hand_rules.nil_allowed && bid == 0, rules_.secret_bids, blind});
    if (blind) {
        // The blind nil is bid: now the bidder sees its cards.
        s_.blind = static_cast<std::uint16_t>(s_.blind | bit(seat));
        show_cards(seat);
    }
    if (s_.bids_made == rules_.seats) {
        const std::uint16_t exchange = nil_pass_seats();
        if (exchange) {
            // Nil passing (docs/RULES.md nil_pass): the pairs pass to each other at once, across.
            begin_pass_round(1, rules_.seats / 2, rules_.nil_pass, 0, exchange);
            return;
        }
        begin_play();
    } else {
        s_.turn = static_cast<Seat>((seat + 1) % rules_.seats);
    }
}

void Game::show_cards(Seat seat) {
    s_.face_down = static_cast<std::uint16_t>(s_.face_down & ~bit(seat));
    emit(CardsDealt{seat, static_cast<std::uint8_t>(rules_.hand_size), s_.hands[seat]});
}

// Blind nil (docs/RULES.md blind_nil): at the deal, the seats of every side at least
// `blind_nil_behind` behind the best other side's score.
std::uint16_t Game::blind_nil_seats() const {
    if (rules_.blind_nil_behind < 0 || rules_.hand_kind != HandKind::spades || rules_.choose_by_seven_of_diamonds) return 0;
    std::uint16_t seats = 0;
    for (int side = 0; side < rules_.sides(); ++side) {
        int best_other = INT32_MIN;
        for (int o = 0; o < rules_.sides(); ++o)
            if (o != side) best_other = std::max(best_other, s_.scores[o]);
        if (best_other - s_.scores[side] >= rules_.blind_nil_behind)
            seats = static_cast<std::uint16_t>(seats | rules_.side_seats(side));
    }
    return seats;
}

// The seats of the sides with exactly one nil bid, once the bidding is over, when
// nil_pass is on: they exchange cards before the first lead.
std::uint16_t Game::nil_pass_seats() const {
    if (rules_.nil_pass == 0 || s_.hand_rules.kind != HandKind::spades || !s_.hand_rules.nil_allowed ||
        s_.bids_made != rules_.seats)
        return 0;
    std::uint16_t seats = 0;
    for (int side = 0; side < rules_.sides(); ++side) {
        const std::uint16_t members = rules_.side_seats(side);
        int nils = 0;
        for (int s = 0; s < rules_.seats; ++s)
            if (((members >> s) & 1) && s_.bids[s] == 0) ++nils;
        if (nils == 1) seats = static_cast<std::uint16_t>(seats | members);
    }
    return seats;
}

// ---------------------------------------------------------------- trick play

CardSet Game::playable(Seat seat) const {
    const HandRules& h = s_.hand_rules;
    const JokerDeck jd = rules_.joker_deck;
    const CardSet hand = s_.hands[seat];
    const bool first_trick = s_.trick_number == 1;
    CardSet allowed = hand;
    if (s_.trick.count == 0) {
        // The first lead may be fixed: the 2 of clubs, or the lowest club in play.
        if (first_trick && !s_.required_lead.empty()) return s_.required_lead;
        if (h.hearts_restricted && !s_.hearts_broken) allowed &= ~kHearts;
        if (h.spades_restricted && !s_.spades_broken) allowed &= ~cards_of_suit(jd, hand, Suit::spades);
        if (allowed.empty()) allowed = hand;  // only one kind of card left: lead it
    } else {
        const Card led = s_.trick.cards[0];
        if (led.is_joker() && jd == JokerDeck::none) return hand;  // a led joker frees everyone (seed 002)
        const CardSet follow = cards_of_suit(jd, hand, suit_in_play(jd, led));
        if (!follow.empty()) allowed = follow | (jd == JokerDeck::none ? hand & CardSet::jokers() : CardSet{});
        if (!follow.empty() && big_joker_forces(seat)) allowed = CardSet::of(strongest(jd, follow));
    }
    if (first_trick && (h.no_points_first_trick || h.mercy_first_trick)) {
        const CardSet clean = allowed & ~(kHearts | (h.mercy_first_trick ? kSpades : kQueensOfSpades));
        if (!clean.empty()) allowed = clean;  // unless the hand holds nothing else
    }
    return allowed;
}

// Seed 003: "if the big joker is led, opponents must play their highest spade in that trick".
bool Game::big_joker_forces(Seat seat) const {
    return rules_.big_joker_forces && s_.trick.count > 0 && s_.trick.cards[0] == kBigJoker &&
           rules_.side_of(seat) != rules_.side_of(s_.trick.leader);
}

// Whether `card` follows, leads and breaks as `suit` (a Spartsel joker has no suit).
bool Game::plays_as(Card card, Suit suit) const {
    if (card.is_joker() && rules_.joker_deck == JokerDeck::none) return false;
    return suit_in_play(rules_.joker_deck, card) == suit;
}

std::optional<RuleError> Game::check_play(Seat seat, Card card) const {
    if (!card.valid()) return error(ErrorCode::invalid_card, "that is not a card");
    if (!s_.hands[seat].contains(card))
        return error(ErrorCode::card_not_in_hand, to_string(card) + " is not in your hand");
    if (playable(seat).contains(card)) return std::nullopt;
    const HandRules& h = s_.hand_rules;
    if (s_.trick.count == 0) {
        if (s_.trick_number == 1 && !s_.required_lead.empty())
            return error(ErrorCode::must_lead_card,
                         "the first trick is led with " + to_string(s_.required_lead.first()));
        if (plays_as(card, Suit::hearts) && h.hearts_restricted && !s_.hearts_broken)
            return error(ErrorCode::hearts_not_broken, "hearts cannot be led until they are broken");
        if (plays_as(card, Suit::spades) && h.spades_restricted && !s_.spades_broken)
            return error(ErrorCode::spades_not_broken, "spades cannot be led until they are broken");
    } else {
        const JokerDeck jd = rules_.joker_deck;
        const Suit led = suit_in_play(jd, s_.trick.cards[0]);
        const CardSet follow = cards_of_suit(jd, s_.hands[seat], led);
        if (!follow.empty() && !plays_as(card, led))
            return error(ErrorCode::must_follow_suit, "you must follow " + std::string(suit_name(led)));
        if (big_joker_forces(seat))
            return error(ErrorCode::must_play_highest_spade,
                         "the Big Joker was led: play your highest spade, " + to_string(strongest(jd, follow)));
    }
    if (h.mercy_first_trick)
        return error(ErrorCode::mercy_first_trick, "no heart nor spade may be played on the first trick");
    return error(ErrorCode::no_points_on_first_trick,
                 "no heart nor the queen of spades may be played on the first trick");
}

void Game::on_play(Seat seat, Card card) {
    const HandRules& h = s_.hand_rules;
    s_.hands[seat].erase(card);
    if (s_.plays_recorded) {
        if (s_.trick.count == 0) s_.trick_leaders[s_.trick_number - 1] = s_.trick.leader;
        s_.played_in_order[s_.played_count++] = card;
    }
    s_.trick.cards[s_.trick.count++] = card;
    emit(CardPlayed{seat, card, s_.trick_number});
    if (h.hearts_restricted && !s_.hearts_broken &&
        (plays_as(card, Suit::hearts) || (h.queen_breaks_hearts && !card.is_joker() && card.face() == kQueenOfSpades))) {
        s_.hearts_broken = true;
        emit(HeartsBroken{seat});
    }
    if (h.spades_restricted && !s_.spades_broken && plays_as(card, Suit::spades) &&
        (h.spades_break == SpadesBreak::any_spade || (s_.trick.count > 1 && !plays_as(s_.trick.cards[0], Suit::spades)))) {
        s_.spades_broken = true;
        emit(SpadesBroken{seat});
    }
    if (s_.trick.count == rules_.seats) {
        finish_trick();
    } else {
        s_.turn = static_cast<Seat>((seat + 1) % rules_.seats);
    }
}

void Game::finish_trick() {
    const int n = rules_.seats;
    const Trick& t = s_.trick;
    // A led joker wins; a later joker never does. Otherwise the highest trump, or
    // the highest card of the suit led; of two identical cards the first played wins.
    // Joker Spades' jokers and raised deuces are trumps like any spade, by strength.
    const JokerDeck jd = rules_.joker_deck;
    const bool wild = jd == JokerDeck::none;
    int best = 0;
    if (!(wild && t.cards[0].is_joker())) {
        for (int i = 1; i < n; ++i) {
            const Card c = t.cards[i], b = t.cards[best];
            if (wild && c.is_joker()) continue;
            const Suit cs = suit_in_play(jd, c);
            if (cs == suit_in_play(jd, b)) {
                if (strength(jd, c) > strength(jd, b)) best = i;
            } else if (s_.hand_rules.spades_trump && cs == Suit::spades) {
                best = i;
            }
        }
    }
    const Seat winner = static_cast<Seat>((t.leader + best) % n);
    // Seed 002: "When the final trick is taken by the queen of spades, reverse partners is declared."
    if (rules_.reverse_partners && s_.trick_number == rules_.hand_size && t.cards[best].face() == kQueenOfSpades)
        s_.reversed = true;
    CardSet cards;
    for (int i = 0; i < n; ++i) cards.insert(t.cards[i]);
    s_.won[winner] |= cards;
    ++s_.tricks[winner];
    emit(TrickWon{s_.trick_number, t.leader, winner, static_cast<std::uint8_t>(n), t.cards});

    const int center_left = s_.center_size - s_.center_given;
    if (center_left > 0) {
        if (rules_.seats == 2) {
            give_center(winner, std::min(center_left, s_.trick_number == 1 ? 2 : 1));
        } else if (rules_.center_rule == CenterRule::first_trick ||
                   cards.intersects(kHearts | kQueensOfSpades)) {
            give_center(winner, center_left);
        }
    }

    s_.trick = {};
    s_.trick.leader = winner;
    s_.turn = winner;
    if (s_.trick_number == rules_.hand_size) {
        if (!begin_moon_choice()) score_hand();
        return;
    }
    ++s_.trick_number;
}

void Game::give_center(Seat seat, int count) {
    CardSet cards;
    for (int i = 0; i < count; ++i) cards.insert(s_.center[s_.center_given + i]);
    s_.center_given = static_cast<std::uint8_t>(s_.center_given + count);
    s_.won[seat] |= cards;
    s_.center_taker = seat;
    emit(CenterTaken{seat, static_cast<std::uint8_t>(count), cards});
}

// ---------------------------------------------------------------- scoring and the end

HeartsScoring Game::hearts_scoring() const {
    return {rules_.jack_of_diamonds, rules_.moon_scoring, rules_.shoot_the_sun,
            of_suit(deck_in_play(rules_), Suit::hearts).size(), rules_.hand_size, rules_.target_score};
}

std::array<HeartsTake, kMaxSeats> Game::hearts_takes() const {
    // Per side: partnership Hearts adds the partners' takes.
    std::array<HeartsTake, kMaxSeats> takes{};
    for (int side = 0; side < rules_.sides(); ++side) {
        for (int s = 0; s < rules_.seats; ++s) {
            if (!(rules_.side_seats(side) & bit(s))) continue;
            takes[side].hearts += of_suit(s_.won[s], Suit::hearts).size();
            takes[side].queens += (s_.won[s] & kQueensOfSpades).size();
            takes[side].jacks += s_.won[s].contains(kJackOfDiamonds) ? 1 : 0;
            takes[side].tricks += s_.tricks[s];
        }
    }
    return takes;
}

bool Game::begin_moon_choice() {
    if (rules_.family() != Family::hearts || rules_.moon_scoring != MoonScoring::choose) return false;
    const auto takes = hearts_takes();
    const MoonShooter shot = moon_shooter(std::span(takes.data(), static_cast<std::size_t>(rules_.sides())), hearts_scoring());
    if (shot.side < 0) return false;
    // A side's choice is its queen taker's: one seat answers, in partnership Hearts too.
    Seat chooser = kNoSeat;
    for (int s = 0; s < rules_.seats; ++s)
        if ((rules_.side_seats(shot.side) & bit(s)) && s_.won[s].intersects(kQueensOfSpades)) chooser = static_cast<Seat>(s);
    if (chooser == kNoSeat) throw std::logic_error("a moon shot without the queen of spades");
    s_.phase = Phase::moon_choice;
    s_.turn = chooser;
    emit(MoonShot{chooser, static_cast<std::uint8_t>(shot.side), static_cast<std::uint8_t>(shot.points)});
    return true;
}

void Game::score_hand(bool moon_subtracts) {
    const int n = rules_.seats, sides = rules_.sides();
    const HandKind kind = s_.hand_rules.kind;
    if (rules_.secret_bids && s_.hand_rules.bidding)
        emit(BidsRevealed{static_cast<std::uint8_t>(n), s_.bids});
    HandScored hs{};
    hs.hand = s_.hand;
    hs.kind = kind;
    hs.reversed = s_.reversed;
    hs.sides.resize(static_cast<std::size_t>(sides));
    std::array<ScoreSheet, kMaxSeats> sheets{};
    std::array<int, kMaxSeats> bags_gained{};

    for (int side = 0; side < sides; ++side) {
        SideScore& out = hs.sides[side];
        out.seats = rules_.side_seats(side);
        out.bid = -1;
        for (int s = 0; s < n; ++s)
            if (out.seats & bit(s)) out.tricks = static_cast<std::uint8_t>(out.tricks + s_.tricks[s]);
    }

    switch (kind) {
        case HandKind::spades: {
            const SpadesScoring scoring{10, rules_.effective_nil_value(), rules_.nil_tricks_count_for_partner,
                                        rules_.failed_nil_bags, rules_.ten_for_two_hundred, rules_.all_thirteen_bonus};
            for (int side = 0; side < sides; ++side) {
                std::array<SpadesBidder, kMaxSeats> members{};
                int m = 0;
                for (int s = 0; s < n; ++s)
                    if (hs.sides[side].seats & bit(s))
                        members[m++] = {s_.bids[s], s_.bids[s] == 0 && rules_.nil_allowed, s_.tricks[s],
                                        ((s_.blind >> s) & 1) != 0};
                const auto r = score_spades_side(std::span(members.data(), static_cast<std::size_t>(m)), scoring);
                sheets[side] = r.sheet;
                bags_gained[side] = r.bags;
                hs.sides[side].bid = static_cast<std::int16_t>(r.contract);
                hs.sides[side].nil_bids = static_cast<std::uint8_t>(r.nils);
                hs.sides[side].nils_made = static_cast<std::uint8_t>(r.nils_made);
            }
            break;
        }
        case HandKind::hearts: {
            std::array<HeartsTake, kMaxSeats> takes{};
            if (rules_.family() == Family::hearts) {
                takes = hearts_takes();
                std::array<int, kMaxSeats> before{};
                for (int side = 0; side < sides; ++side) before[side] = s_.scores[side];
                HeartsScoring how = hearts_scoring();
                how.shooter_subtracts = moon_subtracts;
                score_hearts(std::span(takes.data(), static_cast<std::size_t>(sides)),
                             std::span(before.data(), static_cast<std::size_t>(sides)), how,
                             std::span(sheets.data(), static_cast<std::size_t>(sides)));
                break;
            }
            for (int s = 0; s < n; ++s)
                takes[s] = {of_suit(s_.won[s], Suit::hearts).size(), (s_.won[s] & kQueensOfSpades).size(),
                            s_.tricks[s]};
            score_bga_hearts(std::span(takes.data(), static_cast<std::size_t>(n)), 13 * rules_.decks,
                             rules_.decks, std::span(sheets.data(), static_cast<std::size_t>(n)));
            break;
        }
        case HandKind::sparts: {
            const int tv = rules_.effective_trick_value();
            std::array<CardSet, kMaxSeats> won{};
            std::copy(s_.won.begin(), s_.won.begin() + n, won.begin());
            const auto counts = sparts_counts(std::span(won.data(), static_cast<std::size_t>(n)), rules_);
            std::array<SpartsSeat, kMaxSeats> results{};
            for (int s = 0; s < n; ++s) results[s] = {s_.bids[s], s_.tricks[s], counts[s]};
            SpartsCombination how;
            how.partners = rules_.partners;
            how.line_count = sides;
            for (int side = 0; side < sides; ++side)
                how.lines[side] = rules_.partners == Partners::regular ? rules_.side_seats(side)
                                                                      : hand_partners(static_cast<Seat>(side));
            for (int k = 0; k < n; ++k) how.bid_order[k] = static_cast<Seat>((s_.dealer + 1 + k) % n);
            how.reversed = s_.reversed;
            how.column = rules_.scoring_column;
            how.trick_value = tv;
            const auto lines = score_sparts_hand(std::span(results.data(), static_cast<std::size_t>(n)), how);
            for (int side = 0; side < sides; ++side) {
                sheets[side] = lines[side].sheet;
                hs.sides[side].bid = static_cast<std::int16_t>(lines[side].contract);
                hs.sides[side].tricks = static_cast<std::uint8_t>(lines[side].tricks);
                hs.sides[side].seats = lines[side].seats;
            }
            break;
        }
        case HandKind::undecided: break;
    }

    // Bags (Spades hands only): penalized each time the count reaches the threshold.
    if (kind == HandKind::spades && rules_.bag_rule != BagRule::none) {
        for (int side = 0; side < sides; ++side) {
            const auto b = count_bags(s_.bags[side], bags_gained[side], rules_.bag_threshold);
            s_.bags[side] = static_cast<std::int16_t>(b.bags_after);
            if (b.times == 0) continue;
            const int points = rules_.bag_points * b.times;
            if (rules_.bag_rule == BagRule::penalty) {
                add(sheets[side], ScoreComponent::bag_penalty, -points);
            } else {
                for (int other = 0; other < sides; ++other)
                    if (other != side) add(sheets[other], ScoreComponent::bag_back, points);
            }
            emit(BagPenalty{static_cast<std::uint8_t>(side), static_cast<std::uint8_t>(b.times),
                            static_cast<std::int16_t>(rules_.bag_points), rules_.bag_rule == BagRule::bag_back,
                            s_.bags[side]});
        }
    }

    for (int side = 0; side < sides; ++side) {
        SideScore& out = hs.sides[side];
        out.delta = sheets[side];
        out.hand_total = total(sheets[side]);
        s_.scores[side] += out.hand_total;
        out.score = s_.scores[side];
        out.bags = s_.bags[side];
    }
    emit(hs);
    if (kind == HandKind::hearts) ++s_.hearts_hands_played;
    ++s_.hands_scored;

    if (check_game_end()) return;
    s_.dealer = static_cast<Seat>((s_.dealer + 1) % n);  // the deal rotates to the left
    deal_hand();
}

bool Game::check_game_end() {
    const int sides = rules_.sides();
    const auto* scores = s_.scores.data();
    const int best = *std::max_element(scores, scores + sides);
    const bool top_tied = std::count(scores, scores + sides, best) > 1;
    const int worst = *std::min_element(scores, scores + sides);
    const int played = s_.hands_scored;

    if (rules_.mercy_score != 0 && worst <= rules_.mercy_score && !top_tied) {
        end_game(GameEndReason::mercy_rule);
        return true;
    }
    // A side at the target ends the game. Where points are taken (Hearts) that is the
    // highest score too, but the first place is the lowest.
    const bool first_tied = rules_.low_score_wins ? std::count(scores, scores + sides, worst) > 1 : top_tied;
    if (rules_.target_score > 0 && best >= rules_.target_score && !(first_tied && rules_.tie_plays_another_hand)) {
        end_game(GameEndReason::target_score);
        return true;
    }
    if (rules_.effective_hand_limit() > 0 && played >= rules_.effective_hand_limit()) {
        end_game(GameEndReason::hand_limit);
        return true;
    }
    if (played >= rules_.hand_cap) {
        end_game(GameEndReason::hand_cap);
        return true;
    }
    return false;
}

void Game::end_game(GameEndReason reason) {
    s_.phase = Phase::game_over;
    s_.turn = kNoSeat;
    s_.end_reason = reason;
    GameOver g{};
    g.reason = reason;
    g.hands_played = s_.hands_scored;
    g.side_count = static_cast<std::uint8_t>(rules_.sides());
    for (int i = 0; i < g.side_count; ++i) {
        g.scores[i] = s_.scores[i];
        int higher = 0;
        // Ranked by score: the highest first, or the lowest where points are taken (Hearts).
        for (int j = 0; j < g.side_count; ++j)
            higher += rules_.low_score_wins ? s_.scores[j] < s_.scores[i] : s_.scores[j] > s_.scores[i];
        g.ranks[i] = static_cast<std::uint8_t>(1 + higher);
    }
    emit(g);
}

std::uint16_t Game::hand_partners(Seat seat) const {
    const int n = rules_.seats;
    switch (rules_.partners) {
        case Partners::none:  // spades teams, or alone
        case Partners::regular: return rules_.side_seats(rules_.side_of(seat));
        case Partners::progressive: {
            // Rotated, the distance runs 2, 3, ..., n - 1 over the hands, then from 2 again: never yourself.
            const int distance = rules_.progressive_rotated ? 2 + (std::max(1, int(s_.hand)) - 1) % (n - 2) : 2;
            return static_cast<std::uint16_t>(bit(seat) | bit((seat + distance) % n));
        }
        case Partners::rotating: {
            const int k = rules_.partner_plan[(std::max(1, int(s_.hand)) - 1) % rules_.partner_plan_size];
            if (k < 2) return bit(seat);
            const auto team = [&](int t) { return ((t - s_.dealer - 1 + n) % n) % k; };
            std::uint16_t mask = 0;
            for (int t = 0; t < n; ++t)
                if (team(t) == team(seat)) mask = static_cast<std::uint16_t>(mask | bit(t));
            return mask;
        }
    }
    return bit(seat);
}

// ---------------------------------------------------------------- consistency

std::string Game::check_invariants() const {
    const int n = rules_.seats;
    CardSet seen;
    int count = 0;
    auto place = [&](CardSet cards, const char* where) -> std::string {
        if (seen.intersects(cards)) return std::string("a card is in two places (") + where + ")";
        seen |= cards;
        count += cards.size();
        return {};
    };
    std::string e;
    for (int s = 0; s < n && e.empty(); ++s) {
        e = place(s_.hands[s], "hand");
        if (e.empty()) e = place(s_.won[s], "won");
        // Cards in transit: passed, not yet received (also when the clock ends the game mid-pass).
        if (e.empty()) e = place(s_.in_transit[s] | s_.in_transit_back[s], "passing");
    }
    if (!e.empty()) return e;
    CardSet trick;
    for (int i = 0; i < s_.trick.count; ++i) trick.insert(s_.trick.cards[i]);
    if (trick.size() != s_.trick.count) return "the trick holds a card twice";
    if (!(e = place(trick, "trick")).empty()) return e;
    CardSet center;
    for (int i = s_.center_given; i < s_.center_size; ++i) center.insert(s_.center[i]);
    if (!(e = place(center, "center")).empty()) return e;
    if (seen != deck_in_play(rules_) || count != rules_.cards_in_play())
        return "the cards in play are not all accounted for";
    if (s_.phase == Phase::playing) {
        int tricks = 0;
        for (int s = 0; s < n; ++s) tricks += s_.tricks[s];
        if (tricks != s_.trick_number - 1) return "the trick count does not match the trick number";
        for (int i = 0; i < n; ++i) {
            const int s = (s_.trick.leader + i) % n;
            const int expected = rules_.hand_size - (s_.trick_number - 1) - (i < s_.trick.count ? 1 : 0);
            if (s_.hands[s].size() != expected) return "seat " + std::to_string(s) + " holds the wrong number of cards";
        }
        if (s_.turn != (s_.trick.leader + s_.trick.count) % n) return "the turn is not the next seat in the trick";
        const bool recorded = s_.plays_recorded;
        if (recorded && s_.played_count != (s_.trick_number - 1) * n + s_.trick.count)
            return "the cards played this hand are miscounted";
        for (int i = 0; recorded && i < s_.trick.count; ++i)
            if (s_.played_in_order[(s_.trick_number - 1) * n + i] != s_.trick.cards[i])
                return "the trick's cards are not the last cards played";
    }
    // Every finished trick's cards went to its winner.
    for (const TrickWon& t : finished_tricks(*this))
        for (int i = 0; i < t.count; ++i)
            if (!s_.won[t.winner].contains(t.cards[i])) return "a finished trick's card is not with its winner";
    return {};
}

}  // namespace sparts
