#include "server/archive/ratings_api.hpp"
#include "server/base/http_text.hpp"
#include "server/base/ids.hpp"

#include <charconv>
#include <nlohmann/json.hpp>
#include "engine/ruleset.hpp"
#include "protocol/json_text.hpp"
#include "storage/leaderboard_cursor.hpp"
#include "storage/store.hpp"

namespace sparts::server {

namespace http = boost::beast::http;
using nlohmann::json;

namespace {

constexpr std::string_view kLeaderboard = "/api/leaderboard/";
constexpr std::string_view kPlayers = "/api/players/";

ApiResponse ratings_error(http::status status, std::string_view code, std::string_view message) {
    return {status, dump_text(json{{"error", code}, {"message", message}}), {}};
}

ApiResponse bad_parameter(std::string_view message) { return ratings_error(http::status::bad_request, "bad_parameter", message); }

json rating_json(const storage::PresetRating& r) {
    return {{"rating", r.rating}, {"deviation", r.deviation}, {"volatility", r.volatility}, {"games", r.games},
            {"wins", r.wins}};
}

json statistics_json(const storage::PlayStats& s) {
    return {{"hands", s.hands},
            {"bids", s.bids},
            {"bids_made", s.bids_made},
            {"nil_bids", s.nil_bids},
            {"nils_made", s.nils_made},
            {"nils_set", s.nil_bids - s.nils_made},
            {"bags", s.bags},
            {"bags_per_hand", s.hands > 0 ? static_cast<double>(s.bags) / static_cast<double>(s.hands) : 0.0},
            {"moons", s.moons}};
}

// A preset's board, or (`rule_set`) a host's named rule set's (storage/records.hpp, rule_set_board).
ApiResponse leaderboard_page(const std::string& preset, const std::map<std::string, std::string>& params,
                             storage::Store& store, bool rule_set = false) {
    if (rule_set && !is_rule_set_name(preset))
        return bad_parameter("rule set: \"" + shown(preset) + "\" is not a rule set's name (1 to 32 of a-z, 0-9 and -)");
    if (!rule_set && !parse_preset(preset)) return bad_parameter("preset: \"" + shown(preset) + "\" is not a preset");
    storage::LeaderboardQuery q;
    q.preset = rule_set ? storage::rule_set_board(preset) : preset;
    for (const auto& [key, value] : params) {
        if (key == "limit") {
            const auto n = bounded_number(value, 1, 500);
            if (!n) return bad_parameter("limit: expected 1 to 500");
            q.limit = static_cast<int>(*n);
        } else if (key == "min_games") {
            const auto n = bounded_number(value, 1, 1000000);
            if (!n) return bad_parameter("min_games: expected 1 to 1000000");
            q.min_games = static_cast<int>(*n);
        } else if (key == "cursor") {
            // Only a cursor this server gave: another is refused, not read as "from the start".
            const auto cursor = storage::LeaderboardCursor::parse(value);
            if (!cursor || !is_player_id(cursor->player)) return bad_parameter("cursor: expected the next_cursor of a page");
            q.cursor = value;
        } else {
            return bad_parameter("unknown parameter \"" + shown(key) + "\"; expected limit, cursor, min_games");
        }
    }
    const storage::LeaderboardPage page = store.leaderboard(q);
    json players = json::array();
    std::int64_t rank = page.first_rank;
    for (const auto& r : page.players) {
        json p = {{"rank", rank++}, {"player", r.player}, {"name", r.name}};
        p.update(rating_json(r));
        players.push_back(std::move(p));
    }
    json body = {{rule_set ? "rule_set" : "preset", preset},
                 {"min_games", q.min_games},
                 {"players", players},
                 {"next_cursor", page.next_cursor.empty() ? json(nullptr) : json(page.next_cursor)}};
    return {http::status::ok, dump_text(body), {}};
}

ApiResponse player_page(const std::string& id, const std::map<std::string, std::string>& params, storage::Store& store) {
    if (!params.empty()) return bad_parameter("unknown parameter \"" + shown(params.begin()->first) + "\"; expected none");
    if (!is_player_id(id)) return bad_parameter("player: expected a player id (\"p\" and 16 hex digits)");
    const auto found = store.player_ratings(id);
    if (!found) return ratings_error(http::status::not_found, "no_such_player", "no player " + id);
    // A preset's boards in `ratings`, a host's named rule sets' in `rule_sets` (storage/records.hpp).
    json ratings = json::array();
    json rule_sets = json::array();
    for (const auto& r : found->presets) {
        const bool set = storage::is_rule_set_board(r.preset);
        json x = set ? json{{"rule_set", r.preset.substr(std::string_view(storage::kRuleSetBoardPrefix).size())}}
                     : json{{"preset", r.preset}};
        x.update(rating_json(r));
        x["statistics"] = statistics_json(r.stats);
        x["last_game"] = {{"table", r.last_table}, {"game", r.last_game}, {"change", r.last_change}, {"finished", r.updated}};
        (set ? rule_sets : ratings).push_back(std::move(x));
    }
    return {http::status::ok,
            dump_text(json{{"player", found->id}, {"name", found->name}, {"ratings", ratings}, {"rule_sets", rule_sets}}),
            {}};
}

}  // namespace

bool is_ratings_path(std::string_view path) {
    return path.substr(0, kLeaderboard.size()) == kLeaderboard || path.substr(0, kPlayers.size()) == kPlayers;
}

ApiResponse ratings_api(std::string_view path, const std::map<std::string, std::string>& params, storage::Store& store) {
    const bool board = path.substr(0, kLeaderboard.size()) == kLeaderboard;
    // /api/leaderboard/rule-set/{name}: a host's named rule set's board ("rule-set" is no preset).
    constexpr std::string_view kRuleSet = "rule-set/";
    if (board && path.substr(kLeaderboard.size(), kRuleSet.size()) == kRuleSet) {
        const std::string_view name = path.substr(kLeaderboard.size() + kRuleSet.size());
        if (name.empty() || name.find('/') != std::string_view::npos)
            return ratings_error(http::status::not_found, "not_found", "expected /api/leaderboard/rule-set/{name}");
        return leaderboard_page(std::string(name), params, store, true);
    }
    const std::string_view rest = path.substr(board ? kLeaderboard.size() : kPlayers.size());
    if (rest.empty() || rest.find('/') != std::string_view::npos)
        return ratings_error(http::status::not_found, "not_found",
                     board ? "expected /api/leaderboard/{preset}" : "expected /api/players/{id}");
    return board ? leaderboard_page(std::string(rest), params, store) : player_page(std::string(rest), params, store);
}

}  // namespace sparts::server
