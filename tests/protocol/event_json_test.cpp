#include <doctest/doctest.h>

#include <set>

#include "protocol/event_json.hpp"
#include "protocol/random_games.hpp"

using namespace sparts;
using nlohmann::json;

namespace {

Card card(const char* name) { return *parse_card(name); }

CardSet cards(std::initializer_list<const char*> names) {
    CardSet s;
    for (const char* n : names) s.insert(card(n));
    return s;
}

void check_json(const Event& e, const char* expected) {
    INFO(describe(e));
    CHECK(to_json(e) == json::parse(expected));
}

}  // namespace

TEST_CASE("every kind of event has its wire form") {
    check_json(HandStarted{2, 3, HandKind::undecided, 13, 0},
               R"({"type":"hand_started","hand":2,"dealer":3,"kind":"undecided","hand_size":13,"center_size":0})");
    check_json(CardsDealt{1, 3, cards({"QS", "TH'", "JK1"})},
               R"({"type":"cards_dealt","seat":1,"count":3,"cards":["JK1","QS","TH'"]})");
    check_json(ChoiceStarted{2}, R"({"type":"choice_started","chooser":2})");
    check_json(HandKindChosen{2, HandKind::hearts}, R"({"type":"hand_kind_chosen","seat":2,"kind":"hearts"})");
    check_json(PassingStarted{3, 1, 1, 0},
               R"({"type":"passing_started","count":3,"distance":1,"round":1,"back_count":0})");
    check_json(PassingStarted{1, 3, 2, 0},
               R"({"type":"passing_started","count":1,"distance":3,"round":2,"back_count":0})");
    check_json(CardsPassed{0, 1, 3, cards({"4C", "2C", "3C"})},
               R"({"type":"cards_passed","from":0,"to":1,"count":3,"cards":["2C","3C","4C"]})");
    check_json(CardsReceived{1, 0, 3, cards({"2C", "3C", "4C"})},
               R"({"type":"cards_received","seat":1,"from":0,"count":3,"cards":["2C","3C","4C"]})");
    check_json(BiddingStarted{1}, R"({"type":"bidding_started","first":1})");
    check_json(BidMade{1, 3, false, false}, R"({"type":"bid_made","seat":1,"bid":3})");
    check_json(BidMade{2, 0, true, false}, R"({"type":"bid_made","seat":2,"bid":"nil"})");
    check_json(BidMade{2, 0, false, false}, R"({"type":"bid_made","seat":2,"bid":0})");
    check_json(BidMade{2, 4, false, true}, R"({"type":"bid_made","seat":2,"bid":4,"secret":true})");
    check_json(BidMade{2, kHiddenBid, false, true}, R"({"type":"bid_made","seat":2,"secret":true})");
    check_json(BidsRevealed{4, {2, 0, 5, 3}}, R"({"type":"bids_revealed","bids":[2,0,5,3]})");
    check_json(PlayStarted{1}, R"({"type":"play_started","leader":1})");
    check_json(CardPlayed{3, card("QS"), 5}, R"({"type":"card_played","seat":3,"card":"QS","trick":5})");
    check_json(HeartsBroken{1}, R"({"type":"hearts_broken","seat":1})");
    check_json(SpadesBroken{2}, R"({"type":"spades_broken","seat":2})");
    check_json(TrickWon{4, 1, 3, 4, {card("KH"), card("2H"), card("9C"), card("AH")}},
               R"({"type":"trick_won","trick":4,"leader":1,"winner":3,"cards":["KH","2H","9C","AH"]})");
    check_json(CenterTaken{2, 2, cards({"5D", "JK2"})},
               R"({"type":"center_taken","seat":2,"count":2,"cards":["5D","JK2"]})");

    HandScored scored{};
    scored.hand = 3;
    scored.kind = HandKind::spades;
    scored.sides.resize(2);
    scored.sides[0] = SideScore{0b0101, 5, 6, 0, 0, {}, 51, 251, 3};
    scored.sides[0].delta[static_cast<int>(ScoreComponent::contract)] = 50;
    scored.sides[0].delta[static_cast<int>(ScoreComponent::overtricks)] = 1;
    scored.sides[1] = SideScore{0b1010, -1, 7, 1, 1, {}, 100, 90, 0};
    scored.sides[1].delta[static_cast<int>(ScoreComponent::nil)] = 100;
    check_json(scored, R"({"type":"hand_scored","hand":3,"kind":"spades","sides":[
        {"seats":[0,2],"bid":5,"tricks":6,"nil_bids":0,"nils_made":0,"score_sheet":{"contract":50,"overtricks":1},
         "hand_total":51,"score":251,"bags":3},
        {"seats":[1,3],"bid":null,"tricks":7,"nil_bids":1,"nils_made":1,"score_sheet":{"nil":100},
         "hand_total":100,"score":90,"bags":0}]})");

    check_json(BagPenalty{1, 1, 50, true, 2},
               R"({"type":"bag_penalty","side":1,"times":1,"points":50,"to_opponents":true,"bags_after":2})");
    GameOver over{};
    over.reason = GameEndReason::target_score;
    over.hands_played = 7;
    over.side_count = 2;
    over.scores[0] = 510;
    over.scores[1] = -20;
    over.ranks[0] = 1;
    over.ranks[1] = 2;
    check_json(over, R"({"type":"game_over","reason":"target_score","hands_played":7,"scores":[510,-20],"ranks":[1,2]})");
}

TEST_CASE("random games of every preset render every kind of event under its own name") {
    std::set<std::string> seen;
    std::uint64_t seed = 1;
    for (const Ruleset& rules : test::sample_rulesets()) {
        for (int g = 0; g < 3; ++g) {
            const auto played = test::play_random(rules, seed++);
            for (const Event& e : played.events) {
                const json j = to_json(e);
                REQUIRE(j.is_object());
                CHECK(j.at("type") == event_name(e));
                seen.insert(j.at("type").get<std::string>());
            }
        }
    }
    // Between them, these presets reach every kind of event.
    for (const char* kind : {"hand_started", "cards_dealt", "choice_started", "hand_kind_chosen", "passing_started",
                             "cards_passed", "cards_received", "bidding_started", "bid_made", "bids_revealed", "play_started",
                             "card_played", "hearts_broken", "spades_broken", "trick_won", "center_taken",
                             "hand_scored", "bag_penalty", "game_over"}) {
        INFO(std::string(kind));
        CHECK(seen.count(kind) == 1);
    }
}
