// `sparts verify` (the command line's check of a game record: its deal proof, and every
// event played again through the engine) run on a record the archive served.
#pragma once
#include <string>
#include <utility>

namespace sparts::e2e {

// Its exit status and what it said; `name` names the scratch file the record is written to.
std::pair<int, std::string> verify_record(const std::string& record, const std::string& name);

}  // namespace sparts::e2e
