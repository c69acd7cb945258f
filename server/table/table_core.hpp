// The rules of play at one table, with no socket, thread or clock: seating,
// turns and their deadlines (as values), when a bot or an absent seat acts,
// takeovers, grace, what each audience is sent and in what order, game over,
// and quick play's seating. Each input (a request, a timer that fired, a
// strong bot's decision, a connection gone, the admin's asks) changes the
// state and returns its effects (TableEffects): the frames to send and the
// writes that make them durable, as one step; the timers to arm or stop; a
// question for a strong bot to think over elsewhere; whether the lobby's copy
// changed. Table (table.hpp) is the strand shell that carries them out; the
// core's tests (tests/server/table_core_test.cpp) drive it with connections
// that have no socket and with times they choose.
//
// Each event gets the table's next `seq` and is rendered once per audience
// (protocol/event_json.hpp): a public event is serialized once and shared by
// every connection; a secret one (a deal, a pass, a secret bid, the center)
// once per seat, stripped for everyone but its owner. Every audience gets
// every seq, so a gap always means a missed frame. The events since the
// current hand began are kept (TableHistory) so that a returning client gets
// exactly what it missed; from further back it gets a snapshot of its view.
//
// Turns: each seat on turn has the table's turn time limit; when it runs out
// the seat's move is played by a bot (--absent-bot-level) and the table says
// so (turn_timed_out); after absent_after_missed_turns in a row the seat is
// marked absent and played by that bot until its holder acts or comes back.
//
// Bots (bots/bot.hpp): the core keeps every seat's BotMemory, fed from the
// events it publishes, so a bot can take any seat over at any moment. random
// and basic decide at once; a strong decision is asked of the shell
// (BotQuestion, with copies of the seat's view, memory and generator), and its
// answer is applied only if that seat's turn has not moved on meanwhile.
// WorldWinner's game clock runs here too. A table with no human connected is
// closed after the grace period.
//
// Table chat (table_chat.hpp) goes beside the numbered stream, not in it, and
// is never stored: each line reaches only those who may read it.
#pragma once
#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>
#include <nlohmann/json.hpp>
#include "bots/bot.hpp"
#include "engine/game.hpp"
#include "engine/rng.hpp"
#include "protocol/outcome.hpp"
#include "protocol/request.hpp"
#include "server/base/config.hpp"
#include "server/base/frame.hpp"
#include "server/base/metrics.hpp"
#include "server/base/player.hpp"
#include "server/net/connection.hpp"
#include "server/table/table_chat.hpp"
#include "server/table/table_history.hpp"
#include "server/table/table_summary.hpp"
#include "storage/game_tally.hpp"
#include "storage/records.hpp"

namespace sparts::server {

class RuleSets;
struct RuleSet;

using TableClock = std::chrono::steady_clock;

// When an input happens: the steady time (for deadlines) and the wall time (kept with each step).
struct Moment {
    TableClock::time_point steady{};
    storage::Millis wall = 0;
};

// What the core reads of the server's settings.
struct TableSettings {
    std::size_t history_events = 512;
    std::size_t chat_history = 50;
    BotLevel absent_bot = BotLevel::basic;  // the bot of a timed-out, absent or left seat
    int bot_delay_ms = 400;
    int bot_budget_ms = 50;
    int absent_after_missed_turns = 3;
    int grace_seconds = 120;
    std::string node_id;
    bool stored = false;   // a store keeps the steps (not --database none)
    bool webhook = false;  // a game-over webhook is configured
    std::shared_ptr<const RuleSets> rule_sets;  // the host's named rule sets (rule_sets.hpp) when the table was made, to name the table's
    static TableSettings from(const Config& config, bool stored, bool webhook);
};

// Where deals come from: each game's seed and its commitment's salt (secret.hpp in the
// server; fixed in tests, so that a test knows the cards).
struct TableDice {
    std::function<std::uint64_t()> seed;
    std::function<std::string()> salt;
};

// What a table is, fixed when it is made.
struct TableIdentity {
    std::string id;
    std::int64_t number = 0;
    Ruleset rules;
    bool is_private = false;
    std::string invite;
    int turn_seconds = 0;
    std::string creator;
};

enum class TableTimer : std::uint8_t { turn, bot, clock, grace };

// Arm `timer` to fire at `at` (then the shell calls timer_fired with `generation`), or stop it.
struct TimerOrder {
    TableTimer timer;
    std::uint64_t generation = 0;
    TableClock::time_point at{};
    bool stop = false;
};

// A strong bot's move to think over off the table's strand, from copies.
struct BotQuestion {
    std::uint64_t think = 0;  // which question (a later one supersedes it)
    Seat seat = 0;
    int game = 0;
    std::size_t seat_actions = 0;  // the seat's actions this game when asked
    SeatView view;
    BotMemory memory;
    Rng rng;
    BotOptions options;
};
struct BotAnswer {
    std::uint64_t think = 0;
    Seat seat = 0;
    int game = 0;
    std::size_t seat_actions = 0;
    Action action;
    Rng rng;  // the generator after deciding
};

// What one input sends, and what must be stored before it is sent (in order: a step's
// frames go out only after its writes and every earlier step's are committed).
struct TableStep {
    TableClock::time_point acted{};  // when the act behind it arrived (the latency histogram)
    std::vector<std::pair<std::shared_ptr<Connection>, Frame>> sends;
    storage::Batch batch;
    std::string webhook;   // a finished game's summary, for the host once the step is committed
    int webhook_game = 0;  // ...the game it is of
    bool empty() const { return sends.empty() && batch.empty(); }
};

struct TableEffects {
    TableStep step;
    std::vector<std::shared_ptr<Connection>> followed_by;  // now follow the table (Connection::joined)
    std::vector<TimerOrder> timers;                        // in order
    std::unique_ptr<BotQuestion> think;  // (on the heap: 1.5 KB the core would otherwise hold between inputs)
    bool summary_changed = false;  // what the lobby lists of the table changed
    bool closed = false;           // the table closed in this input: the lobby lets it go
    std::string failure;           // a defect of ours met on the way (a handler threw): for the log
};

// The table as GET /admin/tables lists it.
struct TableAdminView {
    nlohmann::json info;
    std::vector<std::pair<std::uint64_t, int>> followers;  // connection serial, seat (-1: watching)
};

class TableCore {
public:
    static constexpr std::size_t kMaxSpectators = 256;

    TableCore(TableSettings settings, Metrics& metrics, TableIdentity identity, TableDice dice);
    // A table that was open when the server stopped, rebuilt by replaying its game's actions
    // through the engine; or why it cannot be. recovered() then arms what it needs.
    static Outcome<TableCore, std::string> recover(TableSettings settings, Metrics& metrics, TableDice dice,
                                                   const storage::OpenTableState& stored, Moment now);

    // --- inputs ---
    TableEffects recovered(Moment now);
    TableEffects request(const std::shared_ptr<Connection>& from, const PlayerRef& player, const TableRequest& r,
                         Moment now);
    // Quick play: `players` take seats 0, 1, … and bots the rest, and the game starts, in one
    // step; each player (a null connection: gone meanwhile) is then told (quick_play_matched)
    // and sent its snapshot and turn.
    TableEffects seat_matched(const std::vector<std::pair<std::shared_ptr<Connection>, PlayerRef>>& players, Moment now);
    TableEffects timer_fired(TableTimer timer, std::uint64_t generation, Moment now);
    TableEffects bot_decided(const BotAnswer& answer, Moment now);
    // A connection following the table went away, or the lobby made it and nobody sat yet.
    TableEffects connections_changed(Moment now);
    TableEffects close(const std::string& reason, Moment now);
    // Another node takes (hand_off) or holds (lost) the table: nothing more is stored or sent.
    TableEffects hand_off(Moment now);
    TableEffects lost(Moment now);
    // After hand_off or lost: the connections that followed the table, each once, for the shell
    // to tell and close; the table no longer knows them.
    std::vector<std::shared_ptr<Connection>> let_go();
    // The admin API: `player` loses its seat (mid-game a bot takes it) and may not sit here
    // again while the table is open. `seat` -1: the player holds none here; -2: closed.
    struct Removal {
        int seat = -1;
        bool bot = false;
        TableEffects effects;
    };
    Removal admin_remove(const std::string& player, Moment now);

    // --- reads ---
    const std::string& id() const { return identity_.id; }
    const TableIdentity& identity() const { return identity_; }
    bool closed() const { return closed_; }
    bool moved() const { return moved_; }
    TableSummary summary() const;
    storage::OpenTable record(storage::Millis now) const;
    std::optional<TableAdminView> admin_view() const;
    std::uint64_t seq() const { return seq_; }
    const Game* game() const { return game_ ? &*game_ : nullptr; }

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
    using From = std::shared_ptr<Connection>;

    // Every input begins here and returns finish().
    void begin(Moment now);
    TableEffects finish();
    void send(const From& to, std::string text);
    void send(const From& to, Frame frame);
    void store(storage::Write w);
    void store_seat(int seat);
    void follow(const From& c);
    void arm(TableTimer timer, TableClock::time_point at);
    void stop(TableTimer timer);
    std::uint64_t& generation(TableTimer timer) { return generations_[static_cast<std::size_t>(timer)]; }

    // Requests (table_core_seats.cpp, table_core_play.cpp, table_core_chat.cpp).
    void on_sit(const From& s, const PlayerRef& p, const RequestId& id, const Sit& sit);
    void on_leave(const From& s, const PlayerRef& p, const RequestId& id, const Leave&);
    void on_watch(const From& s, const PlayerRef& p, const RequestId& id, const Watch& w);
    void on_add_bot(const From& s, const PlayerRef& p, const RequestId& id, const AddBot& a);
    void on_start(const From& s, const PlayerRef& p, const RequestId& id, const Start&);
    void on_again(const From& s, const PlayerRef& p, const RequestId& id, const Again&);
    void on_act(const From& s, const PlayerRef& p, const RequestId& id, const Act& act);
    void on_resume(const From& s, const PlayerRef& p, const RequestId& id, const Resume& res);
    void on_chat(const From& s, const PlayerRef& p, const RequestId& id, const Chat& chat);
    void on_mute(const From& s, const PlayerRef& p, const RequestId& id, const Mute& m);

    // Seats.
    int seat_of(const std::string& player) const;
    int free_seat() const;  // the first empty seat; -1: none
    // A server bot takes `seat` (told to everyone, stored). `level`: an add_bot's; else the absent seats' bot.
    void seat_bot(int seat, std::optional<BotLevel> level = std::nullopt);
    bool is_spectator(const Connection& s) const;
    void remove_spectator(const Connection& s);
    // `s` watches from now on; false when the table has as many spectators as it takes.
    bool add_spectator(const From& s);
    int held_seat(const std::string& player) const;  // -1: none this game
    void note_holders();
    void returned(int seat);

    // The game (table_core_play.cpp).
    void new_game();
    void apply(Seat seat, const Action& action);
    void publish(std::span<const Event> events, std::optional<std::pair<Seat, Action>> cause);
    void publish_table_event(nlohmann::json event);
    void observe_scored(const Event& e);
    void deliver(const Entry& e);
    // Tells each seat that may act now what it may do (your_turn).
    void prompt();
    void prompt_seat(const From& s, int seat);
    // `e`, numbered `seq`, rendered once per audience: live, and again for a returning client.
    Entry rendered(const Event& e, std::uint64_t seq) const;
    static const Frame& seen_by(const Entry& e, int seat);
    // `player`: a spectator's, whose seat held earlier in this game the snapshot names.
    void send_snapshot(const From& s, int seat, const std::string& player = {});
    void on_game_over(const GameOver& over, const std::string& over_json);
    // What the game-over webhook tells the host of a finished game (server/README.md).
    std::string webhook_summary(const nlohmann::json& result) const;
    std::optional<long long> ms_until(TableClock::time_point deadline) const;

    // Chat (table_core_chat.cpp): who `player` reads as, and the kept lines it may see.
    ChatReader chat_reader(const std::string& player) const;
    void send_chat_history(const From& s, const std::string& player);

    // Turns, bots and time (table_core_turns.cpp).
    void schedule();
    void on_turn_timeout();
    void on_bot_turn();
    void on_clock();
    void reset_bots(std::uint64_t seed);
    BotLevel level_of(int seat) const;
    // Plays seat `s`'s move with its bot: true when applied now, false when a strong
    // bot is asked to think off the strand (bot_decided finishes it).
    bool play_bot(Seat s, bool may_think_off_strand);
    std::size_t actions_by(Seat s) const;
    void check_grace();
    void stop_timers();
    void set_closed(bool moved);
    // Closes the table within the current input: table_closed to everyone, stored, followers let go.
    void close_table(const std::string& reason);
    // Every person seated said leave and bots hold the seats left: nobody is coming back for
    // this table, so it closes now rather than after the grace period (and no longer counts
    // against its creator's tables). A person merely disconnected still has the grace period.
    void close_if_only_bots();

    // The lobby's copy.
    // Also moves the table between the metrics' gauges (waiting, playing, over).
    void summary_changed() {
        report_state(playing_state());
        effects_.summary_changed = true;
    }
    std::string state_name() const;
    enum class Reported { none, waiting, playing, over };
    void report_state(Reported state);
    Reported playing_state() const;

    TableSettings settings_;
    Metrics& metrics_;
    TableIdentity identity_;
    // The host's named rule set whose rules these are, if any: found once, the rules never change.
    const RuleSet* rule_set_ = nullptr;
    TableDice dice_;

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
    std::uint64_t seq_ = 0;
    // What a returning client may have missed, since the current hand was dealt.
    TableHistory history_;
    // The chat, outside the seq stream and the store (table_chat.hpp says why).
    TableChat chat_;
    // The sides of the last scored hand (WorldWinner's standings name them).
    int hand_scored_sides_ = 0;
    std::array<std::uint16_t, kMaxSeats> side_seats_{};
    bool closed_ = false;
    bool moved_ = false;  // handed off or lost: another node has it (closed_ too)
    storage::GameTally tally_;  // the game's ratings and statistics, handed to the store at its end
    Reported reported_ = Reported::none;  // in the metrics' gauges

    Moment now_{};  // the current input's
    TableEffects effects_;

    std::array<std::uint64_t, 4> generations_{};  // a timer's firing counts only if its generation is the latest
    std::uint16_t turn_mask_ = 0;  // the seats the turn timer runs for
    std::uint64_t decision_ = 0;   // what the seat on turn decides (schedule()): a new one restarts its clock
    bool bot_armed_ = false;
    bool grace_armed_ = false;
    std::vector<BotMemory> memories_;  // every seat's, this game
    std::vector<Rng> bot_rngs_;        // every seat's bot generator, this game
    bool bot_thinking_ = false;        // a strong decision is under way off the strand
    std::uint64_t bot_think_ = 0;      // which one (a later one supersedes it)
    TableClock::time_point turn_deadline_{};
    TableClock::time_point clock_deadline_{};
};

}  // namespace sparts::server
