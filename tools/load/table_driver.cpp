#include "tools/load/table_driver.hpp"

#include <algorithm>
#include <charconv>
#include <boost/asio/post.hpp>

namespace sparts::load {

namespace net = boost::asio;
using nlohmann::json;

void RunState::error(std::string what) {
    errors.fetch_add(1, std::memory_order_relaxed);
    std::lock_guard lock(error_mutex);
    if (error_samples.size() < 8) error_samples.push_back(std::move(what));
}

namespace {

// Event frames are built by the server as {"type":"event","table":..,"seq":..,"event":{..}}
// with the event's members in key order; the few the generator needs are read
// straight from the text instead of parsing every frame.
constexpr std::string_view kEventPrefix = R"({"type":"event",)";

std::string_view string_member(std::string_view text, std::string_view key) {
    const std::string pattern = "\"" + std::string(key) + "\":\"";
    const auto at = text.find(pattern);
    if (at == std::string_view::npos) return {};
    const auto begin = at + pattern.size();
    const auto end = text.find('"', begin);
    if (end == std::string_view::npos) return {};
    return text.substr(begin, end - begin);
}

int int_member(std::string_view text, std::string_view key) {
    const std::string pattern = "\"" + std::string(key) + "\":";
    const auto at = text.find(pattern);
    if (at == std::string_view::npos) return -1;
    int n = -1;
    const char* first = text.data() + at + pattern.size();
    std::from_chars(first, text.data() + text.size(), n);
    return n;
}

std::string cards_json(const std::vector<std::string>& cards, std::size_t from, std::size_t count) {
    std::string s = "[";
    for (std::size_t i = 0; i < count; ++i) {
        if (i) s += ',';
        s += '"';
        s += cards[from + i];
        s += '"';
    }
    return s + "]";
}

}  // namespace

TableDriver::TableDriver(net::io_context& io, RunState& run, int index)
    : run_(run),
      strand_(net::make_strand(io)),
      index_(index),
      seats_(static_cast<std::size_t>(run.seats)),
      rng_(run.seed * 1000003u + static_cast<std::uint64_t>(index)),
      timer_(strand_) {
    for (int i = 0; i < run.seats; ++i) clients_.push_back(std::make_unique<Client>(strand_, *this, i));
}

void TableDriver::connect() {
    net::post(strand_, [this] {
        // Behind a proxy of many nodes, a table's clients all reach the node its key hashes to,
        // which creates the table and holds it: the key need not be the table's id.
        const std::string path = run_.route_by_table ? "/ws?table=load-" + std::to_string(index_) : "/ws";
        for (auto& c : clients_) c->connect(run_.server, run_.host, path);
    });
}

void TableDriver::start(Clock::duration delay) {
    net::post(strand_, [this, delay] {
        timer_.expires_after(delay);
        timer_.async_wait([this](boost::system::error_code ec) {
            if (ec || stage_ != Stage::seated) return;
            stage_ = Stage::playing;
            // Paced tables start at a random point of their period, so that they do not play in step.
            std::uniform_int_distribution<int> jitter(0, std::max(0, run_.think_ms - 1));
            next_send_ = Clock::now() + std::chrono::milliseconds(run_.think_ms > 0 ? jitter(rng_) : 0);
            clients_[0]->send(R"({"type":"start","table":")" + table_ + "\"}");
        });
    });
}

void TableDriver::on_open(int client) {
    clients_[static_cast<std::size_t>(client)]->send(R"({"type":"hello","protocol":1,"batch":true,"name":"b)" +
                                                      std::to_string(index_) + "-" + std::to_string(client) + "\"}");
}

void TableDriver::on_failed(int client, const std::string& what) {
    if (run_.stopping.load(std::memory_order_relaxed)) return;
    if (stage_ == Stage::connecting) run_.connect_failures.fetch_add(1, std::memory_order_relaxed);
    fail("client " + std::to_string(client) + ": " + what);
}

void TableDriver::fail(const std::string& why) {
    if (stage_ == Stage::failed) return;
    run_.error("table " + std::to_string(index_) + (table_.empty() ? "" : " (" + table_ + ")") + ": " + why);
    if (stage_ < Stage::seated) {
        run_.tables_failed.fetch_add(1, std::memory_order_relaxed);
    } else {
        run_.tables_lost.fetch_add(1, std::memory_order_relaxed);
        if (stage_ == Stage::playing) run_.tables_done.fetch_add(1, std::memory_order_relaxed);
    }
    stage_ = Stage::failed;
    timer_.cancel();
}

void TableDriver::on_frame(int client, std::string_view text) {
    if (run_.measuring.load(std::memory_order_relaxed)) run_.frames.fetch_add(1, std::memory_order_relaxed);
    try {
        if (text.starts_with(kEventPrefix)) return on_event(client, text);
        on_reply(client, text);
    } catch (const std::exception& e) {
        // A frame without what the protocol promises (nlohmann's at() throws): an error, not a crash.
        run_.error("table " + table_ + " client " + std::to_string(client) + ": " + e.what() + " in " +
                   std::string(text.substr(0, 300)));
    }
}

void TableDriver::on_event(int client, std::string_view text) {
    const bool measuring = run_.measuring.load(std::memory_order_relaxed);
    if (text.find(R"("type":"card_played")") != std::string_view::npos) {
        if (client == 0 && measuring) run_.card_plays.fetch_add(1, std::memory_order_relaxed);
        if (pending_.empty()) return;
        const auto event = text.substr(text.find(R"("event":)"));
        const int seat = int_member(event, "seat");
        const auto card = string_member(event, "card");
        const unsigned me = 1u << client;
        // The oldest this client has not read with this seat and card (two decks hold two of a card).
        auto p = std::find_if(pending_.begin(), pending_.end(), [&](const PendingPlay& x) {
            return !(x.seen & me) && x.seat == seat && x.card == card;
        });
        if (p == pending_.end()) return;
        p->seen |= me;
        p->last = Clock::now();
        if (p->seen == (1u << run_.seats) - 1) {
            if (measuring) {
                const auto us = static_cast<std::uint32_t>(
                    std::chrono::duration_cast<std::chrono::microseconds>(p->last - p->sent).count());
                latencies_.add(p->last - p->sent);
                auto seen = run_.interval_max_us.load(std::memory_order_relaxed);
                while (us > seen && !run_.interval_max_us.compare_exchange_weak(seen, us, std::memory_order_relaxed)) {
                }
            }
            pending_.erase(p);
        }
        return;
    }
    if (text.find(R"("type":"game_over")") != std::string_view::npos) {
        Seat& s = seats_[static_cast<std::size_t>(client)];
        s.deciding = false;
        ++s.games;
        if (client == 0 && measuring) run_.games.fetch_add(1, std::memory_order_relaxed);
        const bool more = (run_.games_per_table == 0 || s.games < run_.games_per_table) &&
                          !run_.stopping.load(std::memory_order_relaxed);
        if (more) {
            clients_[static_cast<std::size_t>(client)]->send(R"({"type":"again","table":")" + table_ + "\"}");
        } else if (client == 0 && stage_ == Stage::playing) {
            stage_ = Stage::done;
            run_.tables_done.fetch_add(1, std::memory_order_relaxed);
        }
    }
}

void TableDriver::on_reply(int client, std::string_view text) {
    const json j = json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return run_.error("unreadable frame: " + std::string(text.substr(0, 200)));
    const auto type = j.value("type", std::string());
    const auto c = static_cast<std::size_t>(client);
    if (type == "your_turn") return on_your_turn(client, j);
    if (type == "error") {
        const auto re = j.value("re", std::string());
        if (re == "act") seats_[c].deciding = false;
        if (stage_ < Stage::seated) return fail("refused: " + std::string(text));
        return run_.error("table " + table_ + " client " + std::to_string(client) + ": " + std::string(text));
    }
    if (type != "ok") return;  // snapshot, closing
    const auto re = j.value("re", std::string());
    if (re == "act") {
        seats_[c].deciding = false;
        if (run_.measuring.load(std::memory_order_relaxed)) run_.actions.fetch_add(1, std::memory_order_relaxed);
    } else if (re == "hello" && stage_ == Stage::connecting) {
        run_.connections.fetch_add(1, std::memory_order_relaxed);
        if (++count_ < run_.seats) return;
        stage_ = Stage::create;
        count_ = 0;
        clients_[0]->send(R"({"type":"create_table","ruleset":)" + run_.ruleset + R"(,"turn_seconds":0})");
    } else if (re == "create_table" && stage_ == Stage::create) {
        table_ = j.value("table", std::string());
        stage_ = Stage::sit;
        for (auto& cl : clients_) cl->send(R"({"type":"sit","table":")" + table_ + "\"}");
    } else if (re == "sit" && stage_ == Stage::sit) {
        seats_[c].seat = j.value("seat", -1);
        if (++count_ < run_.seats) return;
        stage_ = Stage::seated;
        run_.tables_seated.fetch_add(1, std::memory_order_relaxed);
    }
}

void TableDriver::on_your_turn(int client, const json& j) {
    if (stage_ != Stage::playing) return;
    Seat& me = seats_[static_cast<std::size_t>(client)];
    if (me.deciding) return;  // asked again while the answer is on its way
    me.deciding = true;
    const json& legal = j.at("legal");
    const auto kind = legal.value("kind", std::string());
    Queued q{client, {}, -1, {}};
    std::string action;
    if (kind == "play") {
        const auto& cards = legal.at("cards");
        std::uniform_int_distribution<std::size_t> pick(0, cards.size() - 1);
        q.card = cards.at(pick(rng_)).get<std::string>();
        q.play_seat = j.value("seat", -1);
        action = R"({"type":"play","card":")" + q.card + "\"}";
    } else if (kind == "bid") {
        // 3 where it is allowed (Spades games then end in a sensible number of hands), else the middle bid.
        const auto& bids = legal.at("bids");
        const json* bid = &bids.at(bids.size() / 2);
        for (const auto& b : bids)
            if (b.is_number_integer() && b.get<int>() == 3) bid = &b;
        action = R"({"type":"bid","bid":)" + bid->dump() + "}";
    } else if (kind == "pass") {
        auto cards = legal.at("cards").get<std::vector<std::string>>();
        const auto count = legal.value("count", std::size_t{0});
        const auto back = legal.value("back_count", std::size_t{0});
        std::shuffle(cards.begin(), cards.end(), rng_);
        action = R"({"type":"pass","cards":)" + cards_json(cards, 0, count);
        if (back > 0) action += R"(,"back":)" + cards_json(cards, count, back);
        action += "}";
    } else if (kind == "choose") {
        const auto& choices = legal.at("choices");
        std::uniform_int_distribution<std::size_t> pick(0, choices.size() - 1);
        action = R"({"type":"choose","game":)" + choices.at(pick(rng_)).dump() + "}";
    } else if (kind == "moon") {
        const auto& choices = legal.at("choices");
        std::uniform_int_distribution<std::size_t> pick(0, choices.size() - 1);
        action = R"({"type":"moon","score":)" + choices.at(pick(rng_)).dump() + "}";
    } else {
        me.deciding = false;
        return run_.error("table " + table_ + ": unknown legal kind in " + j.dump());
    }
    q.frame = R"({"type":"act","table":")" + table_ + R"(","action":)" + action + "}";
    queue_action(std::move(q));
}

void TableDriver::queue_action(Queued q) {
    if (run_.think_ms <= 0) return send_action(std::move(q));
    ready_.push_back(std::move(q));
    arm_pacing();
}

void TableDriver::arm_pacing() {
    if (timer_armed_ || ready_.empty() || stage_ != Stage::playing) return;
    timer_armed_ = true;
    timer_.expires_at(std::max(Clock::now(), next_send_));
    timer_.async_wait([this](boost::system::error_code ec) {
        timer_armed_ = false;
        if (ec || ready_.empty() || stage_ != Stage::playing) return;
        Queued q = std::move(ready_.front());
        ready_.pop_front();
        next_send_ = Clock::now() + std::chrono::milliseconds(run_.think_ms);
        send_action(std::move(q));
        arm_pacing();
    });
}

void TableDriver::send_action(Queued q) {
    if (q.play_seat >= 0) {
        // A play whose card_played some seat never reads (a lost connection) must not pile up.
        if (pending_.size() >= 64) pending_.erase(pending_.begin());
        pending_.push_back(PendingPlay{q.play_seat, std::move(q.card), Clock::now(), 0, {}});
    }
    clients_[static_cast<std::size_t>(q.client)]->send(std::move(q.frame));
}

}  // namespace sparts::load
