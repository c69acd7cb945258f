// What the HTTP parts read from a URL a stranger sent, and how they may quote
// it back: percent-decoding, a query's parameters, a bounded number, a name
// made safe to show. One copy for the archive, the ratings and the webhook's
// URL.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace sparts::server {

// %XX escapes decoded (and '+' as a space when `plus_is_space`, as in a query);
// none when an escape is malformed.
std::optional<std::string> percent_decoded(std::string_view text, bool plus_is_space);
// The parameters of a query string (after '?'), each decoded; a name given twice keeps
// its last value. None when one is malformed.
std::optional<std::map<std::string, std::string>> query_parameters(std::string_view query);
// A whole decimal number in [lo, hi]; none otherwise.
std::optional<std::int64_t> bounded_number(std::string_view text, std::int64_t lo, std::int64_t hi);
// A name from a request as it may be shown back in a message or the log: printable ASCII,
// at most `at_most` characters (then "..."). The bytes are anything a stranger sent;
// replies are UTF-8.
std::string shown(std::string_view text, std::size_t at_most = 40);

}  // namespace sparts::server
