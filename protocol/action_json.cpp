#include "protocol/action_json.hpp"

#include "protocol/card_json.hpp"
#include "protocol/json_fields.hpp"

namespace sparts {

using nlohmann::json;

namespace {

constexpr const char* kTypes = "one of \"play\", \"bid\", \"pass\", \"choose\", \"show_cards\", \"moon\", \"clock_expired\"";
constexpr const char* kBidExpected = "a bid: a whole number from 0 to 127, \"nil\" or \"blind_nil\"";
constexpr const char* kChoiceExpected = "\"spades\" or \"hearts\"";
constexpr const char* kMoonExpected = "\"add\" (26 to every other side) or \"subtract\" (26 off the shooter's)";

Parsed<Action> play_from(const json& j) {
    const json* card = member(j, "card");
    if (!card) return missing("card", kCardExpected);
    auto c = card_from_json(*card);
    if (!c) return inside("card", c.error());
    return Action::play(*c);
}

Parsed<Action> bid_from(const json& j) {
    const json* bid = member(j, "bid");
    if (!bid) return missing("bid", kBidExpected);
    if (bid->is_string() && bid->get_ref<const std::string&>() == "nil") return Action::make_bid(0);
    if (bid->is_string() && bid->get_ref<const std::string&>() == "blind_nil") return Action::blind_nil();
    // The upper bound is only what an action can hold; the engine says which bids the hand allows.
    auto n = whole_number(*bid, 0, 127, kBidExpected);
    if (!n) return inside("bid", n.error());
    return Action::make_bid(static_cast<int>(*n));
}

Parsed<Action> pass_from(const json& j) {
    const json* cards = member(j, "cards");
    if (!cards) return missing("cards", "an array of cards like [\"2C\",\"3C\",\"4C\"]");
    auto set = card_set_from_json(*cards);
    if (!set) return inside("cards", set.error());
    // Multi-pass B: the card passed at once to the seat that passes to you.
    CardSet back;
    if (const json* b = member(j, "back")) {
        auto back_set = card_set_from_json(*b);
        if (!back_set) return inside("back", back_set.error());
        back = *back_set;
    }
    return Action::pass(*set, back);
}

Parsed<Action> choose_from(const json& j) {
    const json* game = member(j, "game");
    if (!game) return missing("game", kChoiceExpected);
    if (game->is_string()) {
        const auto& g = game->get_ref<const std::string&>();
        if (g == "spades") return Action::choose(HandKind::spades);
        if (g == "hearts") return Action::choose(HandKind::hearts);
    }
    return expected("game", kChoiceExpected, *game);
}

Parsed<Action> moon_from(const json& j) {
    const json* score = member(j, "score");
    if (!score) return missing("score", kMoonExpected);
    if (score->is_string()) {
        const auto& s = score->get_ref<const std::string&>();
        if (s == "add") return Action::moon(false);
        if (s == "subtract") return Action::moon(true);
    }
    return expected("score", kMoonExpected, *score);
}

}  // namespace

json to_json(const Action& a) {
    json j = {{"type", to_string(a.kind)}};
    switch (a.kind) {
        case ActionKind::play: j["card"] = to_json(a.card); break;
        case ActionKind::bid: j["bid"] = a.blind ? json("blind_nil") : json(a.bid); break;
        case ActionKind::pass:
            j["cards"] = to_json(a.cards);
            if (!a.back.empty()) j["back"] = to_json(a.back);
            break;
        case ActionKind::choose: j["game"] = to_string(a.choice); break;
        case ActionKind::moon: j["score"] = a.subtract ? "subtract" : "add"; break;
        case ActionKind::clock_expired:
        case ActionKind::show_cards: break;
    }
    return j;
}

Parsed<Action> action_from_json(const json& j, std::string_view envelope_member) {
    if (!j.is_object()) return expected("", "an action object like {\"type\":\"play\",\"card\":\"QS\"}", j);
    const json* type = member(j, "type");
    if (!type) return missing("type", kTypes);
    if (!type->is_string()) return expected("type", kTypes, *type);
    const auto& t = type->get_ref<const std::string&>();

    std::optional<ParseError> stranger;
    Parsed<Action> action = ParseError{};
    if (t == "play") {
        stranger = refuse_unknown_members(j, "a play action", {"type", "card"}, envelope_member);
        action = play_from(j);
    } else if (t == "bid") {
        stranger = refuse_unknown_members(j, "a bid action", {"type", "bid"}, envelope_member);
        action = bid_from(j);
    } else if (t == "pass") {
        stranger = refuse_unknown_members(j, "a pass action", {"type", "cards", "back"}, envelope_member);
        action = pass_from(j);
    } else if (t == "choose") {
        stranger = refuse_unknown_members(j, "a choose action", {"type", "game"}, envelope_member);
        action = choose_from(j);
    } else if (t == "show_cards") {
        stranger = refuse_unknown_members(j, "a show_cards action", {"type"}, envelope_member);
        action = Action::show_cards();
    } else if (t == "moon") {
        stranger = refuse_unknown_members(j, "a moon action", {"type", "score"}, envelope_member);
        action = moon_from(j);
    } else if (t == "clock_expired") {
        stranger = refuse_unknown_members(j, "a clock_expired action", {"type"}, envelope_member);
        action = Action::clock_expired();
    } else {
        return expected("type", kTypes, *type);
    }
    // A missing or malformed field is the more useful thing to hear about first.
    if (!action) return action;
    if (stranger) return *stranger;
    return action;
}

}  // namespace sparts
