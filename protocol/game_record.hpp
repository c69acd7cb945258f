// The game record: everything needed to play a game again, event for event,
// as one JSON document (docs/game-record.md describes it field by field).
//
//   {"format":"sparts-game-record","version":1,
//    "ruleset":{"preset":"spades","options":{}},
//    "seats":[{"name":"Ann"},...],                       (optional)
//    "seed":"1234567890123",
//    "deals":[{"hands":[["2C",...],...],"center":[]}],   (optional: stacked deals)
//    "actions":[{"seat":0,"type":"bid","bid":3},...,{"seat":"table","type":"clock_expired"}],
//    "result":{"scores":[...],"ranks":[...],"reason":"target_score"},  (optional)
//    "deal":{"salt":"<32 hex>","commitment":"<64 hex>"}}  (optional: the commitment
//                                           published at the start, deal_commitment.hpp)
//
// The engine is deterministic, so the ruleset, the seed (or the stacked deals)
// and the actions fix every event. Readers refuse versions they do not know.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/game.hpp"
#include "protocol/parse_error.hpp"

namespace sparts {

inline constexpr const char* kGameRecordFormat = "sparts-game-record";
inline constexpr int kGameRecordVersion = 1;
inline constexpr std::size_t kMaxSeatNameLength = 100;

struct RecordedAction {
    Seat seat;  // kTableSeat for the table's own actions (the game clock)
    Action action;
    friend bool operator==(const RecordedAction&, const RecordedAction&) = default;
};

struct RecordResult {
    GameEndReason reason = GameEndReason::hand_cap;
    std::vector<std::int32_t> scores;  // per side
    std::vector<int> ranks;            // per side, 1 = first
    friend bool operator==(const RecordResult&, const RecordResult&) = default;
};

RecordResult result_of(const GameOver& over);

// What a server published to prove the deal fixed from the start (protocol/deal_commitment.hpp).
struct DealProof {
    std::string salt;
    std::string commitment;
    friend bool operator==(const DealProof&, const DealProof&) = default;
};

struct GameRecord {
    Ruleset rules;
    std::vector<std::string> seat_names;  // empty: not recorded; else one a seat
    std::uint64_t seed = 0;
    std::vector<StackedDeal> deals;       // the first hands' stacked deals, if any
    std::vector<RecordedAction> actions;  // in the order the game applied them
    std::optional<RecordResult> result;
    std::optional<DealProof> deal;
};

nlohmann::json to_json(const GameRecord& record);
// The same JSON laid out for people and diffs: one member a line, one action a
// line, each action's seat and type first.
std::string record_text(const GameRecord& record);
Parsed<GameRecord> game_record_from_json(const nlohmann::json& value);
// From JSON text; malformed JSON is a ParseError like any other.
Parsed<GameRecord> parse_game_record(std::string_view text);

}  // namespace sparts
