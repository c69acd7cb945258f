#include "server/admin/stamped_file_name.hpp"

#include <chrono>
#include <ctime>
#include <filesystem>

namespace sparts::server {

std::string stamped_file_name(const std::string& dir, std::string_view prefix, std::string_view suffix) {
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm utc{};
    gmtime_r(&now, &utc);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &utc);
    const std::string head = std::string(prefix) + stamp;
    std::string name = head + std::string(suffix);
    for (int n = 2; std::filesystem::exists(std::filesystem::path(dir) / name); ++n)
        name = head + "-" + std::to_string(n) + std::string(suffix);
    return name;
}

}  // namespace sparts::server
