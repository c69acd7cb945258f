// Quick play under a storm: N players (2,000 by default) connect and say hello,
// then all press quick play for the same game within one second. Prints, for
// each player, the time from its request to its quick_play_matched frame, as
// p50, p99 and max; and checks that every table quick play made is whole (each
// seat taken once, nobody seated twice).
//
// usage: quick_play_storm [--players N] [--preset spades] [--spread-ms 1000]
// (starts its own sparts-server, --database none)
#include <sys/resource.h>

#include <algorithm>
#include <iostream>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>
#include "test_client.hpp"
#include "test_server.hpp"

using namespace sparts::e2e;

int main(int argc, char** argv) {
    int players = 2000, spread_ms = 1000;
    std::string preset = "spades";
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--players") players = std::stoi(argv[i + 1]);
        else if (flag == "--spread-ms") spread_ms = std::stoi(argv[i + 1]);
        else if (flag == "--preset") preset = argv[i + 1];
        else {
            std::cerr << "usage: quick_play_storm [--players N] [--preset P] [--spread-ms MS]\n";
            return 2;
        }
    }
    // Both ends of every connection are on this machine: room for them (the server inherits it).
    rlimit files{};
    getrlimit(RLIMIT_NOFILE, &files);
    files.rlim_cur = files.rlim_max;
    setrlimit(RLIMIT_NOFILE, &files);
    try {
        TestServer server({"--database", "none", "--messages-per-second", "100000", "--connections-per-address", "100000",
                           "--max-connections", "100000", "--players-per-address-per-minute", "100000", "--max-tables",
                           "100000", "--log-level", "warn"});
        EventLoop loop;
        std::vector<std::unique_ptr<TestClient>> clients;
        for (int i = 0; i < players; ++i) {
            clients.push_back(std::make_unique<TestClient>(loop, server.port(), "storm-" + std::to_string(i)));
            if (clients.back()->hello("storm " + std::to_string(i)).value("type", "") != "ok")
                throw std::runtime_error("a hello was refused");
        }
        std::cout << players << " players connected; quick play for " << preset << " within " << spread_ms << " ms\n";
        const json request = {{"type", "quick_play"}, {"preset", preset}};
        std::vector<Clock::time_point> asked(clients.size());
        std::vector<Clock::time_point> seated(clients.size());
        std::vector<std::pair<std::string, int>> where(clients.size());
        std::size_t done = 0;
        std::vector<bool> matched(clients.size(), false);
        // Takes every frame the clients have read; a quick_play_matched is stamped as it is seen.
        const auto collect = [&](std::size_t upto) {
            for (std::size_t i = 0; i < upto; ++i) {
                if (matched[i]) continue;
                while (auto f = clients[i]->poll()) {
                    if (f->value("type", "") != "quick_play_matched") continue;
                    matched[i] = true;
                    seated[i] = Clock::now();
                    where[i] = {f->at("table").get<std::string>(), f->at("seat").get<int>()};
                    ++done;
                    break;
                }
            }
        };
        const auto start = Clock::now();
        for (std::size_t i = 0; i < clients.size(); ++i) {
            // Spread evenly over the second, as people pressing a button would; reading meanwhile.
            const auto at = start + Millis(static_cast<long long>(spread_ms) * static_cast<long long>(i) /
                                           static_cast<long long>(clients.size()));
            while (Clock::now() < at) {
                loop.run_one(at);
                collect(i);
            }
            asked[i] = Clock::now();
            clients[i]->send(request);
        }
        const auto deadline = Clock::now() + std::chrono::seconds(120);
        while (done < clients.size()) {
            if (Clock::now() > deadline) throw std::runtime_error("not everyone was seated in two minutes");
            loop.run_one(Clock::now() + Millis(50));
            collect(clients.size());
        }
        std::vector<double> ms;
        for (std::size_t i = 0; i < clients.size(); ++i)
            ms.push_back(std::chrono::duration<double, std::milli>(seated[i] - asked[i]).count());
        std::sort(ms.begin(), ms.end());
        const auto at = [&](double q) { return ms[std::min(ms.size() - 1, static_cast<std::size_t>(q * static_cast<double>(ms.size())))]; };
        std::map<std::string, std::set<int>> tables;
        bool whole = true;
        for (const auto& [table, seat] : where) whole &= tables[table].insert(seat).second;
        for (const auto& [table, seats] : tables) whole &= seats.size() == 4 || preset != "spades";
        const double last = std::chrono::duration<double, std::milli>(*std::max_element(seated.begin(), seated.end()) - start).count();
        std::printf("request to seated: p50 %.1f ms, p99 %.1f ms, max %.1f ms; the last seated %.0f ms after the first request\n",
                    at(0.5), at(0.99), ms.back(), last);
        std::printf("%zu tables made for %d players: %s\n", tables.size(), players,
                    whole ? "every one whole, nobody seated twice" : "NOT WHOLE");
        return whole ? 0 : 1;
    } catch (const std::exception& e) {
        std::cerr << "quick_play_storm: " << e.what() << "\n";
        return 1;
    }
}
