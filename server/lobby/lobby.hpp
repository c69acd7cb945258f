// The lobby: players (by the hash of their token), and the list of open
// tables. It runs on its own strand; its public methods post there.
//
// hello: a new player gets a fresh token (128 random bits, shown once; only
// its SHA-256 is kept); a returning one shows its token and gets its player
// back, with the seats it holds. create_table validates nothing itself: the
// ruleset was checked by the engine when the request was parsed.
//
// What strangers can make is bounded: new players per address a minute,
// open tables per player, per address and in all, each its own setting and
// error code. Memory follows what is in use: a player with no connection, no
// seat and no open table is dropped from memory after --player-idle-seconds
// (its token still works: a returning player is read back from the store),
// and a closed table leaves nothing behind here.
#pragma once
#include <map>
#include <mutex>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>
#include <boost/asio/strand.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include "protocol/request.hpp"
#include "server/host/host_token.hpp"
#include "server/lobby/pending_hello.hpp"
#include "server/net/hub.hpp"
#include "server/base/player.hpp"
#include "server/lobby/quick_play.hpp"
#include "server/table/table_summary.hpp"
#include "server/table/table_watcher.hpp"

namespace sparts::server {

class Connection;
class Table;

class Lobby final : public TableWatcher {
public:
    explicit Lobby(boost::asio::io_context& io) : strand_(boost::asio::make_strand(io)) {}
    void attach(Hub& hub) { hub_ = &hub; }

    void hello(std::shared_ptr<Connection> session, LobbyRequest request);
    void list_tables(std::shared_ptr<Connection> session, LobbyRequest request);
    void create_table(std::shared_ptr<Connection> session, PlayerRef player, LobbyRequest request);
    // Quick play (server/lobby/quick_play.hpp): wait for a game, or stop waiting.
    void quick_play(std::shared_ptr<Connection> session, PlayerRef player, LobbyRequest request);
    void quick_play_cancel(std::shared_ptr<Connection> session, PlayerRef player, LobbyRequest request);

    // From tables.
    void table_changed(TableSummary summary) override;
    void table_closed(std::string id, std::string creator, const Table* table) override;

    // At start, before any connection: the players and the open tables the store kept.
    void restore(const std::vector<PlayerRef>& players, const std::vector<std::string>& token_hashes,
                 const std::vector<std::shared_ptr<Table>>& tables, std::uint64_t last_table_number);
    // Many nodes: a table this node took over (its lease, then its state from the store)
    // joins the lobby and the registry; `done` runs once it has.
    void adopt(std::shared_ptr<Table> table, std::function<void()> done);
    // Starts the timer that drops idle players from memory (it stops with the server).
    void start_sweeping();

    // Bans (the admin API; lobby_bans.cpp). A banned player's hello (with its token or its
    // login) is refused with `banned`; each change is stored before `done` runs, on the store's
    // writer thread (or here without a store), after every hello answered before it.
    struct Ban {
        std::string player;
        std::string reason;
        std::int64_t at = 0;  // milliseconds since 1970
    };
    // Bans `player` (again: with this reason and time).
    void ban(std::string player, std::string reason, std::function<void(Ban)> done);
    // Lifts the ban of `player`: the ban lifted, or nothing when there was none.
    void unban(std::string player, std::function<void(std::optional<Ban>)> done);
    // Every ban, by player id.
    void bans(std::function<void(std::vector<Ban>)> done);
    // At start, before any connection: the bans the store kept.
    void restore_bans(std::vector<Ban> bans);

private:
    bool banned(const std::string& player) const { return bans_.count(player) != 0; }
    using Clock = std::chrono::steady_clock;
    struct PlayerEntry {
        PlayerRef player;
        int open_tables = 0;  // created by this player and not yet closed
        Clock::time_point last_seen{};
    };

    // `elsewhere`: seats the player holds at tables of other nodes (many nodes). `login`: the
    // host account of a player who logged in (its name is the one the host signed).
    // The paths of a hello (pending_hello.hpp: each answers it once, and the connection reads on).
    void hello(PendingHello& answer, const LobbyRequest& request);
    void welcome_back(PendingHello& answer, const LobbyRequest& request, const std::string& hash,
                      const std::vector<std::pair<std::string, int>>& elsewhere,
                      const std::optional<HostIdentity>& login = std::nullopt);
    // A hello with a login: the host's account, the same player on every device.
    void log_in(PendingHello& answer, const LobbyRequest& request);
    // Stores the player, then sends `reply` (the ok to hello) and lets the connection read on.
    void answer_hello(PendingHello& answer, const LobbyRequest& request, PlayerRef player, const std::string& hash,
                      nlohmann::json reply);
    void sweep();
    void count_players();
    // list_tables' answer: this node's tables, and `others` (many nodes) that are not here.
    // A public table as list_tables shows it: what its filters look at, and its table info rendered once per
    // change (not once per request), so that a page costs its bytes and a lobby of thousands of tables stays cheap.
    struct Listed {
        Preset preset = Preset::sparts;
        int seats = 0;
        bool open = false;  // a free seat and no game running
        std::string text;   // the table info's JSON
    };
    using ListedTables = std::map<std::uint64_t, Listed>;  // by table number, the order of the pages
    Listed listing(const TableSummary& t) const;
    // tables_[s.id] = s, and the public list with it.
    void put_table(const TableSummary& s);
    // A table brought back (at start, or taken over from another node): listed, registered,
    // counted against its creator (on the lobby's strand).
    void list_recovered(const std::shared_ptr<Table>& table);
    void answer_list(const std::shared_ptr<Connection>& session, const LobbyRequest& request, const ListedTables* others);
    // Quick play: seats whoever the queues match now, and looks again in a quarter second while anyone waits.
    void quick_match();
    // Quick play: the player joins the queue of its game, with its rating in that game's preset.
    void enqueue_quick_player(const std::shared_ptr<Connection>& session, const PlayerRef& player, LobbyRequest request,
                              double rating);
    void make_quick_table(const Ruleset& rules, std::vector<std::pair<std::shared_ptr<Connection>, PlayerRef>> players,
                          const std::vector<std::string>& addresses, int bots);
    // Many nodes: every public open table, from the store; read again once a second at most.
    std::shared_ptr<const ListedTables> cluster_list();

    boost::asio::strand<boost::asio::io_context::executor_type> strand_;
    Hub* hub_ = nullptr;
    std::unordered_map<std::string, PlayerEntry> players_;            // by token hash
    std::unordered_map<std::string, std::string> token_by_player_;    // player id -> token hash
    std::unordered_map<std::string, TableSummary> tables_;            // by table id
    ListedTables public_tables_;                                      // the public ones among them, listed
    struct QuickPlayer {
        std::string queue;                // its key: the ruleset's JSON
        std::weak_ptr<Connection> session;   // gone: the player has left the queue
        PlayerRef player;
        std::string address;              // the address it asked from, counted in queued_by_address_
    };
    // Why `player` (asking from `address`) may not queue now, as an error reply to `request`; empty when it may.
    std::string quick_play_refusal(const PlayerRef& player, const std::string& address, const LobbyRequest& request);
    // Takes a player out of quick_players_ (and its address's count); the queue itself is the caller's.
    void forget_quick_player(std::unordered_map<std::string, QuickPlayer>::iterator it);
    // Whether `player` holds a seat at a table of this node whose game is in progress.
    bool seated_at_game(const std::string& player) const;
    // Counts a new table against `player`'s open tables and `address` (several players of one address: once).
    void count_table(const std::string& id, const std::string& player, const std::string& address);
    std::map<std::string, QuickPlayQueue> quick_queues_;              // by the ruleset's JSON
    std::map<std::string, Ruleset> quick_rules_;                      // the same keys
    std::unordered_map<std::string, QuickPlayer> quick_players_;      // by player id
    std::unique_ptr<boost::asio::steady_timer> quick_timer_;
    bool quick_timer_armed_ = false;
    std::unordered_map<std::string, int> tables_by_address_;          // open tables created from each address
    // Quick play's tables count against each player seated by it and each of their addresses, as a created
    // table counts against its creator and its address; a queued player holds one of its address's places
    // until it is seated or leaves, so that tables plus queued players never pass --tables-per-address.
    std::unordered_map<std::string, int> queued_by_address_;
    std::unordered_map<std::string, std::vector<std::string>> table_players_;   // table id -> quick play's players
    std::unordered_map<std::string, std::vector<std::string>> table_addresses_; // table id -> every address it counts against
    int open_tables_ = 0;                                             // created (stored or not yet) and not closed
    std::uint64_t next_table_ = 1;
    std::unique_ptr<boost::asio::steady_timer> sweep_timer_;
    // How many games each named rule set has had (the store's count, read every few seconds on the
    // archive threads: every node's games, not only this one's), for the hello's rule_sets.
    std::unique_ptr<boost::asio::steady_timer> count_timer_;
    std::map<std::string, std::int64_t> rule_set_games_;
    void count_rule_set_games();
    std::unordered_map<std::string, Ban> bans_;  // by player id
    std::mutex listed_mutex_;  // cluster_list() runs on the archive threads
    std::shared_ptr<const ListedTables> listed_;
    Clock::time_point listed_at_{};
};

}  // namespace sparts::server
