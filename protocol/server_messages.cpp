#include "protocol/server_messages.hpp"

#include "protocol/deal_commitment.hpp"
#include "protocol/json_text.hpp"
#include "protocol/ruleset_json.hpp"
#include "protocol/view_json.hpp"

namespace sparts {

using nlohmann::json;

json seat_taken_event(int seat, std::string_view player, std::string_view name) {
    return {{"type", "seat_taken"}, {"seat", seat}, {"player", {{"id", player}, {"name", name}}}, {"bot", false}};
}

json seat_taken_by_bot_event(int seat) {
    return {{"type", "seat_taken"}, {"seat", seat}, {"player", nullptr}, {"bot", true}};
}

json seat_left_event(int seat, std::string_view reason) {
    json j = {{"type", "seat_left"}, {"seat", seat}};
    if (!reason.empty()) j["reason"] = reason;
    return j;
}

json again_requested_event(int seat) { return {{"type", "again_requested"}, {"seat", seat}}; }
json turn_timed_out_event(int seat) { return {{"type", "turn_timed_out"}, {"seat", seat}}; }
json seat_absent_event(int seat) { return {{"type", "seat_absent"}, {"seat", seat}}; }
json seat_returned_event(int seat) { return {{"type", "seat_returned"}, {"seat", seat}}; }
json table_closed_event(std::string_view reason) { return {{"type", "table_closed"}, {"reason", reason}}; }

json game_started_event(int game, const Ruleset& rules, std::string_view deal_commitment,
                        std::optional<long long> clock_ms) {
    json j = {{"type", "game_started"}, {"game", game}, {"ruleset", to_json(rules)}, {"deal_commitment", deal_commitment}};
    if (clock_ms) j["clock_ms"] = *clock_ms;
    return j;
}

json deal_json(std::uint64_t seed, std::string_view salt) {
    return {{"seed", std::to_string(seed)}, {"salt", salt}, {"commitment", deal_commitment(seed, salt)}};
}

json deal_revealed_event(int game, std::uint64_t seed, std::string_view salt) {
    json j = deal_json(seed, salt);
    j["type"] = "deal_revealed";
    j["game"] = game;
    return j;
}

json standings_event(const std::array<SideStandings, 2>& sides) {
    json list = json::array();
    for (const SideStandings& side : sides) {
        json seats = json::array();
        for (int s = 0; s < kMaxSeats; ++s)
            if ((side.seats >> s) & 1) seats.push_back(s);
        const Standings& st = side.standings;
        list.push_back({{"seats", seats}, {"score", side.score}, {"base", st.base}, {"overpoints", st.overpoints},
                        {"victory", st.victory}, {"time_bonus", st.time_bonus}, {"total", st.total()}});
    }
    return {{"type", "standings"}, {"sides", list}};
}

std::string quick_play_matched_frame(std::string_view table, int seat) {
    return dump_text(json{{"type", "quick_play_matched"}, {"table", table}, {"seat", seat}});
}

std::string your_turn_frame(std::string_view table, int seat, std::uint64_t seq, const LegalMoves& legal,
                            bool nil_allowed, std::optional<long long> ms_left) {
    json j = {{"type", "your_turn"}, {"table", table}, {"seat", seat}, {"seq", seq}, {"legal", to_json(legal, nil_allowed)}};
    j["ms_left"] = ms_left ? json(*ms_left) : json(nullptr);
    return dump_text(j);
}

std::string closing_frame(std::string_view reason, std::string_view table) {
    json j = {{"type", "closing"}, {"reason", reason}};
    if (!table.empty()) j["table"] = table;
    return dump_text(j);
}

std::string snapshot_frame(const Snapshot& s) {
    json j = {{"type", "snapshot"}, {"table", s.table}, {"seq", s.seq}, {"you", s.you < 0 ? json(nullptr) : json(s.you)},
              {"info", s.info},     {"game", s.game},   {"view", s.view}};
    if (s.deal_commitment) j["deal_commitment"] = *s.deal_commitment;
    if (s.deal) j["deal"] = *s.deal;
    if (s.turn_ms_left) j["turn_ms_left"] = *s.turn_ms_left;
    if (s.clock_ms_left) j["clock_ms_left"] = *s.clock_ms_left;
    if (s.held_seat) j["held_seat"] = *s.held_seat;
    return dump_text(j);
}

json chat_line_json(std::uint64_t seq, int seat, std::string_view player, std::string_view name, std::string_view text,
                    bool to_everyone) {
    const bool spectator = seat < 0;
    return {{"seq", seq},
            {"channel", spectator ? "spectators" : "seats"},
            {"seat", spectator ? json(nullptr) : json(seat)},
            {"player", player},
            {"name", name},
            {"text", text},
            {"to", to_everyone ? "everyone" : "spectators"}};
}

std::string chat_frame(std::string_view table, json line) {
    return dump_text({{"type", "chat"}, {"table", table}, {"line", std::move(line)}});
}

std::string chat_history_frame(std::string_view table, json lines, json muted) {
    return dump_text({{"type", "chat_history"}, {"table", table}, {"lines", std::move(lines)}, {"muted", std::move(muted)}});
}

std::string announcement_frame(std::string_view text, long long at) {
    return dump_text({{"type", "announcement"}, {"text", text}, {"at", at}});
}

std::string replay_event_frame(std::string_view table, int game, std::size_t position, std::uint64_t seq,
                               const json& event) {
    return dump_text(json{{"type", "replay_event"},
                          {"table", table},
                          {"game", game},
                          {"position", position},
                          {"seq", seq},
                          {"event", event}});
}

std::string replay_ended_frame(std::string_view table, int game, std::size_t position) {
    return dump_text(json{{"type", "replay_ended"}, {"table", table}, {"game", game}, {"position", position}});
}

}  // namespace sparts
