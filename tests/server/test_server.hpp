// The real sparts-server, started as a child process for one end-to-end test.
//
// It listens on a free port (--port 0) with its own scratch database and
// --log-level warn; the constructor waits for the line it prints once it
// listens ("listening on 127.0.0.1:<port>") and throws if it exits or stays
// silent instead. The destructor stops it: SIGTERM, then SIGKILL if it has
// not exited after a while. The child is also killed if the test process dies
// (PR_SET_PDEATHSIG), so a crashed test leaves no server behind.
//
// E2E_SERVER_LOG_LEVEL=debug in the environment raises the server's log
// level; its log is kept (output()) and lands in the scratch folder's stderr
// or the test's own output.
#pragma once
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace sparts::e2e {

class TestServer {
public:
    // `flags` come after the defaults (--port 0 --database ... --log-level warn).
    explicit TestServer(std::vector<std::string> flags = {});
    ~TestServer();
    TestServer(const TestServer&) = delete;
    TestServer& operator=(const TestServer&) = delete;

    std::uint16_t port() const { return port_; }
    pid_t pid() const { return pid_; }

    // Sends `signal` and waits up to `timeout` for the server to exit; returns
    // its exit status (128 + signal if a signal ended it), or nothing if it is
    // still running (it is then left to the destructor).
    std::optional<int> stop(int signal, std::chrono::milliseconds timeout);
    // Waits up to `timeout` for the process to exit by itself.
    std::optional<int> wait_exit(std::chrono::milliseconds timeout);
    bool running() const { return pid_ > 0 && !status_; }

    // What the server has written so far (stdout, where its log goes, and stderr).
    std::string output() const;

private:
    void drain();

    pid_t pid_ = -1;
    std::uint16_t port_ = 0;
    std::optional<int> status_;
    int stdout_fd_ = -1;
    std::filesystem::path dir_;
    std::thread drainer_;
    mutable std::mutex mutex_;
    std::string out_;
};

}  // namespace sparts::e2e
