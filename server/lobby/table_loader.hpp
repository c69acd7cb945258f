// Many nodes (server/README.md): brings a table this node does not hold to it,
// when a client asks for it here. The table's lease is taken in the store (at
// once if it is free; while another node holds it, that node is asked to hand
// it over and the lease is tried again every 200 ms, up to twice the lease
// and two seconds more: a dead node's lease expires meanwhile), then the
// table is rebuilt from the store by replaying its game, as a restart does,
// and joins the lobby. Requests for a table being brought are answered once
// it is here, in the order they came. The store's calls run on the archive
// threads, never on an I/O thread.
#pragma once
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>
#include "server/net/hub.hpp"

namespace sparts::server {

class Table;

class TableLoader {
public:
    // The table, or an error code and message for the client.
    using Done = std::function<void(std::shared_ptr<Table> table, std::string code, std::string message)>;
    explicit TableLoader(Hub& hub) : hub_(hub) {}

    void load(const std::string& id, Done done);

private:
    using Clock = std::chrono::steady_clock;
    void attempt(const std::string& id, Clock::time_point deadline);
    void finish(const std::string& id, const std::shared_ptr<Table>& table, const std::string& code,
                const std::string& message);

    Hub& hub_;
    std::mutex mutex_;
    std::unordered_map<std::string, std::vector<Done>> waiting_;  // by table id, in the order asked
};

}  // namespace sparts::server
