// PendingHello (server/lobby/pending_hello.hpp): whatever path a hello takes,
// its connection is answered and reads on exactly once, even when a path
// drops it.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "server/lobby/pending_hello.hpp"

using namespace sparts;
using namespace sparts::server;

namespace {

class Recorder final : public Connection {
public:
    std::vector<std::string> sent;
    int hellos_done = 0;
    PlayerRef reads_as;
    void send(Frame f) override { sent.push_back(*f); }
    void send(std::vector<Frame> fs) override {
        for (auto& f : fs) sent.push_back(*f);
    }
    void close(CloseCode, std::string) override {}
    void hello_done(PlayerRef player) override {
        ++hellos_done;
        reads_as = std::move(player);
    }
    void joined(std::shared_ptr<Followed>) override {}
    const PlayerRef& player() const override { return reads_as; }
    std::uint64_t serial() const override { return 1; }
    const std::string& address() const override { return address_; }
    std::string address_ = "192.0.2.7";
};

}  // namespace

TEST_CASE("pending hello: a refusal answers once and the connection reads on as nobody") {
    Metrics metrics;
    auto c = std::make_shared<Recorder>();
    {
        PendingHello answer(c, nlohmann::json(3), metrics);
        PendingHello copy = answer;  // another path holds it too
        answer.refuse("unknown_token", "no player has this token");
        copy.refuse("banned", "second answers are not sent");
        copy.welcome(std::make_shared<const Player>(Player{"p1", "Ann"}), "{}");
    }
    REQUIRE(c->sent.size() == 1);
    CHECK(nlohmann::json::parse(c->sent[0])["code"] == "unknown_token");
    CHECK(nlohmann::json::parse(c->sent[0])["id"] == 3);
    CHECK(c->hellos_done == 1);
    CHECK(c->reads_as == nullptr);
    CHECK(metrics.handler_exceptions.load() == 0);
}

TEST_CASE("pending hello: a welcome lets the connection read on as the player") {
    Metrics metrics;
    auto c = std::make_shared<Recorder>();
    auto ann = std::make_shared<const Player>(Player{"p1", "Ann"});
    PendingHello(c, nlohmann::json(1), metrics).welcome(ann, R"({"type":"ok","re":"hello"})");
    REQUIRE(c->sent.size() == 1);
    CHECK(c->hellos_done == 1);
    CHECK(c->reads_as == ann);
}

TEST_CASE("pending hello: a path that drops it unanswered still lets the connection read on, as an internal error") {
    Metrics metrics;
    auto c = std::make_shared<Recorder>();
    {
        PendingHello answer(c, nlohmann::json(9), metrics);
        PendingHello elsewhere = answer;
    }  // both copies gone, nobody answered
    REQUIRE(c->sent.size() == 1);
    CHECK(nlohmann::json::parse(c->sent[0])["code"] == "internal");
    CHECK(nlohmann::json::parse(c->sent[0])["re"] == "hello");
    CHECK(c->hellos_done == 1);
    CHECK(metrics.handler_exceptions.load() == 1);
}
