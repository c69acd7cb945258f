// An archived game played back to one connection, at a chosen speed, with
// pause, step and seek (to any event, hand or trick). Lives on its
// connection's strand.
//
// Frames: {"type":"replay_event","table","game","position","seq","event"} for
// each event in turn (secret cards included: the game is over), and after a
// seek {"type":"replay_state","position","hands":[cards per seat],"view":{...}}:
// the table as it stood before the event at `position`, rebuilt by playing the
// game's actions through the engine. {"type":"replay_ended"} after the last event.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <nlohmann/json.hpp>
#include "engine/ruleset.hpp"
#include "protocol/outcome.hpp"
#include "storage/records.hpp"
#include "server/net/connection.hpp"

namespace sparts::server {

class Connection;

class Replay : public std::enable_shared_from_this<Replay> {
public:
    static Outcome<std::shared_ptr<Replay>, std::string> open(std::shared_ptr<const storage::ArchivedGame> game,
                                                               boost::asio::any_io_executor executor,
                                                               std::weak_ptr<Connection> session);

    // Hands and tricks by position, for the client's seek bar.
    nlohmann::json outline() const;
    void play(double speed);
    void pause();
    void step();
    // An error message, or empty when done.
    std::string seek(std::optional<int> position, std::optional<int> hand, std::optional<int> trick);
    // Thread-safe (the others run on the connection's strand): pauses it there.
    void stop();

private:
    Replay(std::shared_ptr<const storage::ArchivedGame> game, Ruleset rules, boost::asio::any_io_executor executor,
           std::weak_ptr<Connection> session);
    void send(std::string text);
    void send_event();
    void arm();
    nlohmann::json state_at(std::size_t position) const;

    std::shared_ptr<const storage::ArchivedGame> game_;
    Ruleset rules_;
    std::vector<nlohmann::json> events_;
    std::vector<std::size_t> hand_starts_;                 // positions of hand_started
    std::vector<std::vector<std::size_t>> trick_starts_;   // per hand, positions of each trick's first card
    boost::asio::steady_timer timer_;
    std::weak_ptr<Connection> session_;
    std::size_t position_ = 0;
    double speed_ = 0;
    bool playing_ = false;
    std::uint64_t generation_ = 0;
};

}  // namespace sparts::server
