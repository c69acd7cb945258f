#include "test_server.hpp"

#include <fcntl.h>
#include <poll.h>
#include <grp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <stdexcept>

namespace sparts::e2e {

namespace {

using Clock = std::chrono::steady_clock;

// A sanitizer build starts slowly; a healthy one prints its line at once.
constexpr auto kStartTimeout = std::chrono::seconds(60);

int exit_status(int raw) {
    if (WIFEXITED(raw)) return WEXITSTATUS(raw);
    if (WIFSIGNALED(raw)) return 128 + WTERMSIG(raw);
    return -1;
}

std::string read_file(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The environment of the child: this process's, with `extra` added (an entry
// of the same name replaced). Built before fork: the child may not allocate.
std::vector<std::string> child_environment(const std::vector<std::string>& extra) {
    std::vector<std::string> env;
    for (char** e = environ; *e; ++e) {
        const std::string entry(*e);
        const auto name = entry.substr(0, entry.find('=') + 1);
        bool replaced = false;
        for (const auto& x : extra) replaced = replaced || x.rfind(name, 0) == 0;
        if (!replaced) env.push_back(entry);
    }
    env.insert(env.end(), extra.begin(), extra.end());
    return env;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
    std::vector<char*> v;
    for (auto& s : strings) v.push_back(s.data());
    v.push_back(nullptr);
    return v;
}

// In the child, between fork and exec: async-signal-safe calls only. Exits
// the child (status 126) if a step fails, rather than running it half set up.
void apply_in_child(const ChildSetup& setup) {
    if (setup.ignore_sigxfsz) ::signal(SIGXFSZ, SIG_IGN);
    if (setup.file_size_limit) {
        rlimit limit{};
        if (::getrlimit(RLIMIT_FSIZE, &limit) != 0) ::_exit(126);
        limit.rlim_cur = static_cast<rlim_t>(*setup.file_size_limit);
        if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) ::_exit(126);
    }
    if (setup.open_files_limit) {
        rlimit limit{};
        limit.rlim_cur = limit.rlim_max = static_cast<rlim_t>(*setup.open_files_limit);
        if (::setrlimit(RLIMIT_NOFILE, &limit) != 0) ::_exit(126);
    }
    if (setup.gid || setup.uid) {
        const gid_t gid = setup.gid.value_or(static_cast<gid_t>(setup.uid.value_or(kNobody)));
        if (::setgroups(0, nullptr) != 0 || ::setgid(gid) != 0) ::_exit(126);
        if (setup.uid && ::setuid(*setup.uid) != 0) ::_exit(126);
    }
}

}  // namespace

TestServer::TestServer(std::vector<std::string> flags) : TestServer(std::move(flags), ChildSetup{}) {}

TestServer::TestServer(std::vector<std::string> flags, ChildSetup setup) {
    // A write to a socket the server has closed must fail, not end the test.
    ::signal(SIGPIPE, SIG_IGN);

    static std::atomic<int> started{0};
    dir_ = std::filesystem::path(SPARTS_BINARY_DIR) / "e2e-scratch" /
           (std::to_string(::getpid()) + "-" + std::to_string(++started));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);

    // Every test comes from 127.0.0.1: the per-address limits on creation and archive reads
    // are lifted unless a test sets them (its flags come after these, and the last one wins).
    std::vector<std::string> args = {SPARTS_SERVER,          "--port",      "0", "--database",
                                     (dir_ / "sparts.db").string(), "--log-level", "warn",
                                     "--players-per-address-per-minute", "1000000", "--tables-per-address", "1000000",
                                     "--archive-reads-per-minute", "1000000"};
    args.insert(args.end(), flags.begin(), flags.end());
    // To see what the server says while a test runs: E2E_SERVER_LOG_LEVEL=debug (the last flag wins).
    if (const char* level = std::getenv("E2E_SERVER_LOG_LEVEL")) {
        args.push_back("--log-level");
        args.push_back(level);
    }
    std::vector<char*> argv = pointers(args);
    std::vector<std::string> env = child_environment(setup.env);
    std::vector<char*> envp = pointers(env);

    int pipe_fds[2];
    if (::pipe2(pipe_fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe: " + std::string(std::strerror(errno)));
    const std::string err_path = (dir_ / "stderr").string();
    const int err_fd = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (err_fd < 0) throw std::runtime_error("open " + err_path + ": " + std::strerror(errno));

    const pid_t parent = ::getpid();
    pid_ = ::fork();
    if (pid_ < 0) throw std::runtime_error("fork: " + std::string(std::strerror(errno)));
    if (pid_ == 0) {
        // The child: only async-signal-safe calls from here to exec.
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) ::_exit(127);
        ::dup2(pipe_fds[1], STDOUT_FILENO);
        ::dup2(setup.stderr_to_pipe ? pipe_fds[1] : err_fd, STDERR_FILENO);
        apply_in_child(setup);
        ::execve(argv[0], argv.data(), envp.data());
        ::_exit(127);
    }
    ::close(pipe_fds[1]);
    ::close(err_fd);
    stdout_fd_ = pipe_fds[0];

    // Read until the line that says where it listens.
    const std::string marker = "listening on ";
    const auto deadline = Clock::now() + kStartTimeout;
    std::string seen;
    for (;;) {
        if (const auto at = seen.find(marker); at != std::string::npos) {
            if (const auto nl = seen.find('\n', at); nl != std::string::npos) {
                const std::string line = seen.substr(at, nl - at);  // listening on 127.0.0.1:<port>
                port_ = static_cast<std::uint16_t>(std::stoi(line.substr(line.rfind(':') + 1)));
                break;
            }
        }
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        pollfd p{stdout_fd_, POLLIN, 0};
        const int ready = left > 0 ? ::poll(&p, 1, static_cast<int>(left)) : 0;
        char buffer[4096];
        const ssize_t n = ready > 0 ? ::read(stdout_fd_, buffer, sizeof buffer) : 0;
        if (ready < 0 && errno == EINTR) continue;
        if (n <= 0) {
            const bool exited = ready > 0;  // end of output: the server is gone
            ::kill(pid_, SIGKILL);
            int raw = 0;
            ::waitpid(pid_, &raw, 0);
            status_ = exit_status(raw);
            ::close(stdout_fd_);
            throw std::runtime_error(std::string("sparts-server ") + (exited ? "exited" : "printed no port in time") +
                                     " (status " + std::to_string(*status_) + "); output:\n" + seen +
                                     read_file(dir_ / "stderr"));
        }
        seen.append(buffer, static_cast<std::size_t>(n));
    }
    out_ = seen;
    drainer_ = std::thread([this] { drain(); });
}

void TestServer::drain() {
    // The server's log goes to stdout: keep reading so that it never blocks on a full pipe.
    char buffer[4096];
    for (;;) {
        const ssize_t n = ::read(stdout_fd_, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        std::lock_guard lock(mutex_);
        out_.append(buffer, static_cast<std::size_t>(n));
    }
}

std::optional<int> TestServer::wait_exit(std::chrono::milliseconds timeout) {
    if (status_) return status_;
    const auto deadline = Clock::now() + timeout;
    for (;;) {
        int raw = 0;
        const pid_t r = ::waitpid(pid_, &raw, WNOHANG);
        if (r == pid_) {
            status_ = exit_status(raw);
            return status_;
        }
        if (Clock::now() >= deadline) return std::nullopt;
        // Polling a child's exit: there is nothing to wait on with a deadline.
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

std::optional<int> TestServer::stop(int signal, std::chrono::milliseconds timeout) {
    if (status_) return status_;
    ::kill(pid_, signal);
    return wait_exit(timeout);
}

std::string TestServer::output() const {
    std::string text;
    {
        std::lock_guard lock(mutex_);
        text = out_;
    }
    return text + read_file(dir_ / "stderr");
}

TestServer::~TestServer() {
    if (!status_ && !stop(SIGTERM, std::chrono::seconds(20))) {
        ::kill(pid_, SIGKILL);
        wait_exit(std::chrono::seconds(20));
    }
    if (drainer_.joinable()) drainer_.join();
    if (stdout_fd_ >= 0) ::close(stdout_fd_);
    if (std::getenv("E2E_SERVER_LOG_LEVEL")) std::cerr << "--- sparts-server " << pid_ << " said:\n" << output();
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
}

ServerRun run_server(const std::vector<std::string>& arguments, const ChildSetup& setup, std::chrono::milliseconds timeout) {
    static std::atomic<int> runs{0};
    const auto dir = std::filesystem::path(SPARTS_BINARY_DIR) / "e2e-scratch" /
                     ("run-" + std::to_string(::getpid()) + "-" + std::to_string(++runs));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    std::vector<std::string> args = {SPARTS_SERVER};
    args.insert(args.end(), arguments.begin(), arguments.end());
    std::vector<char*> argv = pointers(args);
    std::vector<std::string> env = child_environment(setup.env);
    std::vector<char*> envp = pointers(env);
    const std::string out_path = (dir / "stdout").string();
    const std::string err_path = (dir / "stderr").string();
    const int out_fd = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    const int err_fd = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (out_fd < 0 || err_fd < 0) throw std::runtime_error("open " + out_path + ": " + std::strerror(errno));

    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) throw std::runtime_error("fork: " + std::string(std::strerror(errno)));
    if (pid == 0) {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) ::_exit(127);
        ::dup2(out_fd, STDOUT_FILENO);
        ::dup2(err_fd, STDERR_FILENO);
        apply_in_child(setup);
        ::execve(argv[0], argv.data(), envp.data());
        ::_exit(127);
    }
    ::close(out_fd);
    ::close(err_fd);
    ServerRun run;
    const auto deadline = Clock::now() + timeout;
    for (;;) {
        int raw = 0;
        if (::waitpid(pid, &raw, WNOHANG) == pid) {
            run.status = exit_status(raw);
            break;
        }
        if (Clock::now() >= deadline) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, &raw, 0);
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    run.out = read_file(out_path);
    run.err = read_file(err_path);
    std::filesystem::remove_all(dir);
    return run;
}

}  // namespace sparts::e2e
