// The ids the server makes, as it accepts them back from a stranger (a URL, an
// admin's body): anything else is no such thing, and is never echoed or looked up.
#pragma once
#include <string_view>

namespace sparts::server {

// A table: "t" and digits as the server makes them; 1 to 32 of [A-Za-z0-9_-] accepted,
// as the archive has always taken them.
bool is_table_id(std::string_view s);
// A player: "p" and 16 lowercase hex digits (protocol/schemas: a guest's random id, or
// one that follows from a host's account).
bool is_player_id(std::string_view s);
// A host's named rule set (table/rule_sets.hpp): 1 to 32 of [a-z0-9-], not starting with '-'.
bool is_rule_set_name(std::string_view s);

}  // namespace sparts::server
