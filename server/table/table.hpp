// One card table on its own strand: the shell around its core (table_core.hpp,
// the rules of play with no socket, thread or clock). Public methods post to
// the strand, hand the core an input with the time it came, and carry out the
// effects the core returns: the step's writes to the store and its frames to
// the connections, the timers, a strong bot's question, the lobby's copy.
//
// Nothing leaves the table before it is stored: each input's step goes to the
// store, and its frames are sent once the store has committed it, steps always
// in order. Without a store, steps go out at once.
//
// A strong bot thinks off the strand on the bots' own thread pool (Hub::bots,
// never the I/O threads), from the copies in the core's question; its answer
// comes back to the strand, where the core applies it only if that seat's turn
// has not moved on meanwhile.
#pragma once
#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include "protocol/request.hpp"
#include "server/base/player.hpp"
#include "server/base/vector_queue.hpp"
#include "server/net/connection.hpp"
#include "server/net/hub.hpp"
#include "server/table/table_core.hpp"
#include "server/table/table_summary.hpp"
#include "server/table/table_watcher.hpp"
#include "storage/records.hpp"

namespace sparts::server {

// The wall clock in milliseconds since 1970, as the store keeps a step's time.
storage::Millis wall_now();

class Table final : public Followed, public std::enable_shared_from_this<Table> {
public:
    using Clock = TableClock;
    using AdminView = TableAdminView;
    // `watcher` (the lobby) hears of every change to what it lists of the table and of its end.
    Table(Hub& hub, TableWatcher& watcher, std::string id, std::int64_t number, Ruleset rules, bool is_private, std::string invite,
          int turn_seconds, std::string creator);
    Table(Hub& hub, TableWatcher& watcher, TableCore core);
    // A table that was open when the server stopped, rebuilt by replaying its
    // game's actions through the engine; or why it cannot be.
    static Outcome<std::shared_ptr<Table>, std::string> recover(Hub& hub, TableWatcher& watcher,
                                                               const storage::OpenTableState& stored);

    // The first step of a new table: its row in the store.
    storage::OpenTable record() const { return core_.record(wall_now()); }

    const std::string& id() const override { return core_.id(); }
    const TableSummary& initial_summary() const { return initial_summary_; }

    void request(std::shared_ptr<Connection> session, PlayerRef player, TableRequest request);
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
    // Nothing once the table is closed.
    void admin_view(std::function<void(std::optional<AdminView>)> done);
    // Closes the table as an abandoned one is closed, with reason closed_by_admin; false if it was closed.
    void admin_close(std::function<void(bool)> done);
    // `player` loses its seat (seat_left, reason removed_by_admin; mid-game a bot takes the seat as
    // when a player leaves) and may not sit at this table again while it is open. The seat, or
    // -1 when the player holds none here, or -2 when the table is closed.
    void admin_remove(std::string player, std::function<void(int seat, bool bot)> done);

private:
    // A step on its way: stored first (unless there is no store), then sent.
    struct Pending {
        std::uint64_t id = 0;
        Clock::time_point submitted{};  // when it went to the store
        TableStep step;
        bool ready = false;
    };

    static Moment now();
    // Does what the core asked, in this order: connections follow, timers, the bot's
    // question, the lobby's copy, the step, and the lobby told of a close.
    void carry_out(TableEffects effects);
    void arm(const TimerOrder& order);
    void think(BotQuestion question);
    void end_step(TableStep step);
    void step_committed(std::uint64_t id);
    void drain();
    // After a hand-off or a loss: every follower told and closed, the lobby told.
    void moved_away();

    Hub& hub_;
    TableWatcher& watcher_;
    boost::asio::strand<boost::asio::io_context::executor_type> strand_;
    TableCore core_;
    TableSummary initial_summary_;
    VectorQueue<Pending> steps_;  // waiting for their commit, in order
    std::uint64_t next_step_ = 1;
    std::array<boost::asio::steady_timer, 4> timers_;  // by TableTimer
};

}  // namespace sparts::server
