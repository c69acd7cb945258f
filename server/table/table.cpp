#include "server/table/table.hpp"

#include <utility>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>
#include "protocol/deal_commitment.hpp"
#include "protocol/server_messages.hpp"
#include "server/base/secret.hpp"
#include "server/host/webhook.hpp"
#include "server/table/rule_sets.hpp"
#include "storage/store.hpp"

namespace sparts::server {

namespace net = boost::asio;

storage::Millis wall_now() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

namespace {

TableDice random_dice() {
    return {[] { return random_seed(); }, [] { return random_hex(static_cast<int>(kDealSaltLength / 2)); }};
}

TableSettings settings_of(const Hub& hub) {
    TableSettings settings = TableSettings::from(hub.config, hub.store != nullptr, hub.webhook != nullptr);
    if (hub.rule_sets) settings.rule_sets = hub.rule_sets->now();
    return settings;
}

}  // namespace

Table::Table(Hub& hub, TableWatcher& watcher, std::string id, std::int64_t number, Ruleset rules, bool is_private,
             std::string invite, int turn_seconds, std::string creator)
    : Table(hub, watcher,
            TableCore(settings_of(hub), hub.metrics,
                      TableIdentity{std::move(id), number, rules, is_private, std::move(invite), turn_seconds,
                                    std::move(creator)},
                      random_dice())) {}

Table::Table(Hub& hub, TableWatcher& watcher, TableCore core)
    : hub_(hub),
      watcher_(watcher),
      strand_(net::make_strand(hub.io)),
      core_(std::move(core)),
      timers_{net::steady_timer(strand_), net::steady_timer(strand_), net::steady_timer(strand_),
              net::steady_timer(strand_)} {
    initial_summary_ = core_.summary();
    hub_.metrics.tables_opened.fetch_add(1, std::memory_order_relaxed);
}

Outcome<std::shared_ptr<Table>, std::string> Table::recover(Hub& hub, TableWatcher& watcher,
                                                             const storage::OpenTableState& stored) {
    auto core = TableCore::recover(settings_of(hub), hub.metrics, random_dice(), stored, now());
    if (!core) return core.error();
    auto table = std::make_shared<Table>(hub, watcher, std::move(*core));
    net::post(table->strand_, [table] { table->carry_out(table->core_.recovered(now())); });
    return table;
}

Moment Table::now() { return {Clock::now(), wall_now()}; }

// --- effects ---------------------------------------------------------------------

void Table::carry_out(TableEffects fx) {
    if (!fx.failure.empty()) spdlog::error("table {}: {}", id(), fx.failure);
    for (const auto& c : fx.followed_by) c->joined(shared_from_this());
    for (const TimerOrder& order : fx.timers) arm(order);
    if (fx.think) think(std::move(*fx.think));
    if (fx.summary_changed && !fx.closed) watcher_.table_changed(core_.summary());
    end_step(std::move(fx.step));
    if (fx.closed) watcher_.table_closed(id(), core_.identity().creator, this);
}

void Table::arm(const TimerOrder& order) {
    auto& timer = timers_[static_cast<std::size_t>(order.timer)];
    if (order.stop) {
        timer.cancel();
        return;
    }
    timer.expires_at(order.at);
    timer.async_wait([self = shared_from_this(), which = order.timer, g = order.generation](boost::system::error_code ec) {
        if (!ec) self->carry_out(self->core_.timer_fired(which, g, now()));
    });
}

void Table::think(BotQuestion q) {
    net::post(hub_.bots, [self = shared_from_this(), q = std::move(q)]() mutable {
        BotAnswer a{q.think, q.seat, q.game, q.seat_actions, Action{}, q.rng};
        try {
            a.action = decide(BotLevel::strong, q.view, q.memory, a.rng, q.options);
        } catch (const std::exception& e) {
            spdlog::error("table {}: the strong bot of seat {} failed ({}); basic plays", self->id(), int(q.seat),
                          e.what());
            a.action = decide(BotLevel::basic, q.view, q.memory, a.rng, q.options);
        }
        net::post(self->strand_, [self, a] { self->carry_out(self->core_.bot_decided(a, now())); });
    });
}

// --- steps: store, then send ------------------------------------------------------

void Table::end_step(TableStep step) {
    if (step.empty()) return;
    Pending p;
    p.id = next_step_++;
    if (step.batch.empty()) {
        p.step = std::move(step);
        p.ready = true;
        steps_.push_back(std::move(p));
        return drain();
    }
    storage::Batch batch = std::move(step.batch);
    step.batch.clear();
    p.step = std::move(step);
    p.submitted = Clock::now();
    const std::uint64_t id = p.id;
    steps_.push_back(std::move(p));
    hub_.store->submit(std::move(batch), [self = shared_from_this(), id] {
        net::post(self->strand_, [self, id] { self->step_committed(id); });
    });
}

void Table::step_committed(std::uint64_t id) {
    for (Pending& p : steps_)
        if (p.id == id) {
            p.ready = true;
            hub_.metrics.commit.observe(std::chrono::duration<double>(Clock::now() - p.submitted).count());
        }
    drain();
}

void Table::drain() {
    while (!steps_.empty() && steps_.front().ready) {
        TableStep& step = steps_.front().step;
        // One hop a connection: its frames of this step, in order.
        for (std::size_t i = 0; i < step.sends.size(); ++i) {
            auto& session = step.sends[i].first;
            if (!session) continue;
            std::vector<Frame> frames;
            for (std::size_t j = i; j < step.sends.size(); ++j)
                if (step.sends[j].first == session) {
                    frames.push_back(std::move(step.sends[j].second));
                    if (j != i) step.sends[j].first.reset();
                }
            session->send(std::move(frames));
        }
        // The host hears of a game's end only once it is committed: never of a game a crash lost.
        if (!step.webhook.empty() && hub_.webhook) {
            if (hub_.store) hub_.webhook->post(id(), step.webhook_game, std::move(step.webhook));
            else hub_.webhook->post(std::move(step.webhook));
        }
        if (step.acted != Clock::time_point{})
            hub_.metrics.action_to_broadcast.observe(std::chrono::duration<double>(Clock::now() - step.acted).count());
        steps_.pop_front();
    }
}

// --- inputs ------------------------------------------------------------------------

void Table::request(std::shared_ptr<Connection> session, PlayerRef player, TableRequest r) {
    net::post(strand_, [self = shared_from_this(), session = std::move(session), player = std::move(player),
                        r = std::move(r)] { self->carry_out(self->core_.request(session, player, r, now())); });
}

void Table::seat_matched(std::vector<std::pair<std::shared_ptr<Connection>, PlayerRef>> players) {
    net::post(strand_, [self = shared_from_this(), players = std::move(players)] {
        self->carry_out(self->core_.seat_matched(players, now()));
    });
}

void Table::connections_changed() {
    net::post(strand_, [self = shared_from_this()] { self->carry_out(self->core_.connections_changed(now())); });
}

void Table::start_grace() { connections_changed(); }

void Table::close(std::string reason) {
    net::dispatch(strand_, [self = shared_from_this(), reason = std::move(reason)] {
        self->carry_out(self->core_.close(reason, now()));
    });
}

void Table::hand_off(std::function<void()> done) {
    net::dispatch(strand_, [self = shared_from_this(), done = std::move(done)]() mutable {
        if (self->core_.closed() || !self->hub_.store) {
            if (done) done();
            return;
        }
        self->carry_out(self->core_.hand_off(now()));
        // After the table's last step in the store's queue: the next node reads all of it.
        self->hub_.store->release(self->id(), [self, done = std::move(done)]() mutable {
            net::post(self->strand_, [self, done = std::move(done)] {
                self->moved_away();
                if (done) done();
            });
        });
    });
}

void Table::lost() {
    net::dispatch(strand_, [self = shared_from_this()] {
        if (self->core_.moved()) return;
        spdlog::warn("table {}: another node holds it now; this node lets it go", self->id());
        self->carry_out(self->core_.lost(now()));
        // Never committed, never to be: their frames go nowhere.
        self->steps_.clear();
        self->moved_away();
    });
}

void Table::moved_away() {
    const std::string closing = closing_frame("moved", id());
    for (const auto& s : core_.let_go()) {
        s->send(closing);
        s->close(CloseCode::table_moved, "table moved: reconnect");
    }
    watcher_.table_closed(id(), core_.identity().creator, this);
}

}  // namespace sparts::server
