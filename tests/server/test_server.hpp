// The real sparts-server, started as a child process for one end-to-end test.
//
// It listens on a free port (--port 0) with its own scratch database,
// --log-level warn and the per-address limits on new players, tables and
// archive reads lifted (every test connects from 127.0.0.1); the constructor waits for the line it prints once it
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

// What the child does between fork and exec, for tests of a server that runs
// short of rights or of disk.
struct ChildSetup {
    // Runs the server as this user and group (setgroups, setgid, setuid):
    // only possible when the test runs as root.
    std::optional<uid_t> uid;
    std::optional<gid_t> gid;
    // RLIMIT_FSIZE (soft; the hard limit is left as it is): a write at or
    // past this offset of any file fails with EFBIG.
    std::optional<std::uint64_t> file_size_limit;
    // RLIMIT_NOFILE, soft and hard: how many file descriptors the server may have open.
    std::optional<std::uint64_t> open_files_limit;
    // SIGXFSZ ignored, so that a write over the file size limit fails
    // instead of killing the process.
    bool ignore_sigxfsz = false;
    // "NAME=value" entries added to the environment.
    std::vector<std::string> env;
    // Standard error (where the log goes) into the pipe of standard output
    // rather than a file: a file size limit would cut the log short.
    bool stderr_to_pipe = false;
};

// The user and group "nobody" (65534), for running the server without root's rights.
inline constexpr uid_t kNobody = 65534;

class TestServer {
public:
    // `flags` come after the defaults (--port 0 --database ... --log-level warn).
    explicit TestServer(std::vector<std::string> flags = {});
    TestServer(std::vector<std::string> flags, ChildSetup setup);
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
    // Its scratch folder (removed by the destructor).
    const std::filesystem::path& dir() const { return dir_; }

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

// A run of sparts-server that is expected to end by itself (a refused
// setting, a database it cannot use): `args` are all its arguments, nothing
// is added. Waits up to `timeout` for it to exit, then kills it (status
// nullopt).
struct ServerRun {
    std::optional<int> status;  // the exit status, 128 + signal if a signal ended it
    std::string out;            // its standard output
    std::string err;            // its standard error
};
ServerRun run_server(const std::vector<std::string>& args, const ChildSetup& setup = {},
                     std::chrono::milliseconds timeout = std::chrono::seconds(60));

}  // namespace sparts::e2e
