// TableChat (server/table/table_chat.hpp) alone: who reads which line, what is kept,
// and mutes, without a server.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include "server/table/table_chat.hpp"

using sparts::server::ChatReader;
using sparts::server::TableChat;
using nlohmann::json;

namespace {

TableChat::Line line(int seat, bool to_seats, std::string player, std::string text, std::uint64_t seq = 1) {
    TableChat::Line l;
    l.seq = seq;
    l.seat = seat;
    l.to_seats = to_seats;
    l.player = std::move(player);
    l.name = "N";
    l.text = std::move(text);
    return l;
}

std::vector<std::string> texts(const TableChat& chat, const ChatReader& reader) {
    std::vector<std::string> out;
    const json history = json::parse(chat.history("t1", reader));
    for (const auto& l : history.at("lines")) out.push_back(l.at("text").get<std::string>());
    return out;
}

}  // namespace

TEST_CASE("table chat: the rail's line during a game reaches spectators, its speaker, and no one who plays") {
    TableChat chat(10);
    const auto rail = line(TableChat::kSpectators, false, "pw", "psst");
    CHECK(chat.sees({"pw", false}, rail));
    CHECK(chat.sees({"pother", false}, rail));
    CHECK_FALSE(chat.sees({"ps", true}, rail));
    const auto between = line(TableChat::kSpectators, true, "pw", "gg");
    CHECK(chat.sees({"ps", true}, between));
    const auto seat = line(2, true, "ps2", "hi");
    CHECK(chat.sees({"pw", false}, seat));
    CHECK(chat.sees({"ps", true}, seat));
}

TEST_CASE("table chat: only the last lines are kept, and a history is filtered for its reader") {
    TableChat chat(3);
    chat.keep(line(0, true, "p0", "a", 1));
    chat.keep(line(TableChat::kSpectators, false, "pw", "b", 2));
    chat.keep(line(1, true, "p1", "c", 3));
    chat.keep(line(0, true, "p0", "d", 4));
    CHECK(texts(chat, {"pw", false}) == std::vector<std::string>{"b", "c", "d"});
    CHECK(texts(chat, {"p1", true}) == std::vector<std::string>{"c", "d"});
    const json h = json::parse(chat.history("t1", {"p1", true}));
    CHECK(h.at("type") == "chat_history");
    CHECK(h.at("table") == "t1");
    CHECK(h.at("lines")[0] == json{{"seq", 3}, {"channel", "seats"}, {"seat", 1}, {"player", "p1"}, {"name", "N"},
                                  {"text", "c"}, {"to", "everyone"}});
    TableChat none(0);
    none.keep(line(0, true, "p0", "a"));
    CHECK(texts(none, {"p0", true}).empty());
}

TEST_CASE("table chat: mutes are a player's own, one's own lines always come back, and they go with the player") {
    TableChat chat(10);
    chat.mute("p0", 1, true);
    chat.mute("p0", TableChat::kSpectators, true);
    CHECK_FALSE(chat.sees({"p0", true}, line(1, true, "p1", "x")));
    CHECK_FALSE(chat.sees({"p0", true}, line(TableChat::kSpectators, true, "pw", "x")));
    CHECK(chat.sees({"p0", true}, line(2, true, "p2", "x")));
    CHECK(chat.sees({"p2", true}, line(1, true, "p1", "x")));  // another reader is not muted
    CHECK(json::parse(chat.history("t1", {"p0", true})).at("muted") == json::array({1, "spectators"}));
    chat.mute("pw", TableChat::kSpectators, true);
    CHECK(chat.sees({"pw", false}, line(TableChat::kSpectators, true, "pw", "mine")));
    chat.mute("p0", 1, false);
    CHECK(chat.sees({"p0", true}, line(1, true, "p1", "x")));
    chat.forget_unless([](std::string_view who) { return who == "pw"; });
    CHECK(json::parse(chat.history("t1", {"p0", true})).at("muted") == json::array());
    CHECK(json::parse(chat.history("t1", {"pw", false})).at("muted") == json::array({"spectators"}));
    chat.forget("pw");
    CHECK(json::parse(chat.history("t1", {"pw", false})).at("muted") == json::array());
}
