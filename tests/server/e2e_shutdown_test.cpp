// End to end: SIGTERM and SIGINT stop the server cleanly with clients
// connected: each connection is told ("closing"), closed with 1001, and the
// process exits with status 0.
#include <doctest/doctest.h>

#include <csignal>
#include "test_client.hpp"
#include "test_server.hpp"

using namespace sparts::e2e;

namespace {

void shuts_down_on(int signal, const std::string& label) {
    TestServer server({"--messages-per-second", "100000"});
    EventLoop loop;
    TableGame g = set_up_table(loop, server.port(), label, create_table("spades"), 4, 1, 101);
    g.clients[0]->request_ok({{"type", "start"}, {"table", g.table}});
    Bot& watcher = *g.bots[4];
    run_until(loop, g.all(), [&] { return watcher.last_seq.value_or(0) >= 40; }, "a game under way");
    TestClient lobby_only(loop, server.port(), label + "-lobby");
    lobby_only.hello("lobby");
    TestClient silent(loop, server.port(), label + "-silent");  // has not said hello
    silent.request_ok({{"type", "ping"}});  // (but is connected: the server has answered it)

    const auto sent = Clock::now();
    REQUIRE(server.pid() > 0);
    ::kill(server.pid(), signal);
    std::vector<TestClient*> everyone = {&lobby_only, &silent};
    for (auto& c : g.clients) everyone.push_back(c.get());
    for (TestClient* c : everyone) {
        CAPTURE(c->label());
        const json closing = c->wait_for([](const json& f) { return f.value("type", "") == "closing"; }, "closing");
        CHECK(closing.at("reason") == "shutdown");
        CHECK(c->wait_closed() == 1001);
        // Nothing after the closing frame.
        CHECK(c->received().back() == closing);
    }
    const auto status = server.wait_exit(Millis(20'000));
    const auto took = std::chrono::duration_cast<Millis>(Clock::now() - sent);
    REQUIRE(status.has_value());
    CHECK(*status == 0);
    CHECK(took < Millis(5'000));
    MESSAGE("signal " << signal << ": exited " << *status << " after " << took.count() << " ms");
    CHECK(server.output().find("still open") == std::string::npos);
}

}  // namespace

TEST_CASE("e2e: SIGTERM closes every connection with 1001 after a closing frame, and the server exits 0") {
    shuts_down_on(SIGTERM, "sigterm");
}

TEST_CASE("e2e: SIGINT closes every connection with 1001 after a closing frame, and the server exits 0") {
    shuts_down_on(SIGINT, "sigint");
}
