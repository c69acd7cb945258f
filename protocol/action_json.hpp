// Actions on the wire, parsed totally: every JSON value becomes an Action or a
// ParseError naming the field and what was expected there.
//
//   {"type":"play","card":"QS"}
//   {"type":"bid","bid":3}            {"type":"bid","bid":"nil"}   (nil is bid 0)
//   {"type":"pass","cards":["2C","3C","4C"]}
//   {"type":"choose","game":"spades"}  ("spades" or "hearts")
//   {"type":"clock_expired"}           (from the table itself)
//
// Whether the action is allowed now is the engine's business; this only checks
// that it is well formed.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "engine/action.hpp"
#include "protocol/parse_error.hpp"

namespace sparts {

nlohmann::json to_json(const Action& action);

// `envelope_member`: one more member the enclosing message may carry beside the
// action's own ("seat" in a game record, "id" on the wire); any other unknown
// member is refused.
Parsed<Action> action_from_json(const nlohmann::json& value, std::string_view envelope_member = {});

}  // namespace sparts
