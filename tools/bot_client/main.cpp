// sparts-bot: one computer player as a separate program. It connects to a
// sparts server over WebSocket like any client (protocol/PROTOCOL.md), sits at
// a table (or creates one, fills it with server bots and starts it) and plays
// its seat with the engine's bot until the games asked for are over. For
// people who want to try their own deployment: see README.md ("Bots").
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>

#include "tools/bot_client/seat_player.hpp"

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;
using nlohmann::json;
using namespace sparts;

namespace {

constexpr const char* kUsage =
    "usage: sparts-bot [--host H] [--port P] [--name NAME] [--level L] [--budget-ms B] [--seed S]\n"
    "                  (--table ID [--seat N] [--invite CODE] [--start] |\n"
    "                   --create PRESET [--option name=value]... [--turn-seconds T]\n"
    "                            [--server-bots N] [--server-bot-level L])\n"
    "                  [--games N] [--timeout-seconds T] [--quiet]\n"
    "\n"
    "Connects to a sparts server over WebSocket (ws://H:P/ws), says hello, and plays one\n"
    "seat with the engine's bot until N games are over (after each game over it asks for\n"
    "`again`), then leaves and exits 0. It prints a line a game: its seat's side's score.\n"
    "\n"
    "  --host H              server address (default 127.0.0.1)\n"
    "  --port P              server port (default 8080)\n"
    "  --name NAME           display name (default sparts-bot)\n"
    "  --level L             random, basic (default) or strong\n"
    "  --budget-ms B         strong: thinking time a move in milliseconds (default 50)\n"
    "  --seed S              the bot's random seed (default 1)\n"
    "  --table ID            sit at this table (the lowest free seat, or --seat N)\n"
    "  --invite CODE         the invite code of a private table\n"
    "  --start               send `start` after sitting (the table's seats must be full)\n"
    "  --create PRESET       create a table of this preset, sit at seat 0, fill the other\n"
    "                        seats with --server-bots server bots (default: all of them) of\n"
    "                        --server-bot-level (default basic) and start the game\n"
    "  --option name=value   a rule option of the created table; repeatable\n"
    "  --turn-seconds T      the created table's turn limit (default: the server's)\n"
    "  --games N             games to play (default 1)\n"
    "  --timeout-seconds T   give up (exit 3) after T seconds (default 0: never)\n"
    "  --quiet               print only errors\n"
    "\n"
    "Exit status: 0 the games were played; 1 the server refused one of the bot's moves\n"
    "(a bug); 2 bad arguments; 3 timeout; 4 connection or protocol failure.\n";

struct Options {
    std::string host = "127.0.0.1";
    std::string port = "8080";
    std::string name = "sparts-bot";
    BotLevel level = BotLevel::basic;
    BotOptions bot;
    std::uint64_t seed = 1;
    std::string table;
    std::optional<int> seat;
    std::string invite;
    bool start = false;
    std::string create;
    json options = json::object();
    std::optional<int> turn_seconds;
    std::optional<int> server_bots;
    std::string server_bot_level = "basic";
    int games = 1;
    int timeout_seconds = 0;
    bool quiet = false;
};

[[noreturn]] void usage_error(const std::string& what) {
    std::cerr << "sparts-bot: " << what << "\n(see sparts-bot --help)\n";
    std::exit(2);
}

long long number(const std::string& flag, const std::string& text, long long lo, long long hi) {
    char* end = nullptr;
    const long long n = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || n < lo || n > hi)
        usage_error(flag + " expects a number from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got '" +
                    text + "'");
    return n;
}

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) usage_error(a + " needs a value");
            return argv[++i];
        };
        if (a == "--help" || a == "-h") {
            std::cout << kUsage;
            std::exit(0);
        } else if (a == "--host") o.host = value();
        else if (a == "--port") o.port = std::to_string(number(a, value(), 1, 65535));
        else if (a == "--name") o.name = value();
        else if (a == "--level") {
            const auto l = parse_bot_level(value());
            if (!l) usage_error("--level expects random, basic or strong");
            o.level = *l;
        } else if (a == "--budget-ms") {
            o.bot.budget_us = static_cast<std::uint32_t>(number(a, value(), 1, 60000) * 1000);
        } else if (a == "--seed") o.seed = static_cast<std::uint64_t>(number(a, value(), 0, 1LL << 62));
        else if (a == "--table") o.table = value();
        else if (a == "--seat") o.seat = static_cast<int>(number(a, value(), 0, 9));
        else if (a == "--invite") o.invite = value();
        else if (a == "--start") o.start = true;
        else if (a == "--create") o.create = value();
        else if (a == "--option") {
            const std::string kv = value();
            const auto eq = kv.find('=');
            if (eq == std::string::npos || eq == 0) usage_error("--option expects name=value, got '" + kv + "'");
            const std::string v = kv.substr(eq + 1);
            char* end = nullptr;
            const long long n = std::strtoll(v.c_str(), &end, 10);
            if (!v.empty() && *end == '\0') o.options[kv.substr(0, eq)] = n;
            else if (v == "true" || v == "false") o.options[kv.substr(0, eq)] = v == "true";
            else o.options[kv.substr(0, eq)] = v;
        } else if (a == "--turn-seconds") o.turn_seconds = static_cast<int>(number(a, value(), 0, 3600));
        else if (a == "--server-bots") o.server_bots = static_cast<int>(number(a, value(), 0, 9));
        else if (a == "--server-bot-level") {
            o.server_bot_level = value();
            if (!parse_bot_level(o.server_bot_level)) usage_error("--server-bot-level expects random, basic or strong");
        } else if (a == "--games") o.games = static_cast<int>(number(a, value(), 1, 1000000));
        else if (a == "--timeout-seconds") o.timeout_seconds = static_cast<int>(number(a, value(), 0, 86400 * 7));
        else if (a == "--quiet") o.quiet = true;
        else usage_error("unexpected argument '" + a + "'");
    }
    if (o.table.empty() == o.create.empty()) usage_error("give either --table or --create");
    return o;
}

class Connection {
public:
    Connection(const std::string& host, const std::string& port) : ws_(io_) {
        tcp::resolver resolver(io_);
        net::connect(ws_.next_layer(), resolver.resolve(host, port));
        ws_.handshake(host + ":" + port, "/ws");
        ws_.text(true);
    }
    void send(const json& j) { ws_.write(net::buffer(j.dump())); }
    json receive() {
        buffer_.consume(buffer_.size());
        ws_.read(buffer_);
        return json::parse(beast::buffers_to_string(buffer_.data()));
    }
    void close() {
        beast::error_code ignored;
        ws_.close(websocket::close_code::normal, ignored);
    }

private:
    net::io_context io_;
    websocket::stream<tcp::socket> ws_;
    beast::flat_buffer buffer_;
};

// Reads until the reply to request `id`; every other message goes to the player first.
json reply_to(Connection& c, botclient::SeatPlayer& player, const std::string& id) {
    for (;;) {
        const json m = c.receive();
        for (const json& out : player.on_message(m)) c.send(out);
        if ((m.value("type", "") == "ok" || m.value("type", "") == "error") && m.contains("id") && m["id"] == id)
            return m;
    }
}

json expect_ok(Connection& c, botclient::SeatPlayer& player, const json& request) {
    c.send(request);
    json r = reply_to(c, player, request.at("id").get<std::string>());
    if (r.value("type", "") != "ok") {
        std::cerr << "sparts-bot: " << request.value("type", "") << " refused: " << r.dump() << "\n";
        std::exit(4);
    }
    return r;
}

}  // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);
    if (o.timeout_seconds > 0) {
        std::thread([t = o.timeout_seconds] {
            std::this_thread::sleep_for(std::chrono::seconds(t));
            std::cerr << "sparts-bot: gave up after " << t << " s\n";
            std::_Exit(3);
        }).detach();
    }
    try {
        Connection c(o.host, o.port);
        botclient::SeatPlayer player(o.level, o.bot, o.seed);
        expect_ok(c, player, {{"type", "hello"}, {"id", "hello"}, {"protocol", 1}, {"name", o.name}});
        std::string table = o.table;
        if (!o.create.empty()) {
            json create = {{"type", "create_table"}, {"id", "create"}, {"ruleset", {{"preset", o.create}}}};
            if (!o.options.empty()) create["ruleset"]["options"] = o.options;
            if (o.turn_seconds) create["turn_seconds"] = *o.turn_seconds;
            table = expect_ok(c, player, create).at("table").get<std::string>();
        }
        player.set_table(table);
        json sit = {{"type", "sit"}, {"id", "sit"}, {"table", table}};
        if (o.seat) sit["seat"] = *o.seat;
        if (!o.invite.empty()) sit["invite"] = o.invite;
        // A table another program is creating may not be there yet: try for a few seconds.
        json seated;
        for (int attempt = 0;; ++attempt) {
            c.send(sit);
            seated = reply_to(c, player, "sit");
            if (seated.value("type", "") == "ok") break;
            if (seated.value("code", "") != "no_such_table" || attempt >= 50) {
                std::cerr << "sparts-bot: sit refused: " << seated.dump() << "\n";
                return 4;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        if (!o.quiet)
            std::printf("sparts-bot: %s at table %s seat %d\n", to_string(o.level), table.c_str(),
                        seated.value("seat", -1));
        if (!o.create.empty()) {
            int added = 0;
            for (int i = 0; i < 9 && (!o.server_bots || added < *o.server_bots); ++i) {
                c.send({{"type", "add_bot"}, {"id", "bot" + std::to_string(i)}, {"table", table},
                        {"level", o.server_bot_level}});
                const json r = reply_to(c, player, "bot" + std::to_string(i));
                if (r.value("type", "") != "ok") break;  // table_full
                ++added;
            }
        }
        if (!o.create.empty() || o.start) {
            c.send({{"type", "start"}, {"id", "start"}, {"table", table}});
            const json r = reply_to(c, player, "start");
            // Seats still empty (--server-bots left some for other players): whoever fills them starts.
            const std::string code = r.value("code", "");
            if (r.value("type", "") != "ok" && code != "already_started" && code != "seats_not_full") {
                std::cerr << "sparts-bot: start refused: " << r.dump() << "\n";
                return 4;
            }
        }
        int reported = 0;
        while (player.games_over() < o.games) {
            const json m = c.receive();
            for (const json& out : player.on_message(m)) c.send(out);
            if (player.games_over() > reported) {
                reported = player.games_over();
                if (!o.quiet) {
                    const json& over = player.last_game_over();
                    std::printf("game %d over (%s, %d hands): scores %s, ranks %s; %d decisions\n", reported,
                                over.value("reason", "?").c_str(), over.value("hands_played", 0),
                                over.value("scores", json::array()).dump().c_str(),
                                over.value("ranks", json::array()).dump().c_str(), player.decisions());
                    std::fflush(stdout);
                }
                if (reported < o.games) c.send({{"type", "again"}, {"id", "again"}, {"table", table}});
            }
        }
        c.send({{"type", "leave"}, {"id", "leave"}, {"table", table}});
        c.close();
        if (player.refused() > 0) {
            std::cerr << "sparts-bot: the server refused " << player.refused()
                      << " of the bot's moves; the last: " << player.last_refusal() << "\n";
            return 1;
        }
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "sparts-bot: " << e.what() << "\n";
        return 4;
    }
}
