// What was wrong with a piece of JSON: the field it was in, as a path from the
// document's root ("actions[3].card"), and what was expected there. Parsing in
// protocol/ is total: every input becomes a value or one of these.
#pragma once

#include <string>
#include <string_view>

#include "protocol/outcome.hpp"

namespace sparts {

struct ParseError {
    std::string field;    // empty: the document as a whole
    std::string problem;  // "expected a card like \"QS\", got \"QX\""

    // "field 'card': expected a card like \"QS\", got \"QX\""
    std::string message() const;
};

// The same error seen from an enclosing field: "card" inside "actions[3]"
// becomes "actions[3].card".
ParseError inside(std::string_view parent, ParseError error);

template <class T>
using Parsed = Outcome<T, ParseError>;

}  // namespace sparts
