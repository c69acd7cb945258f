// End to end, the operator's side of the real process: /metrics read by a
// strict parser of the Prometheus text format and seen to move as a game is
// played; /healthz and /readyz, also with --database none and while the
// server shuts down; and bad settings refused at start with a message that
// names them.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include "http_client.hpp"
#include "test_client.hpp"
#include "test_server.hpp"

using namespace sparts::e2e;

namespace {

// --- a strict reader of the Prometheus text exposition format (0.0.4) --------------
// https://prometheus.io/docs/instrumenting/exposition_formats/#text-based-format

using Labels = std::map<std::string, std::string>;

struct Sample {
    std::string name;
    Labels labels;
    double value = 0;
};

struct Family {
    std::string type;  // counter, gauge, histogram, summary or untyped
    std::optional<std::string> help;
    std::vector<Sample> samples;
};

struct Exposition {
    std::map<std::string, Family> families;

    // The value of one series; throws if there is no such series.
    double value(const std::string& name, const Labels& labels = {}) const {
        for (const auto& [_, f] : families)
            for (const auto& s : f.samples)
                if (s.name == name && s.labels == labels) return s.value;
        throw std::runtime_error("no series " + name + " in the metrics");
    }
    std::optional<double> find(const std::string& name, const Labels& labels = {}) const {
        try {
            return value(name, labels);
        } catch (const std::runtime_error&) {
            return std::nullopt;
        }
    }
};

bool name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == ':'; }
bool name_char(char c) { return name_start(c) || std::isdigit(static_cast<unsigned char>(c)); }

bool valid_metric_name(const std::string& n) {
    return !n.empty() && name_start(n[0]) && std::all_of(n.begin(), n.end(), name_char);
}
bool valid_label_name(const std::string& n) {
    return !n.empty() && (std::isalpha(static_cast<unsigned char>(n[0])) || n[0] == '_') &&
           std::all_of(n.begin(), n.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// A sample value: a Go ParseFloat number, or +Inf, -Inf, NaN.
std::optional<double> parse_value(const std::string& t) {
    if (t == "+Inf" || t == "Inf") return HUGE_VAL;
    if (t == "-Inf") return -HUGE_VAL;
    if (t == "NaN") return std::nan("");
    if (t.empty()) return std::nullopt;
    for (char c : t)
        if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'))
            return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (end != t.c_str() + t.size()) return std::nullopt;
    return v;
}

// The family a sample belongs to: a histogram's _bucket, _sum and _count (a
// summary's _sum and _count) belong to the histogram (summary).
std::string family_of(const std::string& name, const std::map<std::string, Family>& families) {
    for (const char* suffix : {"_bucket", "_sum", "_count"}) {
        const std::string s = suffix;
        if (name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0) {
            const std::string base = name.substr(0, name.size() - s.size());
            const auto it = families.find(base);
            if (it != families.end() &&
                (it->second.type == "histogram" || (it->second.type == "summary" && s != "_bucket")))
                return base;
        }
    }
    return name;
}

Exposition parse_prometheus(const std::string& text) {
    Exposition x;
    if (text.empty() || text.back() != '\n') throw std::runtime_error("the exposition does not end with a newline");
    std::set<std::string> finished;  // families whose samples are over (samples of one family come together)
    std::string current;             // the family of the latest sample
    std::set<std::pair<std::string, Labels>> series;
    std::size_t start = 0;
    int number = 0;
    while (start < text.size()) {
        const auto nl = text.find('\n', start);
        const std::string line = text.substr(start, nl - start);
        start = nl + 1;
        ++number;
        auto fail = [&](const std::string& why) {
            throw std::runtime_error("line " + std::to_string(number) + ": " + why + ": \"" + line + "\"");
        };
        if (line.find('\r') != std::string::npos) fail("a carriage return");
        if (line.find_first_not_of(" \t") == std::string::npos) continue;  // blank
        if (line[0] == '#') {
            // "# HELP name text", "# TYPE name type", or any other comment.
            std::size_t p = 1;
            while (p < line.size() && (line[p] == ' ' || line[p] == '\t')) ++p;
            const auto word_end = line.find_first_of(" \t", p);
            const std::string keyword = line.substr(p, word_end - p);
            if (keyword != "HELP" && keyword != "TYPE") continue;
            if (word_end == std::string::npos) fail(keyword + " without a metric name");
            p = line.find_first_not_of(" \t", word_end);
            if (p == std::string::npos) fail(keyword + " without a metric name");
            const auto name_end = line.find_first_of(" \t", p);
            const std::string name = line.substr(p, name_end - p);
            if (!valid_metric_name(name)) fail("a bad metric name");
            std::string rest = name_end == std::string::npos ? "" : line.substr(name_end + 1);
            if (keyword == "HELP") {
                // Escapes in help text: \\ and \n only.
                for (std::size_t i = 0; i < rest.size(); ++i)
                    if (rest[i] == '\\' && (i + 1 >= rest.size() || (rest[i + 1] != '\\' && rest[i + 1] != 'n')))
                        fail("a bad escape in HELP");
                    else if (rest[i] == '\\')
                        ++i;
                Family& f = x.families[name];
                if (f.help) fail("a second HELP for " + name);
                if (!f.samples.empty() || finished.contains(name)) fail("HELP after the samples of " + name);
                f.help = rest;
            } else {
                while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\t')) rest.pop_back();
                while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.erase(0, 1);
                static const std::set<std::string> types = {"counter", "gauge", "histogram", "summary", "untyped"};
                if (!types.contains(rest)) fail("an unknown type");
                Family& f = x.families[name];
                if (!f.type.empty()) fail("a second TYPE for " + name);
                if (!f.samples.empty() || finished.contains(name)) fail("TYPE after the samples of " + name);
                f.type = rest;
            }
            continue;
        }
        // name{label="value",...} value [timestamp]
        std::size_t p = 0;
        while (p < line.size() && name_char(line[p])) ++p;
        Sample s;
        s.name = line.substr(0, p);
        if (!valid_metric_name(s.name)) fail("a bad metric name");
        if (p < line.size() && line[p] == '{') {
            ++p;
            for (;;) {
                while (p < line.size() && (line[p] == ' ' || line[p] == '\t')) ++p;
                if (p < line.size() && line[p] == '}') {
                    ++p;
                    break;
                }
                const std::size_t ln = p;
                while (p < line.size() && (std::isalnum(static_cast<unsigned char>(line[p])) || line[p] == '_')) ++p;
                const std::string label = line.substr(ln, p - ln);
                if (!valid_label_name(label)) fail("a bad label name");
                if (label.rfind("__", 0) == 0) fail("a reserved label name");
                if (p + 1 >= line.size() || line[p] != '=' || line[p + 1] != '"') fail("a label without =\"value\"");
                p += 2;
                std::string value;
                for (;;) {
                    if (p >= line.size()) fail("an unterminated label value");
                    const char c = line[p++];
                    if (c == '"') break;
                    if (c == '\\') {
                        if (p >= line.size()) fail("an unterminated escape");
                        const char e = line[p++];
                        if (e == 'n') value += '\n';
                        else if (e == '\\' || e == '"') value += e;
                        else fail("a bad escape in a label value");
                    } else {
                        value += c;
                    }
                }
                if (!s.labels.emplace(label, value).second) fail("label " + label + " twice");
                while (p < line.size() && (line[p] == ' ' || line[p] == '\t')) ++p;
                if (p < line.size() && line[p] == ',') {
                    ++p;
                    continue;
                }
                if (p < line.size() && line[p] == '}') {
                    ++p;
                    break;
                }
                fail("expected , or } after a label");
            }
        }
        if (p >= line.size() || (line[p] != ' ' && line[p] != '\t')) fail("no space before the value");
        std::vector<std::string> tokens;
        for (std::size_t q = p; q < line.size();) {
            q = line.find_first_not_of(" \t", q);
            if (q == std::string::npos) break;
            const auto e = line.find_first_of(" \t", q);
            tokens.push_back(line.substr(q, e - q));
            q = e;
        }
        if (tokens.empty() || tokens.size() > 2) fail("expected a value and perhaps a timestamp");
        const auto v = parse_value(tokens[0]);
        if (!v) fail("a bad value");
        s.value = *v;
        if (tokens.size() == 2) {
            char* end = nullptr;
            (void)std::strtoll(tokens[1].c_str(), &end, 10);
            if (end != tokens[1].c_str() + tokens[1].size()) fail("a bad timestamp");
        }
        const std::string family = family_of(s.name, x.families);
        if (family != current) {
            if (finished.contains(family)) fail("samples of " + family + " are not together");
            if (!current.empty()) finished.insert(current);
            current = family;
        }
        if (!series.emplace(s.name, s.labels).second) fail("the same series twice");
        Family& f = x.families[family];
        if (f.type.empty()) f.type = "untyped";
        if (f.type == "histogram" && s.name == family + "_bucket" && !s.labels.contains("le")) fail("a bucket without le");
        if (f.type == "histogram" && s.name == family) fail("a histogram sample without _bucket, _sum or _count");
        if (f.type != "histogram" && s.labels.contains("le") && f.type != "untyped") fail("le on a " + f.type);
        if (f.type == "counter" && (std::isnan(s.value) || s.value < 0)) fail("a counter below 0");
        f.samples.push_back(std::move(s));
    }
    // Histograms: per label set (le aside), buckets in rising le, cumulative,
    // ending at +Inf equal to _count, with a _sum.
    for (const auto& [name, f] : x.families) {
        if (f.type != "histogram") continue;
        std::map<Labels, std::vector<std::pair<double, double>>> buckets;
        std::map<Labels, double> counts, sums;
        for (const auto& s : f.samples) {
            Labels rest = s.labels;
            if (s.name == name + "_bucket") {
                const auto le = parse_value(rest.at("le"));
                if (!le || std::isnan(*le)) throw std::runtime_error(name + ": a bucket's le is not a number");
                rest.erase("le");
                buckets[rest].emplace_back(*le, s.value);
            } else if (s.name == name + "_count") {
                counts[rest] = s.value;
            } else {
                sums[rest] = s.value;
            }
        }
        if (buckets.empty()) throw std::runtime_error(name + ": a histogram without buckets");
        for (const auto& [labels, list] : buckets) {
            for (std::size_t i = 1; i < list.size(); ++i) {
                if (!(list[i].first > list[i - 1].first)) throw std::runtime_error(name + ": buckets not in rising le");
                if (list[i].second < list[i - 1].second) throw std::runtime_error(name + ": buckets not cumulative");
            }
            if (!std::isinf(list.back().first)) throw std::runtime_error(name + ": no +Inf bucket");
            if (!counts.contains(labels)) throw std::runtime_error(name + ": no _count");
            if (!sums.contains(labels)) throw std::runtime_error(name + ": no _sum");
            if (counts[labels] != list.back().second) throw std::runtime_error(name + ": _count is not the +Inf bucket");
        }
    }
    return x;
}

Exposition scrape(std::uint16_t port) {
    const HttpReply r = http_get(port, "/metrics");
    REQUIRE(r.status == 200);
    CHECK(r.header("content-type").find("text/plain") == 0);
    CHECK(r.header("content-type").find("version=0.0.4") != std::string::npos);
    try {
        return parse_prometheus(r.body);
    } catch (const std::exception& e) {
        FAIL("/metrics is not valid Prometheus text: " << e.what() << "\n" << r.body);
        throw;
    }
}

}  // namespace

TEST_CASE("e2e: the metrics parser refuses broken expositions") {
    // The parser is seen to fail, so that its passing the server's output means something.
    const std::string good = "# HELP a_total A.\n# TYPE a_total counter\na_total 3\n"
                             "# TYPE h histogram\nh_bucket{le=\"0.1\"} 1\nh_bucket{le=\"+Inf\"} 2\nh_sum 0.3\nh_count 2\n";
    CHECK_NOTHROW(parse_prometheus(good));
    for (const std::string& bad : {
             std::string("a 1"),                                                      // no final newline
             std::string("1a 1\n"),                                                   // bad name
             std::string("a{b=\"c} 1\n"),                                             // unterminated label
             std::string("a{b=c} 1\n"),                                               // unquoted label value
             std::string("a{b=\"x\",b=\"y\"} 1\n"),                                   // label twice
             std::string("a one\n"),                                                  // bad value
             std::string("a 1\na 2\n"),                                               // series twice
             std::string("# TYPE a counter\n# TYPE a gauge\na 1\n"),                  // two TYPEs
             std::string("a 1\n# TYPE a counter\n"),                                  // TYPE after samples
             std::string("# TYPE a whatever\na 1\n"),                                 // unknown type
             std::string("# TYPE a counter\na -1\n"),                                 // negative counter
             std::string("a{x=\"1\"} 1\nb 1\na{x=\"2\"} 1\n"),                        // family split
             std::string("# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\nh_sum 1\nh_count 1\n"),
             std::string("# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_sum 1\nh_count 1\n"),  // no +Inf
             std::string("# TYPE h histogram\nh_bucket{le=\"+Inf\"} 2\nh_sum 1\nh_count 3\n"),  // count differs
             std::string("# TYPE h histogram\nh_bucket{le=\"+Inf\"} 2\nh_count 2\n"),  // no sum
             std::string("# TYPE h histogram\nh_bucket{le=\"2\"} 1\nh_bucket{le=\"1\"} 1\nh_bucket{le=\"+Inf\"} 1\nh_sum 1\nh_count 1\n"),
         }) {
        CAPTURE(bad);
        CHECK_THROWS(parse_prometheus(bad));
    }
}

TEST_CASE("e2e: /metrics is valid Prometheus text and its counters follow a game played, with its rule errors by code") {
    TestServer server({"--messages-per-second", "100000"});
    const Exposition before = scrape(server.port());

    // Every metric the operator was promised, with its type and help.
    const std::map<std::string, std::string> promised = {
        {"sparts_connections", "gauge"},
        {"sparts_connections_opened_total", "counter"},
        {"sparts_tables", "gauge"},
        {"sparts_tables_open", "gauge"},
        {"sparts_games_started_total", "counter"},
        {"sparts_games_finished_total", "counter"},
        {"sparts_actions_total", "counter"},
        {"sparts_card_plays_total", "counter"},
        {"sparts_rule_errors_total", "counter"},
        {"sparts_write_queue_drops_total", "counter"},
        {"sparts_action_to_broadcast_seconds", "histogram"},
        {"sparts_commit_seconds", "histogram"},
        {"process_resident_memory_bytes", "gauge"},
    };
    for (const auto& [name, type] : promised) {
        const std::string metric_name = name;  // clang 15 cannot capture a structured binding
        CAPTURE(metric_name);
        REQUIRE(before.families.contains(name));
        CHECK(before.families.at(name).type == type);
        CHECK(before.families.at(name).help.value_or("").size() > 0);
    }
    for (const char* state : {"waiting", "playing", "over"}) CHECK(before.value("sparts_tables", {{"state", state}}) == 0);
    CHECK(before.value("sparts_connections") == 0);
    CHECK(before.value("process_resident_memory_bytes") > 1024 * 1024);

    // A two-seat game of one hand, a spectator, and two moves the rules refuse.
    EventLoop loop;
    TableGame g = set_up_table(loop, server.port(), "metrics", create_table("spartsel", {{"seats", 2}, {"hands", 1}}), 2, 1, 5);
    {
        const Exposition seated = scrape(server.port());
        CHECK(seated.value("sparts_connections") == 3);
        CHECK(seated.value("sparts_tables", {{"state", "waiting"}}) == 1);
        CHECK(seated.value("sparts_tables_open") == 1);
    }
    bool refused_done = false;
    for (auto& b : g.bots) b->pause_when = [&](const Bot& bot) { return !refused_done && bot.turn_kind() == "play"; };
    g.clients[0]->request_ok({{"type", "start"}, {"table", g.table}});
    auto to_play = [&](int s) { return g.seat(s).ready() && g.seat(s).turn_kind() == "play"; };
    run_until(loop, g.all(), [&] { return to_play(0) || to_play(1); }, "a turn to play a card");
    {
        const Exposition playing = scrape(server.port());
        CHECK(playing.value("sparts_tables", {{"state", "playing"}}) == 1);
        CHECK(playing.value("sparts_games_started_total") - before.value("sparts_games_started_total") == 1);
    }
    Bot& mover = to_play(0) ? g.seat(0) : g.seat(1);
    Bot& other = &mover == &g.seat(0) ? g.seat(1) : g.seat(0);
    REQUIRE(!other.hand.empty());
    const std::string others_card = *other.hand.begin();
    const json out_of_turn =
        other.client.request({{"type", "act"}, {"table", g.table}, {"action", {{"type", "play"}, {"card", others_card}}}});
    CHECK(out_of_turn.value("code", "") == "not_your_turn");
    const json not_held =
        mover.client.request({{"type", "act"}, {"table", g.table}, {"action", {{"type", "play"}, {"card", others_card}}}});
    CHECK(not_held.value("code", "") == "card_not_in_hand");
    refused_done = true;
    g.play_to_game_over(loop);
    for (auto& b : g.bots)
        for (const auto& p : b->problems) FAIL_CHECK(p);

    int acts = 0;
    for (int s = 0; s < 2; ++s) acts += g.seat(s).actions;
    const Bot& watcher = *g.bots[2];
    const auto card_plays = std::count_if(watcher.events.begin(), watcher.events.end(),
                                          [](const json& f) { return is_event(f, "card_played"); });
    REQUIRE(card_plays >= 34);  // 17 cards each

    const Exposition after = scrape(server.port());
    auto delta = [&](const std::string& name, const Labels& labels = {}) {
        return after.value(name, labels) - before.find(name, labels).value_or(0);
    };
    CHECK(delta("sparts_connections_opened_total") == 3);
    CHECK(after.value("sparts_connections") == 3);
    CHECK(delta("sparts_games_started_total") == 1);
    CHECK(delta("sparts_games_finished_total") == 1);
    CHECK(after.value("sparts_tables", {{"state", "over"}}) == 1);
    CHECK(after.value("sparts_tables", {{"state", "playing"}}) == 0);
    CHECK(delta("sparts_actions_total") == acts);
    CHECK(delta("sparts_card_plays_total") == static_cast<double>(card_plays));
    CHECK(delta("sparts_rule_errors_total", {{"code", "not_your_turn"}}) == 1);
    CHECK(delta("sparts_rule_errors_total", {{"code", "card_not_in_hand"}}) == 1);
    // Each action's step was timed from its arrival to its broadcast, and each committed.
    CHECK(delta("sparts_action_to_broadcast_seconds_count") >= acts);
    CHECK(delta("sparts_commit_seconds_count") >= acts);
    CHECK(after.value("sparts_commit_seconds_sum") > 0);
    CHECK(after.value("sparts_write_queue_drops_total") == 0);
    CHECK(after.value("process_resident_memory_bytes") > 1024 * 1024);

    // The connections are counted out as they close.
    for (auto& c : g.clients) c->drop();
    const auto deadline = Clock::now() + kWait;
    double open = -1;
    while ((open = scrape(server.port()).value("sparts_connections")) != 0 && Clock::now() < deadline)
        std::this_thread::sleep_for(Millis(20));
    CHECK(open == 0);
}

TEST_CASE("e2e: /healthz and /readyz answer, readyz turns 503 while the server shuts down") {
    TestServer server({"--shutdown-seconds", "20"});
    HttpConnection http(server.port());
    const HttpReply health = http.get("/healthz");
    CHECK(health.status == 200);
    CHECK(health.body == "ok\n");
    const HttpReply ready = http.get("/readyz");
    CHECK(ready.status == 200);
    CHECK(ready.body == "ready\n");
    CHECK(http.get("/nothing-here").status == 404);

    // A client that does not answer the close handshake (its loop is not run)
    // holds the shutdown open: meanwhile the server says it is not ready.
    EventLoop loop;
    TestClient client(loop, server.port(), "readyz");
    client.hello("slow");
    ::kill(server.pid(), SIGTERM);
    HttpReply during;
    const auto deadline = Clock::now() + kWait;
    do {
        during = http.get("/readyz");
    } while (during.status == 200 && Clock::now() < deadline);
    CHECK(during.status == 503);
    CHECK(during.body == "not ready\n");
    CHECK(http.get("/healthz").status == 200);  // alive, though not ready
    CHECK_FALSE(server.wait_exit(Millis(0)).has_value());  // still up, waiting for the client

    // Once the client answers, the server exits cleanly.
    const json closing = client.wait_for([](const json& f) { return f.value("type", "") == "closing"; }, "closing");
    CHECK(closing.at("reason") == "shutdown");
    CHECK(client.wait_closed() == 1001);
    const auto status = server.wait_exit(kWait);
    REQUIRE(status.has_value());
    CHECK(*status == 0);
}

TEST_CASE("e2e: with --database none the server is ready, plays, and says it keeps no archive") {
    TestServer server({"--database", "none", "--messages-per-second", "100000"});
    CHECK(http_get(server.port(), "/healthz").status == 200);
    CHECK(http_get(server.port(), "/readyz").status == 200);
    const HttpReply games = http_get(server.port(), "/api/games");
    CHECK(games.status == 503);
    CHECK(json::parse(games.body).value("error", "") == "no_archive");
    EventLoop loop;
    TableGame g = set_up_table(loop, server.port(), "nodb", create_table("spartsel", {{"seats", 2}, {"hands", 1}}), 2, 0, 9);
    g.clients[0]->request_ok({{"type", "start"}, {"table", g.table}});
    g.play_to_game_over(loop);
    for (auto& b : g.bots)
        for (const auto& p : b->problems) FAIL_CHECK(p);
    const json replay = g.clients[0]->request({{"type", "replay"}, {"table", g.table}, {"game", 1}});
    CHECK(replay.value("code", "") == "no_archive");
    CHECK(stop_server(server, loop) == 0);
}

TEST_CASE("e2e: a bad setting is refused at start, with a message that names it, and nothing is served") {
    const auto dir = std::filesystem::path(SPARTS_BINARY_DIR) / "e2e-scratch" / ("settings-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::string bad_line = (dir / "bad-line.conf").string();
    std::ofstream(bad_line) << "# settings\nport = 0\nturn-seconds = 99999\n";
    const std::string unknown_line = (dir / "unknown.conf").string();
    std::ofstream(unknown_line) << "colour = red\n";

    struct Case {
        std::vector<std::string> args;
        std::vector<std::string> env;
        int status;
        std::vector<std::string> said;  // each must be in standard error
    };
    const std::vector<Case> cases = {
        {{"--colour", "red"}, {}, 2, {"unknown flag \"--colour\""}},
        {{"--port", "eighty"}, {}, 2, {"--port", "expected a whole number", "\"eighty\""}},
        {{"--port", "70000"}, {}, 2, {"--port", "from 0 to 65535", "\"70000\""}},
        {{"--threads=-1"}, {}, 2, {"--threads", "from 0 to 256"}},
        {{"--log-format", "xml"}, {}, 2, {"--log-format", "expected text or json", "\"xml\""}},
        {{"--log-level", "loud"}, {}, 2, {"--log-level", "\"loud\""}},
        {{"--db-sync", "sometimes"}, {}, 2, {"--db-sync", "expected normal or full"}},
        {{"--idle-timeout", "1"}, {}, 2, {"--idle-timeout", "from 2 to 86400"}},
        {{"--port"}, {}, 2, {"--port: expected a value"}},
        {{"stray"}, {}, 2, {"unexpected argument \"stray\""}},
        {{}, {"SPARTS_TURN_SECONDS=soon"}, 2, {"SPARTS_TURN_SECONDS", "expected a whole number", "\"soon\""}},
        {{}, {"SPARTS_MAX_CONNECTIONS=0"}, 2, {"SPARTS_MAX_CONNECTIONS", "from 1 to"}},
        {{"--config", (dir / "missing.conf").string()}, {}, 2, {"--config: cannot read", "missing.conf"}},
        {{"--config", bad_line}, {}, 2, {bad_line + ":3: turn-seconds: expected a whole number from 0 to 3600"}},
        {{}, {"SPARTS_CONFIG=" + unknown_line}, 2, {unknown_line + ":1: unknown setting \"colour\""}},
        // Values that read well but cannot be used: refused when the server starts.
        {{"--address", "not-an-address", "--database", "none", "--port", "0"}, {}, 1, {"cannot start", "not-an-address"}},
        {{"--database", (dir / "no-such-dir" / "x.db").string()}, {}, 1, {"cannot start", "no-such-dir"}},
    };
    for (const Case& c : cases) {
        std::string shown;
        for (const auto& a : c.args) shown += a + " ";
        for (const auto& e : c.env) shown += "[" + e + "] ";
        CAPTURE(shown);
        ChildSetup with_env;
        with_env.env = c.env;
        const ServerRun run = run_server(c.args, with_env);
        REQUIRE(run.status.has_value());
        CHECK(*run.status == c.status);
        CHECK(run.out.find("listening on") == std::string::npos);
        const std::string said = run.err + run.out;  // a refused setting on stderr; a failed start in the log
        CAPTURE(said);
        for (const auto& s : c.said) CHECK_MESSAGE(said.find(s) != std::string::npos, s);
        if (c.status == 2) CHECK(run.err.size() > 0);  // settings are refused on standard error
    }

    // A settings file the server may not read: as root, files are readable
    // whatever their mode, so the server is run as nobody.
    const std::string secret = (dir / "secret.conf").string();
    std::ofstream(secret) << "port = 0\n";
    std::filesystem::permissions(secret, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
    if (::geteuid() == 0) {
        std::filesystem::permissions(dir, std::filesystem::perms::owner_all | std::filesystem::perms::others_exec |
                                              std::filesystem::perms::group_exec);
        ChildSetup as_nobody;
        as_nobody.uid = kNobody;
        const ServerRun run = run_server({"--config", secret, "--database", "none"}, as_nobody);
        REQUIRE(run.status.has_value());
        CHECK(*run.status == 2);
        CHECK(run.err.find("--config: cannot read " + secret) != std::string::npos);
    } else {
        std::filesystem::permissions(secret, std::filesystem::perms::none);
        const ServerRun run = run_server({"--config", secret, "--database", "none"});
        REQUIRE(run.status.has_value());
        CHECK(*run.status == 2);
        CHECK(run.err.find("--config: cannot read " + secret) != std::string::npos);
    }

    // The port taken by another server.
    TestServer first({"--database", "none"});
    const ServerRun taken =
        run_server({"--port", std::to_string(first.port()), "--database", "none"});
    REQUIRE(taken.status.has_value());
    CHECK(*taken.status == 1);
    CHECK((taken.err + taken.out).find("cannot start") != std::string::npos);
    CHECK((taken.err + taken.out).find(std::to_string(first.port())) != std::string::npos);
    std::filesystem::remove_all(dir);
}
