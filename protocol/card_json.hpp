// Cards on the wire: a card is its text name ("QS", "TH'" for a second deck's
// copy, "JK1"); a set of cards is an array of names in id order (suits clubs,
// diamonds, hearts, spades, each 2 to ace, first deck first).
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "engine/card_set.hpp"
#include "protocol/parse_error.hpp"

namespace sparts {

inline constexpr const char* kCardExpected = "a card like \"QS\"";

nlohmann::json to_json(Card card);
nlohmann::json to_json(CardSet cards);

// Errors are relative to `value`: "" for the value itself, "[2]" for its third card.
Parsed<Card> card_from_json(const nlohmann::json& value);
// Refuses a card named twice (a set holds each physical card once).
Parsed<CardSet> card_set_from_json(const nlohmann::json& value);
// Cards in a given order (a deal's center), each at most once.
Parsed<std::vector<Card>> card_list_from_json(const nlohmann::json& value);

}  // namespace sparts
