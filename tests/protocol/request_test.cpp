#include <doctest/doctest.h>

#include "protocol/reply.hpp"
#include "protocol/request.hpp"

using namespace sparts;
using nlohmann::json;

namespace {

Request parsed(std::string_view text) {
    auto r = parse_request(text);
    REQUIRE_MESSAGE(r, (r ? "" : r.error().error.message()));
    return *r;
}

RequestError refused(std::string_view text) {
    auto r = parse_request(text);
    REQUIRE_FALSE(r);
    return r.error();
}

}  // namespace

TEST_CASE("every request type parses, with its id") {
    auto h = parsed(R"({"type":"hello","protocol":1,"name":"Ann","id":7})");
    CHECK(*h.id == 7);
    CHECK(std::get<Hello>(h.body).name == "Ann");
    CHECK_FALSE(std::get<Hello>(h.body).token);
    CHECK(*std::get<Hello>(parsed(R"({"type":"hello","protocol":1,"name":"Ann","token":"ab"})").body).token == "ab");
    CHECK(std::get<Hello>(parsed(R"({"type":"hello","protocol":1,"name":"Ann","batch":true})").body).batch);
    CHECK_FALSE(std::get<Hello>(h.body).batch);
    CHECK(refused(R"({"type":"hello","protocol":1,"name":"Ann","batch":"yes"})").error.field == "batch");

    auto l = std::get<ListTables>(parsed(R"({"type":"list_tables","preset":"spades","seats":4,"open":false})").body);
    CHECK(*l.preset == Preset::spades);
    CHECK(*l.seats == 4);
    CHECK_FALSE(l.open_only);
    CHECK(std::get<ListTables>(parsed(R"({"type":"list_tables"})").body).open_only);

    auto c = parsed(R"({"type":"create_table","id":"c1","ruleset":{"preset":"spades","options":{"target_score":250}},
                        "private":true,"turn_seconds":30})");
    CHECK(*c.id == "c1");
    const auto& ct = std::get<CreateTable>(c.body);
    CHECK(ct.rules.preset == Preset::spades);
    CHECK(ct.rules.target_score == 250);
    CHECK(ct.is_private);
    CHECK(ct.turn_seconds == 30);
    CHECK(std::get<CreateTable>(parsed(R"({"type":"create_table","ruleset":{"preset":"sparts"}})").body).turn_seconds == -1);

    auto s = std::get<Sit>(parsed(R"({"type":"sit","table":"t1","seat":3,"invite":"abc"})").body);
    CHECK(s.table == "t1");
    CHECK(*s.seat == 3);
    CHECK(s.invite == "abc");
    CHECK_FALSE(std::get<Sit>(parsed(R"({"type":"sit","table":"t1"})").body).seat);
    CHECK(std::get<Leave>(parsed(R"({"type":"leave","table":"t2"})").body).table == "t2");
    CHECK(std::get<Watch>(parsed(R"({"type":"watch","table":"t2","invite":"x"})").body).invite == "x");
    CHECK(*std::get<AddBot>(parsed(R"({"type":"add_bot","table":"t2","seat":1})").body).seat == 1);
    CHECK(std::get<AddBot>(parsed(R"({"type":"add_bot","table":"t2"})").body).level == "basic");
    CHECK(std::get<AddBot>(parsed(R"({"type":"add_bot","table":"t2","level":"strong"})").body).level == "strong");
    CHECK(std::get<AddBot>(parsed(R"({"type":"add_bot","table":"t2","level":"random"})").body).level == "random");
    CHECK(refused(R"({"type":"add_bot","table":"t2","level":"expert"})").error.field == "level");
    CHECK(refused(R"({"type":"add_bot","table":"t2","level":2})").error.field == "level");
    CHECK(std::get<Start>(parsed(R"({"type":"start","table":"t2"})").body).table == "t2");
    CHECK(std::get<Again>(parsed(R"({"type":"again","table":"t2"})").body).table == "t2");
    auto a = std::get<Act>(parsed(R"({"type":"act","table":"t2","action":{"type":"play","card":"QS"}})").body);
    CHECK(a.action == Action::play(Card::of(queen, Suit::spades)));
    CHECK(std::get<Resume>(parsed(R"({"type":"resume","table":"t2","seq":41})").body).seq == 41);
    CHECK(std::holds_alternative<Ping>(parsed(R"({"type":"ping"})").body));
    CHECK(std::string(request_type(parsed(R"({"type":"ping"})").body)) == "ping");
}

TEST_CASE("frames that are not requests get a precise error") {
    CHECK(refused("{not json").code == "bad_json");
    CHECK(refused("[1,2]").code == "bad_message");
    CHECK(refused(R"({"id":3})").code == "bad_message");
    CHECK(refused(R"({"id":3})").error.field == "type");
    CHECK(*refused(R"({"id":3})").id == 3);  // the id is echoed even when the rest is wrong

    auto unknown = refused(R"({"type":"dance","id":"x"})");
    CHECK(unknown.code == "unknown_type");
    CHECK(*unknown.id == "x");

    auto missing = refused(R"({"type":"sit"})");
    CHECK(missing.code == "bad_message");
    CHECK(missing.error.field == "table");
    CHECK(missing.type == "sit");

    auto mistyped = refused(R"({"type":"sit","table":"t1","seat":"two"})");
    CHECK(mistyped.error.field == "seat");
    CHECK(refused(R"({"type":"sit","table":"t1","seat":10})").error.field == "seat");
    CHECK(refused(R"({"type":"sit","table":"t1","chair":1})").error.field == "chair");
    CHECK(refused(R"({"type":"act","table":"t1","action":{"type":"play","card":"QX"}})").error.field == "action.card");
    CHECK(refused(R"({"type":"act","table":"t1","action":{"type":"clock_expired"}})").error.field == "action.type");
    CHECK(refused(R"({"type":"resume","table":"t1","seq":-1})").error.field == "seq");
    CHECK(refused(R"({"type":"hello","protocol":1})").error.field == "name");
    CHECK(refused(R"({"type":"hello","protocol":1,"name":""})").error.field == "name");
    CHECK(refused(R"({"type":"hello","protocol":1,"name":" Ann"})").error.field == "name");
    CHECK(refused(R"({"type":"hello","protocol":1,"name":"a\nb"})").error.field == "name");
    // Secrets are never quoted back, however long (a login over 4096 characters was, its first 40).
    {
        const std::string login = "eyJhbGciOiJIUzI1NiJ9." + std::string(5000, 'S');
        const auto e = refused(json{{"type", "hello"}, {"protocol", 1}, {"name", "Ann"}, {"login", login}}.dump()).error;
        CHECK(e.field == "login");
        CHECK(e.message().find("eyJ") == std::string::npos);
        CHECK(e.message().find("SSSS") == std::string::npos);
        const std::string token = "secret" + std::string(200, 'T');
        const auto t = refused(json{{"type", "hello"}, {"protocol", 1}, {"name", "Ann"}, {"token", token}}.dump()).error;
        CHECK(t.field == "token");
        CHECK(t.message().find("secret") == std::string::npos);
        CHECK(t.message().find("TTTT") == std::string::npos);
    }
    // Invisible characters that let a name look like another's.
    CHECK(refused(R"({"type":"hello","protocol":1,"name":"\u200bAdmin"})").error.field == "name");
    CHECK(refused(R"({"type":"hello","protocol":1,"name":"Ad\u200dmin"})").error.field == "name");
    CHECK(refused(R"({"type":"hello","protocol":1,"name":"Admin\u206a"})").error.field == "name");
    CHECK(refused(R"({"type":"hello","protocol":1,"name":"\u0600Admin"})").error.field == "name");
    CHECK(std::get<Hello>(parsed(R"({"type":"hello","protocol":1,"name":"\ud83d\udc69\u200d\ud83d\udcbb Ann"})").body).name ==
          "\U0001F469\u200D\U0001F4BB Ann");
    CHECK(refused(R"({"type":"hello","protocol":1,"name":"abcdefghijklmnopqrstuvwxyz0123456"})").error.field == "name");
    CHECK(refused(R"({"type":"hello","name":"Ann"})").error.field == "protocol");
    CHECK(refused(R"({"type":"ping","id":[1]})").error.field == "id");
    CHECK(refused(R"({"type":"ping","id":1.5})").error.field == "id");
    CHECK(refused(R"({"type":"create_table","ruleset":{"preset":"spades"},"turn_seconds":4000})").error.field ==
          "turn_seconds");
}

TEST_CASE("a ruleset the engine refuses is a bad_ruleset naming the option") {
    auto e = refused(R"({"type":"create_table","ruleset":{"preset":"spades","options":{"target_score":-5}}})");
    CHECK(e.code == "bad_ruleset");
    CHECK(e.error.field == "ruleset.options.target_score");
    auto unknown = refused(R"({"type":"create_table","ruleset":{"preset":"spades","options":{"jokers":2}}})");
    CHECK(unknown.code == "bad_ruleset");
    CHECK(unknown.error.field == "ruleset.options.jokers");
    CHECK(refused(R"({"type":"create_table","ruleset":{"preset":"chess"}})").error.field == "ruleset.preset");
}

TEST_CASE("replies carry the request's id and type") {
    auto ok = json::parse(ok_reply(json(5), "sit", {{"seat", 2}}));
    CHECK(ok == json{{"type", "ok"}, {"re", "sit"}, {"id", 5}, {"seat", 2}});
    CHECK_FALSE(json::parse(ok_reply({}, "ping")).contains("id"));
    auto err = json::parse(error_reply(refused(R"({"type":"sit","id":"a"})")));
    CHECK(err["type"] == "error");
    CHECK(err["code"] == "bad_message");
    CHECK(err["re"] == "sit");
    CHECK(err["id"] == "a");
    CHECK(err["field"] == "table");
    // Invalid UTF-8 quoted back from a client does not break the reply.
    auto bad_utf8 = error_reply({}, {}, "bad_json", std::string("got \xff"));
    CHECK(json::parse(bad_utf8)["code"] == "bad_json");
    auto frame = json::parse(event_frame("t9", 12, {{"type", "hearts_broken"}}));
    CHECK(frame == json{{"type", "event"}, {"table", "t9"}, {"seq", 12}, {"event", {{"type", "hearts_broken"}}}});
}
