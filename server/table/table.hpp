// One card table: its seats, its spectators, the game in play, and the
// numbered stream of events they all receive. Everything here runs on the
// table's own strand; public methods post there, and the engine's apply()
// is only ever called from it.
//
// Each event gets the table's next `seq` and is rendered once per audience
// (protocol/event_json.hpp): a public event is serialized once and shared by
// every connection; a secret one (a deal, a pass, a secret bid, the center)
// once per seat, stripped for everyone but its owner. Every audience gets
// every seq, so a gap always means a missed frame. The events since the
// current hand began are kept so that a returning client gets exactly what it
// missed; from further back it gets a snapshot of its view.
//
// Nothing leaves the table before it is stored: every handler builds one
// Step (the frames to send, and the writes that make them durable); the step
// goes to the store, and its frames are sent once the store has committed it,
// steps always in order. Without a store, steps go out at once.
//
// Timers: each seat on turn has the table's turn time limit; when it runs out
// the server plays the seat's move with a bot (--absent-bot-level) and says so
// (turn_timed_out); after absent_after_missed_turns in a row the seat is
// marked absent and played by that bot until its holder acts or comes back.
//
// Bots (bots/bot.hpp): the table keeps every seat's BotMemory, fed from the
// events it publishes, so a bot can take any seat over at any moment. random
// and basic decide on the strand; a strong decision runs off the strand on the
// bots' own thread pool (Hub::bots, never the I/O threads) from copies of the
// seat's view, memory and generator, and its result is applied back on the
// strand only if that seat's turn has not moved on meanwhile. WorldWinner's
// game clock runs here too. A table with no human connected is closed after the
// grace period.
//
// Table chat (table_chat.hpp) goes beside the numbered stream, not in it, and
// is never stored: each line reaches only those who may read it.
#pragma once
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>
#include <functional>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <nlohmann/json.hpp>
#include "bots/bot.hpp"
#include "engine/game.hpp"
#include "engine/rng.hpp"
#include "protocol/request.hpp"
#include "server/net/hub.hpp"
#include "server/base/player.hpp"
#include "server/net/connection.hpp"
#include "server/table/table_watcher.hpp"
#include "server/table/table_chat.hpp"
#include "server/table/table_history.hpp"
#include "server/table/table_summary.hpp"
#include "server/base/vector_queue.hpp"
#include "storage/game_tally.hpp"
#include "storage/records.hpp"

namespace sparts::server {

// The wall clock in milliseconds since 1970, as the store keeps a step's time.
storage::Millis wall_now();

class Table final : public Followed, public std::enable_shared_from_this<Table> {
public:
    using Clock = std::chrono::steady_clock;
    // `watcher` (the lobby) hears of every change to what it lists of the table and of its end.
    Table(Hub& hub, TableWatcher& watcher, std::string id, std::int64_t number, Ruleset rules, bool is_private, std::string invite,
          int turn_seconds, std::string creator);
    // A table that was open when the server stopped, rebuilt by replaying its
    // game's actions through the engine; or why it cannot be.
    static Outcome<std::shared_ptr<Table>, std::string> recover(Hub& hub, TableWatcher& watcher,
                                                               const storage::OpenTableState& stored);

    // The first step of a new table: its row in the store. `done` runs once it is committed.
    storage::OpenTable record() const;

    const std::string& id() const override { return id_; }
    const TableSummary& initial_summary() const { return initial_summary_; }

    void request(std::shared_ptr<Connection> session, PlayerRef player, Request request);
    // Quick play: `players` take seats 0, 1, … and bots the rest, and the game starts, in one
    // step; each player is then told (quick_play_matched) and sent its snapshot and turn.
    void seat_matched(std::vector<std::pair<std::shared_ptr<Connection>, PlayerRef>> players);
    // A connection following this table went away.
    void connections_changed() override;
    void start_grace();
    void close(std::string reason);

    // Many nodes (server/README.md). Lets the table go to another node: its steps so far
    // are committed and sent, its lease released, then every connection following it is
    // told (closing, reason "moved") and closed with 4005, for its client to reconnect
    // through the proxy to the node that takes it next. `done` runs once it is released.
    void hand_off(std::function<void()> done);
    // Another node holds the table now (this one paused past its lease, or cut off):
    // nothing more of it is stored or sent; its connections are closed as by hand_off.
    void lost();

    // The admin API (table_admin.cpp); each answered through `done` from the table's strand.
    struct AdminView {
        nlohmann::json info;  // as GET /admin/tables lists the table
        std::vector<std::pair<std::uint64_t, int>> followers;  // connection serial, seat (-1: watching)
    };
    // Nothing once the table is closed.
    void admin_view(std::function<void(std::optional<AdminView>)> done);
    // Closes the table as an abandoned one is closed, with reason closed_by_admin; false if it was closed.
    void admin_close(std::function<void(bool)> done);
    // `player` loses its seat (seat_left, reason removed_by_admin; mid-game a bot takes the seat as
    // when a player leaves) and may not sit at this table again while it is open. The seat, or
    // -1 when the player holds none here, or -2 when the table is closed.
    void admin_remove(std::string player, std::function<void(int seat, bool bot)> done);

private:
    struct SeatState {
        std::string player;  // player id; empty: nobody
        std::string name;
        bool bot = false;    // a server bot holds the seat
        BotLevel level = BotLevel::basic;  // the bot's level (an add_bot seat)
        bool absent = false; // its holder missed too many turns: played at once until back
        bool again = false;  // asked for another game
        int missed = 0;      // turns timed out in a row
        std::weak_ptr<Connection> session;
        bool empty() const { return player.empty() && !bot; }
        bool human() const { return !player.empty(); }
    };
    // One numbered event as each audience sees it. `per_seat` is empty when
    // every audience sees the same thing.
    struct Entry {
        std::uint64_t seq;
        Frame everyone;
        std::vector<Frame> per_seat;
    };
    // What one handler sends, and what must be stored before it is sent.
    struct Step {
        std::uint64_t id = 0;
        Clock::time_point acted{};      // when the act behind it arrived (for the latency histogram)
        Clock::time_point submitted{};  // when it went to the store
        std::vector<std::pair<std::shared_ptr<Connection>, Frame>> sends;
        storage::Batch batch;
        std::string webhook;  // a finished game's summary, for the host once the step is committed
        int webhook_game = 0;  // ...the game it is of
        bool ready = false;
    };

    void send(const std::shared_ptr<Connection>& s, std::string text);
    void send(const std::shared_ptr<Connection>& s, Frame frame);
    void store(storage::Write w);
    void end_step();
    void step_committed(std::uint64_t id);
    void drain();
    void store_seat(int seat);

    void on_sit(const std::shared_ptr<Connection>& s, const PlayerRef& p, const Request& r);
    void on_leave(const std::shared_ptr<Connection>& s, const PlayerRef& p, const Request& r);
    void on_watch(const std::shared_ptr<Connection>& s, const PlayerRef& p, const Request& r);
    void on_add_bot(const std::shared_ptr<Connection>& s, const PlayerRef& p, const Request& r);
    void on_start(const std::shared_ptr<Connection>& s, const PlayerRef& p, const Request& r);
    void on_again(const std::shared_ptr<Connection>& s, const PlayerRef& p, const Request& r);
    void on_act(const std::shared_ptr<Connection>& s, const PlayerRef& p, const Request& r);
    void on_resume(const std::shared_ptr<Connection>& s, const PlayerRef& p, const Request& r);
    void on_chat(const std::shared_ptr<Connection>& s, const PlayerRef& p, const Request& r);
    void on_mute(const std::shared_ptr<Connection>& s, const PlayerRef& p, const Request& r);

    int seat_of(const std::string& player) const;
    bool is_spectator(const Connection& s) const;
    void remove_spectator(const Connection& s);
    void send_snapshot(const std::shared_ptr<Connection>& s, int seat);
    // Chat (table_chat.hpp): who `player` reads as, and the kept lines it may see.
    ChatReader chat_reader(const std::string& player) const;
    void send_chat_history(const std::shared_ptr<Connection>& s, const std::string& player);
    // The finished game's seed (as a decimal string: JSON numbers lose 64-bit integers), salt and commitment.
    nlohmann::json deal_json() const;
    // What the game-over webhook tells the host of a finished game (server/README.md).
    std::string webhook_summary(const nlohmann::json& result) const;
    void new_game();
    void apply(Seat seat, const Action& action);
    void publish(std::span<const Event> events, std::optional<std::pair<Seat, Action>> cause);
    void publish_table_event(nlohmann::json event);
    void deliver(const Entry& e);
    // Tells each seat that may act now what it may do (your_turn).
    void prompt();
    void prompt_seat(const std::shared_ptr<Connection>& s, int seat);
    // `e`, numbered `seq`, rendered once per audience: live, and again for a returning client.
    Entry rendered(const Event& e, std::uint64_t seq) const;
    // The frame of an entry `seat` gets (-1: a spectator).
    static const Frame& seen_by(const Entry& e, int seat);
    void on_game_over(const GameOver& over, const std::string& over_json);
    void schedule();
    void on_turn_timeout(std::uint64_t generation);
    void on_bot_turn(std::uint64_t generation);
    // Bots.
    void reset_bots(std::uint64_t seed);
    BotLevel level_of(int seat) const;
    // Plays seat `s`'s move with its bot: true when applied now, false when a
    // strong bot went thinking off the strand (on_bot_decided finishes it).
    bool play_bot(Seat s, bool may_think_off_strand);
    void on_bot_decided(std::uint64_t think, Seat s, int game, std::size_t seat_actions, Action a, Rng rng);
    std::size_t actions_by(Seat s) const;
    void on_clock(std::uint64_t generation);
    void on_grace(std::uint64_t generation);
    void stop_timers();
    void moved_away();
    void check_grace();
    void returned(int seat);
    void summary_changed();
    TableSummary summary() const;
    std::string state_name() const;

    Hub& hub_;
    TableWatcher& watcher_;
    boost::asio::strand<boost::asio::io_context::executor_type> strand_;
    const std::string id_;
    const std::int64_t number_;
    const Ruleset rules_;
    const bool is_private_;
    const std::string invite_;
    const int turn_seconds_;
    const std::string creator_;
    TableSummary initial_summary_;

    std::array<SeatState, kMaxSeats> seats_{};
    std::vector<std::weak_ptr<Connection>> spectators_;
    std::optional<Game> game_;
    int game_number_ = 0;
    std::string deal_salt_;  // the current game's (deal_commitment.hpp); empty for a game older than commitments
    // Actions each seat took this game: a bot that thought off the strand checks nothing moved
    // meanwhile. (The whole list was kept for this, 40 bytes an action: most of a table's memory
    // in a long game.)
    std::array<std::uint32_t, kMaxSeats> seat_actions_{};
    // Who has held which seat during this game: a person who has seen one
    // seat's hand may take no other seat of the same game (see on_sit).
    std::vector<std::pair<std::string, int>> holders_;
    // Players the admin API removed: they may not sit here again (in memory: a restart forgets).
    std::vector<std::string> removed_;
    int held_seat(const std::string& player) const;  // -1: none this game
    void note_holders();
    Rng rng_;
    std::uint64_t seq_ = 0;
    // What a returning client may have missed, since the current hand was dealt.
    TableHistory history_;
    // The chat, outside the seq stream and the store (table_chat.hpp says why).
    TableChat chat_{hub_.config.chat_history};
    int hand_scored_sides_ = 0;
    std::array<std::uint16_t, kMaxSeats> side_seats_{};
    bool closed_ = false;
    bool moved_ = false;  // handed off or lost: another node has it (closed_ too)
    Step step_;
    VectorQueue<Step> steps_;  // waiting for their commit, in order
    std::uint64_t next_step_ = 1;
    storage::Millis now_ = 0;  // the current step's time
    storage::GameTally tally_;  // the game's ratings and statistics, handed to the store at its end
    enum class Reported { none, waiting, playing, over } reported_ = Reported::none;  // in the metrics' gauges
    void report_state(Reported state);

    boost::asio::steady_timer turn_timer_;
    boost::asio::steady_timer bot_timer_;
    boost::asio::steady_timer clock_timer_;
    boost::asio::steady_timer grace_timer_;
    std::uint64_t turn_generation_ = 0, bot_generation_ = 0, clock_generation_ = 0, grace_generation_ = 0;
    std::uint16_t turn_mask_ = 0;  // the seats the turn timer runs for
    bool bot_armed_ = false;
    std::vector<BotMemory> memories_;  // every seat's, this game
    std::vector<Rng> bot_rngs_;        // every seat's bot generator, this game
    bool bot_thinking_ = false;        // a strong decision is under way off the strand
    std::uint64_t bot_think_ = 0;      // which one (a later one supersedes it)
    bool grace_armed_ = false;
    std::chrono::steady_clock::time_point turn_deadline_{};
    std::chrono::steady_clock::time_point clock_deadline_{};
};

}  // namespace sparts::server
