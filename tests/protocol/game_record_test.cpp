#include <doctest/doctest.h>

#include "engine/seed_support.hpp"
#include "protocol/action_json.hpp"
#include "protocol/event_json.hpp"
#include "protocol/game_record.hpp"
#include "protocol/json_text.hpp"
#include "protocol/random_games.hpp"
#include "protocol/replay.hpp"

using namespace sparts;
using nlohmann::json;

namespace {

GameRecord read_back(const std::string& text) {
    auto r = parse_game_record(text);
    REQUIRE_MESSAGE(r, (r ? "" : r.error().message()));
    return std::move(*r);
}

std::string parse_error_of(const json& j) {
    const auto r = game_record_from_json(j);
    REQUIRE_FALSE(r);
    return r.error().message();
}

json small_record() {
    return json::parse(R"({"format":"sparts-game-record","version":1,
        "ruleset":{"preset":"spades","options":{"target_score":250}},
        "seats":[{"name":"Ann"},{"name":"Bo"},{"name":"Cy"},{"name":"Di"}],
        "seed":"18446744073709551615",
        "actions":[{"seat":1,"type":"bid","bid":"nil"},{"seat":"table","type":"clock_expired"}],
        "result":{"scores":[0,0],"ranks":[1,1],"reason":"game_clock"}})");
}

}  // namespace

TEST_CASE("a random game's record, written and read back, replays to the same events") {
    std::uint64_t seed = 500;
    for (const Ruleset& rules : test::sample_rulesets()) {
        const auto played = test::play_random(rules, seed++);
        REQUIRE(played.record.result);
        const std::string text = record_text(played.record);
        const GameRecord back = read_back(text);
        CHECK(back.seed == played.record.seed);
        CHECK(back.actions == played.record.actions);
        CHECK(back.result == played.record.result);
        CHECK(to_json(back) == to_json(played.record));

        const auto replayed = replay(back);
        REQUIRE_MESSAGE(replayed, (replayed ? "" : replayed.error().message));
        REQUIRE(replayed->events.size() == played.events.size());
        for (std::size_t i = 0; i < played.events.size(); ++i) {
            INFO("event ", i);
            CHECK(describe(replayed->events[i]) == describe(played.events[i]));
            CHECK(to_json(replayed->events[i]) == to_json(played.events[i]));
        }
        REQUIRE(replayed->game_over);
        CHECK(result_of(*replayed->game_over) == *played.record.result);
    }
}

TEST_CASE("a record with stacked deals, seat names and the table's clock round-trips") {
    // Stack the first hand from a seed's deal, then let the game deal the rest itself.
    const Ruleset rules = test::ruleset("worldwinner-spades");
    auto probe = Game::create(rules, 42);
    REQUIRE(probe);
    StackedDeal deal;
    for (const Event& e : probe->start())
        if (const auto* d = std::get_if<CardsDealt>(&e)) deal.hands[d->seat] = d->cards;
    std::swap(deal.hands[0], deal.hands[1]);

    auto played = test::play_random(rules, 7, 30, {deal});
    played.record.seat_names = {"Ann", "Bo", "Cy", "Di"};
    played.record.actions.push_back({kTableSeat, Action::clock_expired()});
    const GameRecord back = read_back(record_text(played.record));
    CHECK(back.seat_names == played.record.seat_names);
    REQUIRE(back.deals.size() == 1);
    CHECK(back.deals[0].hands == deal.hands);
    CHECK(back.actions.back() == RecordedAction{kTableSeat, Action::clock_expired()});

    const auto replayed = replay(back);
    REQUIRE_MESSAGE(replayed, (replayed ? "" : replayed.error().message));
    REQUIRE(replayed->game_over);
    CHECK(replayed->game_over->reason == GameEndReason::game_clock);
    // The stacked hand, not the seed's, was dealt.
    const auto* first_deal = std::get_if<CardsDealt>(&replayed->events[1]);
    REQUIRE(first_deal);
    CHECK(first_deal->cards == deal.hands[first_deal->seat]);
}

// Hearts with moon_scoring "choose": seat 0 takes every trick whatever is played (moon_deal);
// the shooter's answer is an action of the record, written as on the wire, and the replay
// scores the hand as it answered.
TEST_CASE("a record of a shot moon holds the shooter's answer and replays to the same score") {
    const Ruleset rules = test::ruleset("hearts", {{"moon_scoring", "choose"}, {"pass_rotation", "none"}, {"hand_cap", "1"}});
    const StackedDeal deal = seedtest::moon_deal(rules);
    bool added = false, subtracted = false;  // both answers, from the seeds' random play
    for (std::uint64_t seed = 1; seed <= 40 && !(added && subtracted); ++seed) {
        const auto played = test::play_random(rules, seed, SIZE_MAX, {deal});
        const RecordedAction& answer = played.record.actions.back();
        REQUIRE(answer.action.kind == ActionKind::moon);
        (answer.action.subtract ? subtracted : added) = true;
        CHECK(answer.seat == 0);
        const json written = to_json(played.record);
        CHECK(written.at("actions").back() ==
              json{{"seat", 0}, {"type", "moon"}, {"score", answer.action.subtract ? "subtract" : "add"}});
        const GameRecord back = read_back(record_text(played.record));
        CHECK(back.actions == played.record.actions);
        const auto replayed = replay(back);
        REQUIRE_MESSAGE(replayed, (replayed ? "" : replayed.error().message));
        REQUIRE(replayed->game_over);
        CHECK(result_of(*replayed->game_over) == *played.record.result);
        CHECK(replayed->game_over->scores[0] == (answer.action.subtract ? -26 : 0));
    }
    CHECK(added);
    CHECK(subtracted);
}

TEST_CASE("a record whose action the engine refuses names that action") {
    auto played = test::play_random(test::ruleset("spades"), 9, 40);
    GameRecord broken = played.record;
    // Action 21 (index 20) is moved to the wrong seat: it is not that seat's turn.
    RecordedAction& a = broken.actions[20];
    const Seat right = a.seat;
    a.seat = static_cast<Seat>((right + 1) % 4);
    const auto replayed = replay(read_back(record_text(broken)));
    REQUIRE_FALSE(replayed);
    const ReplayError& e = replayed.error();
    REQUIRE(e.refused);
    CHECK(e.refused->index == 20);
    CHECK(e.refused->seat == a.seat);
    CHECK(e.refused->error.code == ErrorCode::not_your_turn);
    CHECK(e.refused->action == to_json(a.action));
    CHECK(e.message == "action 21 (index 20) by seat " + std::to_string(a.seat) + ", " + to_json(a.action).dump() +
                           ", was refused: not_your_turn: it is seat " + std::to_string(right) + "'s turn");

    // A card its player does not hold.
    GameRecord wrong_card = played.record;
    std::size_t index = 0;
    while (wrong_card.actions[index].action.kind != ActionKind::play) ++index;
    RecordedAction& play = wrong_card.actions[index];
    const CardSet hand_of_next = [&] {
        auto g = Game::create(wrong_card.rules, wrong_card.seed);
        for (const Event& dealt : g->start())
            if (const auto* d = std::get_if<CardsDealt>(&dealt); d && d->seat == (play.seat + 1) % 4) return d->cards;
        return CardSet();
    }();
    play.action = Action::play(hand_of_next.first());
    const auto refused = replay(wrong_card);
    REQUIRE_FALSE(refused);
    REQUIRE(refused.error().refused);
    CHECK(refused.error().refused->index == index);
    CHECK(refused.error().refused->error.code == ErrorCode::card_not_in_hand);
    CHECK(refused.error().message.starts_with("action " + std::to_string(index + 1) + " (index " +
                                              std::to_string(index) + ") by seat "));
}

TEST_CASE("a record whose result does not match its replay is refused") {
    auto played = test::play_random(test::ruleset("sparts"), 3);
    REQUIRE(played.record.result);
    played.record.result->scores[0] += 1;
    const auto r = replay(played.record);
    REQUIRE_FALSE(r);
    CHECK_FALSE(r.error().refused);
    CHECK(r.error().message.starts_with("the record's result {"));

    auto unfinished = test::play_random(test::ruleset("sparts"), 3, 10);
    CHECK_FALSE(unfinished.record.result);
    const auto partial = replay(unfinished.record);
    REQUIRE(partial);
    CHECK_FALSE(partial->game_over);
    unfinished.record.result = RecordResult{GameEndReason::hand_limit, {0, 0, 0, 0}, {1, 1, 1, 1}};
    const auto early = replay(unfinished.record);
    REQUIRE_FALSE(early);
    CHECK(early.error().message == "the record has a result, but its 10 actions stop before the game is over");
}

TEST_CASE("the record's fields are read with precise errors") {
    const GameRecord r = read_back(small_record().dump());
    CHECK(r.seed == 18446744073709551615ULL);
    CHECK(r.rules.target_score == 250);
    CHECK(r.seat_names[3] == "Di");
    CHECK(r.actions[0] == RecordedAction{1, Action::make_bid(0)});
    CHECK(r.actions[1].seat == kTableSeat);

    json j = small_record();
    j["seed"] = 12345;
    CHECK(read_back(j.dump()).seed == 12345);
    j["seed"] = "12x";
    CHECK(parse_error_of(j) == "field 'seed': expected a seed: a whole number from 0 to 18446744073709551615, as a "
                               "string or a number, got \"12x\"");
    j["seed"] = "18446744073709551616";
    CHECK(parse_error_of(j).starts_with("field 'seed': expected a seed"));
    j["seed"] = -1;
    CHECK(parse_error_of(j).starts_with("field 'seed': expected a seed"));

    j = small_record();
    j["version"] = 2;
    CHECK(parse_error_of(j) == "field 'version': this reader knows version 1 only, got 2");
    j.erase("version");
    CHECK(parse_error_of(j) == "field 'version': missing; expected 1");
    j = small_record();
    j["format"] = "pgn";
    CHECK(parse_error_of(j) == "field 'format': expected \"sparts-game-record\", got \"pgn\"");
    j = small_record();
    j["comment"] = "hello";
    CHECK(parse_error_of(j).starts_with("field 'comment': unknown field in a game record; expected only format, version,"));
    j = small_record();
    j.erase("actions");
    CHECK(parse_error_of(j) == "field 'actions': missing; expected an array of actions");
    j = small_record();
    j["actions"][1] = json::parse(R"({"seat":9,"type":"play","card":"QX"})");
    CHECK(parse_error_of(j) == "field 'actions[1].card': expected a card like \"QS\", got \"QX\"");
    j["actions"][1] = json::parse(R"({"type":"play","card":"QS"})");
    CHECK(parse_error_of(j) == "field 'actions[1].seat': missing; expected a seat number from 0 to 9, or \"table\"");
    j["actions"][1] = json::parse(R"({"seat":10,"type":"play","card":"QS"})");
    CHECK(parse_error_of(j) == "field 'actions[1].seat': expected a seat number from 0 to 9, or \"table\", got 10");
    j = small_record();
    j["ruleset"]["options"]["target_score"] = "lots";
    CHECK(parse_error_of(j) == "field 'ruleset.options.target_score': option 'target_score' expects a whole number "
                               "from 0 to 10000, got 'lots'");
    j = small_record();
    j["seats"].erase(3);
    CHECK(parse_error_of(j) == "field 'seats': expected 4 seats (the ruleset's), got 3");
    j = small_record();
    j["seats"][2] = json::parse(R"({"nick":"Cy"})");
    CHECK(parse_error_of(j) == "field 'seats[2].nick': unknown field in a seat; expected only name");
    j = small_record();
    j["deals"] = json::parse(R"([{"hands":[["2C"],["3C"],["4C"],[5]],"center":[]}])");
    CHECK(parse_error_of(j) == "field 'deals[0].hands[3][0]': expected a card like \"QS\", got 5");
    j["deals"] = json::parse(R"([{"hands":[["2C"],["3C"],["4C"]]}])");
    CHECK(parse_error_of(j) == "field 'deals[0].hands': expected 4 hands (one a seat), got 3");
    j = small_record();
    j["result"]["reason"] = "boredom";
    CHECK(parse_error_of(j) == "field 'result.reason': expected an end reason: target_score, hand_limit, hand_cap, "
                               "game_clock or mercy_rule, got \"boredom\"");
    j = small_record();
    j["result"]["ranks"] = {1, 3};
    CHECK(parse_error_of(j) == "field 'result.ranks[1]': expected a rank from 1 to 2, got 3");
    CHECK(parse_error_of(json::array()) == "expected a game record object, got an empty array");
}

TEST_CASE("a stacked deal that does not hold every card is refused when the game is created") {
    json j = small_record();
    j["deals"] = json::parse(R"([{"hands":[["2C"],["3C"],["4C"],["5C"]],"center":[]}])");
    const GameRecord r = read_back(j.dump());
    const auto replayed = replay(r);
    REQUIRE_FALSE(replayed);
    CHECK_FALSE(replayed.error().refused);
    CHECK(replayed.error().message.starts_with("the game cannot be created: stacked deal for hand 1: seat 0 has 1 cards"));
}

TEST_CASE("broken JSON text is an error, never an exception") {
    const std::string text = record_text(test::play_random(test::ruleset("spades"), 11, 30).record);
    // Every proper prefix of a record is malformed JSON or an incomplete record.
    for (std::size_t n = 0; n < text.size(); n += 7) {
        Parsed<GameRecord> r = ParseError{};
        CHECK_NOTHROW(r = parse_game_record(std::string_view(text).substr(0, n)));
        CHECK_FALSE(r);
        CHECK_FALSE(r.error().message().empty());
    }
    CHECK(parse_game_record(text));
    const auto bad = parse_json_text("{\"a\": tru}");
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message().starts_with("invalid JSON: parse error at line 1, column"));
    const auto deep = parse_json_text(std::string(100000, '[') + std::string(100000, ']'));
    REQUIRE_FALSE(deep);
    CHECK(deep.error().message() == "invalid JSON: nested deeper than 64 levels");
    CHECK(parse_json_text("[[[[\"]]]]]]]]]]\"]]]]"));  // brackets inside strings do not count
}

TEST_CASE("a record's deal proof is read, written back, and refused when malformed") {
    json j = small_record();
    j["deal"] = {{"salt", "00112233445566778899aabbccddeeff"},
                 {"commitment", "7b7de8949fc22965028a5971d44162bad5fc62dad183bba540fc26daefb1900c"}};
    const GameRecord r = read_back(j.dump());
    REQUIRE(r.deal);
    CHECK(r.deal->salt == "00112233445566778899aabbccddeeff");
    CHECK(r.deal->commitment == "7b7de8949fc22965028a5971d44162bad5fc62dad183bba540fc26daefb1900c");
    CHECK(read_back(record_text(r)).deal == r.deal);
    CHECK_FALSE(read_back(small_record().dump()).deal);

    j["deal"]["salt"] = "00112233445566778899AABBCCDDEEFF";
    CHECK(parse_error_of(j) == "field 'deal.salt': expected 32 lowercase hex digits, got \"00112233445566778899AABBCCDDEEFF\"");
    j["deal"]["salt"] = "00112233445566778899aabbccddeeff";
    j["deal"].erase("commitment");
    CHECK(parse_error_of(j) == "field 'deal.commitment': missing; expected 64 lowercase hex digits (a SHA-256)");
    j["deal"]["commitment"] = "7b7de8949fc22965028a5971d44162bad5fc62dad183bba540fc26daefb1900c";
    j["deal"]["seed"] = "1";
    CHECK(parse_error_of(j).starts_with("field 'deal.seed': unknown field in a deal proof"));
    j["deal"] = "yes";
    CHECK(parse_error_of(j).starts_with("field 'deal': expected an object with salt and commitment"));
}
