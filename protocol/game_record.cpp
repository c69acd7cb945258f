#include "protocol/game_record.hpp"

#include <charconv>
#include <limits>

#include "protocol/action_json.hpp"
#include "protocol/card_json.hpp"
#include "protocol/deal_commitment.hpp"
#include "protocol/json_fields.hpp"
#include "protocol/json_text.hpp"
#include "protocol/ruleset_json.hpp"

namespace sparts {

using nlohmann::json;

namespace {

constexpr const char* kSeedExpected = "a seed: a whole number from 0 to 18446744073709551615, as a string or a number";
constexpr const char* kSeatExpected = "a seat number from 0 to 9, or \"table\"";
constexpr const char* kReasons = "an end reason: target_score, hand_limit, hand_cap, game_clock or mercy_rule";

json seat_json(Seat seat) { return seat == kTableSeat ? json("table") : json(seat); }

Parsed<std::uint64_t> seed_from(const json& v) {
    if (v.is_number_unsigned()) return v.get<std::uint64_t>();
    if (v.is_number_integer() && v.get<std::int64_t>() >= 0) return static_cast<std::uint64_t>(v.get<std::int64_t>());
    if (v.is_string()) {
        const auto& s = v.get_ref<const std::string&>();
        std::uint64_t n = 0;
        const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
        if (!s.empty() && ec == std::errc() && p == s.data() + s.size()) return n;
    }
    return expected("", kSeedExpected, v);
}

Parsed<std::vector<std::string>> seat_names_from(const json& v, int seats) {
    if (!v.is_array()) return expected("", "an array of seats like [{\"name\":\"Ann\"}]", v);
    if (static_cast<int>(v.size()) != seats)
        return ParseError{"", "expected " + std::to_string(seats) + " seats (the ruleset's), got " +
                                  std::to_string(v.size())};
    std::vector<std::string> names;
    for (std::size_t i = 0; i < v.size(); ++i) {
        const json& seat = v[i];
        const std::string at = indexed("", i);
        if (!seat.is_object()) return expected(at, "a seat like {\"name\":\"Ann\"}", seat);
        if (auto e = refuse_unknown_members(seat, "a seat", {"name"})) return inside(at, *e);
        const json* name = member(seat, "name");
        if (!name) return missing(at + ".name", "a name");
        if (!name->is_string() || name->get_ref<const std::string&>().size() > kMaxSeatNameLength)
            return expected(at + ".name", "a name of at most 100 bytes", *name);
        names.push_back(name->get<std::string>());
    }
    return names;
}

Parsed<StackedDeal> deal_from(const json& v, int seats) {
    if (!v.is_object()) return expected("", "a deal like {\"hands\":[[...],...],\"center\":[...]}", v);
    if (auto e = refuse_unknown_members(v, "a deal", {"hands", "center"})) return *e;
    StackedDeal deal;
    const json* hands = member(v, "hands");
    if (!hands) return missing("hands", "an array of each seat's cards");
    if (!hands->is_array()) return expected("hands", "an array of each seat's cards", *hands);
    if (static_cast<int>(hands->size()) != seats)
        return ParseError{"hands", "expected " + std::to_string(seats) + " hands (one a seat), got " +
                                       std::to_string(hands->size())};
    for (int s = 0; s < seats; ++s) {
        auto cards = card_set_from_json((*hands)[static_cast<std::size_t>(s)]);
        if (!cards) return inside(indexed("hands", static_cast<std::size_t>(s)), cards.error());
        deal.hands[s] = *cards;
    }
    if (const json* center = member(v, "center")) {
        auto cards = card_list_from_json(*center);
        if (!cards) return inside("center", cards.error());
        deal.center = std::move(*cards);
    }
    return deal;
}

Parsed<RecordedAction> recorded_action_from(const json& v) {
    if (!v.is_object()) return expected("", "an action like {\"seat\":0,\"type\":\"play\",\"card\":\"QS\"}", v);
    const json* seat = member(v, "seat");
    if (!seat) return missing("seat", kSeatExpected);
    RecordedAction r{};
    if (seat->is_string() && seat->get_ref<const std::string&>() == "table") {
        r.seat = kTableSeat;
    } else {
        auto n = whole_number(*seat, 0, kMaxSeats - 1, kSeatExpected);
        if (!n) return inside("seat", n.error());
        r.seat = static_cast<Seat>(*n);
    }
    auto action = action_from_json(v, "seat");
    if (!action) return action.error();
    r.action = *action;
    return r;
}

Parsed<GameEndReason> reason_from(const json& v) {
    if (v.is_string()) {
        for (int i = 0; i <= static_cast<int>(GameEndReason::mercy_rule); ++i) {
            const auto r = static_cast<GameEndReason>(i);
            if (v.get_ref<const std::string&>() == to_string(r)) return r;
        }
    }
    return expected("", kReasons, v);
}

Parsed<RecordResult> result_from(const json& v, int sides) {
    if (!v.is_object()) return expected("", "a result like {\"scores\":[...],\"ranks\":[...],\"reason\":\"target_score\"}", v);
    if (auto e = refuse_unknown_members(v, "a result", {"scores", "ranks", "reason"})) return *e;
    RecordResult result;
    const json* reason = member(v, "reason");
    if (!reason) return missing("reason", kReasons);
    auto r = reason_from(*reason);
    if (!r) return inside("reason", r.error());
    result.reason = *r;
    for (const char* key : {"scores", "ranks"}) {
        const bool scores = key[0] == 's';
        const json* list = member(v, key);
        const std::string what = "an array of " + std::to_string(sides) + (scores ? " scores" : " ranks") + ", one a side";
        if (!list) return missing(key, what);
        if (!list->is_array() || static_cast<int>(list->size()) != sides) return expected(key, what, *list);
        for (std::size_t i = 0; i < list->size(); ++i) {
            auto n = scores ? whole_number((*list)[i], std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max(), "a whole number")
                            : whole_number((*list)[i], 1, sides, "a rank from 1 to " + std::to_string(sides));
            if (!n) return inside(indexed(key, i), n.error());
            if (scores) result.scores.push_back(static_cast<std::int32_t>(*n));
            else result.ranks.push_back(static_cast<int>(*n));
        }
    }
    return result;
}

}  // namespace

RecordResult result_of(const GameOver& over) {
    RecordResult r;
    r.reason = over.reason;
    for (int i = 0; i < over.side_count; ++i) {
        r.scores.push_back(over.scores[i]);
        r.ranks.push_back(over.ranks[i]);
    }
    return r;
}

namespace {

Parsed<DealProof> deal_proof_from(const json& v) {
    if (!v.is_object()) return expected("", "an object with salt and commitment", v);
    if (auto e = refuse_unknown_members(v, "a deal proof", {"salt", "commitment"})) return *e;
    DealProof proof;
    const json* salt = member(v, "salt");
    if (!salt) return missing("salt", "32 lowercase hex digits");
    if (!salt->is_string() || !is_deal_salt(salt->get<std::string>())) return expected("salt", "32 lowercase hex digits", *salt);
    proof.salt = salt->get<std::string>();
    const json* commitment = member(v, "commitment");
    if (!commitment) return missing("commitment", "64 lowercase hex digits (a SHA-256)");
    if (!commitment->is_string() || !is_deal_commitment(commitment->get<std::string>()))
        return expected("commitment", "64 lowercase hex digits (a SHA-256)", *commitment);
    proof.commitment = commitment->get<std::string>();
    return proof;
}

}  // namespace

json to_json(const GameRecord& record) {
    json j = {{"format", kGameRecordFormat},
              {"version", kGameRecordVersion},
              {"ruleset", to_json(record.rules)}};
    if (!record.seat_names.empty()) {
        json seats = json::array();
        for (const auto& name : record.seat_names) seats.push_back({{"name", name}});
        j["seats"] = std::move(seats);
    }
    // As a string: many JSON readers hold numbers as doubles, which lose 64-bit seeds.
    j["seed"] = std::to_string(record.seed);
    if (!record.deals.empty()) {
        json deals = json::array();
        for (const StackedDeal& d : record.deals) {
            json hands = json::array(), center = json::array();
            for (int s = 0; s < record.rules.seats; ++s) hands.push_back(to_json(d.hands[s]));
            for (Card c : d.center) center.push_back(to_json(c));
            deals.push_back({{"hands", std::move(hands)}, {"center", std::move(center)}});
        }
        j["deals"] = std::move(deals);
    }
    json actions = json::array();
    for (const RecordedAction& a : record.actions) {
        json action = to_json(a.action);
        action["seat"] = seat_json(a.seat);
        actions.push_back(std::move(action));
    }
    j["actions"] = std::move(actions);
    if (record.result) {
        j["result"] = {{"scores", record.result->scores},
                       {"ranks", record.result->ranks},
                       {"reason", to_string(record.result->reason)}};
    }
    if (record.deal) j["deal"] = {{"salt", record.deal->salt}, {"commitment", record.deal->commitment}};
    return j;
}

std::string record_text(const GameRecord& record) {
    const json j = to_json(record);
    // A name set by a program rather than read from JSON may hold bytes that are
    // not UTF-8: write them as U+FFFD rather than fail.
    const auto dump = [](const json& v) { return v.dump(-1, ' ', false, json::error_handler_t::replace); };
    std::string out = "{";
    bool first = true;
    for (const char* key : {"format", "version", "ruleset", "seats", "seed", "deals", "actions", "result", "deal"}) {
        const auto it = j.find(key);
        if (it == j.end()) continue;
        out += first ? "\n  \"" : ",\n  \"";
        first = false;
        out += std::string(key) + "\": ";
        if (std::string_view(key) == "ruleset") {
            out += "{\"preset\":" + dump(it->at("preset")) + ",\"options\":" + dump(it->at("options")) + "}";
            continue;
        }
        if (!it->is_array() || it->empty() || std::string_view(key) == "seats") {
            out += dump(*it);
            continue;
        }
        out += "[";
        for (std::size_t i = 0; i < it->size(); ++i) {
            const json& item = (*it)[i];
            out += i ? ",\n    " : "\n    ";
            if (std::string_view(key) != "actions") {
                out += dump(item);
                continue;
            }
            out += "{\"seat\":" + dump(item.at("seat")) + ",\"type\":" + dump(item.at("type"));
            for (const auto& [name, value] : item.items())
                if (name != "seat" && name != "type") out += ",\"" + name + "\":" + dump(value);
            out += "}";
        }
        out += "\n  ]";
    }
    out += "\n}\n";
    return out;
}

Parsed<GameRecord> game_record_from_json(const json& j) {
    if (!j.is_object()) return expected("", "a game record object", j);
    const json* format = member(j, "format");
    if (!format) return missing("format", "\"sparts-game-record\"");
    if (!format->is_string() || format->get_ref<const std::string&>() != kGameRecordFormat)
        return expected("format", "\"sparts-game-record\"", *format);
    const json* version = member(j, "version");
    if (!version) return missing("version", "1");
    if (!version->is_number_integer() || version->get<std::int64_t>() != kGameRecordVersion)
        return ParseError{"version", "this reader knows version " + std::to_string(kGameRecordVersion) +
                                         " only, got " + describe_value(*version)};
    if (auto e = refuse_unknown_members(j, "a game record",
                                        {"format", "version", "ruleset", "seats", "seed", "deals", "actions", "result", "deal"}))
        return *e;

    GameRecord record;
    const json* ruleset = member(j, "ruleset");
    if (!ruleset) return missing("ruleset", "a ruleset like {\"preset\":\"spades\",\"options\":{}}");
    auto rules = ruleset_from_json(*ruleset);
    if (!rules) return inside("ruleset", rules.error());
    record.rules = *rules;

    if (const json* seats = member(j, "seats")) {
        auto names = seat_names_from(*seats, record.rules.seats);
        if (!names) return inside("seats", names.error());
        record.seat_names = std::move(*names);
    }

    const json* seed = member(j, "seed");
    if (!seed) return missing("seed", kSeedExpected);
    auto s = seed_from(*seed);
    if (!s) return inside("seed", s.error());
    record.seed = *s;

    if (const json* deals = member(j, "deals")) {
        if (!deals->is_array()) return expected("deals", "an array of stacked deals", *deals);
        for (std::size_t i = 0; i < deals->size(); ++i) {
            auto deal = deal_from((*deals)[i], record.rules.seats);
            if (!deal) return inside(indexed("deals", i), deal.error());
            record.deals.push_back(std::move(*deal));
        }
    }

    const json* actions = member(j, "actions");
    if (!actions) return missing("actions", "an array of actions");
    if (!actions->is_array()) return expected("actions", "an array of actions", *actions);
    record.actions.reserve(actions->size());
    for (std::size_t i = 0; i < actions->size(); ++i) {
        auto action = recorded_action_from((*actions)[i]);
        if (!action) return inside(indexed("actions", i), action.error());
        record.actions.push_back(*action);
    }

    if (const json* result = member(j, "result")) {
        auto r = result_from(*result, record.rules.sides());
        if (!r) return inside("result", r.error());
        record.result = std::move(*r);
    }

    if (const json* deal = member(j, "deal")) {
        auto proof = deal_proof_from(*deal);
        if (!proof) return inside("deal", proof.error());
        record.deal = std::move(*proof);
    }
    return record;
}

Parsed<GameRecord> parse_game_record(std::string_view text) {
    auto j = parse_json_text(text);
    if (!j) return j.error();
    return game_record_from_json(*j);
}

}  // namespace sparts
