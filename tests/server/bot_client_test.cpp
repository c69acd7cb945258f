// sparts-bot (tools/bot_client/) against a real sparts-server: it creates a
// table, fills it with server bots of a given level and plays whole games; and
// two bot programs share one table, the second sitting at the first's table
// and starting it. The server's strong bots think off the table's strand
// (--bot-budget-ms); the games end, and no move of the program is refused.
#include <doctest/doctest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "test_server.hpp"

#ifdef SPARTS_BOT

using namespace sparts::e2e;

namespace {

struct Run {
    int exit_code = -1;
    std::string out;
};

std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Runs shell text (the bot program's path is SPARTS_BOT); its output goes to a file of the scratch folder.
Run run_shell(const TestServer& server, const std::string& name, const std::string& command) {
    const auto out = server.dir() / (name + ".out");
    const int status = std::system((command + " >" + out.string() + " 2>&1").c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out)};
}

std::string bot(const TestServer& server, const std::string& args) {
    return std::string(SPARTS_BOT) + " --port " + std::to_string(server.port()) + " --timeout-seconds 240 " + args;
}

}  // namespace

TEST_CASE("sparts-bot plays whole games against the server's strong bots") {
    TestServer server({"--messages-per-second", "100000", "--bot-delay-ms", "0", "--bot-budget-ms", "2"});
    const Run r = run_shell(server, "strong",
                            bot(server, "--create sparts --server-bot-level strong --level strong --budget-ms 2 "
                                        "--games 2 --name Strong"));
    INFO(r.out);
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("game 1 over") != std::string::npos);
    CHECK(r.out.find("game 2 over") != std::string::npos);
}

TEST_CASE("sparts-bot plays Spades hands and bga-sparts' choice, passing and bids") {
    TestServer server({"--messages-per-second", "100000", "--bot-delay-ms", "0"});
    for (const char* preset : {"bga-sparts", "spades"}) {
        INFO(preset);
        const Run r = run_shell(server, preset,
                                bot(server, std::string("--create ") + preset +
                                                " --server-bot-level random --level basic --games 1"));
        INFO(r.out);
        CHECK(r.exit_code == 0);
        CHECK(r.out.find("game 1 over") != std::string::npos);
    }
}

TEST_CASE("two sparts-bot programs share a table") {
    TestServer server({"--messages-per-second", "100000", "--bot-delay-ms", "0"});
    // The first creates table t1 with two server bots and waits for a fourth
    // player; the second sits at t1 and starts the game.
    const std::string first = bot(server, "--create spartsel --server-bots 2 --level basic --name First");
    const std::string second = bot(server, "--table t1 --start --level random --name Second --seed 7");
    const auto first_out = server.dir() / "first.out";
    const Run r = run_shell(server, "second",
                            "(" + first + " >" + first_out.string() + " 2>&1 & sleep 1; " + second +
                                "; status=$?; wait $! || exit 10; exit $status)");
    INFO(r.out);
    INFO(slurp(first_out));
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("game 1 over") != std::string::npos);
    CHECK(slurp(first_out).find("game 1 over") != std::string::npos);
}

#endif  // SPARTS_BOT
