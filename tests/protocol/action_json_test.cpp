#include <doctest/doctest.h>

#include "protocol/action_json.hpp"

using namespace sparts;
using nlohmann::json;

namespace {

std::string error_of(const char* text, std::string_view envelope = {}) {
    const auto a = action_from_json(json::parse(text), envelope);
    REQUIRE_FALSE(a);
    return a.error().message();
}

Action parsed(const char* text, std::string_view envelope = {}) {
    const auto a = action_from_json(json::parse(text), envelope);
    REQUIRE_MESSAGE(a, (a ? "" : a.error().message()));
    return *a;
}

CardSet low_clubs() {
    return CardSet::of(Card::of(two, Suit::clubs)) | CardSet::of(Card::of(three, Suit::clubs)) |
           CardSet::of(Card::of(four, Suit::clubs));
}

const std::string kTypes = R"(one of "play", "bid", "pass", "choose", "show_cards", "moon", "clock_expired")";
const std::string kBid = R"(a bid: a whole number from 0 to 127, "nil" or "blind_nil")";

}  // namespace

TEST_CASE("each kind of action parses") {
    CHECK(parsed(R"({"type":"play","card":"QS"})") == Action::play(Card::of(queen, Suit::spades)));
    CHECK(parsed(R"({"type":"play","card":"TH'"})") == Action::play(Card::of(ten, Suit::hearts, 1)));
    CHECK(parsed(R"({"type":"play","card":"JK1"})") == Action::play(Card::joker(0)));
    CHECK(parsed(R"({"type":"bid","bid":3})") == Action::make_bid(3));
    CHECK(parsed(R"({"type":"bid","bid":"nil"})") == Action::make_bid(0));
    CHECK(parsed(R"({"type":"bid","bid":0})") == Action::make_bid(0));
    CHECK(parsed(R"({"type":"pass","cards":["4C","2C","3C"]})") == Action::pass(low_clubs()));
    CHECK(parsed(R"({"type":"choose","game":"spades"})") == Action::choose(HandKind::spades));
    CHECK(parsed(R"({"type":"choose","game":"hearts"})") == Action::choose(HandKind::hearts));
    CHECK(parsed(R"({"type":"clock_expired"})") == Action::clock_expired());
    CHECK(parsed(R"({"type":"bid","bid":"blind_nil"})") == Action::blind_nil());
    CHECK(parsed(R"({"type":"show_cards"})") == Action::show_cards());
    CHECK(error_of(R"({"type":"show_cards","cards":[]})") != "");
    CHECK(parsed(R"({"type":"moon","score":"add"})") == Action::moon(false));
    CHECK(parsed(R"({"type":"moon","score":"subtract"})") == Action::moon(true));
    CHECK(error_of(R"({"type":"moon"})") == R"(field 'score': missing; expected "add" (26 to every other side) or "subtract" (26 off the shooter's))");
    CHECK(error_of(R"({"type":"moon","score":"both"})") ==
          R"(field 'score': expected "add" (26 to every other side) or "subtract" (26 off the shooter's), got "both")");
    CHECK(error_of(R"({"type":"moon","score":"add","card":"QS"})") != "");
    // The enclosing message's own member is let through, and only that one.
    CHECK(parsed(R"({"seat":2,"type":"play","card":"2C"})", "seat") == Action::play(Card::of(two, Suit::clubs)));
}

TEST_CASE("actions written and read back are the same actions") {
    const Action actions[] = {Action::play(Card::of(ace, Suit::diamonds, 1)), Action::play(Card::joker(3)),
                              Action::make_bid(0), Action::make_bid(13), Action::pass(low_clubs()),
                              Action::choose(HandKind::hearts), Action::clock_expired(), Action::blind_nil(),
                              Action::show_cards(), Action::moon(false), Action::moon(true)};
    for (const Action& a : actions) {
        const json j = to_json(a);
        INFO(j.dump());
        CHECK(j.at("type") == to_string(a.kind));
        CHECK(parsed(j.dump().c_str()) == a);
    }
    CHECK(to_json(Action::play(Card::of(queen, Suit::spades))) == json::parse(R"({"type":"play","card":"QS"})"));
    CHECK(to_json(Action::pass(low_clubs())) == json::parse(R"({"type":"pass","cards":["2C","3C","4C"]})"));
    CHECK(to_json(Action::make_bid(4)) == json::parse(R"({"type":"bid","bid":4})"));
    CHECK(to_json(Action::blind_nil()) == json::parse(R"({"type":"bid","bid":"blind_nil"})"));
    CHECK(to_json(Action::show_cards()) == json::parse(R"({"type":"show_cards"})"));
    CHECK(to_json(Action::choose(HandKind::spades)) == json::parse(R"({"type":"choose","game":"spades"})"));
}

TEST_CASE("a malformed action says which field is wrong and what was expected") {
    // Not an object at all.
    CHECK(error_of(R"([1])") == R"(expected an action object like {"type":"play","card":"QS"}, got an array)");
    CHECK(error_of(R"("play QS")") == R"(expected an action object like {"type":"play","card":"QS"}, got "play QS")");
    // The type: missing, of the wrong JSON type, unknown.
    CHECK(error_of(R"({})") == "field 'type': missing; expected " + kTypes);
    CHECK(error_of(R"({"type":3})") == "field 'type': expected " + kTypes + ", got 3");
    CHECK(error_of(R"({"type":null})") == "field 'type': expected " + kTypes + ", got null");
    CHECK(error_of(R"({"type":"dance"})") == "field 'type': expected " + kTypes + R"(, got "dance")");
    // Play: the card.
    CHECK(error_of(R"({"type":"play"})") == R"(field 'card': missing; expected a card like "QS")");
    CHECK(error_of(R"({"type":"play","card":"QX"})") == R"(field 'card': expected a card like "QS", got "QX")");
    CHECK(error_of(R"({"type":"play","card":12})") == R"(field 'card': expected a card like "QS", got 12)");
    CHECK(error_of(R"({"type":"play","card":["QS"]})") == R"(field 'card': expected a card like "QS", got an array)");
    CHECK(error_of(R"({"type":"play","card":"qs"})") == R"(field 'card': expected a card like "QS", got "qs")");
    // Bid: the bid.
    CHECK(error_of(R"({"type":"bid"})") == "field 'bid': missing; expected " + kBid);
    CHECK(error_of(R"({"type":"bid","bid":-1})") == "field 'bid': expected " + kBid + ", got -1");
    CHECK(error_of(R"({"type":"bid","bid":128})") == "field 'bid': expected " + kBid + ", got 128");
    CHECK(error_of(R"({"type":"bid","bid":2.5})") == "field 'bid': expected " + kBid + ", got 2.5");
    CHECK(error_of(R"({"type":"bid","bid":"lots"})") == "field 'bid': expected " + kBid + R"(, got "lots")");
    CHECK(error_of(R"({"type":"bid","bid":true})") == "field 'bid': expected " + kBid + ", got true");
    // Pass: the cards.
    CHECK(error_of(R"({"type":"pass"})") == R"(field 'cards': missing; expected an array of cards like ["2C","3C","4C"])");
    CHECK(error_of(R"({"type":"pass","cards":"2C"})") ==
          R"(field 'cards': expected an array of cards like ["2C","3C"], got "2C")");
    CHECK(error_of(R"({"type":"pass","cards":["2C","ZZ","4C"]})") ==
          R"(field 'cards[1]': expected a card like "QS", got "ZZ")");
    CHECK(error_of(R"({"type":"pass","cards":["2C","3C","2C"]})") == R"(field 'cards[2]': card "2C" appears twice)");
    // Choose: the game.
    CHECK(error_of(R"({"type":"choose"})") == R"(field 'game': missing; expected "spades" or "hearts")");
    CHECK(error_of(R"({"type":"choose","game":"sparts"})") ==
          R"(field 'game': expected "spades" or "hearts", got "sparts")");
    // Members that do not belong.
    CHECK(error_of(R"({"type":"play","card":"QS","colour":"red"})") ==
          "field 'colour': unknown field in a play action; expected only type, card");
    CHECK(error_of(R"({"type":"clock_expired","seat":1})") ==
          "field 'seat': unknown field in a clock_expired action; expected only type");
    CHECK(error_of(R"({"type":"bid","bid":1,"id":7})", "seat") ==
          "field 'id': unknown field in a bid action; expected only type, bid, seat");
}

TEST_CASE("a long string in an error is cut short") {
    const std::string long_card(5000, 'Q');
    const auto a = action_from_json(json{{"type", "play"}, {"card", long_card}});
    REQUIRE_FALSE(a);
    CHECK(a.error().field == "card");
    CHECK(a.error().message().size() < 120);
    CHECK(a.error().message().ends_with("..."));
}
