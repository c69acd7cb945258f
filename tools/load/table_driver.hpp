// One table of bots: its clients say hello, the first creates the table, all
// sit, and once told to start they answer every your_turn with a legal action
// (a random card, bid 3 or the middle bid, random passes) until their games
// are done. The table measures its card plays' latency: from the act being
// sent to the moment every seat has read the resulting card_played.
//
// A table's clients, timer and state live on one strand; what the run shares
// across tables is in RunState, as atomics.
#pragma once
#include <atomic>
#include <cstdint>
#include <deque>
#include <mutex>
#include <random>
#include <string>
#include <vector>
#include <boost/asio/steady_timer.hpp>
#include "tools/load/client.hpp"
#include "tools/load/stats.hpp"

namespace sparts::load {

struct RunState {
    // settings
    boost::asio::ip::tcp::endpoint server;
    std::string host;              // the Host header
    bool route_by_table = false;   // each table's clients open /ws?table=load-<n>: a proxy hashes them to one node
    std::string ruleset;           // JSON text: {"preset":...,"options":{...}}
    int seats = 4;
    int think_ms = 0;              // at most one action a table every think_ms (0: flat out)
    int games_per_table = 1;       // 0: until stopped
    std::uint64_t seed = 1;
    // shared progress
    std::atomic<bool> measuring{false};
    std::atomic<bool> stopping{false};
    std::atomic<int> connections{0};       // said hello
    std::atomic<int> connect_failures{0};
    std::atomic<int> tables_seated{0};
    std::atomic<int> tables_failed{0};     // before they were seated
    std::atomic<int> tables_lost{0};       // a connection failed after they were seated
    std::atomic<int> tables_done{0};       // played their games
    std::atomic<std::uint64_t> card_plays{0}, actions{0}, games{0}, errors{0}, frames{0};
    std::atomic<std::uint32_t> interval_max_us{0};  // the slowest card play since the last progress line
    std::mutex error_mutex;
    std::vector<std::string> error_samples;  // the first few
    void error(std::string what);
};

class TableDriver final : public ClientOwner {
public:
    TableDriver(boost::asio::io_context& io, RunState& run, int index);

    // Each posts to the table's strand.
    void connect();  // opens the connections, then hello, create_table, sit
    // Once every table is seated: after `delay`, the first client starts the game.
    void start(Clock::duration delay);

    // Read once the io_context has stopped.
    const Latencies& latencies() const { return latencies_; }

    void on_open(int client) override;
    void on_frame(int client, std::string_view text) override;
    void on_failed(int client, const std::string& what) override;

private:
    enum class Stage { connecting, hello, create, sit, seated, playing, done, failed };
    struct Seat {
        int seat = -1;
        bool deciding = false;  // a your_turn is being answered: later copies are repeats
        int games = 0;          // game_over events seen
    };
    // A card play sent whose card_played some seat has not read yet. Several
    // may be open at once: the next seat can play before the others have read
    // the card before.
    struct PendingPlay {
        int seat = -1;
        std::string card;
        Clock::time_point sent{};
        unsigned seen = 0;  // a bit per client
        Clock::time_point last{};
    };
    struct Queued {
        int client;
        std::string frame;
        int play_seat;  // >= 0: a card play, for the latency
        std::string card;
    };

    void on_event(int client, std::string_view text);
    void on_reply(int client, std::string_view text);
    void on_your_turn(int client, const nlohmann::json& j);
    void queue_action(Queued q);
    void arm_pacing();
    void send_action(Queued q);
    void fail(const std::string& why);

    RunState& run_;
    Strand strand_;
    int index_;
    std::vector<std::unique_ptr<Client>> clients_;
    std::vector<Seat> seats_;
    Stage stage_ = Stage::connecting;
    int count_ = 0;  // clients through the current stage
    std::string table_;
    std::mt19937_64 rng_;
    std::vector<PendingPlay> pending_;  // oldest first
    Latencies latencies_;
    // pacing
    boost::asio::steady_timer timer_;
    bool timer_armed_ = false;
    Clock::time_point next_send_{};
    std::deque<Queued> ready_;
};

}  // namespace sparts::load
