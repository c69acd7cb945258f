#include "protocol/parse_error.hpp"

namespace sparts {

std::string ParseError::message() const {
    if (field.empty()) return problem;
    return "field '" + field + "': " + problem;
}

ParseError inside(std::string_view parent, ParseError error) {
    if (parent.empty()) return error;
    if (error.field.empty()) {
        error.field = std::string(parent);
    } else if (error.field.front() == '[') {
        error.field = std::string(parent) + error.field;
    } else {
        error.field = std::string(parent) + "." + error.field;
    }
    return error;
}

}  // namespace sparts
