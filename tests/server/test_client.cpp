#include "test_client.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <stdexcept>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

namespace sparts::e2e {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;

// --- the loop -----------------------------------------------------------------

struct EventLoop::Impl {
    net::io_context io{1};
};

EventLoop::EventLoop() : impl(std::make_unique<Impl>()) {}
EventLoop::~EventLoop() = default;

bool EventLoop::run_one(Clock::time_point deadline) {
    auto& io = impl->io;
    if (io.stopped()) io.restart();
    if (io.run_one_until(deadline) > 0) return true;
    if (io.stopped()) io.restart();  // nothing left to run: no reads pending
    return false;
}

// --- the client ---------------------------------------------------------------

struct TestClient::Impl {
    explicit Impl(net::io_context& io) : ws(io) {}
    websocket::stream<tcp::socket> ws;
    beast::flat_buffer buffer;
    int reads = 0;  // async reads in flight (0 or 1)

    void read(TestClient* owner) {
        ++reads;
        ws.async_read(buffer, [this, owner](beast::error_code ec, std::size_t) {
            --reads;
            if (ec) {
                // A close frame that came in counts even if answering it
                // failed (a server that fails the connection, as for a frame
                // too big, may not wait for the answer).
                if (ec == websocket::error::closed || ws.reason().code != websocket::close_code::none)
                    owner->on_closed(ws.reason().code, ws.reason().reason.c_str());
                else
                    owner->on_closed(std::nullopt, ec.message());
                return;
            }
            std::string text = beast::buffers_to_string(buffer.data());
            buffer.consume(buffer.size());
            owner->on_frame(std::move(text));
            read(owner);
        });
    }
};

namespace {

std::filesystem::path frame_log_path(std::string& label) {
    static std::map<std::string, int> used;
    if (const int n = ++used[label]; n > 1) label += "-" + std::to_string(n);
    std::string file = label;
    for (char& c : file)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
    // SPARTS_FRAMES_DIR: where a run that checks the logs against the schemas wants them.
    const char* chosen = std::getenv("SPARTS_FRAMES_DIR");
    const auto dir = chosen && *chosen ? std::filesystem::path(chosen) : std::filesystem::path(SPARTS_BINARY_DIR) / "frames";
    std::filesystem::create_directories(dir);
    return dir / (file + ".jsonl");
}

}  // namespace

TestClient::TestClient(EventLoop& loop, std::uint16_t port, std::string label)
    : TestClient(loop, port, std::move(label), Connect{}) {}

TestClient::TestClient(EventLoop& loop, std::uint16_t port, std::string label, const Connect& how)
    : loop_(loop), label_(std::move(label)), impl_(std::make_unique<Impl>(loop.impl->io)) {
    log_.open(frame_log_path(label_), std::ios::trunc);
    const tcp::endpoint server(net::ip::address_v4::loopback(), port);
    auto& socket = impl_->ws.next_layer();
    if (!how.source.empty()) {
        socket.open(tcp::v4());
        socket.bind(tcp::endpoint(net::ip::make_address(how.source), 0));
    }
    socket.connect(server);
    socket.set_option(tcp::no_delay(true));
    if (!how.headers.empty())
        impl_->ws.set_option(websocket::stream_base::decorator([headers = how.headers](websocket::request_type& req) {
            // The test's headers replace the defaults of the same name; a name given twice is sent on two lines.
            for (const auto& [name, value] : headers) req.erase(name);
            for (const auto& [name, value] : headers) req.insert(name, value);
        }));
    impl_->ws.handshake("127.0.0.1:" + std::to_string(port), how.path);
    impl_->read(this);
}

TestClient::~TestClient() {
    drop();
    log_.flush();
}

void TestClient::drop() {
    beast::error_code ignored;
    auto& socket = impl_->ws.next_layer();
    if (socket.is_open()) {
        socket.shutdown(tcp::socket::shutdown_both, ignored);
        socket.close(ignored);
    }
    // The pending read completes (aborted) before this client may go.
    const auto deadline = Clock::now() + kWait;
    while (impl_->reads > 0 && loop_.run_one(deadline)) {
    }
    if (!closed_) on_closed(std::nullopt, "dropped by the test");
}

void TestClient::record(const json& line) { log_ << line.dump(-1, ' ', false, json::error_handler_t::replace) << '\n'; }

void TestClient::on_frame(std::string text) {
    json frame = json::parse(text, nullptr, false);
    if (frame.is_discarded()) frame = json{{"type", "<not JSON>"}, {"text", text}};
    record({{"dir", "out"}, {"frame", frame}});
    received_.push_back(frame);
    inbox_.push_back(std::move(frame));
}

void TestClient::on_closed(std::optional<int> code, const std::string& why) {
    if (closed_) return;
    closed_ = true;
    close_code_ = code;
    close_why_ = why;
    record({{"dir", "out"}, {"close", code ? json(*code) : json(nullptr)}, {"why", why}});
    log_.flush();
}

bool TestClient::write(const std::string& text, bool binary) {
    if (closed_) return false;
    auto& ws = impl_->ws;
    ws.binary(binary);
    bool done = false;
    beast::error_code result;
    ws.async_write(net::buffer(text), [&](beast::error_code ec, std::size_t) {
        done = true;
        result = ec;
    });
    const auto deadline = Clock::now() + kWait;
    while (!done && loop_.run_one(deadline)) {
    }
    if (!done) throw std::runtime_error(label_ + ": a write did not finish in time");
    return !result;
}

bool TestClient::send(const json& frame) {
    record({{"dir", "in"}, {"frame", frame}});
    return write(frame.dump(), false);
}

bool TestClient::send_text(const std::string& text) {
    const json parsed = json::parse(text, nullptr, false);
    if (parsed.is_discarded()) record({{"dir", "in"}, {"text", text}});
    else record({{"dir", "in"}, {"frame", parsed}});
    return write(text, false);
}

bool TestClient::send_binary(const std::string& bytes) {
    record({{"dir", "in"}, {"binary_bytes", bytes.size()}});
    return write(bytes, true);
}

bool TestClient::pump(Clock::time_point deadline) { return loop_.run_one(deadline); }

std::optional<json> TestClient::poll() {
    if (inbox_.empty()) return std::nullopt;
    json f = std::move(inbox_.front());
    inbox_.pop_front();
    return f;
}

std::optional<json> TestClient::receive(Millis timeout) {
    const auto deadline = Clock::now() + timeout;
    while (inbox_.empty() && !closed_ && pump(deadline)) {
    }
    return poll();
}

std::string TestClient::recent() const {
    std::ostringstream out;
    const std::size_t from = received_.size() > 6 ? received_.size() - 6 : 0;
    for (std::size_t i = from; i < received_.size(); ++i) {
        std::string s = received_[i].dump();
        if (s.size() > 300) s = s.substr(0, 300) + "...";
        out << "\n    " << s;
    }
    return out.str();
}

json TestClient::wait_for(const std::function<bool(const json&)>& pred, const std::string& what, Millis timeout) {
    const auto deadline = Clock::now() + timeout;
    std::size_t scanned = 0;
    for (;;) {
        for (; scanned < inbox_.size(); ++scanned) {
            if (pred(inbox_[scanned])) {
                json f = std::move(inbox_[scanned]);
                inbox_.erase(inbox_.begin() + static_cast<std::ptrdiff_t>(scanned));
                return f;
            }
        }
        if (closed_)
            throw std::runtime_error(label_ + ": closed (" + (close_code_ ? std::to_string(*close_code_) : "no code") +
                                     ", " + close_why_ + ") while waiting for " + what + "; last frames:" + recent());
        if (!pump(deadline))
            throw std::runtime_error(label_ + ": no " + what + " within " + std::to_string(timeout.count()) +
                                     " ms; last frames:" + recent());
    }
}

json TestClient::request(json request, Millis timeout) {
    if (!request.contains("id")) request["id"] = next_id_++;
    const json id = request["id"];
    const std::string type = request.value("type", "?");
    send(request);
    return wait_for(
        [&](const json& f) {
            const auto t = f.value("type", "");
            return (t == "ok" || t == "error") && f.contains("id") && f["id"] == id;
        },
        "reply to " + type + " " + id.dump(), timeout);
}

json TestClient::request_ok(json req, Millis timeout) {
    const std::string text = req.dump();
    json reply = request(std::move(req), timeout);
    if (reply.value("type", "") != "ok")
        throw std::runtime_error(label_ + ": " + text + " was refused: " + reply.dump());
    return reply;
}

json TestClient::hello(const std::string& name, const std::optional<std::string>& token) {
    json h = {{"type", "hello"}, {"protocol", 1}, {"name", name}};
    if (token) h["token"] = *token;
    json reply = request(h);
    if (reply.value("type", "") == "ok") {
        player_ = reply.value("player", "");
        if (reply.contains("token")) token_ = reply["token"].get<std::string>();
        else if (token) token_ = *token;
    }
    return reply;
}

std::optional<int> TestClient::wait_closed(Millis timeout) {
    const auto deadline = Clock::now() + timeout;
    while (!closed_ && pump(deadline)) {
    }
    if (!closed_) return std::nullopt;
    return close_code_.value_or(1006);
}

// --- the bot ------------------------------------------------------------------

Bot::Bot(TestClient& c, std::string t, int s, std::uint64_t seed) : client(c), table(std::move(t)), seat(s), rng_(seed) {}

void Bot::problem(const std::string& what) {
    if (problems.size() < 20) problems.push_back(client.label() + ": " + what);
}

void Bot::step() {
    while (auto f = client.poll()) handle(*f);
    if (acting && ready() && !(pause_when && pause_when(*this))) act();
}

std::string Bot::turn_kind() const { return turn ? turn->at("legal").value("kind", "") : ""; }

namespace {
std::vector<std::string> strings_of(const json& cards) {
    std::vector<std::string> v;
    if (cards.is_array())
        for (const auto& c : cards) v.push_back(c.get<std::string>());
    return v;
}
}  // namespace

void Bot::handle(const json& f) {
    const std::string type = f.value("type", "");
    if (type == "event") {
        if (f.value("table", "") != table) return problem("an event of another table: " + f.dump());
        const auto seq = f.at("seq").get<std::uint64_t>();
        if (last_seq && seq != *last_seq + 1)
            problem("event seq " + std::to_string(seq) + " after " + std::to_string(*last_seq));
        last_seq = seq;
        events.push_back(f);
        const json& e = f.at("event");
        const std::string kind = e.value("type", "");
        const int who = e.value("seat", -2);
        // A move for this seat was made (by it, or by the server for it), or
        // its time ran out: a your_turn from before that is answered.
        const bool mine = seat >= 0 && (((kind == "bid_made" || kind == "card_played" || kind == "hand_kind_chosen" ||
                                          kind == "turn_timed_out") && who == seat) ||
                                        (kind == "cards_passed" && e.value("from", -2) == seat));
        if (mine && turn && turn->at("seq").get<std::uint64_t>() < seq) turn.reset();
        if (kind == "hand_started") {
            hand.clear();
            trick_cards = 0;
            ++hands_started;
        } else if ((kind == "cards_dealt" || kind == "cards_received" || kind == "center_taken") && who == seat) {
            for (auto& c : strings_of(e.value("cards", json::array()))) hand.insert(c);
            if (!e.contains("cards") && e.value("count", 0) > 0) problem("my own cards were not shown to me: " + e.dump());
        } else if (kind == "cards_passed" && e.value("from", -2) == seat) {
            for (auto& c : strings_of(e.value("cards", json::array()))) hand.erase(c);
        } else if (kind == "card_played") {
            ++trick_cards;
            if (who == seat && hand.erase(e.at("card").get<std::string>()) == 0 && seat >= 0)
                problem("played a card it did not hold: " + e.dump());
        } else if (kind == "trick_won" || kind == "play_started") {
            trick_cards = 0;
        } else if (kind == "game_over") {
            game_over = f;
            ++games_over;
            turn.reset();
        } else if (kind == "deal_revealed") {
            ++deals_revealed;
        }
    } else if (type == "snapshot") {
        const auto seq = f.at("seq").get<std::uint64_t>();
        if (last_seq && seq < *last_seq) problem("a snapshot older than events seen: " + f.dump());
        last_seq = seq;
        const json& view = f.at("view");
        if (seat >= 0 && view.is_object()) {
            hand.clear();
            for (auto& c : strings_of(view.value("hand", json::array()))) hand.insert(c);
            trick_cards = static_cast<int>(view.at("trick").at("cards").size());
        }
    } else if (type == "your_turn") {
        ++turns;
        if (seat < 0) return problem("a spectator was sent your_turn: " + f.dump());
        if (f.value("seat", -1) != seat) problem("your_turn for another seat: " + f.dump());
        const auto seq = f.at("seq").get<std::uint64_t>();
        if (!last_seq || seq != *last_seq) problem("your_turn at seq " + std::to_string(seq) + " after event " +
                                                   (last_seq ? std::to_string(*last_seq) : "none"));
        const json& legal = f.at("legal");
        if (legal.value("kind", "") == "play" || legal.value("kind", "") == "pass")
            for (const auto& c : strings_of(legal.at("cards")))
                if (!hand.contains(c)) problem("legal card " + c + " is not in the hand it was dealt: " + f.dump());
        // A your_turn from before our last action was answered already.
        if (seq >= answered_seq_) turn = f;
    } else if (type == "ok" || type == "error") {
        const json id = f.value("id", json());
        if (awaiting_ && id.is_string() && id.get<std::string>() == *awaiting_) {
            awaiting_.reset();
            // A table that moved to another node (many nodes) did not apply it: the client
            // reconnects, resumes, and is asked again.
            if (type == "error" && f.value("code", "") == "table_moved") return;
            if (type == "error") return problem("its action was refused: " + f.dump());
            answered_seq_ = f.at("seq").get<std::uint64_t>();
            if (turn && turn->at("seq").get<std::uint64_t>() < answered_seq_) turn.reset();
        } else if (type == "error") {
            problem("an error it did not ask for: " + f.dump());
        }
    } else if (type == "quick_play_matched") {
        // Seated by quick play: the snapshot that follows says all.
    } else if (type == "chat" || type == "chat_history") {
        // Table chat takes no seq and asks for no move; it must be this table's all the same.
        if (f.value("table", "") != table) problem("chat of another table: " + f.dump());
    } else if (type == "closing") {
        // The server is shutting down; the test says whether that was expected.
    } else {
        problem("a frame of unknown type: " + f.dump());
    }
}

json Bot::choose() {
    const json& legal = turn.value().at("legal");
    const std::string kind = legal.at("kind").get<std::string>();
    auto pick = [&](std::size_t n) { return static_cast<std::size_t>(std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_)); };
    if (kind == "play") {
        const json& cards = legal.at("cards");
        return {{"type", "play"}, {"card", cards[pick(cards.size())]}};
    }
    if (kind == "bid" && (legal.value("blind_nil", false) || legal.value("show_cards", false))) {
        // Blind nil, the cards face down: now and then bid it, else look at them.
        if (legal.value("blind_nil", false) && (!legal.value("show_cards", false) || pick(4) == 0))
            return {{"type", "bid"}, {"bid", "blind_nil"}};
        return {{"type", "show_cards"}};
    }
    if (kind == "bid") {
        // Modest bids, so that contracts are often made and games end in a
        // few hands (random bids make spades games run to the hand cap).
        std::vector<json> modest, numbers;
        for (const auto& b : legal.at("bids")) {
            if (!b.is_number_integer()) continue;
            numbers.push_back(b);
            if (b.get<int>() >= 1 && b.get<int>() <= 3) modest.push_back(b);
        }
        json bid = !modest.empty() ? modest[pick(modest.size())] : !numbers.empty() ? numbers.front() : legal.at("bids")[0];
        return {{"type", "bid"}, {"bid", bid}};
    }
    if (kind == "pass") {
        std::vector<std::string> cards = strings_of(legal.at("cards"));
        std::shuffle(cards.begin(), cards.end(), rng_);
        const auto count = legal.at("count").get<std::size_t>();
        const auto back = legal.value("back_count", std::size_t{0});
        json action = {{"type", "pass"},
                       {"cards", std::vector<std::string>(cards.begin(), cards.begin() + static_cast<std::ptrdiff_t>(count))}};
        if (back > 0)
            action["back"] = std::vector<std::string>(cards.begin() + static_cast<std::ptrdiff_t>(count),
                                                      cards.begin() + static_cast<std::ptrdiff_t>(count + back));
        return action;
    }
    if (kind == "choose") {
        const json& choices = legal.at("choices");
        return {{"type", "choose"}, {"game", choices[pick(choices.size())]}};
    }
    if (kind == "moon") {
        const json& choices = legal.at("choices");
        return {{"type", "moon"}, {"score", choices[pick(choices.size())]}};
    }
    throw std::runtime_error(client.label() + ": a legal move of unknown kind: " + legal.dump());
}

void Bot::act(const json& action) {
    awaiting_ = "bot-" + std::to_string(next_act_++);
    answered_seq_ = turn ? turn->at("seq").get<std::uint64_t>() + 1 : answered_seq_;
    turn.reset();
    ++actions;
    client.send({{"type", "act"}, {"table", table}, {"action", action}, {"id", *awaiting_}});
}

void run_until(EventLoop& loop, const std::vector<Bot*>& bots, const std::function<bool()>& done,
               const std::string& what, Millis timeout) {
    const auto deadline = Clock::now() + timeout;
    for (;;) {
        for (Bot* b : bots) b->step();
        if (done()) return;
        if (!loop.run_one(deadline)) {
            std::ostringstream out;
            out << "no " << what << " within " << timeout.count() << " ms:";
            for (Bot* b : bots)
                out << "\n  " << b->client.label() << " seat " << b->seat << ": last seq "
                    << (b->last_seq ? std::to_string(*b->last_seq) : "none") << ", turn "
                    << (b->turn ? b->turn->dump() : "none") << ", actions " << b->actions << ", closed "
                    << b->client.closed();
            throw std::runtime_error(out.str());
        }
    }
}

// --- tables -------------------------------------------------------------------

std::vector<Bot*> TableGame::all() const {
    std::vector<Bot*> v;
    for (const auto& b : bots) v.push_back(b.get());
    return v;
}

void TableGame::play_to_game_over(EventLoop& loop, int games, Millis timeout) {
    run_until(
        loop, all(),
        [&] {
            return std::all_of(bots.begin(), bots.end(), [&](const auto& b) { return b->games_over >= games; });
        },
        "game over at " + table, timeout);
}

std::optional<int> stop_server(TestServer& server, EventLoop& loop, Millis timeout) {
    if (!server.running()) return server.wait_exit(Millis(0));
    ::kill(server.pid(), SIGTERM);
    const auto deadline = Clock::now() + timeout;
    for (;;) {
        if (auto status = server.wait_exit(Millis(0))) return status;
        if (Clock::now() >= deadline) return std::nullopt;
        if (!loop.run_one(Clock::now() + Millis(20))) server.wait_exit(Millis(20));
    }
}

void collect(const std::vector<Bot*>& bots, std::map<std::uint64_t, json>& told) {
    for (const Bot* b : bots)
        for (const auto& f : b->events) {
            auto& kept = told[f.at("seq").get<std::uint64_t>()];
            if (kept.is_null() || f.dump().size() > kept.dump().size()) kept = f.at("event");
        }
}

std::string fresh_database_path(const std::string& name) {
    const auto dir = std::filesystem::path(SPARTS_BINARY_DIR) / "test-db";
    std::filesystem::create_directories(dir);
    const auto path = (dir / (name + "-" + std::to_string(::getpid()) + ".db")).string();
    for (const char* suffix : {"", "-wal", "-shm", ".lock"}) std::filesystem::remove(path + suffix);
    return path;
}

json create_table(const std::string& preset, const json& options, int turn_seconds) {
    return {{"type", "create_table"},
            {"ruleset", {{"preset", preset}, {"options", options}}},
            {"turn_seconds", turn_seconds}};
}

TableGame set_up_table(EventLoop& loop, std::uint16_t port, const std::string& label, const json& create, int seats,
                       int spectators, std::uint64_t seed) {
    TableGame g;
    g.seats = seats;
    for (int i = 0; i < seats + spectators; ++i) {
        const std::string name = i < seats ? "s" + std::to_string(i) : "w" + std::to_string(i - seats);
        g.clients.push_back(std::make_unique<TestClient>(loop, port, label + "-" + name));
        const json hello = g.clients.back()->hello(label + " " + name);
        if (hello.value("type", "") != "ok") throw std::runtime_error("hello refused: " + hello.dump());
    }
    const json created = g.clients[0]->request_ok(create);
    g.table = created.at("table").get<std::string>();
    g.invite = created.value("invite", "");
    for (int i = 0; i < seats + spectators; ++i) {
        TestClient& c = *g.clients[static_cast<std::size_t>(i)];
        json req = i < seats ? json{{"type", "sit"}, {"table", g.table}, {"seat", i}} : json{{"type", "watch"}, {"table", g.table}};
        if (!g.invite.empty()) req["invite"] = g.invite;
        c.request_ok(req);
        g.bots.push_back(std::make_unique<Bot>(c, g.table, i < seats ? i : -1, seed * 1000 + static_cast<std::uint64_t>(i)));
    }
    return g;
}

}  // namespace sparts::e2e
