#include "verify_record.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

namespace sparts::e2e {

std::pair<int, std::string> verify_record(const std::string& record, const std::string& name) {
    const auto file = std::filesystem::path(SPARTS_BINARY_DIR) / "e2e-scratch" / (name + "-" + std::to_string(::getpid()) + ".json");
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file) << record;
    std::string out;
    FILE* p = ::popen((std::string(SPARTS_CLI) + " verify " + file.string() + " 2>&1").c_str(), "r");
    char buffer[512];
    while (const std::size_t n = std::fread(buffer, 1, sizeof buffer, p)) out.append(buffer, n);
    const int status = ::pclose(p);
    std::filesystem::remove(file);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

}  // namespace sparts::e2e
