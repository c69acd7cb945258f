#include "server/table/table_summary.hpp"

namespace sparts::server {

nlohmann::json TableSummary::to_json() const {
    nlohmann::json seat_list = nlohmann::json::array();
    for (int s = 0; s < seats; ++s) {
        const auto i = static_cast<std::size_t>(s);
        if (seat_players[i].empty())
            seat_list.push_back(nullptr);
        else if (seat_players[i] == "bot")
            seat_list.push_back({{"bot", true}, {"name", seat_names[i]}});
        else
            seat_list.push_back({{"player", seat_players[i]}, {"name", seat_names[i]}});
    }
    nlohmann::json out = {{"table", id},       {"ruleset", ruleset}, {"seats", seat_list}, {"private", is_private},
                          {"turn_seconds", turn_seconds}, {"state", state}, {"game", game}, {"spectators", spectators}};
    if (!rule_set.is_null()) out["rule_set"] = rule_set;
    return out;
}

}  // namespace sparts::server
