// Failover figures of a cluster: PostgreSQL, HAProxy and three sparts-server
// nodes, real processes on loopback (tests/server/cluster.hpp). Tables of
// clients play through HAProxy; the node holding the most tables is killed
// with SIGKILL, its clients reconnect through HAProxy and resume on the
// others; the figure of a kill is the time from the SIGKILL to the last of
// them playing again (its resume answered). The node is started again and
// the next kill follows. Prints each kill's figure, then p50 and max.
//
// usage: cluster_failover [--kills N] [--tables T] [--lease-ms MS]
// (a PostgreSQL of its own is started in a temporary folder unless
// SPARTS_TEST_POSTGRES names a running one; haproxy must be on PATH)
#include <algorithm>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <string>
#include <thread>
#include <vector>
#include "cluster.hpp"
#include "cluster_play.hpp"

using namespace sparts::e2e;

int main(int argc, char** argv) {
    int kills = 10, table_count = 40, lease_ms = 3000;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        const int value = std::stoi(argv[i + 1]);
        if (flag == "--kills") kills = value;
        else if (flag == "--tables") table_count = value;
        else if (flag == "--lease-ms") lease_ms = value;
        else {
            std::cerr << "usage: cluster_failover [--kills N] [--tables T] [--lease-ms MS]\n";
            return 2;
        }
    }
    try {
        Cluster cluster({.nodes = 3,
                         .lease_ms = lease_ms,
                         .node_flags = {"--tables-per-player", "100000", "--connections-per-address", "100000",
                                        "--log-level", "warn"}});
        EventLoop loop;
        std::vector<long long> figures;
        // Long games (to 10,000 points, a hand cap of 100): the kills fall mid-game, one after another.
        std::vector<PlayedTable> tables =
            set_up(loop, cluster.port(), "failover", table_count, {{"target_score", 10000}, {"hand_cap", 100}});
        for (int k = 1; k <= kills; ++k) {
            const int before = actions_of(tables);
            play(loop, cluster.port(), tables, Clock::now(), [&] { return actions_of(tables) > before + table_count * 10; });
            const int victim = busiest_node(cluster);
            const auto killed = Clock::now();
            if (!cluster.node(victim).stop(SIGKILL, Millis(10'000))) throw std::runtime_error("the node did not die");
            std::vector<int> reconnects_before;
            for (const auto& t : tables) reconnects_before.push_back(t.reconnects);
            // Until every client of the dead node's tables is back (its connection closed, then resumed).
            const long long back = play(loop, cluster.port(), tables, killed, [&] {
                for (std::size_t i = 0; i < tables.size(); ++i)
                    for (const auto& s : tables[i].seats)
                        if (s.client->closed()) return false;
                return Clock::now() - killed > Millis(lease_ms + 3000);
            });
            int moved = 0;
            for (std::size_t i = 0; i < tables.size(); ++i) moved += tables[i].reconnects > reconnects_before[i];
            figures.push_back(back);
            std::printf("kill %d: node n%d, %d tables moved, last client playing again %lld ms after SIGKILL\n", k, victim,
                        moved, back);
            std::fflush(stdout);
            cluster.start(victim);
        }
        std::sort(figures.begin(), figures.end());
        std::printf("failover over %d kills (lease %d ms, %d tables): p50 %lld ms, max %lld ms\n", kills, lease_ms,
                    table_count, figures[figures.size() / 2], figures.back());
    } catch (const std::exception& e) {
        std::cerr << "cluster_failover: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
