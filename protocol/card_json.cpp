#include "protocol/card_json.hpp"

#include "protocol/json_fields.hpp"

namespace sparts {

using nlohmann::json;

namespace {
// Two decks and four jokers: no list of distinct cards can be longer.
constexpr std::size_t kMaxCards = 108;
}  // namespace

json to_json(Card card) { return to_string(card); }

json to_json(CardSet cards) {
    json a = json::array();
    for (Card c : cards) a.push_back(to_string(c));
    return a;
}

Parsed<Card> card_from_json(const json& value) {
    if (value.is_string()) {
        if (const auto c = parse_card(value.get_ref<const std::string&>())) return *c;
    }
    return expected("", kCardExpected, value);
}

Parsed<std::vector<Card>> card_list_from_json(const json& value) {
    if (!value.is_array()) return expected("", "an array of cards like [\"2C\",\"3C\"]", value);
    if (value.size() > kMaxCards)
        return ParseError{"", "expected at most " + std::to_string(kMaxCards) + " cards, got " +
                                  std::to_string(value.size())};
    std::vector<Card> cards;
    CardSet seen;
    for (std::size_t i = 0; i < value.size(); ++i) {
        auto c = card_from_json(value[i]);
        if (!c) return inside(indexed("", i), c.error());
        if (seen.contains(*c)) return ParseError{indexed("", i), "card \"" + to_string(*c) + "\" appears twice"};
        seen.insert(*c);
        cards.push_back(*c);
    }
    return cards;
}

Parsed<CardSet> card_set_from_json(const json& value) {
    auto list = card_list_from_json(value);
    if (!list) return list.error();
    CardSet set;
    for (Card c : *list) set.insert(c);
    return set;
}

}  // namespace sparts
