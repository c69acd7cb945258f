#include "server/archive/game_json.hpp"

#include "engine/seat.hpp"
#include "protocol/deal_commitment.hpp"
#include "protocol/game_record.hpp"
#include "protocol/json_text.hpp"

namespace sparts::server {

using nlohmann::json;

json parsed(const std::string& text) {
    auto j = parse_json_text(text);
    return j ? *j : json(nullptr);
}

json summary_json(const storage::ArchivedGameSummary& g) {
    json out = {{"table", g.table},       {"game", g.game},         {"preset", g.preset},
                {"ruleset", parsed(g.ruleset)}, {"players", parsed(g.players)}, {"result", parsed(g.result)},
                {"started", g.started},   {"finished", g.finished}};
    // The host's named rule set it was played under, by name, as the game kept it: only when it had one.
    if (!g.rule_set.empty()) out["rule_set"] = g.rule_set;
    return out;
}

// The commitment the players were shown when the game started (its game_started event, as
// published), rather than one computed again from the stored seed and salt: so that a seed or
// salt changed in the database since fails the record's check. Empty: a game without one.
std::string published_commitment(const storage::ArchivedGame& g) {
    for (const auto& e : g.events)
        if (e.type == "game_started") return parsed(e.payload).value("deal_commitment", std::string());
    return {};
}

json record_of(const storage::ArchivedGame& g) {
    json seats = json::array();
    for (const json& p : parsed(g.summary.players)) seats.push_back({{"name", p.value("name", "")}});
    json actions = json::array();
    for (const auto& a : g.actions) {
        json action = parsed(a.action);
        json entry = {{"seat", a.seat == kTableSeat ? json("table") : json(a.seat)}};
        for (auto& [k, v] : action.items()) entry[k] = v;
        actions.push_back(std::move(entry));
    }
    json record = {{"format", kGameRecordFormat}, {"version", kGameRecordVersion},
                   {"ruleset", parsed(g.summary.ruleset)}, {"seats", seats},
                   {"seed", std::to_string(g.seed)},        {"actions", actions}};
    const json result = parsed(g.summary.result);
    if (result.contains("game_over")) {
        const json& over = result["game_over"];
        record["result"] = {{"scores", over["scores"]}, {"ranks", over["ranks"]}, {"reason", over["reason"]}};
    }
    if (!g.salt.empty()) {
        const std::string shown = published_commitment(g);
        record["deal"] = {{"salt", g.salt}, {"commitment", shown.empty() ? deal_commitment(g.seed, g.salt) : shown}};
    }
    return record;
}

json retired_line(const storage::ArchivedGame& g) {
    json line = summary_json(g.summary);
    line["record"] = record_of(g);
    return line;
}

}  // namespace sparts::server
