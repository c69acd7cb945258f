// A cluster for the end-to-end tests, all real processes on loopback: a fresh
// database in the tests' PostgreSQL (tests/support/postgres.hpp), N
// sparts-server nodes on it (--node-id n0, n1, ...) on ports chosen up front,
// and HAProxy 2.6 in front of them, started with the configuration
// haproxy_config() writes (the one deploy/haproxy/haproxy.cfg describes):
// a WebSocket at /ws?table=ID goes to the node that the table id hashes to
// (consistent hashing over the nodes whose /readyz says 200), anything else
// round robin; the nodes hear of each client through the PROXY protocol v2.
//
// A node can be killed, stopped and continued with a signal, and started
// again on its port; the proxy keeps sending to whichever nodes answer.
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>
#include "support/postgres.hpp"
#include "test_server.hpp"

namespace sparts::e2e {

struct ClusterOptions {
    int nodes = 3;
    int lease_ms = 3000;                  // the server's default
    std::vector<std::string> node_flags;  // added to every node's
};

// HAProxy's configuration for nodes on 127.0.0.1 at `node_ports`, listening at `port`.
std::string haproxy_config(std::uint16_t port, const std::vector<std::uint16_t>& node_ports);

class Cluster {
public:
    explicit Cluster(ClusterOptions options = {});
    ~Cluster();
    Cluster(const Cluster&) = delete;
    Cluster& operator=(const Cluster&) = delete;

    std::uint16_t port() const { return proxy_port_; }  // HAProxy's: where clients connect
    int nodes() const { return static_cast<int>(node_ports_.size()); }
    std::uint16_t node_port(int i) const { return node_ports_[static_cast<std::size_t>(i)]; }
    TestServer& node(int i) { return *nodes_[static_cast<std::size_t>(i)]; }
    bool running(int i) const;
    const sparts::test::TempPgDatabase& database() const { return db_; }

    // Starts node i again (after a kill or an exit), on its port.
    void start(int i);
    // Everything every node has logged so far, for a failed test's message.
    std::string logs() const;

private:
    ClusterOptions options_;
    sparts::test::TempPgDatabase db_;
    std::vector<std::uint16_t> node_ports_;
    std::vector<std::unique_ptr<TestServer>> nodes_;
    std::uint16_t proxy_port_ = 0;
    pid_t proxy_ = -1;
    std::string dir_;
};

// A free TCP port on 127.0.0.1 (free when asked: the caller binds it soon after).
std::uint16_t free_port();

}  // namespace sparts::e2e
