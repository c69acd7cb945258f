// Tables of clients playing through a cluster's proxy (cluster.hpp), as the
// cluster tests and the failover benchmark (bench/cluster_failover.cpp) play
// them: four clients a table, each on its table's own URL (/ws?table=ID),
// each client reconnecting through the proxy and resuming by token and last
// seq whenever its connection closes, as a real client does. Failures throw.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>
#include "cluster.hpp"
#include "test_client.hpp"

namespace sparts::e2e {

// One seat's client and the bot that plays through it; replaced when the client reconnects.
struct Seat {
    std::unique_ptr<TestClient> client;
    std::unique_ptr<Bot> bot;
    std::string token;
    std::string name;
};

struct PlayedTable {
    std::string id;
    std::vector<Seat> seats;
    std::map<std::uint64_t, json> told;  // every event any of its clients was shown, across reconnections
    int reconnects = 0;
};

TestClient::Connect at_table(const std::string& table);
std::vector<Bot*> all_bots(std::vector<PlayedTable>& tables);
// `count` Spades tables of four with these options, each client on its table's own URL, every game
// started. `label` starts every client's label (its frame log's name): one of its own per test.
std::vector<PlayedTable> set_up(EventLoop& loop, std::uint16_t port, const std::string& label, int count,
                                const json& ruleset_options);
// The seat's client reconnects through the proxy, says hello with its token and resumes from its
// last seq; a new bot goes on from what the old one knew. Tries again (50 times) while nodes come and go.
void reconnect(EventLoop& loop, std::uint16_t port, PlayedTable& t, int s);
// Plays every table until `done()` (by default: each seat has seen its game end), reconnecting
// every client whose connection closes; the time from `since` to the last reconnection, in ms.
long long play(EventLoop& loop, std::uint16_t port, std::vector<PlayedTable>& tables, Clock::time_point since,
               const std::function<bool()>& done = {}, Millis timeout = Millis(240'000));
// The node holding the most tables now (its leases in the database).
int busiest_node(const Cluster& cluster);
int actions_of(std::vector<PlayedTable>& tables);

}  // namespace sparts::e2e
