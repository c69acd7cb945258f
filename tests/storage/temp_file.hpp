// A fresh path under the build tree for one test's database, removed (with
// its -wal and -shm files) when the test ends.
#pragma once
#include <atomic>
#include <filesystem>
#include <string>
#include <unistd.h>

namespace sparts::test {

class TempDatabase {
public:
    explicit TempDatabase(const std::string& name) {
        static std::atomic<int> counter{0};
        const auto dir = std::filesystem::path(SPARTS_BINARY_DIR) / "test-db";
        std::filesystem::create_directories(dir);
        path_ = (dir / (name + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + ".db")).string();
        remove();
    }
    ~TempDatabase() { remove(); }
    const std::string& path() const { return path_; }

private:
    void remove() {
        std::error_code ec;
        for (const char* suffix : {"", "-wal", "-shm", "-journal", ".lock"}) std::filesystem::remove(path_ + suffix, ec);
    }
    std::string path_;
};

}  // namespace sparts::test
