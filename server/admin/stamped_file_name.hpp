// The name of a file the server writes now into a folder of the operator's (a backup, a run of
// retention): PREFIX, the moment in UTC, SUFFIX (sparts-20261128T174500Z.db), so that the names
// sort as the files were made; "-2", "-3", ... after the stamp when that second's name is taken.
#pragma once
#include <string>
#include <string_view>

namespace sparts::server {

std::string stamped_file_name(const std::string& dir, std::string_view prefix, std::string_view suffix);

}  // namespace sparts::server
