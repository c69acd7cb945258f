// The server's log: spdlog to standard error, as text for people or as JSON
// lines for log collectors. Messages name tables and players by their public
// ids; tokens are never logged (only their hashes exist past the hello).
#pragma once
#include <string>

namespace sparts::server {

void setup_logging(const std::string& level, bool json);

}  // namespace sparts::server
