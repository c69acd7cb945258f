// The messages a table builds itself, beside the engine's events
// (event_json.hpp) and the replies (reply.hpp): one function each, so that
// every place that sends one sends the same shape (PROTOCOL.md §7-§9 and
// schemas/ describe them). A table event is returned as JSON, as the table
// numbers, stores and delivers it; a frame a table sends to one connection is
// returned as its text.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <nlohmann/json.hpp>
#include "engine/game.hpp"
#include "engine/standings.hpp"

namespace sparts {

// --- table events (numbered like the engine's, kept in the game's record) -----------

// A person took `seat`.
nlohmann::json seat_taken_event(int seat, std::string_view player, std::string_view name);
// A server bot took `seat`.
nlohmann::json seat_taken_by_bot_event(int seat);
// `seat` is free again; `reason` is left out when empty (the player left).
nlohmann::json seat_left_event(int seat, std::string_view reason = {});
nlohmann::json again_requested_event(int seat);
nlohmann::json turn_timed_out_event(int seat);
nlohmann::json seat_absent_event(int seat);
nlohmann::json seat_returned_event(int seat);
nlohmann::json table_closed_event(std::string_view reason);
// `clock_ms`: the game clock, which starts now (WorldWinner); none without one.
nlohmann::json game_started_event(int game, const Ruleset& rules, std::string_view deal_commitment,
                                  std::optional<long long> clock_ms);
// A finished game's seed (a decimal string: JSON numbers lose 64-bit integers), salt and commitment.
nlohmann::json deal_json(std::uint64_t seed, std::string_view salt);
nlohmann::json deal_revealed_event(int game, std::uint64_t seed, std::string_view salt);
nlohmann::json standings_event(const std::array<SideStandings, 2>& sides);

// --- frames to one connection --------------------------------------------------

std::string quick_play_matched_frame(std::string_view table, int seat);
// `ms_left`: what is left of the seat's turn time; none when the seat has no limit.
std::string your_turn_frame(std::string_view table, int seat, std::uint64_t seq, const LegalMoves& legal,
                            bool nil_allowed, std::optional<long long> ms_left);
// The server closing a connection: "shutdown", "banned", or "moved" (the table named went to
// another node: reconnect through the proxy). `table` is left out when empty.
std::string closing_frame(std::string_view reason, std::string_view table = {});

// A connection's view of a table at `seq`: what a client starts from after sit, watch
// or a resume too far back. `you` -1: a spectator.
struct Snapshot {
    std::string_view table;
    std::uint64_t seq = 0;
    int you = -1;
    nlohmann::json info;    // the table as the lobby lists it
    int game = 0;           // the game's number; 0 before the first
    nlohmann::json view;    // the game as `you` sees it (view_json.hpp); null before the first
    std::optional<std::string> deal_commitment;
    std::optional<nlohmann::json> deal;  // once the game is over
    std::optional<long long> turn_ms_left, clock_ms_left;
    // A spectator who held a seat of the game in progress: that seat, the one seat it may take
    // (back) until the game ends (sit's seat_change_mid_game).
    std::optional<int> held_seat;
};
std::string snapshot_frame(const Snapshot& s);

// A line of table chat (PROTOCOL.md, "Table chat"). `seat` -1: said by a spectator;
// `to_everyone` false: for the spectators only (said on the rail while a game runs).
nlohmann::json chat_line_json(std::uint64_t seq, int seat, std::string_view player, std::string_view name,
                              std::string_view text, bool to_everyone);
std::string chat_frame(std::string_view table, nlohmann::json line);
// The kept lines a reader may see, and the channels it muted (seats, and "spectators").
std::string chat_history_frame(std::string_view table, nlohmann::json lines, nlohmann::json muted);

// The operator's announcement to every connection (the admin API's broadcast); `at` in ms since 1970.
std::string announcement_frame(std::string_view text, long long at);

// An archived game played back (PROTOCOL.md, "Replays"): its next event, and its end.
std::string replay_event_frame(std::string_view table, int game, std::size_t position, std::uint64_t seq,
                               const nlohmann::json& event);
std::string replay_ended_frame(std::string_view table, int game, std::size_t position);

}  // namespace sparts
