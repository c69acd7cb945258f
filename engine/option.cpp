#include "engine/option.hpp"
#include "engine/card.hpp"

#include <charconv>
#include <string>
#include <utility>

namespace sparts {

namespace {

constexpr std::uint8_t fam(Family f) { return static_cast<std::uint8_t>(1u << static_cast<int>(f)); }
constexpr std::uint8_t kAll = fam(Family::bga_sparts) | fam(Family::sparts) | fam(Family::spades) | fam(Family::hearts);

RuleError bad_value(std::string_view name, std::string_view value, std::string_view expected) {
    return {ErrorCode::invalid_option_value, "option '" + std::string(name) + "' expects " +
                                                 std::string(expected) + ", got '" +
                                                 std::string(value) + "'"};
}

std::optional<int> to_int(std::string_view v) {
    int n = 0;
    const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if (ec != std::errc() || p != v.data() + v.size()) return std::nullopt;
    return n;
}

std::optional<bool> to_bool(std::string_view v) {
    if (v == "true" || v == "on" || v == "1") return true;
    if (v == "false" || v == "off" || v == "0") return false;
    return std::nullopt;
}

#define INT_OPTION(NAME, LO, HI, FIELD)                                                      \
    [](Ruleset& r, std::string_view v) -> std::optional<RuleError> {                         \
        const auto n = to_int(v);                                                            \
        if (!n || *n < (LO) || *n > (HI))                                                    \
            return bad_value(NAME, v, "a whole number from " #LO " to " #HI);               \
        r.FIELD = *n;                                                                        \
        return std::nullopt;                                                                 \
    }

// The deal follows seats, decks and jokers unless the table chose a hand size.
void redeal(Ruleset& r) {
    if (!r.hand_size_set) r.hand_size = default_hand_size(r.seats, r.decks, r.jokers);
}

std::optional<RuleError> set_seats(Ruleset& r, std::string_view v) {
    const auto n = to_int(v);
    if (!n || *n < 2 || *n > kMaxSeats) return bad_value("seats", v, "a number of players from 2 to 10");
    r.seats = *n;
    redeal(r);
    return std::nullopt;  // validate() checks the preset's own range
}

std::optional<RuleError> set_hand_size(Ruleset& r, std::string_view v) {
    if (v == "auto") {
        r.hand_size_set = false;
        redeal(r);
        return std::nullopt;
    }
    const auto n = to_int(v);
    if (!n || *n < 1 || *n > 31) return bad_value("hand_size", v, "auto or a number of cards from 1 to 31");
    r.hand_size = *n;
    r.hand_size_set = true;
    return std::nullopt;  // validate() says whether the deal adds up
}

std::optional<RuleError> set_decks(Ruleset& r, std::string_view v) {
    const auto n = to_int(v);
    if (!n || *n < 1 || *n > kMaxDecks) return bad_value("decks", v, "1 or 2");
    r.decks = *n;
    redeal(r);
    return std::nullopt;
}

std::optional<RuleError> set_jokers(Ruleset& r, std::string_view v) {
    const auto n = to_int(v);
    if (!n || *n < 0 || *n > kMaxJokers) return bad_value("jokers", v, "0 to 4");
    r.jokers = *n;
    redeal(r);
    return std::nullopt;
}

#define BOOL_OPTION(NAME, FIELD)                                                             \
    [](Ruleset& r, std::string_view v) -> std::optional<RuleError> {                         \
        const auto b = to_bool(v);                                                           \
        if (!b) return bad_value(NAME, v, "true or false");                                 \
        r.FIELD = *b;                                                                        \
        return std::nullopt;                                                                 \
    }

std::optional<RuleError> set_center_cards(Ruleset& r, std::string_view v) {
    if (v == "first-heart-or-queen") r.center_rule = CenterRule::first_heart_or_queen;
    else if (v == "first-trick") r.center_rule = CenterRule::first_trick;
    else return bad_value("center_cards", v, "first-heart-or-queen or first-trick");
    return std::nullopt;
}

std::string bool_text(bool b) { return b ? "true" : "false"; }

std::optional<RuleError> set_moon_scoring(Ruleset& r, std::string_view v) {
    if (v == "add") r.moon_scoring = MoonScoring::add;
    else if (v == "subtract") r.moon_scoring = MoonScoring::subtract;
    else if (v == "best") r.moon_scoring = MoonScoring::best;
    else if (v == "choose") r.moon_scoring = MoonScoring::choose;
    else return bad_value("moon_scoring", v, "add, subtract, best or choose");
    return std::nullopt;
}

std::string moon_scoring_text(const Ruleset& r) {
    switch (r.moon_scoring) {
        case MoonScoring::add: return "add";
        case MoonScoring::subtract: return "subtract";
        case MoonScoring::best: return "best";
        case MoonScoring::choose: return "choose";
    }
    return "?";
}

constexpr std::pair<PassRotation, const char*> kPassRotations[] = {
    {PassRotation::standard, "standard"}, {PassRotation::left_right, "left-right"}, {PassRotation::left, "left"},
    {PassRotation::right, "right"},       {PassRotation::across, "across"},         {PassRotation::none, "none"}};

std::optional<RuleError> set_pass_rotation(Ruleset& r, std::string_view v) {
    for (const auto& [rotation, name] : kPassRotations)
        if (v == name) {
            r.pass_rotation = rotation;
            return std::nullopt;
        }
    return bad_value("pass_rotation", v, "standard, left-right, left, right, across or none");
}

std::string pass_rotation_text(const Ruleset& r) {
    for (const auto& [rotation, name] : kPassRotations)
        if (r.pass_rotation == rotation) return name;
    return "?";
}

std::optional<RuleError> set_partnership(Ruleset& r, std::string_view v) {
    if (v == "none") r.partnership = Partnership::none;
    else if (v == "across") r.partnership = Partnership::across;
    else return bad_value("partnership", v, "none or across");
    return std::nullopt;  // validate() checks the number of seats
}

std::optional<RuleError> set_failed_nil_tricks(Ruleset& r, std::string_view v) {
    if (v == "partner") r.nil_tricks_count_for_partner = true, r.failed_nil_bags = false;
    else if (v == "none") r.nil_tricks_count_for_partner = false, r.failed_nil_bags = false;
    else if (v == "bags") r.nil_tricks_count_for_partner = false, r.failed_nil_bags = true;
    else return bad_value("failed_nil_tricks", v, "partner, none or bags");
    return std::nullopt;
}

std::string get_failed_nil_tricks(const Ruleset& r) {
    return r.nil_tricks_count_for_partner ? "partner" : r.failed_nil_bags ? "bags" : "none";
}

std::optional<RuleError> set_bid_style(Ruleset& r, std::string_view v) {
    if (v == "standard") r.bid_style = BidStyle::standard;
    else if (v == "suicide") r.bid_style = BidStyle::suicide;
    else if (v == "whiz") r.bid_style = BidStyle::whiz;
    else if (v == "mirror") r.bid_style = BidStyle::mirror;
    else return bad_value("bid_style", v, "standard, suicide, whiz or mirror");
    return std::nullopt;
}

std::string get_bid_style(const Ruleset& r) {
    switch (r.bid_style) {
        case BidStyle::standard: return "standard";
        case BidStyle::suicide: return "suicide";
        case BidStyle::whiz: return "whiz";
        case BidStyle::mirror: return "mirror";
    }
    return "standard";
}

std::optional<RuleError> set_joker_deck(Ruleset& r, std::string_view v) {
    if (v == "none") r.joker_deck = JokerDeck::none;
    else if (v == "big-little") r.joker_deck = JokerDeck::big_little;
    else if (v == "jjdd") r.joker_deck = JokerDeck::jjdd;
    else if (v == "deuces-high") r.joker_deck = JokerDeck::deuces_high;
    else return bad_value("joker_deck", v, "none, big-little, jjdd or deuces-high");
    return std::nullopt;
}

std::string get_joker_deck(const Ruleset& r) {
    switch (r.joker_deck) {
        case JokerDeck::none: return "none";
        case JokerDeck::big_little: return "big-little";
        case JokerDeck::jjdd: return "jjdd";
        case JokerDeck::deuces_high: return "deuces-high";
    }
    return "none";
}

std::optional<RuleError> set_partners(Ruleset& r, std::string_view v) {
    if (v == "none") r.partners = Partners::none;
    else if (v == "regular") r.partners = Partners::regular;
    else if (v == "rotating") r.partners = Partners::rotating;
    else if (v == "progressive") r.partners = Partners::progressive;
    else return bad_value("partners", v, "none, regular, rotating or progressive");
    return std::nullopt;
}

std::string get_partners(const Ruleset& r) {
    switch (r.partners) {
        case Partners::none: return "none";
        case Partners::regular: return "regular";
        case Partners::rotating: return "rotating";
        case Partners::progressive: return "progressive";
    }
    return "?";
}

std::optional<RuleError> set_partner_plan(Ruleset& r, std::string_view v) {
    std::array<std::uint8_t, kMaxPartnerPlan> plan{};
    int size = 0;
    while (!v.empty()) {
        const auto comma = v.find(',');
        const auto n = to_int(v.substr(0, comma));
        if (!n || *n < 0 || *n > 5 || size == kMaxPartnerPlan)
            return bad_value("partner_plan", v, "1 to 16 team counts separated by commas, each 0 or 2-5, like \"2,3,0\"");
        plan[size++] = static_cast<std::uint8_t>(*n);
        v = comma == std::string_view::npos ? std::string_view() : v.substr(comma + 1);
    }
    if (size == 0) return bad_value("partner_plan", v, "at least one team count, like \"2\"");
    r.partner_plan = plan;
    r.partner_plan_size = size;
    return std::nullopt;
}

std::string get_partner_plan(const Ruleset& r) {
    std::string s;
    for (int i = 0; i < r.partner_plan_size; ++i) {
        if (i) s += ',';
        s += std::to_string(r.partner_plan[i]);
    }
    return s;
}

std::optional<RuleError> set_multi_pass(Ruleset& r, std::string_view v) {
    if (v == "off") r.multi_pass = MultiPass::off;
    else if (v == "back") r.multi_pass = MultiPass::back_after;
    else if (v == "both-ways") r.multi_pass = MultiPass::both_ways;
    else return bad_value("multi_pass", v, "off, back or both-ways");
    return std::nullopt;
}

std::optional<RuleError> set_game_length(Ruleset& r, std::string_view v) {
    const auto n = to_int(v);
    if (!n || (*n != 200 && *n != 400 && *n != 800)) return bad_value("game_length", v, "200, 400 or 800");
    r.target_score = *n;
    // Seed 000: "200-point game = 4 bags or more, penalty 40 points; 400 [and 800] = 8 bags, 80".
    r.bag_threshold = *n == 200 ? 4 : 8;
    r.bag_points = *n == 200 ? 40 : 80;
    return std::nullopt;
}

std::optional<RuleError> set_hearts_mode(Ruleset& r, std::string_view v) {
    if (v == "sparts") {
        r.hearts_mode = HeartsMode::sparts;
        r.pass_count = 4;
    } else if (v == "traditional") {
        r.hearts_mode = HeartsMode::traditional;
        r.pass_count = 3;
    } else {
        return bad_value("hearts_mode", v, "sparts or traditional");
    }
    return std::nullopt;
}

std::optional<RuleError> set_scoring(Ruleset& r, std::string_view v) {
    if (v == "sparts") r.scoring_column = ScoringColumn::sparts;
    else if (v == "spartsel") r.scoring_column = ScoringColumn::spartsel;
    else return bad_value("scoring", v, "sparts or spartsel");
    return std::nullopt;
}

std::optional<RuleError> set_hands(Ruleset& r, std::string_view v) {
    if (v == "seats") {
        r.hand_limit = -1;
        return std::nullopt;
    }
    const auto n = to_int(v);
    if (!n || *n < 0 || *n > 250) return bad_value("hands", v, "\"seats\" or a number from 0 (no limit) to 250");
    r.hand_limit = *n;
    return std::nullopt;
}

std::optional<RuleError> set_sandbag(Ruleset& r, std::string_view v) {
    if (v == "off") {
        r.bag_rule = BagRule::none;
    } else if (v == "10") {
        r.bag_rule = BagRule::penalty, r.bag_threshold = 10, r.bag_points = 100;
    } else if (v == "5") {
        r.bag_rule = BagRule::penalty, r.bag_threshold = 5, r.bag_points = 50;
    } else if (v == "bag-back") {
        r.bag_rule = BagRule::bag_back, r.bag_threshold = 5, r.bag_points = 50;
    } else {
        return bad_value("sandbag_penalty", v, "off, 10, 5 or bag-back");
    }
    return std::nullopt;
}

std::optional<RuleError> set_mercy_rule(Ruleset& r, std::string_view v) {
    const auto b = to_bool(v);
    if (!b) return bad_value("mercy_rule", v, "true or false");
    r.mercy_score = *b ? -200 : 0;
    return std::nullopt;
}

std::string get_sandbag(const Ruleset& r) {
    switch (r.bag_rule) {
        case BagRule::none: return "off";
        case BagRule::bag_back: return "bag-back";
        case BagRule::penalty: return std::to_string(r.bag_threshold);
    }
    return "?";
}

const OptionInfo kOptions[] = {
    {"seats", "sparts: 4-6; spartsel: 2-10; hearts: 3-6",
     "Number of players; the deal follows seed 002's tables (hearts: the lowest cards leave the deck so that "
     "it deals out evenly).",
     "001: \"4 players - 13 cards each / 5 players - 10 cards each (2 card kitty) / 6 players - 8 "
     "cards each (4 card kitty)\"; 002: \"Typical one deck deals would be: ...\"; hearts: docs/RULES.md",
     fam(Family::sparts) | fam(Family::hearts), set_seats, [](const Ruleset& r) { return std::to_string(r.seats); }},
    {"decks", "1 | 2", "Number of 52-card decks (spartsel; sparts uses one).",
     "002: \"Typical double deck deals would be: 7 Players 15 ea (3 in center, w/4 jokers) ...\"",
     fam(Family::sparts), set_decks, [](const Ruleset& r) { return std::to_string(r.decks); }},
    {"jokers", "0-4", "Number of jokers (spartsel): led, a joker wins and frees everyone; played later it never wins; it may always be played instead of following suit.",
     "002: \"The joker is a veery wild card. If it is led, it always wins the trick; if it is played "
     "after the lead, it will never win.\"",
     fam(Family::sparts), set_jokers, [](const Ruleset& r) { return std::to_string(r.jokers); }},
    {"hand_size", "auto | 1-31",
     "Cards dealt to each player; the rest go to the center. auto: as many as the cards in play allow "
     "equally (seed 002's tables). A deal that does not add up is refused, saying why.",
     "002: \"Deal an equal number of cards to each player (any extra going into the center).\"; RULINGS.md",
     fam(Family::sparts), set_hand_size,
     [](const Ruleset& r) { return r.hand_size_set ? std::to_string(r.hand_size) : std::string("auto"); }},
    {"hands", "seats | 0 | 1-250", "Number of hands in the game (\"seats\": one a player; 0: no limit).",
     "001: \"Try playing one round for each player in the game.\"", fam(Family::sparts), set_hands,
     [](const Ruleset& r) { return r.hand_limit < 0 ? std::string("seats") : std::to_string(r.hand_limit); }},
    {"scoring", "sparts | spartsel",
     "Scoring column: Sparts (+1 an overtrick, -10 when short) or Spartsel (exact bids only; the "
     "dealer may not make the bids total the tricks).",
     "002: the \"Tricks / Sparts / Spartsel\" table; \"If playing Spartsel, the dealer cannot "
     "declare a number that would make the total declared equal to the number available.\"",
     fam(Family::sparts), set_scoring,
     [](const Ruleset& r) { return std::string(r.scoring_column == ScoringColumn::sparts ? "sparts" : "spartsel"); }},
    {"center_cards", "first-heart-or-queen | first-trick",
     "Who takes the center cards: the first player to capture a heart or the queen of spades, or "
     "the winner of the first trick. Two-player tables always give 2 to the first trick and 1 to each later one.",
     "002: \"The center cards are given to the first player capturing a trick with a heart or with "
     "the queen of spades.\"; RULINGS.md: \"(option: to the winner of the first trick instead, as some "
     "Hearts variants do)\"",
     fam(Family::sparts), set_center_cards,
     [](const Ruleset& r) {
         return std::string(r.center_rule == CenterRule::first_trick ? "first-trick" : "first-heart-or-queen");
     }},
    {"mooning", "true | false",
     "Whoever takes all the hearts and the queen(s) of spades counts 0 for them and every other player "
     "counts the deck's negative total (-35 a deck; -26 with ten_of_hearts_minus_one); the jack is scored apart.",
     "002: \"When one person takes all the hearts and the queen of spades, their heart total is 0 and "
     "everyone else's is -35 (or the total of the negatives). The jack of diamonds is scored separately.\"",
     fam(Family::sparts), BOOL_OPTION("mooning", mooning), [](const Ruleset& r) { return bool_text(r.mooning); }},
    {"ten_of_hearts_minus_one", "true | false", "The 10 of hearts counts -1 instead of -10.",
     "002: \"10 of Hearts- The 10 of hearts only counts as -1.\"", fam(Family::sparts),
     BOOL_OPTION("ten_of_hearts_minus_one", ten_of_hearts_minus_one),
     [](const Ruleset& r) { return bool_text(r.ten_of_hearts_minus_one); }},
    {"mercy", "true | false",
     "No heart and no spade may be played on the first trick unless the hand holds nothing else "
     "(Spartsel's mercy; not the Spades mercy_rule).",
     "002: \"Mercy- Neither hearts nor trump can be played on the first trick.\"", fam(Family::sparts),
     BOOL_OPTION("mercy", first_trick_mercy), [](const Ruleset& r) { return bool_text(r.first_trick_mercy); }},
    {"multi_pass", "off | back | both-ways",
     "One more card each pass: after the 3-card pass completes, 1 card back to the player who passed "
     "to you (back); or, with the 3-card pass, 1 card to the player who is passing to you (both-ways). "
     "None on a no-pass hand.",
     "002: \"Multi-pass- In addition to the traditional 3 card pass, there are two variations. One is "
     "passing 1 back to the person who passed to you (after the first pass is completed). The other is "
     "passing 1 card card to the person who is passing to you at the same time as the first pass.\"",
     fam(Family::sparts), set_multi_pass,
     [](const Ruleset& r) {
         return std::string(r.multi_pass == MultiPass::off ? "off" : r.multi_pass == MultiPass::back_after ? "back" : "both-ways");
     }},
    {"partners", "none | regular | rotating | progressive",
     "Partnerships. regular: fixed teams (see teams) combine bids (the last partner to bid gives the team's "
     "bid), tricks, count and one score. rotating: teams per hand from partner_plan share that hand's score; "
     "overall scores stay separate. progressive: your partner is the player 2 to your left; your contract is "
     "your bid plus theirs, your tricks and count yours plus theirs. Trick values for teams apply.",
     "002: \"Regular Partners- Players combine their bids and their scores (tricks and count). The first partner "
     "to bid, indicates a number. The final partner to bid, gives the actual number for the partnership.\"; "
     "\"Rotating Partners- ... receiving the same score for that hand, but keeping separate overall scores\"; "
     "\"Progressive Partners- ... Your partner is the person 2 to you left.\"; RULINGS.md",
     fam(Family::sparts), set_partners, get_partners},
    {"teams", "2-5", "Regular partners: the number of teams; seat s plays in team s mod teams, so partners sit apart (2 teams at 4 seats: across).",
     "002: \"Partners are recommended for 6 or more players.\" and \"Typical partner styles would be directly "
     "across, teams of 3, 2 vs. 3 ..., or 2 vs. 3 vs. 3 or 3 vs. 4\"",
     fam(Family::sparts), INT_OPTION("teams", 2, 5, teams), [](const Ruleset& r) { return std::to_string(r.teams); }},
    {"partner_plan", "comma-separated team counts, each 0 or 2-5",
     "Rotating partners: the number of teams on each hand, repeating (0: no partners that hand); on a hand "
     "with k teams, the seat d places left of the dealer's left plays in team d mod k.",
     "002: \"A plan is established in the begining (like with passing) for who will be partners on what hand.\"",
     fam(Family::sparts), set_partner_plan, get_partner_plan},
    {"progressive_rotated", "true | false",
     "Progressive partners rotated: on hand k your partner is the player d to your left, d running 2, 3, ..., "
     "seats - 1 and then from 2 again (2 on the first hand, 3 on the second, ...); everything else as "
     "progressive partners. Needs partners progressive.",
     "002: \"This is best if it can also be rotated (e.g. 2 to the left on deal one, 3 to the left on deal "
     "two...)\"; RULINGS.md",
     fam(Family::sparts), BOOL_OPTION("progressive_rotated", progressive_rotated),
     [](const Ruleset& r) { return bool_text(r.progressive_rotated); }},
    {"reverse_partners", "true | false",
     "When the queen of spades wins the last trick, each player's bid, tricks and count become the sums of "
     "everyone else's (before any partnership is combined).",
     "002: \"Reverse Partners- When the final trick is taken by the queen of spades, reverse partners is declared. "
     "A person's bid is not their own, but the sum of everyone else's and their count is not of their own cards, "
     "but of everyone else's.\"; RULINGS.md",
     fam(Family::sparts), BOOL_OPTION("reverse_partners", reverse_partners),
     [](const Ruleset& r) { return bool_text(r.reverse_partners); }},
    {"secret_bids", "true | false",
     "Bids are hidden from every other player, in every view and event, until the hand is scored; the "
     "Spartsel dealer rule still applies.",
     "002: \"Secret Bids- Bids are secretly recorded before the play of the hand. After the play, bids "
     "are revealed for scoring purposes.\"; RULINGS.md: \"Secret bids do not lift the Spartsel dealer rule.\"",
     fam(Family::sparts), BOOL_OPTION("secret_bids", secret_bids), [](const Ruleset& r) { return bool_text(r.secret_bids); }},
    {"target_score", "0 | 1-10000", "The game ends after the hand in which a side reaches it (0: no target).",
     "002: \"Games can be played to a number of points\"; 003: \"Winning Score (500 points by "
     "default)\"; 004: \"Be the first team to reach 250 points.\"",
     fam(Family::sparts) | fam(Family::spades) | fam(Family::hearts), INT_OPTION("target_score", 0, 10000, target_score),
     [](const Ruleset& r) { return std::to_string(r.target_score); }},
    {"game_length", "200 | 400 | 800", "Target score, with its bag threshold and penalty (4 bags/40 at 200; 8 bags/80 at 400 and 800).",
     "000: \"There are three options for the length of the game: 200 points, 400 points, or 800 "
     "points.\" and its bag table", fam(Family::bga_sparts), set_game_length,
     [](const Ruleset& r) { return std::to_string(r.target_score); }},
    {"hearts_mode", "sparts | traditional",
     "Hearts hands: pass 4, dealer's left leads, the queen of spades breaks hearts (sparts); or pass "
     "3, the 2 of clubs leads, no points on the first trick (traditional).",
     "000: \"it can be either 4 (Sparts mode) or 3 (Traditional Hearts mode)\"",
     fam(Family::bga_sparts), set_hearts_mode,
     [](const Ruleset& r) { return std::string(r.hearts_mode == HeartsMode::sparts ? "sparts" : "traditional"); }},
    {"nil_value", "0 | 1-1000", "Points for a nil made, lost for a nil failed (0: a fifth of the target score).",
     "003: \"their team gains 50 (for a game of 250) or 100 points (for a game of 500)\"; 004: "
     "\"NIL bids are worth +75 points\"", fam(Family::spades), INT_OPTION("nil_value", 0, 1000, nil_value),
     [](const Ruleset& r) { return std::to_string(r.nil_value); }},
    {"sandbag_penalty", "off | 10 | 5 | bag-back",
     "Bags: not counted (off); 10 bags lose 100; 5 bags lose 50; 5 bags give the opponents 50.",
     "003: \"collecting 10 sandbags results in losing 100 points (or collecting 5 sandbags results "
     "in losing 50 points\"; 004: \"Once a team collects 5 bags, there is a 'bag back' penalty\"",
     fam(Family::spades), set_sandbag, get_sandbag},
    {"mercy_rule", "true | false", "A team at -200 or below loses.",
     "003: \"a team who reaches the -200 points ends the game and the other team wins\"",
     fam(Family::spades), set_mercy_rule,
     [](const Ruleset& r) { return std::string(r.mercy_score ? "true" : "false"); }},
    {"min_bid", "1-6", "The lowest bid a player may make other than nil.",
     "003: \"There is only one round of bidding, and the minimum bid is One.\"; higher: "
     "https://learnthat.com/learn-to-play-the-card-game-spades/2/ (\"some people play that no one can bid 1\")",
     fam(Family::spades), INT_OPTION("min_bid", 1, 6, min_bid), [](const Ruleset& r) { return std::to_string(r.min_bid); }},
    {"min_side_bid", "0 | 1-13",
     "A minimum bid for each side (0: none): once a partner has bid, the other's bid must bring the side's "
     "bids (a nil as 0) to at least this; a nil only when the partner's bid already does.",
     "https://learnthat.com/learn-to-play-the-card-game-spades/2/ (\"Some play that each team must bid a "
     "minimum of 4 tricks. If a player bids Nil, that player's partner must bid at least 4.\")",
     fam(Family::spades), INT_OPTION("min_side_bid", 0, 13, min_side_bid),
     [](const Ruleset& r) { return std::to_string(r.min_side_bid); }},
    {"ten_for_two_hundred", "true | false",
     "A side whose contract is 10 or more and is made scores 200 for it instead of 10 a trick (overtricks "
     "and a set as usual).",
     "https://babygurl599.tripod.com/var.html (\"Allow a 10 for 200 bid\", named, not defined); docs/RULES.md, decisions",
     fam(Family::spades), BOOL_OPTION("ten_for_two_hundred", ten_for_two_hundred),
     [](const Ruleset& r) { return bool_text(r.ten_for_two_hundred); }},
    {"all_thirteen_bonus", "0 | 1-1000",
     "Points a side gets on top of its contract for bidding 13 and taking all 13 tricks (0: none; 70 "
     "makes the 200 of the page cited).",
     "https://games.rmwinslow.com/rules/tricktaking-spades.html (\"If a team bids 13 and succeeds, they "
     "earn +200 points instead of +130\")",
     fam(Family::spades), INT_OPTION("all_thirteen_bonus", 0, 1000, all_thirteen_bonus),
     [](const Ruleset& r) { return std::to_string(r.all_thirteen_bonus); }},
    {"failed_nil_tricks", "partner | none | bags",
     "The tricks a nil bidder takes: they count toward the partner's contract (and as bags over it), or for "
     "nothing, or only as bags.",
     "003: its nil example (\"gains 60 points for collectively taking 6 tricks\"); 004: \"The partner's bid is "
     "treated just like a team bid, above.\" and its Example 4; bags: https://games.rmwinslow.com/rules/tricktaking-spades.html "
     "(\"Any tricks that player earns are counted as bags instead of contributing to their teams total.\")",
     fam(Family::spades), set_failed_nil_tricks, get_failed_nil_tricks},
    {"spades_led_any_time", "true | false",
     "Spades may be led from the first trick on, broken or not.",
     "https://www.spadesformoney.com/how-spades-are-broken.html (\"some casual groups simply allow spades "
     "to be led at any time\")",
     fam(Family::spades), BOOL_OPTION("spades_led_any_time", spades_any_time),
     [](const Ruleset& r) { return bool_text(r.spades_any_time); }},
    {"bid_style", "standard | suicide | whiz | mirror",
     "Bidding variants. suicide: one partner of each side bids nil and the other 4 or more (the first to bid "
     "chooses, the second bids the opposite). whiz: bid the number of spades you hold, or nil. mirror: bid "
     "exactly the number of spades you hold (nil with none). Jokers and raised deuces count as spades.",
     "suicide: https://bbumgameshelp.freshdesk.com/support/solutions/articles/44002274166-suicide (\"One player "
     "must bid Nil (0 tricks), and the other must bid at least 4 tricks.\"); whiz and mirror: "
     "http://zone.msn.com/en/spades/article/shvlzpalearntoplay4.htm (\"In Mirror games, you must always bid the "
     "number of spades in your hand.\" \"Players must bid nil OR the number of spades in their hands.\")",
     fam(Family::spades), set_bid_style, get_bid_style},
    {"nil_pass", "0 | 1-3",
     "Nil passing: once the bids are in, on each side with one nil bid the nil bidder and partner pass each "
     "other this many cards at once, before the first lead (0: none).",
     "https://babygurl599.tripod.com/var.html (\"Reduce the Value of Nil to 50 points and allow the passing of "
     "cards\", \"allow the passing of cards (either 1, 2 or 3 cards)\")",
     fam(Family::spades), INT_OPTION("nil_pass", 0, 3, nil_pass), [](const Ruleset& r) { return std::to_string(r.nil_pass); }},
    {"blind_nil", "off | 0-1000",
     "Blind nil: at the deal, the players of a side at least this many points behind the best other side "
     "get their cards face down; at their turn to bid each bids blind nil (twice the nil value, made or "
     "failed, on a blind_nil line) or shows its cards and bids as usual. 0: any side not ahead; off: none.",
     "spades family: docs/RULES.md", fam(Family::spades),
     [](Ruleset& r, std::string_view v) -> std::optional<RuleError> {
         if (v == "off") {
             r.blind_nil_behind = -1;
             return std::nullopt;
         }
         const auto n = to_int(v);
         if (!n || *n < 0 || *n > 1000) return bad_value("blind_nil", v, "off or a number of points from 0 to 1000");
         r.blind_nil_behind = *n;
         return std::nullopt;
     },
     [](const Ruleset& r) { return r.blind_nil_behind < 0 ? std::string("off") : std::to_string(r.blind_nil_behind); }},
    {"joker_deck", "none | big-little | jjdd | deuces-high",
     "Joker Spades. big-little: the Big Joker (JK1) and Little Joker (JK2) are the two highest trumps, the 2 of "
     "diamonds and 2 of hearts leave the deck. jjdd: Big Joker, Little Joker, 2 of diamonds, 2 of spades, then "
     "the ace of spades; the 2 of hearts and 2 of clubs leave. deuces-high: Big Joker, Little Joker, 2 of "
     "spades, then the ace; the 2 of diamonds and 2 of hearts leave. Every trump follows, leads and breaks as "
     "a spade.",
     "003: \"All 52 cards will be dealt, except the 2 of diamonds and the 2 of hearts which will be replaced by "
     "the two joker cards\"; JJDD: https://afronautics.com/2017/12/13/joker-joker-deuce-deuce/ (\"the deuce of "
     "hearts and deuce of clubs are removed ... the use of the deuce of diamonds as a spade\"); deuces high: "
     "https://namegenerator.biz/playing-spades-with-jokers-and-deuces-online-why-the-big-wheels-change-everything-29o "
     "(\"Big Joker ..., Small Joker ..., and then the 2 of Spades\")",
     fam(Family::spades), set_joker_deck, get_joker_deck},
    {"big_joker_forces_highest", "true | false",
     "When the Big Joker is led, each opponent of its leader who holds a spade (a trump) must play their "
     "highest; its leader's partner follows as usual. Needs a joker_deck.",
     "003: \"if the big joker is led, opponents must play their highest spade in that trick. If the big joker "
     "is played during a hand, opponents are not forced to play their highest spade.\"",
     fam(Family::spades), BOOL_OPTION("big_joker_forces_highest", big_joker_forces),
     [](const Ruleset& r) { return bool_text(r.big_joker_forces); }},
    {"pass_count", "1-4", "Hearts: the number of cards each player passes.", "hearts: docs/RULES.md",
     fam(Family::hearts), INT_OPTION("pass_count", 1, 4, pass_count),
     [](const Ruleset& r) { return std::to_string(r.pass_count); }},
    {"pass_rotation", "standard | left-right | left | right | across | none",
     "Hearts: where each hand's pass goes. standard: left, right, across, hold, repeating (at an odd number "
     "of seats left, right, hold); left-right: alternately; left, right, across: always; none: no passing.",
     "hearts: docs/RULES.md", fam(Family::hearts), set_pass_rotation, pass_rotation_text},
    {"jack_of_diamonds", "true | false", "Hearts: whoever takes the jack of diamonds scores -10 for it.",
     "hearts: docs/RULES.md", fam(Family::hearts),
     [](Ruleset& r, std::string_view v) -> std::optional<RuleError> {
         const auto b = to_bool(v);
         if (!b) return bad_value("jack_of_diamonds", v, "true or false");
         r.jack_of_diamonds = *b ? -10 : 0;
         return std::nullopt;
     },
     [](const Ruleset& r) { return bool_text(r.jack_of_diamonds != 0); }},
    {"queen_breaks_hearts", "true | false", "Hearts: playing the queen of spades breaks hearts.",
     "hearts: docs/RULES.md", fam(Family::hearts), BOOL_OPTION("queen_breaks_hearts", queen_breaks_hearts),
     [](const Ruleset& r) { return bool_text(r.queen_breaks_hearts); }},
    {"points_on_first_trick", "true | false", "Hearts: hearts and the queen of spades may be played on the first trick.",
     "hearts: docs/RULES.md", fam(Family::hearts), BOOL_OPTION("points_on_first_trick", points_first_trick),
     [](const Ruleset& r) { return bool_text(r.points_first_trick); }},
    {"moon_scoring", "add | subtract | best | choose",
     "Hearts: a player (a side in partnership Hearts) who takes every heart and the queen of spades scores 0 for "
     "them and every other gets 26 (add), or gets -26 (subtract), or the better of the two for the shooter (best), "
     "or the shooter chooses once the hand's tricks are over (choose).",
     "hearts: docs/RULES.md", fam(Family::hearts), set_moon_scoring, moon_scoring_text},
    {"shoot_the_sun", "true | false", "Hearts: taking every trick scores twice the moon (52).",
     "hearts: docs/RULES.md", fam(Family::hearts), BOOL_OPTION("shoot_the_sun", shoot_the_sun),
     [](const Ruleset& r) { return bool_text(r.shoot_the_sun); }},
    {"partnership", "none | across",
     "Hearts: partners sit across (4 or 6 players) and score their takes together; a side that takes every heart "
     "and the queen shoots the moon.",
     "hearts: docs/RULES.md", fam(Family::hearts), set_partnership,
     [](const Ruleset& r) { return std::string(r.partnership == Partnership::across ? "across" : "none"); }},
    {"game_clock", "0 | 1-86400", "Seconds on the game clock (0: none); when it runs out the game ends as of the last completed hand.",
     "004: \"You have 10 minutes to complete each game of Spades.\"; 002: \"Games can be played to a "
     "number of points, or to a number of hands or to a time\"", fam(Family::spades) | fam(Family::sparts),
     INT_OPTION("game_clock", 0, 86400, game_clock_seconds),
     [](const Ruleset& r) { return std::to_string(r.game_clock_seconds); }},
    {"hand_cap", "1-250", "Every game ends after this many hands at the most, scored as it stands.",
     "RULINGS.md: \"a configurable cap on the number of hands (default 100)\"", kAll,
     INT_OPTION("hand_cap", 1, 250, hand_cap), [](const Ruleset& r) { return std::to_string(r.hand_cap); }},
};

#undef INT_OPTION
#undef BOOL_OPTION

}  // namespace

std::span<const OptionInfo> option_table() { return kOptions; }

const OptionInfo* find_option(std::string_view name) {
    for (const auto& o : kOptions)
        if (name == o.name) return &o;
    return nullptr;
}

std::optional<RuleError> set_option(Ruleset& rules, std::string_view name, std::string_view value) {
    const OptionInfo* o = find_option(name);
    if (!o) return RuleError{ErrorCode::unknown_option, "unknown option '" + std::string(name) + "'"};
    if (!option_applies(*o, rules.family()))
        return RuleError{ErrorCode::option_not_for_ruleset,
                         "option '" + std::string(name) + "' does not apply to " +
                             to_string(rules.preset)};
    Ruleset changed = rules;
    if (auto e = o->set(changed, value)) return e;
    rules = changed;
    return std::nullopt;
}

Result<Ruleset> make_ruleset(std::string_view preset, std::span<const OptionSetting> options) {
    auto p = parse_preset(preset);
    if (!p) return p.error();
    Ruleset r = preset_ruleset(*p);
    for (const auto& o : options)
        if (auto e = set_option(r, o.name, o.value)) return *e;
    if (auto e = validate(r)) return *e;
    return r;
}

}  // namespace sparts
