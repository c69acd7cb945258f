// Table chat's requests (chat, mute) and the rule for a chat line's text
// (protocol/chat_text.hpp): what is said is checked and cut, never cleaned.
#include <doctest/doctest.h>

#include "protocol/chat_text.hpp"
#include "protocol/reply.hpp"
#include "protocol/request.hpp"

using namespace sparts;
using nlohmann::json;

namespace {

Outcome<Request, RequestError> parse(const json& j) { return parse_request(j.dump()); }

std::string refusal_of(const json& j) {
    auto r = parse(j);
    REQUIRE_FALSE(r);
    return r.error().code;
}

json chat(const json& text) { return {{"type", "chat"}, {"id", 4}, {"table", "t1"}, {"text", text}}; }

}  // namespace

TEST_CASE("a chat line is said as typed, cut of the white space at either end") {
    auto r = parse(chat("  good game  "));
    REQUIRE(r);
    CHECK(*r->id == 4);
    const auto& c = std::get<Chat>(r->body);
    CHECK(c.table == "t1");
    CHECK(c.text == "good game");
    CHECK(std::string(request_type(r->body)) == "chat");
    // Markup is text: nothing in it is read, changed or dropped.
    const std::string markup = R"x(<script>alert(1)</script><img src=x onerror="alert(2)"> & &amp;)x";
    CHECK(std::get<Chat>(parse(chat(markup))->body).text == markup);
    // Inner spaces, and every script, stay.
    CHECK(std::get<Chat>(parse(chat("\u00a0a  b\u3000"))->body).text == "a  b");
    CHECK(std::get<Chat>(parse(chat("Спасибо, 谢谢, شكرا 🂡"))->body).text == "Спасибо, 谢谢, شكرا 🂡");
}

TEST_CASE("a chat line of 300 characters is said, of 301 it is chat_too_long") {
    // Counted in code points, not bytes: 300 four-byte cards are 1,200 bytes.
    std::string cards;
    for (int i = 0; i < 300; ++i) cards += "🂡";
    CHECK(parse(chat(cards)));
    CHECK(refusal_of(chat(cards + "🂡")) == "chat_too_long");
    CHECK(parse(chat(std::string(300, 'x'))));
    CHECK(refusal_of(chat(std::string(301, 'x'))) == "chat_too_long");
    // The spaces at either end do not count.
    CHECK(parse(chat("   " + std::string(300, 'x') + "   ")));
}

TEST_CASE("a chat line that shows nothing is chat_empty") {
    CHECK(refusal_of(chat("")) == "chat_empty");
    CHECK(refusal_of(chat("   ")) == "chat_empty");
    CHECK(refusal_of(chat("\u200b\u00a0\u3000")) == "chat_empty");  // zero-width and wide spaces only
    // Format characters that show nothing passed as text that shows (the second round of hardening).
    for (const char* blank : {"\u206a\u206f", "\u180b", "\U0001d173\U0001d17a", "\U00013430", "\u0600", "\u200b\u200d"})
        CHECK(refusal_of(chat(blank)) == "chat_empty");
    CHECK(parse(chat(".")));
}

TEST_CASE("control characters in a chat line are chat_bad_text, naming the character") {
    for (const char* bad : {"line one\nline two", "tab\there", "bell\a", "cr\r", "del\x7f", "c1\u0085",
                            "rtl \u202e override", "isolate \u2066x\u2069", "mark \u200f", "sep \u2028",
                            "annotation \ufff9"}) {
        CAPTURE(bad);
        auto r = parse(chat(bad));
        REQUIRE_FALSE(r);
        CHECK(r.error().code == "chat_bad_text");
        CHECK(r.error().error.field == "text");
        CHECK(r.error().type == "chat");
        CHECK(*r.error().id == 4);  // so that the reply names the request
    }
    CHECK(chat_text("new\nline").error().message.find("U+000A") != std::string::npos);
}

TEST_CASE("chat text that is not UTF-8 is chat_bad_text") {
    // JSON text never holds such bytes (the parser refuses them, and so does the WebSocket
    // layer for a text frame): the rule holds for any caller all the same.
    for (const std::string& bad : {std::string("\xff"), std::string("ab\xc3"), std::string("\xc0\xaf"),
                                  std::string("\xed\xa0\x80"), std::string("\xf4\x90\x80\x80")}) {
        auto said = chat_text(bad);
        REQUIRE_FALSE(said);
        CHECK(said.error().code == "chat_bad_text");
        CHECK(said.error().message.find("UTF-8") != std::string::npos);
    }
    // An escaped lone surrogate is not JSON's UTF-8 either: the frame is bad_json.
    CHECK(parse_request(R"({"type":"chat","table":"t1","text":"\ud800"})").error().code == "bad_json");
}

TEST_CASE("a chat with a text of the wrong type or a stranger member is a bad_message") {
    CHECK(refusal_of(chat(5)) == "bad_message");
    CHECK(refusal_of(chat(nullptr)) == "bad_message");
    CHECK(refusal_of({{"type", "chat"}, {"table", "t1"}}) == "bad_message");
    CHECK(refusal_of({{"type", "chat"}, {"text", "hi"}}) == "bad_message");
    auto stranger = parse({{"type", "chat"}, {"table", "t1"}, {"text", "hi"}, {"html", true}});
    REQUIRE_FALSE(stranger);
    CHECK(stranger.error().error.field == "html");
}

TEST_CASE("mute names a seat or the spectators, and says whether") {
    auto seat = parse({{"type", "mute"}, {"table", "t1"}, {"seat", 3}, {"muted", true}});
    REQUIRE(seat);
    CHECK(std::get<Mute>(seat->body).seat == 3);
    CHECK(std::get<Mute>(seat->body).muted);
    CHECK(std::string(request_type(seat->body)) == "mute");
    auto rail = parse({{"type", "mute"}, {"table", "t1"}, {"seat", "spectators"}, {"muted", false}});
    REQUIRE(rail);
    CHECK(std::get<Mute>(rail->body).seat == Mute::kSpectators);
    CHECK_FALSE(std::get<Mute>(rail->body).muted);
    for (const json& bad : {json{{"type", "mute"}, {"table", "t1"}, {"seat", 10}, {"muted", true}},
                            json{{"type", "mute"}, {"table", "t1"}, {"seat", "seats"}, {"muted", true}},
                            json{{"type", "mute"}, {"table", "t1"}, {"muted", true}},
                            json{{"type", "mute"}, {"table", "t1"}, {"seat", 1}},
                            json{{"type", "mute"}, {"table", "t1"}, {"seat", 1}, {"muted", "yes"}}}) {
        CAPTURE(bad.dump());
        auto r = parse(bad);
        REQUIRE_FALSE(r);
        CHECK(r.error().code == "bad_message");
    }
}

TEST_CASE("a refused chat's reply echoes its id and names the text") {
    auto err = json::parse(error_reply(parse(chat("a\nb")).error()));
    CHECK(err["code"] == "chat_bad_text");
    CHECK(err["re"] == "chat");
    CHECK(err["id"] == 4);
    CHECK(err["field"] == "text");
}
