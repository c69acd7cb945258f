#include "cluster_play.hpp"

#include <chrono>
#include <stdexcept>
#include <thread>

namespace sparts::e2e {

TestClient::Connect at_table(const std::string& table) {
    TestClient::Connect how;
    how.path = "/ws?table=" + table;
    return how;
}

std::vector<Bot*> all_bots(std::vector<PlayedTable>& tables) {
    std::vector<Bot*> out;
    for (auto& t : tables)
        for (auto& s : t.seats) out.push_back(s.bot.get());
    return out;
}

// `count` tables of four, each client on its table's own URL, every game started.
std::vector<PlayedTable> set_up(EventLoop& loop, std::uint16_t port, const std::string& label, int count,
                                const json& ruleset_options) {
    TestClient creator(loop, port, label + "-creator");
    if (creator.hello("creator").value("type", "") != "ok") throw std::runtime_error("the creator's hello was refused");
    std::vector<PlayedTable> tables(static_cast<std::size_t>(count));
    for (int t = 0; t < count; ++t)
        tables[static_cast<std::size_t>(t)].id =
            creator.request_ok(create_table("spades", ruleset_options)).at("table").get<std::string>();
    // Every client says hello and sits at once; the replies are awaited after (a table that
    // hashes to another node than its creator's moves there first, a second or so).
    for (auto& t : tables)
        for (int s = 0; s < 4; ++s) {
            Seat seat;
            // The frame logs are named by label: each test (a process of its own) labels its clients apart.
            seat.name = label + "-" + t.id + "-s" + std::to_string(s);
            seat.client = std::make_unique<TestClient>(loop, port, seat.name, at_table(t.id));
            seat.client->send({{"type", "hello"}, {"id", 1}, {"protocol", 1}, {"name", seat.name}});
            seat.client->send({{"type", "sit"}, {"id", 2}, {"table", t.id}, {"seat", s}});
            t.seats.push_back(std::move(seat));
        }
    for (auto& t : tables)
        for (auto& seat : t.seats) {
            const json hello = seat.client->wait_for([](const json& f) { return is_reply_to(f, "hello"); }, "hello");
            if (hello.value("type", "") != "ok") throw std::runtime_error("hello refused: " + hello.dump());
            seat.token = hello.at("token").get<std::string>();
            const json sat = seat.client->wait_for([](const json& f) { return is_reply_to(f, "sit"); }, "sit", Millis(60'000));
            if (sat.value("type", "") != "ok") throw std::runtime_error("sit refused: " + sat.dump());
        }
    for (auto& t : tables) {
        for (int s = 0; s < 4; ++s)
            t.seats[static_cast<std::size_t>(s)].bot =
                std::make_unique<Bot>(*t.seats[static_cast<std::size_t>(s)].client, t.id, s, 7000 + static_cast<std::uint64_t>(s));
        t.seats[0].client->request_ok({{"type", "start"}, {"table", t.id}});
    }
    return tables;
}

// The seat's client reconnects through the proxy, says hello with its token and resumes
// from its last seq; a new bot goes on from what the old one knew (and waits when it would).
void reconnect(EventLoop& loop, std::uint16_t port, PlayedTable& t, int s) {
    Seat& seat = t.seats[static_cast<std::size_t>(s)];

    seat.bot->step();
    collect({seat.bot.get()}, t.told);
    const std::optional<std::uint64_t> last = seat.bot->last_seq;
    const auto hand = seat.bot->hand;
    const int trick_cards = seat.bot->trick_cards;
    const int hands_started = seat.bot->hands_started;
    const int games_over = seat.bot->games_over;
    auto problems = seat.bot->problems;
    auto pause_when = seat.bot->pause_when;
    seat.bot.reset();
    // A node that is going away may still take the connection and close it (1001), or say the
    // table moved (4005): the client tries again, through the proxy, as a real client would.
    std::string why;
    for (int attempt = 1;; ++attempt) {
        if (attempt > 50) throw std::runtime_error("cannot resume " + seat.name + ": " + why);
        try {
            seat.client = std::make_unique<TestClient>(loop, port, seat.name + "-again", at_table(t.id));
            const json hello = seat.client->hello(seat.name, seat.token);
            if (hello.value("type", "") != "ok") throw std::runtime_error(hello.dump());
            const json resumed =
                seat.client->request({{"type", "resume"}, {"table", t.id}, {"seq", last.value_or(0)}}, Millis(60'000));
            if (resumed.value("type", "") != "ok") throw std::runtime_error(resumed.dump());
            if (resumed.at("seat") != s) throw std::runtime_error("resumed at another seat: " + resumed.dump());
            break;
        } catch (const std::exception& e) {
            why = e.what();
            std::this_thread::sleep_for(Millis(100));
        }
    }
    seat.bot = std::make_unique<Bot>(*seat.client, t.id, s, 9000 + static_cast<std::uint64_t>(s + 10 * t.reconnects));
    seat.bot->last_seq = last;
    seat.bot->hand = hand;
    seat.bot->trick_cards = trick_cards;
    seat.bot->hands_started = hands_started;
    seat.bot->games_over = games_over;
    seat.bot->problems = std::move(problems);
    seat.bot->pause_when = std::move(pause_when);
    ++t.reconnects;
}

// Plays every table until `done()` (by default: each seat has seen its game end), reconnecting
// every client whose connection closes; the time from `since` to the last reconnection, in ms.
long long play(EventLoop& loop, std::uint16_t port, std::vector<PlayedTable>& tables, Clock::time_point since,
               const std::function<bool()>& done, Millis timeout) {
    const auto deadline = Clock::now() + timeout;
    long long last_back = 0;
    for (;;) {
        bool all_over = true;
        for (auto& t : tables)
            for (int s = 0; s < 4; ++s) {
                Seat& seat = t.seats[static_cast<std::size_t>(s)];
                if (seat.client->closed() && seat.bot->games_over == 0) {
                    reconnect(loop, port, t, s);
                    last_back = std::chrono::duration_cast<Millis>(Clock::now() - since).count();
                }
                seat.bot->step();
                if (seat.bot->games_over == 0) all_over = false;
            }
        if (done ? done() : all_over) return last_back;
        if (Clock::now() > deadline) {
            std::string where;
            for (auto& t : tables)
                where += t.id + ": hands " + std::to_string(t.seats[0].bot->hands_started) + ", over " +
                         std::to_string(t.seats[0].bot->games_over) + "; ";
            throw std::runtime_error("the games did not get there in time: " + where);
        }
        loop.run_one(Clock::now() + Millis(20));
    }
}

// The node holding the most tables now (its leases in the database).
int busiest_node(const Cluster& cluster) {
    const std::string node = cluster.database().query(
        "SELECT node FROM leases WHERE node <> '' GROUP BY node ORDER BY count(*) DESC, node LIMIT 1");
    if (node.empty()) throw std::runtime_error("no node holds a table");
    return std::stoi(node.substr(1));
}

int actions_of(std::vector<PlayedTable>& tables) {
    int n = 0;
    for (Bot* b : all_bots(tables)) n += b->actions;
    return n;
}


}  // namespace sparts::e2e
