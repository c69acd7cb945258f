// The Ruleset: one options structure for every game the seed texts describe.
// Variants are data, not subclasses: a preset is a Ruleset filled with the
// defaults of one seed text, and named options change it field by field
// (option.hpp lists them with their sources). docs/RULES.md is the reference.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "engine/rule_error.hpp"
#include "engine/seat.hpp"

namespace sparts {

enum class Preset : std::uint8_t { bga_sparts, sparts, spartsel, spades, worldwinner_spades, hearts };
inline constexpr int kPresetCount = 6;

// Options are named per family (RULINGS.md "Finer points"): `sparts` and
// `spartsel` share one family, `spades` and `worldwinner-spades` another;
// `hearts` is a family of its own.
enum class Family : std::uint8_t { bga_sparts, sparts, spades, hearts };

enum class HeartsMode : std::uint8_t { sparts, traditional };     // bga-sparts hearts hands
enum class ScoringColumn : std::uint8_t { sparts, spartsel };     // seed 002's two columns
enum class Partnership : std::uint8_t { none, across };           // across: seats 0+2 vs 1+3
// Seed 002's partnerships (the sparts family): teams that keep one score
// (regular), teams per hand from a plan (rotating), or your partner 2 to your
// left, one-way (progressive).
enum class Partners : std::uint8_t { none, regular, rotating, progressive };
inline constexpr int kMaxPartnerPlan = 16;
enum class FirstLead : std::uint8_t {
    dealer_left,      // the player left of the dealer leads any legal card
    lowest_club,      // the holder of the lowest club in play leads it (2 of clubs first)
    dealer_partner,   // worldwinner: partner, right, you, left: the dealer's partner each hand
};
enum class SpadesBreak : std::uint8_t { any_spade, spade_not_led };
enum class BagRule : std::uint8_t { none, penalty, bag_back };
// The spades family's bidding variants (docs/RULES.md bid_style): Suicide (one
// partner of each side bids nil, the other 4 or more), Whiz (your spades or nil),
// Mirror (exactly your spades; nil with none).
enum class BidStyle : std::uint8_t { standard, suicide, whiz, mirror };
// Joker Spades (seed 003's FAQ and its house variants; joker_deck.hpp): which
// cards rank above the ace of spades, and which deuces leave the deck.
enum class JokerDeck : std::uint8_t {
    none,
    big_little,   // Big Joker, Little Joker; the 2 of diamonds and 2 of hearts removed
    jjdd,         // Big, Little, 2 of diamonds, 2 of spades; the 2 of hearts and 2 of clubs removed
    deuces_high,  // Big, Little, 2 of spades; the 2 of diamonds and 2 of hearts removed
};
// The hearts preset: who scores a shot moon (docs/RULES.md moon). `add`: 26 to every
// other player; `subtract`: 26 off the shooter; `best`: whichever leaves the shooter
// better placed (subtract when adding would end the game with the shooter not first);
// `choose`: the shooter says which, once the hand's tricks are over (Phase::moon_choice).
enum class MoonScoring : std::uint8_t { add, subtract, best, choose };
// The hearts preset's passes, hand by hand: left, right, across, hold (across is
// left out at an odd number of seats), or always one way, or never.
enum class PassRotation : std::uint8_t { standard, left_right, left, right, across, none };
// Who takes the center cards. Two-player tables always hand them out trick by
// trick (2 to the first trick's winner, 1 to each later winner).
enum class CenterRule : std::uint8_t { first_heart_or_queen, first_trick };
// Seed 002's "Multi-pass": one more card, passed back after the main pass (A),
// or passed to the player who passes to you at the same time (B).
enum class MultiPass : std::uint8_t { off, back_after, both_ways };

struct Ruleset {
    Preset preset = Preset::sparts;

    // Table and deal.
    int seats = 4;
    int decks = 1;
    int jokers = 0;
    int hand_size = 13;  // the rest of the cards go to the center (kitty)
    bool hand_size_set = false;  // chosen by the table rather than by the deal tables
    CenterRule center_rule = CenterRule::first_heart_or_queen;
    Partnership partnership = Partnership::none;

    // Hand kinds. bga-sparts: the holder of the 7 of diamonds chooses per hand.
    bool choose_by_seven_of_diamonds = false;
    HandKind hand_kind = HandKind::sparts;  // when not chosen

    // bga-sparts hearts hands (seed 000): pass 4 and dealer-left lead ("Sparts
    // mode"), or pass 3, 2 of clubs lead and no points on the first trick.
    HeartsMode hearts_mode = HeartsMode::sparts;

    // Sparts hands (seeds 001, 002).
    ScoringColumn scoring_column = ScoringColumn::sparts;
    int trick_value = 10;          // 0: by table size (seed 002, spartsel)
    bool queen_breaks_hearts = false;
    int pass_count = 3;
    bool mooning = false;          // seed 002 "Mooning"
    bool ten_of_hearts_minus_one = false;  // seed 002 "10 of Hearts"
    bool first_trick_mercy = false;        // seed 002 "Mercy": no heart nor spade on trick 1
    bool secret_bids = false;              // seed 002 "Secret Bids"
    MultiPass multi_pass = MultiPass::off;
    Partners partners = Partners::none;
    int teams = 2;                 // regular: seat s plays in team s % teams
    std::array<std::uint8_t, kMaxPartnerPlan> partner_plan{2};  // rotating: teams per hand (0: none)
    int partner_plan_size = 1;
    bool progressive_rotated = false;  // progressive: the partner's distance grows each hand (RULINGS.md)
    bool reverse_partners = false; // seed 002 "Reverse Partners"

    // Spades hands (seeds 000, 003, 004).
    int min_bid = 0;               // lowest non-nil bid
    bool nil_allowed = false;      // bid 0 is "nil" (a bonus/penalty bid) rather than a plain 0
    int nil_value = 0;             // 0: a fifth of the target score (100 at 500, 50 at 250)
    bool nil_tricks_count_for_partner = true;
    bool failed_nil_bags = false;  // a failed nil's tricks are bags though they do not help the partner
    int min_side_bid = 0;          // 0: off; else a side's bids together (nil as 0) reach at least this
    bool ten_for_two_hundred = false;  // a contract of 10 or more, made, scores 200
    int all_thirteen_bonus = 0;    // points for a side that bids 13 and takes them all
    bool spades_any_time = false;  // spades may be led before they are broken
    BidStyle bid_style = BidStyle::standard;
    int nil_pass = 0;              // 0: off; else a lone nil bidder and partner exchange this many cards
    int blind_nil_behind = -1;     // -1: no blind nil; else a side this far behind (or more) may bid it
    FirstLead spades_first_lead = FirstLead::dealer_left;
    SpadesBreak spades_break = SpadesBreak::any_spade;
    BagRule bag_rule = BagRule::none;
    int bag_threshold = 0;
    int bag_points = 0;            // lost by the side (penalty) or given to the opponents (bag back)
    int mercy_score = 0;           // 0: off; else a side at or below it loses (seed 003: -200)
    JokerDeck joker_deck = JokerDeck::none;
    bool big_joker_forces = false; // a led Big Joker makes each opponent play their highest spade (seed 003)

    // The hearts preset (its own family). Points are taken, so the lowest score wins.
    bool low_score_wins = false;
    int jack_of_diamonds = 0;       // points for taking the J of diamonds (-10 in the variant; 0: off)
    bool points_first_trick = false;  // hearts and the Q of spades may go on the first trick
    MoonScoring moon_scoring = MoonScoring::add;
    bool shoot_the_sun = false;     // taking every trick scores twice the moon
    PassRotation pass_rotation = PassRotation::standard;

    // Game end.
    int target_score = 0;          // 0: none
    int hand_limit = 0;            // 0: none; -1: one hand a seat (seed 001)
    int hand_cap = 100;            // every game ends (RULINGS.md "Common to all")
    int game_clock_seconds = 0;    // 0: none; the server sends "clock expired"
    bool tie_plays_another_hand = false;

    Family family() const;
    // Hearts at 3, 5 or 6 seats leaves the lowest cards out so that the deck deals evenly.
    int cards_in_play() const { return decks * 52 + jokers - (preset == Preset::hearts ? 52 % seats : 0); }
    int center_size() const { return cards_in_play() - seats * hand_size; }
    // Game sides: who shares one game score (spades teams, regular partners), else each seat.
    int sides() const {
        return partnership == Partnership::across ? seats / 2 : partners == Partners::regular ? teams : seats;
    }
    int side_of(Seat seat) const { return seat % sides(); }
    int effective_hand_limit() const { return hand_limit < 0 ? seats : hand_limit; }
    int effective_nil_value() const { return nil_value ? nil_value : target_score / 5; }
    // Seed 002: "Tricks are worth only 5 if there are 2-3 playing ... 15 if 6-10 cutthroat,
    // 7 playing single deck teams, or 10 playing teams."
    int effective_trick_value() const;
    // The seats of a side, as a bit mask.
    std::uint16_t side_seats(int side) const;
};

const char* to_string(Preset preset);  // "bga-sparts", ...
const char* to_string(Family family);
Result<Preset> parse_preset(std::string_view name);
Ruleset preset_ruleset(Preset preset);

// Seed 002's deal tables: equal hands of the largest size the cards allow, the
// rest in the center; 2 players get 17 each with 18 in the center.
int default_hand_size(int seats, int decks, int jokers);

// Checks a ruleset's numbers (deal, seats, bids, scores) and says what is wrong.
std::optional<RuleError> validate(const Ruleset& rules);

struct OptionSetting {
    std::string name;
    std::string value;  // text: "250", "true", "traditional"
};

// A preset with named options applied in order, validated.
Result<Ruleset> make_ruleset(std::string_view preset, std::span<const OptionSetting> options);
// Applies one named option; refuses an unknown name, an option of another
// family, or a value outside its range, leaving `rules` unchanged.
std::optional<RuleError> set_option(Ruleset& rules, std::string_view name, std::string_view value);

}  // namespace sparts
