#include "cluster.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <thread>

namespace sparts::e2e {

namespace {

bool accepts(std::uint16_t port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
    ::close(fd);
    return ok;
}

}  // namespace

std::uint16_t free_port() {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) throw std::runtime_error("bind: no free port");
    socklen_t len = sizeof a;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    ::close(fd);
    return ntohs(a.sin_port);
}

std::string haproxy_config(std::uint16_t port, const std::vector<std::uint16_t>& node_ports) {
    std::string c =
        "global\n"
        "  maxconn 4000\n"
        "defaults\n"
        "  mode http\n"
        "  timeout connect 1s\n"
        // A node that is paused (SIGSTOP) still accepts connections in its kernel: its checks time out.
        "  timeout check 500ms\n"
        "  timeout client 120s\n"
        "  timeout server 120s\n"
        "  timeout tunnel 1h\n"
        // A node that refuses the connection (dead, draining) is tried again, on another node at the last try.
        "  retries 3\n"
        "  option redispatch 1\n"
        "frontend clients\n"
        "  bind 127.0.0.1:" + std::to_string(port) + "\n"
        "  default_backend nodes\n"
        "backend nodes\n"
        // /ws?table=ID: the node the table id hashes to among those up; without it, round robin.
        "  balance url_param table\n"
        "  hash-type consistent\n"
        "  option httpchk GET /readyz\n"
        "  http-check expect status 200\n"
        "  default-server inter 250ms fall 2 rise 2 send-proxy-v2 check-send-proxy\n";
    for (std::size_t i = 0; i < node_ports.size(); ++i)
        c += "  server n" + std::to_string(i) + " 127.0.0.1:" + std::to_string(node_ports[i]) + " check\n";
    return c;
}

Cluster::Cluster(ClusterOptions options) : options_(std::move(options)), db_("cluster") {
    ::signal(SIGPIPE, SIG_IGN);
    for (int i = 0; i < options_.nodes; ++i) node_ports_.push_back(free_port());
    nodes_.resize(node_ports_.size());
    for (int i = 0; i < options_.nodes; ++i) start(i);

    proxy_port_ = free_port();
    dir_ = (std::filesystem::path(SPARTS_BINARY_DIR) / "e2e-scratch" / ("haproxy-" + std::to_string(::getpid()) + "-" +
                                                                        std::to_string(proxy_port_)))
               .string();
    std::filesystem::create_directories(dir_);
    const std::string config = dir_ + "/haproxy.cfg";
    std::ofstream(config) << haproxy_config(proxy_port_, node_ports_);
    const std::string log = dir_ + "/haproxy.log";
    const pid_t parent = ::getpid();
    proxy_ = ::fork();
    if (proxy_ < 0) throw std::runtime_error("fork: " + std::string(std::strerror(errno)));
    if (proxy_ == 0) {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) ::_exit(127);
        const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        ::dup2(fd, STDOUT_FILENO);
        ::dup2(fd, STDERR_FILENO);
        ::execlp("haproxy", "haproxy", "-db", "-f", config.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    for (int tries = 0; !accepts(proxy_port_); ++tries) {
        int status = 0;
        if (::waitpid(proxy_, &status, WNOHANG) == proxy_) {
            proxy_ = -1;
            std::ifstream in(log);
            std::string said((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            throw std::runtime_error("haproxy exited at start (is it installed?): " + said);
        }
        if (tries > 200) throw std::runtime_error("haproxy does not listen on " + std::to_string(proxy_port_));
        std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
}

Cluster::~Cluster() {
    if (proxy_ > 0) {
        ::kill(proxy_, SIGKILL);
        ::waitpid(proxy_, nullptr, 0);
    }
    nodes_.clear();
    std::error_code ec;
    if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
}

void Cluster::start(int i) {
    std::vector<std::string> flags = {"--database",       db_.url(),
                                      "--node-id",        "n" + std::to_string(i),
                                      "--port",           std::to_string(node_ports_[static_cast<std::size_t>(i)]),
                                      "--lease-ms",       std::to_string(options_.lease_ms),
                                      "--trusted-proxies", "127.0.0.1",
                                      "--proxy-protocol", "v2",
                                      "--drain-ms",       "600",
                                      "--messages-per-second", "100000",
                                      "--log-level",      "info"};
    flags.insert(flags.end(), options_.node_flags.begin(), options_.node_flags.end());
    auto& slot = nodes_[static_cast<std::size_t>(i)];
    slot.reset();
    slot = std::make_unique<TestServer>(flags);
}

bool Cluster::running(int i) const {
    const auto& n = nodes_[static_cast<std::size_t>(i)];
    return n && n->running();
}

std::string Cluster::logs() const {
    std::string out;
    for (std::size_t i = 0; i < nodes_.size(); ++i)
        if (nodes_[i]) out += "--- node n" + std::to_string(i) + "\n" + nodes_[i]->output();
    return out;
}

}  // namespace sparts::e2e
