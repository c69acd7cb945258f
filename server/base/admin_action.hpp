// What the admin API does (admin_api.hpp), by name: each kind is logged and
// counted in /metrics (sparts_admin_actions_total{action="close_table"}).
#pragma once
#include <array>
#include <cstddef>
#include <string_view>

namespace sparts::server {

enum class AdminAction {
    list_tables, list_connections, close_table, remove_player, list_bans, ban, unban, broadcast, backup, list_backups,
    list_rule_sets, put_rule_set, remove_rule_set, retire, list_retirements
};

inline constexpr std::array<std::string_view, 15> kAdminActionNames = {
    "list_tables",    "list_connections", "close_table",     "remove_player", "list_bans",
    "ban",            "unban",            "broadcast",       "backup",        "list_backups",
    "list_rule_sets", "put_rule_set",     "remove_rule_set", "retire",        "list_retirements"};

inline std::string_view to_string(AdminAction a) { return kAdminActionNames[static_cast<std::size_t>(a)]; }

}  // namespace sparts::server
