#include "server/lobby/table_loader.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <spdlog/spdlog.h>
#include "server/lobby/lobby.hpp"
#include "server/table/table.hpp"
#include "storage/store.hpp"

namespace sparts::server {

namespace net = boost::asio;

void TableLoader::load(const std::string& id, Done done) {
    {
        std::lock_guard lock(mutex_);
        auto& waiting = waiting_[id];
        waiting.push_back(std::move(done));
        if (waiting.size() > 1) return;  // on its way already
    }
    const auto deadline = Clock::now() + std::chrono::milliseconds(2 * hub_.config.lease_ms + 2000);
    attempt(id, deadline);
}

void TableLoader::attempt(const std::string& id, Clock::time_point deadline) {
    net::post(hub_.archive_threads, [this, id, deadline] {
        if (hub_.stopping) return finish(id, nullptr, "shutting_down", "this node is shutting down: reconnect");
        storage::Store::TakeOver taken;
        try {
            taken = hub_.store->take_over(id);
        } catch (const std::exception& e) {
            spdlog::error("table {}: cannot take it over: {}", id, e.what());
            return finish(id, nullptr, "table_unavailable", "table \"" + id + "\" cannot be reached now: try again");
        }
        switch (taken.taken) {
            case storage::Store::Taken::no_such_table:
                return finish(id, nullptr, "no_such_table", "there is no open table \"" + id + "\"");
            case storage::Store::Taken::held_elsewhere: {
                if (Clock::now() >= deadline)
                    return finish(id, nullptr, "table_unavailable",
                                  "table \"" + id + "\" is held by another node that does not let it go: try again");
                auto timer = std::make_shared<net::steady_timer>(hub_.io, std::chrono::milliseconds(200));
                timer->async_wait([this, id, deadline, timer](boost::system::error_code ec) {
                    if (!ec) attempt(id, deadline);
                });
                return;
            }
            case storage::Store::Taken::taken:
                break;
        }
        auto table = Table::recover(hub_, hub_.lobby, *taken.state);
        if (!table) {
            spdlog::error("table {}: taken over, but it cannot be brought back: {}", id, table.error());
            hub_.store->release(id, nullptr);
            return finish(id, nullptr, "internal", "table \"" + id + "\" cannot be brought back");
        }
        spdlog::info("table {}: taken over by node {}", id, hub_.config.node_id);
        hub_.metrics.tables_taken_over.fetch_add(1, std::memory_order_relaxed);
        std::shared_ptr<Table> t = std::move(*table);
        hub_.lobby.adopt(t, [this, id, t] {
            t->start_grace();
            finish(id, t, {}, {});
        });
    });
}

void TableLoader::finish(const std::string& id, const std::shared_ptr<Table>& table, const std::string& code,
                         const std::string& message) {
    std::vector<Done> waiting;
    {
        std::lock_guard lock(mutex_);
        auto it = waiting_.find(id);
        if (it == waiting_.end()) return;
        waiting = std::move(it->second);
        waiting_.erase(it);
    }
    for (auto& done : waiting) done(table, code, message);
}

}  // namespace sparts::server
