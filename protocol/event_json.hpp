// Events on the wire: an object whose lower snake_case `type` is the event's
// name (event_name), with its fields in snake_case, cards by name, seats by
// number. Secret cards (CardsDealt, CardsPassed, CardsReceived, CenterTaken)
// are rendered per viewer: the `cards` member is there only for a viewer the
// engine's redact() lets see them; every viewer still gets the event and its
// `count`, so that sequences stay gap-free.
#pragma once

#include <nlohmann/json.hpp>

#include "engine/event.hpp"

namespace sparts {

// Everything in the event, secret cards included: for the archive of a
// finished game, or for a viewer once redact() has been applied.
nlohmann::json to_json(const Event& event);
// The event as `viewer` may see it.
nlohmann::json to_json(const Event& event, Viewer viewer);

nlohmann::json to_json(const GameOver& over);

// Whether some viewer sees less of the event than another (secret cards, a blind bid).
bool is_secret(const Event& event);
// The event as the archive keeps and serves it: a secret event whole, cards and
// all (the archive shows only finished games); any other as everyone saw it.
nlohmann::json archive_json(const Event& event);

}  // namespace sparts
