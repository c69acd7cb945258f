// The table core's inputs, its effects, its making and recovery, and what it
// tells the lobby and the admin API. The rules of each request are in
// table_core_seats.cpp, table_core_play.cpp and table_core_chat.cpp; turns,
// bots and time in table_core_turns.cpp.
#include "server/table/table_core.hpp"
#include "server/table/rule_sets.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "protocol/action_json.hpp"
#include "protocol/json_text.hpp"
#include "protocol/overloaded.hpp"
#include "protocol/reply.hpp"
#include "protocol/ruleset_json.hpp"
#include "protocol/server_messages.hpp"
#include "storage/store.hpp"

namespace sparts::server {

using nlohmann::json;

TableSettings TableSettings::from(const Config& config, bool stored, bool webhook) {
    TableSettings s;
    s.history_events = config.history_events;
    s.chat_history = config.chat_history;
    s.absent_bot = parse_bot_level(config.absent_bot_level).value_or(BotLevel::basic);
    s.bot_delay_ms = config.bot_delay_ms;
    s.bot_budget_ms = config.bot_budget_ms;
    s.absent_after_missed_turns = config.absent_after_missed_turns;
    s.grace_seconds = config.table_grace_seconds;
    s.node_id = config.node_id;
    s.stored = stored;
    s.webhook = webhook;
    return s;
}

TableCore::TableCore(TableSettings settings, Metrics& metrics, TableIdentity identity, TableDice dice)
    : settings_(std::move(settings)),
      metrics_(metrics),
      identity_(std::move(identity)),
      dice_(std::move(dice)),
      chat_(settings_.chat_history) {
    if (settings_.rule_sets) rule_set_ = settings_.rule_sets->of(identity_.rules);
    report_state(Reported::waiting);
}

Outcome<TableCore, std::string> TableCore::recover(TableSettings settings, Metrics& metrics, TableDice dice,
                                                   const storage::OpenTableState& stored, Moment now) {
    const auto& t = stored.table;
    auto doc = parse_json_text(t.ruleset);
    if (!doc) return "table " + t.id + ": its ruleset is not JSON: " + doc.error().message();
    auto rules = ruleset_from_json(*doc);
    if (!rules) return "table " + t.id + ": its ruleset is refused: " + rules.error().message();
    TableCore x(std::move(settings), metrics,
                TableIdentity{t.id, t.number, *rules, t.is_private, t.invite, t.turn_seconds, t.creator}, std::move(dice));
    for (std::size_t s = 0; s < stored.seats.size() && s < x.seats_.size(); ++s) {
        x.seats_[s].player = stored.seats[s].player;
        x.seats_[s].name = stored.seats[s].name;
        x.seats_[s].bot = stored.seats[s].bot;
        // A bot comes back at its level (seats stored before schema version 4 have none: basic).
        x.seats_[s].level = parse_bot_level(stored.seats[s].level).value_or(BotLevel::basic);
    }
    x.seq_ = stored.last_seq;
    // Who held a seat before the restart and left is not kept: the holders now are.
    x.note_holders();
    const Ruleset& r = x.identity_.rules;
    if (stored.game > 0) {
        auto created = Game::create(r, stored.seed);
        if (!created) return "table " + t.id + ": " + created.error().message;
        x.game_.emplace(std::move(*created));
        x.game_number_ = stored.game;
        x.deal_salt_ = stored.salt;
        x.reset_bots(stored.seed);
        // Who began the game is stored; who left since, not: a starter who holds no seat now
        // is taken to have left before the restart, and the hands played so far count as such.
        const auto starters = storage::GameTally::starters_of(stored.players);
        x.tally_ = storage::GameTally(r, starters);
        for (std::size_t s = 0; s < starters.size() && s < x.seats_.size(); ++s)
            x.tally_.set_held(static_cast<int>(s), x.seats_[s].player == starters[s]);
        auto scan = [&](std::span<const Event> events) {
            for (const Event& e : events) {
                for (BotMemory& m : x.memories_) m.observe(e);
                x.tally_.observe(e);
                x.observe_scored(e);
            }
        };
        scan(x.game_->start());
        for (std::size_t i = 0; i < stored.actions.size(); ++i) {
            const auto& a = stored.actions[i];
            auto json_action = parse_json_text(a.action);
            if (!json_action) return "table " + t.id + ": action " + std::to_string(i) + " is not JSON";
            auto action = action_from_json(*json_action);
            if (!action) return "table " + t.id + ": action " + std::to_string(i) + ": " + action.error().message();
            auto applied = x.game_->apply(static_cast<Seat>(a.seat), *action);
            if (!applied)
                return "table " + t.id + ": action " + std::to_string(i) + " is refused on replay: " +
                       applied.error().message;
            scan(*applied);
            if (a.seat >= 0 && a.seat < kMaxSeats) ++x.seat_actions_[static_cast<std::size_t>(a.seat)];
        }
        if (r.game_clock_seconds > 0 && !x.game_->over()) {
            // The clock runs on from where it stood when the server stopped.
            const auto used = std::max<storage::Millis>(0, stored.last_event_at - stored.game_started);
            const auto left = std::max<storage::Millis>(0, r.game_clock_seconds * 1000LL - used);
            x.clock_deadline_ = now.steady + std::chrono::milliseconds(left);
        }
    }
    // A returning client is told the steps from here on; from before the restart, a snapshot.
    if (x.game_) x.history_.restart(x.game_->state());
    x.report_state(x.playing_state());
    return x;
}

TableEffects TableCore::recovered(Moment now) {
    begin(now);
    if (identity_.rules.game_clock_seconds > 0 && game_ && !game_->over()) arm(TableTimer::clock, clock_deadline_);
    schedule();
    check_grace();
    return finish();
}

// --- effects ------------------------------------------------------------------

void TableCore::begin(Moment now) {
    now_ = now;
    effects_ = TableEffects{};
}

TableEffects TableCore::finish() { return std::exchange(effects_, TableEffects{}); }

void TableCore::send(const From& to, std::string text) {
    send(to, std::make_shared<const std::string>(std::move(text)));
}

void TableCore::send(const From& to, Frame frame) { effects_.step.sends.emplace_back(to, std::move(frame)); }

void TableCore::store(storage::Write w) {
    if (settings_.stored) effects_.step.batch.push_back(std::move(w));
}

void TableCore::store_seat(int seat) {
    const SeatState& st = seats_[static_cast<std::size_t>(seat)];
    store(storage::PutSeat{identity_.id, seat, st.player, st.name, st.bot, st.bot ? to_string(st.level) : ""});
}

void TableCore::follow(const From& c) { effects_.followed_by.push_back(c); }

void TableCore::arm(TableTimer timer, TableClock::time_point at) {
    effects_.timers.push_back({timer, ++generation(timer), at, false});
}

void TableCore::stop(TableTimer timer) { effects_.timers.push_back({timer, ++generation(timer), {}, true}); }

// --- inputs -------------------------------------------------------------------

TableEffects TableCore::request(const From& s, const PlayerRef& p, const TableRequest& r, Moment now) {
    begin(now);
    const std::string& id = identity_.id;
    if (moved_) {
        send(s, error_reply(r.id, request_type(r.body), "table_moved",
                            "table \"" + id + "\" moved to another node: reconnect to /ws?table=" + id +
                                " and send this again"));
        return finish();
    }
    if (closed_) {
        send(s, error_reply(r.id, request_type(r.body), "no_such_table", "table \"" + id + "\" is closed"));
        return finish();
    }
    try {
        // Every table request has its handler here: one missing does not build.
        std::visit(overloaded{[&](const Sit& b) { on_sit(s, p, r.id, b); },
                              [&](const Leave& b) { on_leave(s, p, r.id, b); },
                              [&](const Watch& b) { on_watch(s, p, r.id, b); },
                              [&](const AddBot& b) { on_add_bot(s, p, r.id, b); },
                              [&](const Start& b) { on_start(s, p, r.id, b); },
                              [&](const Again& b) { on_again(s, p, r.id, b); },
                              [&](const Act& b) { on_act(s, p, r.id, b); },
                              [&](const Resume& b) { on_resume(s, p, r.id, b); },
                              [&](const Chat& b) { on_chat(s, p, r.id, b); },
                              [&](const Mute& b) { on_mute(s, p, r.id, b); }},
                   r.body);
    } catch (const std::exception& e) {
        // A defect of ours: the request gets an answer, the table plays on; the shell logs why.
        metrics_.handler_exceptions.fetch_add(1, std::memory_order_relaxed);
        send(s, error_reply(r.id, request_type(r.body), "internal", "the server failed to handle this request"));
        TableEffects fx = finish();
        fx.failure = std::string(request_type(r.body)) + " threw: " + e.what();
        return fx;
    }
    return finish();
}

TableEffects TableCore::seat_matched(const std::vector<std::pair<From, PlayerRef>>& players, Moment now) {
    begin(now);
    if (closed_ || game_number_ > 0) return finish();
    const int seats = identity_.rules.seats;
    const int humans = std::min(static_cast<int>(players.size()), seats);
    for (int seat = 0; seat < seats; ++seat) {
        SeatState& st = seats_[static_cast<std::size_t>(seat)];
        st = SeatState{};
        if (seat < humans) {
            const PlayerRef& p = players[static_cast<std::size_t>(seat)].second;
            st.player = p->id;
            st.name = p->name;
            publish_table_event(seat_taken_event(seat, p->id, p->name));
            store_seat(seat);
        } else {
            seat_bot(seat);
        }
    }
    new_game();
    // Connected only now: what came before is in the snapshot, so that each client starts from
    // one snapshot and the events after it, as after a sit.
    for (int seat = 0; seat < humans; ++seat) {
        const auto& session = players[static_cast<std::size_t>(seat)].first;
        if (!session) continue;  // gone just now: the seat is the player's, played for it until it comes back
        seats_[static_cast<std::size_t>(seat)].session = session;
        follow(session);
        send(session, quick_play_matched_frame(identity_.id, seat));
        send_snapshot(session, seat);
        prompt_seat(session, seat);
    }
    summary_changed();
    check_grace();
    return finish();
}

TableEffects TableCore::timer_fired(TableTimer timer, std::uint64_t g, Moment now) {
    begin(now);
    if (g != generation(timer)) return finish();
    switch (timer) {
        case TableTimer::turn: on_turn_timeout(); break;
        case TableTimer::bot: on_bot_turn(); break;
        case TableTimer::clock: on_clock(); break;
        case TableTimer::grace:
            if (!closed_) return close("abandoned", now);  // nobody came back within the grace period
            break;
    }
    return finish();
}

TableEffects TableCore::connections_changed(Moment now) {
    begin(now);
    check_grace();
    return finish();
}

TableEffects TableCore::close(const std::string& reason, Moment now) {
    begin(now);
    close_table(reason);
    return finish();
}

void TableCore::close_table(const std::string& reason) {
    if (closed_) return;
    publish_table_event(table_closed_event(reason));
    store(storage::CloseTable{identity_.id, reason, now_.wall});
    set_closed(false);
    spectators_.clear();
    for (auto& st : seats_) st.session.reset();
    report_state(Reported::none);
    metrics_.tables_closed.fetch_add(1, std::memory_order_relaxed);
    effects_.closed = true;
}

TableEffects TableCore::hand_off(Moment now) {
    begin(now);
    if (closed_) return finish();
    metrics_.tables_handed_off.fetch_add(1, std::memory_order_relaxed);
    set_closed(true);
    return finish();
}

TableEffects TableCore::lost(Moment now) {
    begin(now);
    if (moved_) return finish();
    metrics_.tables_lost.fetch_add(1, std::memory_order_relaxed);
    set_closed(true);
    return finish();
}

void TableCore::set_closed(bool moved) {
    closed_ = true;
    moved_ = moved_ || moved;
    stop_timers();
}

std::vector<std::shared_ptr<Connection>> TableCore::let_go() {
    std::vector<std::shared_ptr<Connection>> following;
    for (auto& st : seats_)
        if (auto s = st.session.lock()) following.push_back(std::move(s));
    for (auto& w : spectators_)
        if (auto s = w.lock()) following.push_back(std::move(s));
    std::sort(following.begin(), following.end());
    following.erase(std::unique(following.begin(), following.end()), following.end());
    spectators_.clear();
    for (auto& st : seats_) st.session.reset();
    report_state(Reported::none);
    return following;
}

TableCore::Removal TableCore::admin_remove(const std::string& player, Moment now) {
    begin(now);
    Removal out;
    if (closed_) {
        out.seat = -2;
        out.effects = finish();
        return out;
    }
    const int seat = seat_of(player);
    out.seat = seat;
    if (seat < 0) {
        out.effects = finish();
        return out;
    }
    const bool playing = game_ && !game_->over();
    // Published while the seat is still theirs, so that their connection is told why it
    // hears no more of the table. (A player who leaves is not sent its own seat_left.)
    publish_table_event(seat_left_event(seat, "removed_by_admin"));
    seats_[static_cast<std::size_t>(seat)] = SeatState{};
    chat_.forget(player);
    // Then as when a player leaves (on_leave): mid-game a bot plays the seat until someone takes it.
    if (playing) seat_bot(seat);
    else store_seat(seat);
    if (std::find(removed_.begin(), removed_.end(), player) == removed_.end()) removed_.push_back(player);
    summary_changed();
    schedule();
    check_grace();
    out.bot = playing;
    out.effects = finish();
    return out;
}

// --- reads ----------------------------------------------------------------------

storage::OpenTable TableCore::record(storage::Millis now) const {
    const TableIdentity& t = identity_;
    return storage::OpenTable{t.id,         t.number,     dump_text(to_json(t.rules)), to_string(t.rules.preset),
                              t.rules.seats, t.is_private, t.invite,                    t.turn_seconds,
                              t.creator,     now};
}

std::optional<TableAdminView> TableCore::admin_view() const {
    if (closed_) return std::nullopt;
    TableAdminView view;
    json seats = json::array();
    for (int i = 0; i < identity_.rules.seats; ++i) {
        const SeatState& st = seats_[static_cast<std::size_t>(i)];
        const auto session = st.session.lock();
        seats.push_back({{"seat", i},
                         {"player", st.human() ? json(st.player) : json(nullptr)},
                         {"name", st.empty() ? json(nullptr) : json(st.name)},
                         {"bot", st.bot},
                         {"connected", st.human() && session != nullptr},
                         {"absent", st.absent}});
        if (session) view.followers.emplace_back(session->serial(), i);
    }
    int spectators = 0;
    for (const auto& w : spectators_)
        if (const auto s = w.lock()) {
            ++spectators;
            view.followers.emplace_back(s->serial(), -1);
        }
    view.info = {{"table", identity_.id},
                 {"preset", to_string(identity_.rules.preset)},
                 {"ruleset", to_json(identity_.rules)},
                 {"private", identity_.is_private},
                 {"state", state_name()},
                 {"game", game_number_},
                 {"turn_seconds", identity_.turn_seconds},
                 {"creator", identity_.creator},
                 {"seats", std::move(seats)},
                 {"spectators", spectators}};
    return view;
}

std::string TableCore::state_name() const {
    if (!game_) return "waiting";
    return game_->over() ? "over" : "playing";
}

TableSummary TableCore::summary() const {
    TableSummary t;
    t.id = identity_.id;
    t.preset = identity_.rules.preset;
    t.ruleset = to_json(identity_.rules);
    t.seats = identity_.rules.seats;
    for (int s = 0; s < identity_.rules.seats; ++s) {
        const auto i = static_cast<std::size_t>(s);
        t.seat_players[i] = seats_[i].bot ? "bot" : seats_[i].player;
        t.seat_names[i] = seats_[i].name;
    }
    t.is_private = identity_.is_private;
    t.turn_seconds = identity_.turn_seconds;
    t.state = state_name();
    t.game = game_number_;
    t.spectators = static_cast<int>(spectators_.size());
    t.creator = identity_.creator;
    if (rule_set_) t.rule_set = RuleSets::brief(*rule_set_);
    return t;
}

TableCore::Reported TableCore::playing_state() const {
    return !game_ ? Reported::waiting : game_->over() ? Reported::over : Reported::playing;
}

void TableCore::report_state(Reported state) {
    if (state == reported_) return;
    auto gauge = [&](Reported r) -> std::atomic<std::int64_t>* {
        switch (r) {
            case Reported::waiting: return &metrics_.tables_waiting;
            case Reported::playing: return &metrics_.tables_playing;
            case Reported::over: return &metrics_.tables_over;
            case Reported::none: return nullptr;
        }
        return nullptr;
    };
    if (auto* g = gauge(reported_)) g->fetch_sub(1, std::memory_order_relaxed);
    if (auto* g = gauge(state)) g->fetch_add(1, std::memory_order_relaxed);
    reported_ = state;
}

}  // namespace sparts::server
