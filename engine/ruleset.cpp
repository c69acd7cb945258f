#include "engine/ruleset.hpp"

#include <string>

#include "engine/game.hpp"  // kMaxCenter

namespace sparts {

const char* to_string(Preset preset) {
    switch (preset) {
        case Preset::bga_sparts: return "bga-sparts";
        case Preset::sparts: return "sparts";
        case Preset::spartsel: return "spartsel";
        case Preset::spades: return "spades";
        case Preset::worldwinner_spades: return "worldwinner-spades";
        case Preset::hearts: return "hearts";
    }
    return "?";
}

const char* to_string(Family family) {
    switch (family) {
        case Family::bga_sparts: return "bga-sparts";
        case Family::sparts: return "sparts";
        case Family::spades: return "spades";
        case Family::hearts: return "hearts";
    }
    return "?";
}

Result<Preset> parse_preset(std::string_view name) {
    for (int i = 0; i < kPresetCount; ++i) {
        const auto p = static_cast<Preset>(i);
        if (name == to_string(p)) return p;
    }
    return RuleError{ErrorCode::unknown_preset,
                     "unknown preset '" + std::string(name) +
                         "': expected one of bga-sparts, sparts, spartsel, spades, "
                         "worldwinner-spades, hearts"};
}

Family Ruleset::family() const {
    switch (preset) {
        case Preset::bga_sparts: return Family::bga_sparts;
        case Preset::sparts:
        case Preset::spartsel: return Family::sparts;
        case Preset::spades:
        case Preset::worldwinner_spades: return Family::spades;
        case Preset::hearts: return Family::hearts;
    }
    return Family::sparts;
}

int Ruleset::effective_trick_value() const {
    if (trick_value) return trick_value;
    const bool with_partners = partnership != Partnership::none || partners != Partners::none;
    if (seats <= 3) return 5;
    if (!with_partners && seats >= 6) return 15;
    if (with_partners && ((seats == 7 && decks == 1) || seats == 10)) return 15;
    return 10;
}

std::uint16_t Ruleset::side_seats(int side) const {
    if (sides() == seats) return static_cast<std::uint16_t>(1u << side);
    std::uint16_t mask = 0;
    for (int s = side; s < seats; s += sides()) mask = static_cast<std::uint16_t>(mask | (1u << s));
    return mask;
}

int default_hand_size(int seats, int decks, int jokers) {
    if (seats == 2) return 17;  // seed 002: "17 ea (18 into center, 2 to first trick, 1 to every other)"
    if (seats < 2) return 0;
    return (decks * 52 + jokers) / seats;
}

Ruleset preset_ruleset(Preset preset) {
    Ruleset r;
    r.preset = preset;
    switch (preset) {
        case Preset::bga_sparts:
            // Seed 000: 4 players, 13 each; the 7 of diamonds chooses; games to 200.
            r.choose_by_seven_of_diamonds = true;
            r.hand_kind = HandKind::undecided;
            r.hearts_mode = HeartsMode::sparts;
            r.pass_count = 4;
            r.min_bid = 2;
            r.nil_allowed = true;
            r.nil_value = 50;
            r.nil_tricks_count_for_partner = false;  // "the extra tricks ... are not counted as bags"
            r.bag_rule = BagRule::penalty;
            r.bag_threshold = 4;
            r.bag_points = 40;
            r.target_score = 200;
            break;
        case Preset::sparts:
            // Seed 001, scored by seed 002's Sparts column.
            r.hand_kind = HandKind::sparts;
            r.scoring_column = ScoringColumn::sparts;
            r.trick_value = 10;
            r.queen_breaks_hearts = false;
            r.hand_limit = -1;
            break;
        case Preset::spartsel:
            // Seed 002.
            r.hand_kind = HandKind::sparts;
            r.scoring_column = ScoringColumn::spartsel;
            r.trick_value = 0;
            r.queen_breaks_hearts = true;
            r.hand_limit = -1;
            break;
        case Preset::spades:
            // Seed 003.
            r.partnership = Partnership::across;
            r.hand_kind = HandKind::spades;
            r.min_bid = 1;
            r.nil_allowed = true;
            r.nil_value = 0;
            r.bag_rule = BagRule::penalty;
            r.bag_threshold = 10;
            r.bag_points = 100;
            r.target_score = 500;
            r.tie_plays_another_hand = true;
            break;
        case Preset::worldwinner_spades:
            // Seed 004, on top of seed 003.
            r.partnership = Partnership::across;
            r.hand_kind = HandKind::spades;
            r.min_bid = 1;
            r.nil_allowed = true;
            r.nil_value = 75;
            r.nil_tricks_count_for_partner = false;
            r.spades_first_lead = FirstLead::dealer_partner;
            r.spades_break = SpadesBreak::spade_not_led;
            r.bag_rule = BagRule::bag_back;
            r.bag_threshold = 5;
            r.bag_points = 50;
            r.target_score = 250;
            r.game_clock_seconds = 600;
            r.tie_plays_another_hand = true;
            break;
        case Preset::hearts:
            // Hearts as the sites play it (docs/RULES.md, the hearts preset): pass 3 left,
            // right, across, hold; the 2 of clubs leads; a heart 1, the queen of spades 13;
            // to 100, the lowest score wins.
            r.hand_kind = HandKind::hearts;
            r.hearts_mode = HeartsMode::traditional;
            r.pass_count = 3;
            r.low_score_wins = true;
            r.target_score = 100;
            r.tie_plays_another_hand = true;  // a tie for the lowest plays on (docs/RULES.md)
            break;
    }
    r.hand_size = default_hand_size(r.seats, r.decks, r.jokers);
    return r;
}

std::optional<RuleError> validate(const Ruleset& r) {
    auto bad = [](ErrorCode code, std::string msg) { return RuleError{code, std::move(msg)}; };
    auto seats_range = [&](int lo, int hi) -> std::optional<RuleError> {
        if (r.seats < lo || r.seats > hi)
            return bad(ErrorCode::invalid_option_value,
                       std::string(to_string(r.preset)) + " is played by " + std::to_string(lo) +
                           (lo == hi ? "" : " to " + std::to_string(hi)) + " players, not " +
                           std::to_string(r.seats));
        return std::nullopt;
    };
    std::optional<RuleError> e;
    switch (r.preset) {
        case Preset::bga_sparts:
        case Preset::spades:
        case Preset::worldwinner_spades: e = seats_range(4, 4); break;
        case Preset::sparts: e = seats_range(4, 6); break;
        case Preset::spartsel: e = seats_range(2, 10); break;
        case Preset::hearts: e = seats_range(3, 6); break;
    }
    if (e) return e;
    if (r.preset != Preset::spartsel && (r.decks != 1 || r.jokers != 0 || r.hand_size_set))
        return bad(ErrorCode::invalid_deal,
                   std::string(to_string(r.preset)) + " uses one 52-card deck without jokers, dealt by its own table");
    if (r.decks < 1 || r.decks > kMaxDecks)
        return bad(ErrorCode::invalid_deal, "decks must be 1 or 2, not " + std::to_string(r.decks));
    if (r.jokers < 0 || r.jokers > kMaxJokers)
        return bad(ErrorCode::invalid_deal, "jokers must be 0 to 4, not " + std::to_string(r.jokers));
    if (r.seats == 2 && (r.decks != 1 || r.jokers != 0))
        return bad(ErrorCode::invalid_deal, "two-player tables use one deck without jokers");
    if (r.hand_size < 1)
        return bad(ErrorCode::invalid_deal, "each player needs at least one card");
    if (r.seats * r.hand_size > r.cards_in_play())
        return bad(ErrorCode::invalid_deal,
                   std::to_string(r.seats) + " hands of " + std::to_string(r.hand_size) +
                       " need " + std::to_string(r.seats * r.hand_size) + " cards, but only " +
                       std::to_string(r.cards_in_play()) + " are in play");
    if (r.hand_size > kMaxHandSize)
        return bad(ErrorCode::invalid_deal,
                   std::to_string(r.seats) + " hands of " + std::to_string(r.hand_size) +
                       " cards: at most " + std::to_string(kMaxHandSize) + " cards a hand");
    if (r.center_size() > kMaxCenter)
        return bad(ErrorCode::invalid_deal,
                   "the deal leaves " + std::to_string(r.center_size()) +
                       " cards in the center; at most " + std::to_string(kMaxCenter) +
                       " are allowed");
    if (r.seats == 2 && r.center_size() != 2 + (r.hand_size - 1))
        return bad(ErrorCode::invalid_deal,
                   "with two players the center must hold 2 cards for the first trick and 1 "
                   "for each later trick");
    if (r.partnership == Partnership::across && r.seats % 2 != 0)
        return bad(ErrorCode::invalid_deal, "partners sitting across need an even number of seats");
    if (r.partners != Partners::none && r.family() != Family::sparts)
        return bad(ErrorCode::option_not_for_ruleset, "partners belong to the sparts family");
    if (r.partners == Partners::regular && (r.teams < 2 || r.teams > r.seats / 2))
        return bad(ErrorCode::invalid_option_value,
                   "regular partners need 2 to " + std::to_string(r.seats / 2) + " teams of two or more at " +
                       std::to_string(r.seats) + " seats, not " + std::to_string(r.teams));
    if (r.partners == Partners::rotating) {
        if (r.partner_plan_size < 1 || r.partner_plan_size > kMaxPartnerPlan)
            return bad(ErrorCode::invalid_option_value, "a partner plan lists 1 to 16 hands");
        for (int i = 0; i < r.partner_plan_size; ++i)
            if (r.partner_plan[i] == 1 || r.partner_plan[i] > r.seats / 2)
                return bad(ErrorCode::invalid_option_value,
                           "partner_plan: hand " + std::to_string(i + 1) + " asks for " +
                               std::to_string(r.partner_plan[i]) + " teams; at " + std::to_string(r.seats) +
                               " seats use 0 (no partners) or 2 to " + std::to_string(r.seats / 2));
    }
    if (r.partners == Partners::progressive && r.seats < 3)
        return bad(ErrorCode::invalid_option_value, "progressive partners need at least 3 players");
    if (r.progressive_rotated && r.partners != Partners::progressive)
        return bad(ErrorCode::invalid_option_value, "progressive_rotated rotates progressive partners: set partners to progressive");
    if (r.joker_deck != JokerDeck::none && r.family() != Family::spades)
        return bad(ErrorCode::option_not_for_ruleset, "joker_deck belongs to the spades family");
    if (r.big_joker_forces && r.joker_deck == JokerDeck::none)
        return bad(ErrorCode::invalid_option_value, "big_joker_forces_highest needs a Big Joker: set joker_deck");
    if (r.bid_style != BidStyle::standard && r.family() != Family::spades)
        return bad(ErrorCode::option_not_for_ruleset, "bid_style belongs to the spades family");
    if (r.nil_pass != 0 && (r.family() != Family::spades || r.nil_pass < 0 || r.nil_pass > 3))
        return bad(ErrorCode::invalid_option_value, "nil_pass is 0 to 3 cards, in the spades family");
    if (r.blind_nil_behind >= 0 && (r.family() != Family::spades || !r.nil_allowed))
        return bad(ErrorCode::option_not_for_ruleset, "blind_nil belongs to the spades family");
    if (r.blind_nil_behind >= 0 && r.bid_style != BidStyle::standard)
        return bad(ErrorCode::invalid_option_value, "bid_style fixes the bids: it does not combine with blind_nil");
    if (r.bid_style != BidStyle::standard && r.min_side_bid > 0)
        return bad(ErrorCode::invalid_option_value, "bid_style fixes the bids: it does not combine with min_side_bid");
    if (r.family() != Family::hearts &&
        (r.jack_of_diamonds || r.points_first_trick || r.moon_scoring != MoonScoring::add || r.shoot_the_sun ||
         r.pass_rotation != PassRotation::standard || r.low_score_wins))
        return bad(ErrorCode::option_not_for_ruleset, "the jack of diamonds, points on the first trick, the moon's and the sun's scoring and the pass rotation belong to the hearts family");
    if (r.family() == Family::hearts && (r.pass_count < 1 || r.pass_count > 4))
        return bad(ErrorCode::invalid_option_value, "pass_count is 1 to 4 cards (pass_rotation none passes nothing)");
    if (r.family() == Family::hearts && r.partnership == Partnership::across && r.seats != 4 && r.seats != 6)
        return bad(ErrorCode::invalid_option_value, "partnership Hearts is played by 4 or 6 players, partners across");
    if (r.family() == Family::hearts && r.pass_rotation == PassRotation::across && r.seats % 2 != 0)
        return bad(ErrorCode::invalid_option_value, "an odd number of players has no one across to pass to");
    if (r.family() != Family::spades && (r.min_side_bid || r.ten_for_two_hundred || r.all_thirteen_bonus || r.spades_any_time || r.failed_nil_bags))
        return bad(ErrorCode::option_not_for_ruleset, "side bids, 10-for-200, the all-13 bonus, failed-nil bags and spades led any time belong to the spades family");
    if (r.min_bid < 0 || r.min_bid > r.hand_size)
        return bad(ErrorCode::invalid_option_value, "the lowest bid must be within the hand size");
    if (r.bag_rule != BagRule::none && (r.bag_threshold < 1 || r.bag_points < 0))
        return bad(ErrorCode::invalid_option_value, "a bag rule needs a threshold of 1 or more");
    if (r.hand_cap < 1 || r.hand_cap > 250)
        return bad(ErrorCode::invalid_option_value,
                   "hand_cap must be 1 to 250, not " + std::to_string(r.hand_cap));
    if (r.hand_limit < -1 || r.hand_limit > 250)
        return bad(ErrorCode::invalid_option_value, "hands must be 0 (no limit) to 250");
    if (r.target_score < 0) return bad(ErrorCode::invalid_option_value, "target_score must be positive");
    if (r.game_clock_seconds < 0)
        return bad(ErrorCode::invalid_option_value, "game_clock must be 0 (off) or a number of seconds");
    if (r.target_score == 0 && r.hand_limit == 0 && r.game_clock_seconds == 0)
        return bad(ErrorCode::invalid_option_value,
                   "the game needs an end: a target score, a number of hands or a game clock");
    if (r.nil_allowed && r.effective_nil_value() <= 0)
        return bad(ErrorCode::invalid_option_value, "nil_value must be positive");
    return std::nullopt;
}

}  // namespace sparts
