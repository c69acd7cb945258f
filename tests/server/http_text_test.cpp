// What the HTTP parts read from a stranger's URL (server/base/http_text.hpp)
// and the ids they accept back (server/base/ids.hpp): one definition each.
#include <doctest/doctest.h>

#include "server/base/http_text.hpp"
#include "server/base/ids.hpp"

using namespace sparts::server;

TEST_CASE("http text: percent-decoding, with '+' a space only in a query") {
    CHECK(percent_decoded("a%20b+c", true) == "a b c");
    CHECK(percent_decoded("a%20b+c", false) == "a b+c");
    CHECK(percent_decoded("%41%6a", false) == "Aj");
    CHECK_FALSE(percent_decoded("%4", true));
    CHECK_FALSE(percent_decoded("%zz", true));
    CHECK_FALSE(percent_decoded("50%", false));
}

TEST_CASE("http text: a query's parameters, decoded, a malformed one refuses the whole query") {
    auto p = query_parameters("limit=5&&preset=spades&name=a%2Bb&flag");
    REQUIRE(p);
    CHECK(p->size() == 4);
    CHECK(p->at("limit") == "5");
    CHECK(p->at("name") == "a+b");
    CHECK(p->at("flag").empty());
    CHECK(query_parameters("")->empty());
    CHECK_FALSE(query_parameters("a=%G1"));
}

TEST_CASE("http text: bounded numbers are whole, in range, with nothing after") {
    CHECK(bounded_number("500", 1, 500) == 500);
    CHECK_FALSE(bounded_number("501", 1, 500));
    CHECK_FALSE(bounded_number("0", 1, 500));
    CHECK_FALSE(bounded_number("5x", 1, 500));
    CHECK_FALSE(bounded_number("", 1, 500));
    CHECK_FALSE(bounded_number("-1", 0, 10));
}

TEST_CASE("http text: what a stranger sent is shown back printable and short") {
    CHECK(shown("abc") == "abc");
    CHECK(shown("a\nb\x01") == "a?b?");
    CHECK(shown(std::string(50, 'x')) == std::string(40, 'x') + "...");
    CHECK(shown(std::string(50, 'x'), 80) == std::string(50, 'x'));
}

TEST_CASE("ids: a player is \"p\" and 16 lowercase hex digits, a table 1 to 32 of [A-Za-z0-9_-]") {
    CHECK(is_player_id("p0123456789abcdef"));
    CHECK_FALSE(is_player_id("p0123456789ABCDEF"));
    CHECK_FALSE(is_player_id("p0123456789abcde"));
    CHECK_FALSE(is_player_id("q0123456789abcdef"));
    CHECK_FALSE(is_player_id("alice"));
    CHECK(is_table_id("t17"));
    CHECK(is_table_id(std::string(32, 'a')));
    CHECK_FALSE(is_table_id(std::string(33, 'a')));
    CHECK_FALSE(is_table_id(""));
    CHECK_FALSE(is_table_id("t 1"));
}
