#include "server/archive/archive_api.hpp"
#include "server/base/http_text.hpp"
#include "server/base/ids.hpp"

#include <charconv>
#include <map>
#include <nlohmann/json.hpp>
#include "engine/seat.hpp"
#include "protocol/deal_commitment.hpp"
#include "protocol/game_record.hpp"
#include "protocol/json_text.hpp"
#include "server/archive/game_json.hpp"
#include "server/archive/ratings_api.hpp"
#include "storage/archive_cursor.hpp"
#include "storage/store.hpp"

namespace sparts::server {

namespace http = boost::beast::http;
using nlohmann::json;

namespace {

ApiResponse error(http::status status, std::string_view code, std::string_view message) {
    return {status, dump_text(json{{"error", code}, {"message", message}}), {}};
}

ApiResponse list(const std::map<std::string, std::string>& params, storage::Store& store) {
    storage::ArchiveQuery q;
    for (const auto& [key, value] : params) {
        if (key == "player") {
            q.player = value;
        } else if (key == "preset") {
            q.preset = value;
        } else if (key == "rule_set") {
            if (!is_rule_set_name(value))
                return error(http::status::bad_request, "bad_parameter",
                             "rule_set: expected a rule set's name (1 to 32 of a-z, 0-9 and -)");
            q.rule_set = value;
        } else if (key == "from" || key == "to") {
            auto n = bounded_number(value, 0, std::int64_t{1} << 53);
            if (!n) return error(http::status::bad_request, "bad_parameter", key + ": expected milliseconds since 1970");
            (key == "from" ? q.from : q.to) = *n;
        } else if (key == "limit") {
            auto n = bounded_number(value, 1, 500);
            if (!n) return error(http::status::bad_request, "bad_parameter", "limit: expected 1 to 500");
            q.limit = static_cast<int>(*n);
        } else if (key == "cursor") {
            // Only a cursor this server gave ("finished/id", or an older server's "finished/table/game"):
            // another is refused, not read as "from the start".
            const auto cursor = storage::ArchiveCursor::parse(value);
            if (!cursor || cursor->finished > (std::int64_t{1} << 53) || (cursor->legacy() && !is_table_id(cursor->table)))
                return error(http::status::bad_request, "bad_parameter", "cursor: expected the next_cursor of a page");
            q.cursor = value;
        } else {
            return error(http::status::bad_request, "bad_parameter",
                         "unknown parameter \"" + shown(key) + "\"; expected player, preset, rule_set, from, to, limit, cursor");
        }
    }
    // A rule set plays one preset: the two together ask for nothing more than the rule set does,
    // and the archive keeps no index for both.
    if (!q.preset.empty() && !q.rule_set.empty())
        return error(http::status::bad_request, "bad_parameter", "preset and rule_set: give one of them, not both");
    const auto page = store.list_games(q);
    json games = json::array();
    for (const auto& g : page.games) games.push_back(summary_json(g));
    return {http::status::ok,
            dump_text(json{{"games", games}, {"next_cursor", page.next_cursor.empty() ? json(nullptr) : json(page.next_cursor)}}),
            {}};
}

// Every hand with its deal, from the events (stored in full).
json hands_of(const json& events) {
    json hands = json::array();
    for (const json& e : events) {
        const std::string type = e.value("type", "");
        if (type == "hand_started") {
            hands.push_back({{"hand", e["hand"]}, {"dealer", e["dealer"]}, {"kind", e["kind"]}, {"deal", json::object()},
                             {"center", json::array()}, {"scored", nullptr}});
        } else if (hands.empty()) {
            continue;
        } else if (type == "cards_dealt") {
            hands.back()["deal"][std::to_string(e["seat"].get<int>())] = e["cards"];
        } else if (type == "center_taken") {
            hands.back()["center"] = e["cards"];
        } else if (type == "hand_scored") {
            hands.back()["scored"] = e;
        }
    }
    return hands;
}

}  // namespace

ApiResponse archive_api(std::string_view target, storage::Store* store) {
    if (!store) return error(http::status::service_unavailable, "no_archive", "this server keeps no archive (--database none)");
    std::string_view path = target;
    std::string_view query;
    if (const auto q = target.find('?'); q != std::string_view::npos) {
        path = target.substr(0, q);
        query = target.substr(q + 1);
    }
    const auto parsed_query = query_parameters(query);
    if (!parsed_query) return error(http::status::bad_request, "bad_parameter", "malformed query string");
    const std::map<std::string, std::string>& params = *parsed_query;

    if (is_ratings_path(path)) return ratings_api(path, params, *store);
    if (path == "/api/games" || path == "/api/games/") return list(params, *store);
    constexpr std::string_view kPrefix = "/api/games/";
    if (path.substr(0, kPrefix.size()) != kPrefix) return error(http::status::not_found, "not_found", "no such endpoint");
    std::string_view rest = path.substr(kPrefix.size());
    const auto slash = rest.find('/');
    if (slash == std::string_view::npos)
        return error(http::status::not_found, "not_found", "expected /api/games/{table}/{game}");
    const std::string table(rest.substr(0, slash));
    rest = rest.substr(slash + 1);
    const auto slash2 = rest.find('/');
    const std::string game_text(rest.substr(0, slash2));
    const std::string_view tail = slash2 == std::string_view::npos ? std::string_view{} : rest.substr(slash2);
    const auto game_number = bounded_number(game_text, 1, 1000000);
    if (!game_number || !is_table_id(table))
        return error(http::status::not_found, "not_found", "expected /api/games/{table}/{game}");
    if (!tail.empty() && tail != "/record")
        return error(http::status::not_found, "not_found", "expected /api/games/{table}/{game}[/record]");

    const auto game = store->load_game(table, static_cast<int>(*game_number));
    if (!game)
        return error(http::status::not_found, "no_such_game",
                     "no finished game " + game_text + " at table " + table + " (games in progress are not shown)");
    if (tail == "/record") {
        // Read back through the record parser: what is served is a record the command line accepts.
        auto record = game_record_from_json(record_of(*game));
        if (!record)
            return error(http::status::internal_server_error, "broken_record",
                         "the stored game does not make a valid record: " + record.error().message());
        return {http::status::ok, record_text(*record), "attachment; filename=\"" + table + "-" + game_text + ".json\""};
    }

    json events = json::array();
    for (const auto& e : game->events) {
        json ev = parsed(e.payload);
        events.push_back({{"seq", e.seq}, {"at", e.at}, {"event", ev}});
    }
    json plain = json::array();
    for (const auto& e : events) plain.push_back(e["event"]);
    json body = summary_json(game->summary);
    body["seed"] = std::to_string(game->seed);
    if (!game->salt.empty()) {
        // The archive checks the deal as a player would: the commitment shown at the start
        // against the seed and salt revealed at the end.
        const std::string shown = published_commitment(*game);
        body["salt"] = game->salt;
        body["deal_commitment"] = shown.empty() ? deal_commitment(game->seed, game->salt) : shown;
        body["deal_verified"] = !shown.empty() && shown == deal_commitment(game->seed, game->salt);
    }
    body["hands"] = hands_of(plain);
    body["events"] = std::move(events);
    return {http::status::ok, dump_text(body), {}};
}

}  // namespace sparts::server
