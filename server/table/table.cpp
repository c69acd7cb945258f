#include "server/table/table.hpp"

#include <stdexcept>
#include <utility>

#include <spdlog/spdlog.h>
#include "engine/standings.hpp"
#include "engine/view.hpp"
#include "protocol/action_json.hpp"
#include "protocol/deal_commitment.hpp"
#include "protocol/event_json.hpp"
#include "protocol/json_text.hpp"
#include "protocol/reply.hpp"
#include "protocol/ruleset_json.hpp"
#include "protocol/view_json.hpp"
#include "server/host/webhook.hpp"
#include "server/base/secret.hpp"
#include "storage/store.hpp"

namespace sparts::server {

namespace net = boost::asio;
using nlohmann::json;

storage::Millis wall_now() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

namespace {

constexpr std::size_t kMaxSpectators = 256;

Frame share(std::string s) { return std::make_shared<const std::string>(std::move(s)); }

json seat_player(const std::string& id, const std::string& name) { return {{"id", id}, {"name", name}}; }

// The event envelope around an already serialized event.
std::string envelope(const std::string& table, std::uint64_t seq, const std::string& body) {
    std::string s;
    s.reserve(40 + table.size() + body.size());
    s += R"({"type":"event","table":")";
    s += table;
    s += R"(","seq":)";
    s += std::to_string(seq);
    s += R"(,"event":)";
    s += body;
    s += '}';
    return s;
}

}  // namespace

Table::Table(Hub& hub, TableWatcher& watcher, std::string id, std::int64_t number, Ruleset rules, bool is_private,
             std::string invite, int turn_seconds, std::string creator)
    : hub_(hub),
      watcher_(watcher),
      strand_(net::make_strand(hub.io)),
      id_(std::move(id)),
      number_(number),
      rules_(rules),
      is_private_(is_private),
      invite_(std::move(invite)),
      turn_seconds_(turn_seconds),
      creator_(std::move(creator)),
      rng_(random_seed(), 0),
      turn_timer_(strand_),
      bot_timer_(strand_),
      clock_timer_(strand_),
      grace_timer_(strand_) {
    initial_summary_ = summary();
    hub_.metrics.tables_opened.fetch_add(1, std::memory_order_relaxed);
    report_state(Reported::waiting);
}

storage::OpenTable Table::record() const {
    return storage::OpenTable{id_,           number_,       dump_text(to_json(rules_)), to_string(rules_.preset),
                              rules_.seats,  is_private_,   invite_,                turn_seconds_,
                              creator_,      wall_now()};
}

Outcome<std::shared_ptr<Table>, std::string> Table::recover(Hub& hub, TableWatcher& watcher,
                                                             const storage::OpenTableState& stored) {
    const auto& t = stored.table;
    auto doc = parse_json_text(t.ruleset);
    if (!doc) return "table " + t.id + ": its ruleset is not JSON: " + doc.error().message();
    auto rules = ruleset_from_json(*doc);
    if (!rules) return "table " + t.id + ": its ruleset is refused: " + rules.error().message();
    auto table = std::make_shared<Table>(hub, watcher, t.id, t.number, *rules, t.is_private, t.invite, t.turn_seconds, t.creator);
    Table& x = *table;
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
    if (stored.game > 0) {
        auto created = Game::create(x.rules_, stored.seed);
        if (!created) return "table " + t.id + ": " + created.error().message;
        x.game_.emplace(std::move(*created));
        x.game_number_ = stored.game;
        x.deal_salt_ = stored.salt;
        x.reset_bots(stored.seed);
        // Who began the game is stored; who left since, not: a starter who holds no seat now
        // is taken to have left before the restart, and the hands played so far count as such.
        const auto starters = storage::GameTally::starters_of(stored.players);
        x.tally_ = storage::GameTally(x.rules_, starters);
        for (std::size_t s = 0; s < starters.size() && s < x.seats_.size(); ++s)
            x.tally_.set_held(static_cast<int>(s), x.seats_[s].player == starters[s]);
        auto scan = [&](std::span<const Event> events) {
            for (const Event& e : events) {
                for (BotMemory& m : x.memories_) m.observe(e);
                x.tally_.observe(e);
                if (const auto* scored = std::get_if<HandScored>(&e)) {
                    x.hand_scored_sides_ = 0;
                    for (const auto& side : scored->sides) {
                        if (side.seats == 0) break;
                        x.side_seats_[static_cast<std::size_t>(x.hand_scored_sides_++)] = side.seats;
                    }
                }
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
        if (x.rules_.game_clock_seconds > 0 && !x.game_->over()) {
            // The clock runs on from where it stood when the server stopped.
            const auto used = std::max<storage::Millis>(0, stored.last_event_at - stored.game_started);
            const auto left = std::max<storage::Millis>(0, x.rules_.game_clock_seconds * 1000LL - used);
            x.clock_deadline_ = Clock::now() + std::chrono::milliseconds(left);
        }
    }
    // A returning client is told the steps from here on; from before the restart, a snapshot.
    if (x.game_) x.history_.restart(x.game_->state());
    x.initial_summary_ = x.summary();
    x.report_state(!x.game_ ? Reported::waiting : x.game_->over() ? Reported::over : Reported::playing);
    net::post(x.strand_, [table] {
        if (table->rules_.game_clock_seconds > 0 && table->game_ && !table->game_->over()) {
            table->clock_timer_.expires_at(table->clock_deadline_);
            table->clock_timer_.async_wait(
                [self = table, g = ++table->clock_generation_](boost::system::error_code ec) {
                    if (!ec) self->on_clock(g);
                });
        }
        table->schedule();
        table->check_grace();
    });
    return table;
}

// --- steps: store, then send ------------------------------------------------------

void Table::send(const std::shared_ptr<Connection>& s, std::string text) { send(s, share(std::move(text))); }

void Table::send(const std::shared_ptr<Connection>& s, Frame frame) { step_.sends.emplace_back(s, std::move(frame)); }

void Table::store(storage::Write w) {
    if (hub_.store) step_.batch.push_back(std::move(w));
}

void Table::end_step() {
    if (step_.sends.empty() && step_.batch.empty()) return;
    Step step = std::move(step_);
    step_ = Step{};
    step.id = next_step_++;
    if (step.batch.empty()) {
        step.ready = true;
        steps_.push_back(std::move(step));
        return drain();
    }
    storage::Batch batch = std::move(step.batch);
    step.batch.clear();
    step.submitted = Clock::now();
    const std::uint64_t id = step.id;
    steps_.push_back(std::move(step));
    hub_.store->submit(std::move(batch), [self = shared_from_this(), id] {
        net::post(self->strand_, [self, id] { self->step_committed(id); });
    });
}

void Table::step_committed(std::uint64_t id) {
    for (Step& s : steps_)
        if (s.id == id) {
            s.ready = true;
            hub_.metrics.commit.observe(std::chrono::duration<double>(Clock::now() - s.submitted).count());
        }
    drain();
}

void Table::drain() {
    while (!steps_.empty() && steps_.front().ready) {
        Step& step = steps_.front();
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
            if (hub_.store) hub_.webhook->post(id_, step.webhook_game, std::move(step.webhook));
            else hub_.webhook->post(std::move(step.webhook));
        }
        if (step.acted != Clock::time_point{})
            hub_.metrics.action_to_broadcast.observe(std::chrono::duration<double>(Clock::now() - step.acted).count());
        steps_.pop_front();
    }
}

void Table::store_seat(int seat) {
    const SeatState& st = seats_[static_cast<std::size_t>(seat)];
    store(storage::PutSeat{id_, seat, st.player, st.name, st.bot, st.bot ? to_string(st.level) : ""});
}

// --- requests ---------------------------------------------------------------

void Table::request(std::shared_ptr<Connection> session, PlayerRef player, Request r) {
    net::post(strand_, [self = shared_from_this(), session = std::move(session),
                        player = std::move(player), r = std::move(r)] {
        self->now_ = wall_now();
        if (self->moved_) {
            self->send(session, error_reply(r.id, request_type(r.body), "table_moved",
                                            "table \"" + self->id_ + "\" moved to another node: reconnect to /ws?table=" +
                                                self->id_ + " and send this again"));
            return self->end_step();
        }
        if (self->closed_) {
            self->send(session, error_reply(r.id, request_type(r.body), "no_such_table",
                                            "table \"" + self->id_ + "\" is closed"));
            return self->end_step();
        }
        try {
            std::visit(
                [&](const auto& body) {
                    using T = std::decay_t<decltype(body)>;
                    if constexpr (std::is_same_v<T, Sit>)
                        self->on_sit(session, player, r);
                    else if constexpr (std::is_same_v<T, Leave>)
                        self->on_leave(session, player, r);
                    else if constexpr (std::is_same_v<T, Watch>)
                        self->on_watch(session, player, r);
                    else if constexpr (std::is_same_v<T, AddBot>)
                        self->on_add_bot(session, player, r);
                    else if constexpr (std::is_same_v<T, Start>)
                        self->on_start(session, player, r);
                    else if constexpr (std::is_same_v<T, Again>)
                        self->on_again(session, player, r);
                    else if constexpr (std::is_same_v<T, Act>)
                        self->on_act(session, player, r);
                    else if constexpr (std::is_same_v<T, Resume>)
                        self->on_resume(session, player, r);
                    else if constexpr (std::is_same_v<T, Chat>)
                        self->on_chat(session, player, r);
                    else if constexpr (std::is_same_v<T, Mute>)
                        self->on_mute(session, player, r);
                    else
                        self->send(session, error_reply(r.id, request_type(r.body), "bad_message",
                                                        "not a table request"));
                },
                r.body);
        } catch (const std::exception& e) {
            // A defect of ours: the request gets an answer, the log says why, the table plays on.
            self->hub_.metrics.handler_exceptions.fetch_add(1, std::memory_order_relaxed);
            spdlog::error("table {}: {} threw: {}", self->id_, request_type(r.body), e.what());
            self->send(session, error_reply(r.id, request_type(r.body), "internal",
                                            "the server failed to handle this request"));
        }
        self->end_step();
    });
}

void Table::seat_matched(std::vector<std::pair<std::shared_ptr<Connection>, PlayerRef>> players) {
    net::post(strand_, [self = shared_from_this(), players = std::move(players)] {
        self->now_ = wall_now();
        if (self->closed_ || self->game_number_ > 0) return self->end_step();
        const int humans = std::min(static_cast<int>(players.size()), self->rules_.seats);
        for (int seat = 0; seat < self->rules_.seats; ++seat) {
            SeatState& st = self->seats_[static_cast<std::size_t>(seat)];
            st = SeatState{};
            if (seat < humans) {
                const PlayerRef& p = players[static_cast<std::size_t>(seat)].second;
                st.player = p->id;
                st.name = p->name;
                self->publish_table_event(
                    {{"type", "seat_taken"}, {"seat", seat}, {"player", seat_player(p->id, p->name)}, {"bot", false}});
            } else {
                st.bot = true;
                st.level = parse_bot_level(self->hub_.config.absent_bot_level).value_or(BotLevel::basic);
                st.name = "Bot";
                self->publish_table_event({{"type", "seat_taken"}, {"seat", seat}, {"player", nullptr}, {"bot", true}});
            }
            self->store_seat(seat);
        }
        self->new_game();
        // Connected only now: what came before is in the snapshot, so that each client starts from
        // one snapshot and the events after it, as after a sit.
        for (int seat = 0; seat < humans; ++seat) {
            const auto& session = players[static_cast<std::size_t>(seat)].first;
            if (!session) continue;  // gone just now: the seat is the player's, played for it until it comes back
            self->seats_[static_cast<std::size_t>(seat)].session = session;
            session->joined(self);
            self->send(session, dump_text(json{{"type", "quick_play_matched"}, {"table", self->id_}, {"seat", seat}}));
            self->send_snapshot(session, seat);
            self->prompt_seat(session, seat);
        }
        self->summary_changed();
        self->check_grace();
        self->end_step();
    });
}

int Table::held_seat(const std::string& player) const {
    for (const auto& [who, seat] : holders_)
        if (who == player) return seat;
    return -1;
}

void Table::note_holders() {
    holders_.clear();
    for (int i = 0; i < rules_.seats; ++i)
        if (const SeatState& st = seats_[static_cast<std::size_t>(i)]; st.human()) holders_.emplace_back(st.player, i);
}

int Table::seat_of(const std::string& player) const {
    for (int s = 0; s < rules_.seats; ++s)
        if (seats_[static_cast<std::size_t>(s)].player == player) return s;
    return -1;
}

bool Table::is_spectator(const Connection& s) const {
    for (const auto& w : spectators_)
        if (auto p = w.lock(); p.get() == &s) return true;
    return false;
}

void Table::remove_spectator(const Connection& s) {
    std::erase_if(spectators_, [&](const std::weak_ptr<Connection>& w) {
        auto p = w.lock();
        return !p || p.get() == &s;
    });
}

void Table::on_sit(const std::shared_ptr<Connection>& s, const PlayerRef& p, const Request& r) {
    const auto& sit = std::get<Sit>(r.body);
    if (std::find(removed_.begin(), removed_.end(), p->id) != removed_.end())
        return send(s, error_reply(r.id, "sit", "removed_from_table",
                                   "an administrator removed you from this table: you may watch it, not sit"));
    if (int mine = seat_of(p->id); mine >= 0) {
        // Already seated here: this connection takes the seat over.
        seats_[static_cast<std::size_t>(mine)].session = s;
        s->joined(shared_from_this());
        send(s, ok_reply(r.id, "sit", {{"table", id_}, {"seat", mine}}));
        send_snapshot(s, mine);
        send_chat_history(s, p->id);
        returned(mine);
        check_grace();
        schedule();
        return prompt_seat(s, mine);
    }
    if (is_private_ && sit.invite != invite_)
        return send(s, error_reply(r.id, "sit", "wrong_invite", "this table is private and the invite code is wrong",
                                   "invite"));
    int seat = -1;
    if (sit.seat) {
        seat = *sit.seat;
        if (seat >= rules_.seats)
            return send(s, error_reply(r.id, "sit", "bad_seat",
                                       "this table has seats 0 to " + std::to_string(rules_.seats - 1), "seat"));
        const SeatState& st = seats_[static_cast<std::size_t>(seat)];
        // A bot seat may be taken over by a person during a game.
        const bool bot_in_game = st.bot && game_ && !game_->over();
        if (!st.empty() && !bot_in_game)
            return send(s, error_reply(r.id, "sit", "seat_taken", "seat " + std::to_string(seat) + " is taken", "seat"));
        // But not by one who has held another seat of this game: their snapshot
        // would show a second hand (leave, sit in the bot seat, read it, go back).
        if (const int held = held_seat(p->id); game_ && !game_->over() && held >= 0 && held != seat)
            return send(s, error_reply(r.id, "sit", "seat_change_mid_game",
                                       "you held seat " + std::to_string(held) +
                                           " of this game: you may take that seat again, not another, until it ends",
                                       "seat"));
    } else {
        for (int i = 0; i < rules_.seats && seat < 0; ++i)
            if (seats_[static_cast<std::size_t>(i)].empty()) seat = i;
        if (seat < 0) return send(s, error_reply(r.id, "sit", "table_full", "every seat at this table is taken"));
    }
    SeatState& st = seats_[static_cast<std::size_t>(seat)];
    st = SeatState{};
    if (game_ && !game_->over() && held_seat(p->id) < 0) holders_.emplace_back(p->id, seat);
    st.player = p->id;
    st.name = p->name;
    st.session = s;
    store_seat(seat);
    remove_spectator(*s);
    s->joined(shared_from_this());
    publish_table_event({{"type", "seat_taken"}, {"seat", seat}, {"player", seat_player(p->id, p->name)}, {"bot", false}});
    send(s, ok_reply(r.id, "sit", {{"table", id_}, {"seat", seat}}));
    send_snapshot(s, seat);
    send_chat_history(s, p->id);
    summary_changed();
    check_grace();
    schedule();
    prompt_seat(s, seat);
}

void Table::on_leave(const std::shared_ptr<Connection>& s, const PlayerRef& p, const Request& r) {
    const int seat = seat_of(p->id);
    if (seat < 0) {
        if (!is_spectator(*s)) return send(s, error_reply(r.id, "leave", "not_at_table", "you are not at this table"));
        remove_spectator(*s);
        chat_.forget(p->id);
        return send(s, ok_reply(r.id, "leave", {{"table", id_}}));
    }
    SeatState& st = seats_[static_cast<std::size_t>(seat)];
    const bool playing = game_ && !game_->over();
    st = SeatState{};
    chat_.forget(p->id);
    publish_table_event({{"type", "seat_left"}, {"seat", seat}});
    if (playing) {
        // The game goes on: a bot plays the seat until someone takes it.
        st.bot = true;
        st.level = parse_bot_level(hub_.config.absent_bot_level).value_or(BotLevel::basic);
        st.name = "Bot";
        publish_table_event({{"type", "seat_taken"}, {"seat", seat}, {"player", nullptr}, {"bot", true}});
    }
    store_seat(seat);
    send(s, ok_reply(r.id, "leave", {{"table", id_}}));
    summary_changed();
    schedule();
    check_grace();
}

void Table::on_watch(const std::shared_ptr<Connection>& s, const PlayerRef& p, const Request& r) {
    const auto& w = std::get<Watch>(r.body);
    if (seat_of(p->id) >= 0)
        return send(s, error_reply(r.id, "watch", "already_seated", "you hold a seat here: use resume or sit"));
    if (is_private_ && w.invite != invite_)
        return send(s, error_reply(r.id, "watch", "wrong_invite", "this table is private and the invite code is wrong",
                                   "invite"));
    if (!is_spectator(*s)) {
        std::erase_if(spectators_, [](const std::weak_ptr<Connection>& x) { return x.expired(); });
        if (spectators_.size() >= kMaxSpectators)
            return send(s, error_reply(r.id, "watch", "too_many_spectators",
                                       "this table has as many spectators as it takes"));
        spectators_.push_back(s);
        s->joined(shared_from_this());
    }
    send(s, ok_reply(r.id, "watch", {{"table", id_}}));
    send_snapshot(s, -1);
    send_chat_history(s, p->id);
}

void Table::on_add_bot(const std::shared_ptr<Connection>& s, const PlayerRef& p, const Request& r) {
    const auto& a = std::get<AddBot>(r.body);
    if (seat_of(p->id) < 0 && p->id != creator_)
        return send(s, error_reply(r.id, "add_bot", "not_seated",
                                   "only a seated player or the table's creator may add a bot"));
    int seat = -1;
    if (a.seat) {
        seat = *a.seat;
        if (seat >= rules_.seats)
            return send(s, error_reply(r.id, "add_bot", "bad_seat",
                                       "this table has seats 0 to " + std::to_string(rules_.seats - 1), "seat"));
        if (!seats_[static_cast<std::size_t>(seat)].empty())
            return send(s, error_reply(r.id, "add_bot", "seat_taken", "seat " + std::to_string(seat) + " is taken", "seat"));
    } else {
        for (int i = 0; i < rules_.seats && seat < 0; ++i)
            if (seats_[static_cast<std::size_t>(i)].empty()) seat = i;
        if (seat < 0) return send(s, error_reply(r.id, "add_bot", "table_full", "every seat at this table is taken"));
    }
    SeatState& st = seats_[static_cast<std::size_t>(seat)];
    st = SeatState{};
    st.bot = true;
    st.level = parse_bot_level(a.level).value_or(BotLevel::basic);
    st.name = "Bot";
    store_seat(seat);
    publish_table_event({{"type", "seat_taken"}, {"seat", seat}, {"player", nullptr}, {"bot", true}});
    send(s, ok_reply(r.id, "add_bot", {{"table", id_}, {"seat", seat}}));
    summary_changed();
}

void Table::on_start(const std::shared_ptr<Connection>& s, const PlayerRef& p, const Request& r) {
    if (seat_of(p->id) < 0) return send(s, error_reply(r.id, "start", "not_seated", "only a seated player may start"));
    if (game_number_ > 0)
        return send(s, error_reply(r.id, "start", "already_started",
                                   game_->over() ? "the game is over: ask for another with again"
                                                 : "the game has already started"));
    for (int i = 0; i < rules_.seats; ++i)
        if (seats_[static_cast<std::size_t>(i)].empty())
            return send(s, error_reply(r.id, "start", "seats_not_full",
                                       "seat " + std::to_string(i) + " is empty: wait for a player or add a bot"));
    send(s, ok_reply(r.id, "start", {{"table", id_}}));
    new_game();
}

void Table::on_again(const std::shared_ptr<Connection>& s, const PlayerRef& p, const Request& r) {
    const int seat = seat_of(p->id);
    if (seat < 0)
        return send(s, error_reply(r.id, "again", "not_seated", "only a seated player may ask for another game"));
    if (!game_ || !game_->over())
        return send(s, error_reply(r.id, "again", "game_not_over",
                                   "another game can be asked for once this one is over"));
    for (int i = 0; i < rules_.seats; ++i)
        if (seats_[static_cast<std::size_t>(i)].empty())
            return send(s, error_reply(r.id, "again", "seats_not_full",
                                       "seat " + std::to_string(i) + " is empty: wait for a player or add a bot"));
    send(s, ok_reply(r.id, "again", {{"table", id_}}));
    SeatState& st = seats_[static_cast<std::size_t>(seat)];
    if (!st.again) {
        st.again = true;
        publish_table_event({{"type", "again_requested"}, {"seat", seat}});
    }
    for (int i = 0; i < rules_.seats; ++i) {
        const SeatState& x = seats_[static_cast<std::size_t>(i)];
        if (x.human() && !x.again) return;  // bots always agree
    }
    new_game();
}

void Table::on_act(const std::shared_ptr<Connection>& s, const PlayerRef& p, const Request& r) {
    const auto& act = std::get<Act>(r.body);
    step_.acted = Clock::now();
    const int seat = seat_of(p->id);
    if (seat < 0) {
        if (is_spectator(*s))
            return send(s, error_reply(r.id, "act", "spectator_cannot_act", "spectators watch; they do not play"));
        return send(s, error_reply(r.id, "act", "not_seated", "you do not hold a seat at this table"));
    }
    if (!game_) return send(s, error_reply(r.id, "act", "no_game", "the game has not started"));
    auto result = game_->apply(static_cast<Seat>(seat), act.action);
    if (!result) {
        hub_.metrics.rule_errors[static_cast<std::size_t>(result.error().code)].fetch_add(1, std::memory_order_relaxed);
        return send(s, error_reply(r.id, "act", to_string(result.error().code), result.error().message));
    }
    // The holder is back in charge of its seat.
    SeatState& st = seats_[static_cast<std::size_t>(seat)];
    st.missed = 0;
    if (st.session.lock() != s) {
        // The holder acts from another connection (a second tab): the seat's events follow it there.
        st.session = s;
        s->joined(shared_from_this());
    }
    const std::vector<Event> events(result->begin(), result->end());
    returned(seat);
    publish(events, std::pair{static_cast<Seat>(seat), act.action});
    send(s, ok_reply(r.id, "act", {{"table", id_}, {"seq", seq_}}));
    schedule();
    prompt();
}

void Table::on_resume(const std::shared_ptr<Connection>& s, const PlayerRef& p, const Request& r) {
    const auto& res = std::get<Resume>(r.body);
    const int seat = seat_of(p->id);
    if (seat < 0) {
        if (is_private_ && !is_spectator(*s))
            return send(s, error_reply(r.id, "resume", "not_seated", "you hold no seat at this private table"));
        if (!is_spectator(*s)) {
            std::erase_if(spectators_, [](const std::weak_ptr<Connection>& x) { return x.expired(); });
            if (spectators_.size() >= kMaxSpectators)
                return send(s, error_reply(r.id, "resume", "too_many_spectators",
                                           "this table has as many spectators as it takes"));
            spectators_.push_back(s);
            s->joined(shared_from_this());
        }
    } else {
        seats_[static_cast<std::size_t>(seat)].session = s;
        s->joined(shared_from_this());
    }
    const std::uint64_t kept_from = history_.first_seq();
    const bool can_replay = res.seq <= seq_ && (res.seq == seq_ || (kept_from > 0 && kept_from <= res.seq + 1));
    json you = seat < 0 ? json(nullptr) : json(seat);
    if (can_replay) {
        send(s, ok_reply(r.id, "resume", {{"table", id_}, {"seat", you}, {"mode", "events"}, {"from", res.seq + 1}}));
        // The deal's events, then the steps since: the engine plays them again from the state after the deal.
        history_.since(
            res.seq, rules_, game_ ? game_->seed() : 0,
            [&](const Event& e, std::uint64_t n) { send(s, seen_by(rendered(e, n), seat)); },
            [&](const Frame& f) { send(s, f); });
    } else {
        send(s, ok_reply(r.id, "resume", {{"table", id_}, {"seat", you}, {"mode", "snapshot"}}));
        send_snapshot(s, seat);
    }
    // In either mode: the chat is not in the seq stream, so the events replayed carry none of it.
    send_chat_history(s, p->id);
    if (seat >= 0) returned(seat);
    check_grace();
    schedule();
    if (seat >= 0) prompt_seat(s, seat);
}

void Table::send_snapshot(const std::shared_ptr<Connection>& s, int seat) {
    json j = {{"type", "snapshot"}, {"table", id_}, {"seq", seq_}, {"you", seat < 0 ? json(nullptr) : json(seat)},
              {"info", summary().to_json()}, {"game", game_number_}};
    j["view"] = game_ ? seat_view_json(*game_, seat < 0 ? kSpectator : static_cast<Viewer>(seat)) : json(nullptr);
    if (game_ && !deal_salt_.empty()) {
        j["deal_commitment"] = deal_commitment(game_->seed(), deal_salt_);
        if (game_->over()) j["deal"] = deal_json();
    }
    if (turn_mask_ != 0) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(turn_deadline_ - Clock::now()).count();
        j["turn_ms_left"] = std::max<long long>(0, left);
    }
    if (rules_.game_clock_seconds > 0 && game_ && !game_->over()) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(clock_deadline_ - Clock::now()).count();
        j["clock_ms_left"] = std::max<long long>(0, left);
    }
    send(s, dump_text(j));
}

nlohmann::json Table::deal_json() const {
    return {{"seed", std::to_string(game_->seed())},
            {"salt", deal_salt_},
            {"commitment", deal_commitment(game_->seed(), deal_salt_)}};
}

// --- chat -------------------------------------------------------------------

static_assert(Mute::kSpectators == TableChat::kSpectators);

ChatReader Table::chat_reader(const std::string& player) const {
    // One who has held a seat of the game running and now watches still plays it: the rail's talk is not for them.
    const bool plays = seat_of(player) >= 0 || (game_ && !game_->over() && held_seat(player) >= 0);
    return {player, plays};
}

void Table::send_chat_history(const std::shared_ptr<Connection>& s, const std::string& player) {
    send(s, chat_.history(id_, chat_reader(player)));
}

void Table::on_chat(const std::shared_ptr<Connection>& s, const PlayerRef& p, const Request& r) {
    const auto& chat = std::get<Chat>(r.body);
    const int seat = seat_of(p->id);
    if (seat < 0 && !is_spectator(*s))
        return send(s, error_reply(r.id, "chat", "not_at_table",
                                   "only the seats and the spectators of this table may talk at it: sit or watch first"));
    TableChat::Line line;
    line.seq = seq_;
    line.seat = seat < 0 ? TableChat::kSpectators : seat;
    // While a game runs, spectators talk among themselves: nobody playing it is coached from the rail.
    line.to_seats = seat >= 0 || !game_ || game_->over();
    line.player = p->id;
    line.name = p->name;
    line.text = chat.text;
    const Frame frame = share(TableChat::frame(id_, line));
    bool echoed = false;
    auto tell = [&](const std::shared_ptr<Connection>& session, const ChatReader& reader) {
        if (!chat_.sees(reader, line)) return;
        send(session, frame);
        echoed = echoed || session == s;
    };
    for (int i = 0; i < rules_.seats; ++i) {
        const SeatState& st = seats_[static_cast<std::size_t>(i)];
        if (auto session = st.session.lock(); session && st.human()) tell(session, {st.player, true});
    }
    for (const auto& w : spectators_)
        if (auto session = w.lock(); session && session->player()) tell(session, chat_reader(session->player()->id));
    // A seat may talk from a connection that does not follow the table (another tab): it hears itself too.
    if (!echoed) send(s, frame);
    chat_.keep(std::move(line));
    hub_.metrics.chat_lines.fetch_add(1, std::memory_order_relaxed);
    send(s, ok_reply(r.id, "chat", {{"table", id_}}));
}

void Table::on_mute(const std::shared_ptr<Connection>& s, const PlayerRef& p, const Request& r) {
    const auto& m = std::get<Mute>(r.body);
    const int mine = seat_of(p->id);
    if (mine < 0 && !is_spectator(*s))
        return send(s, error_reply(r.id, "mute", "not_at_table", "you are not at this table"));
    if (m.seat != Mute::kSpectators && m.seat >= rules_.seats)
        return send(s, error_reply(r.id, "mute", "bad_seat",
                                   "this table has seats 0 to " + std::to_string(rules_.seats - 1), "seat"));
    if (mine >= 0 && m.seat == mine)
        return send(s, error_reply(r.id, "mute", "bad_seat", "that is your own seat", "seat"));
    // A spectator who dropped without leave keeps its mutes for when it comes back, unless there
    // are more players with mutes than a table holds people: then those no longer here go.
    if (chat_.muters() >= kMaxSpectators + static_cast<std::size_t>(rules_.seats))
        chat_.forget_unless([&](std::string_view who) {
            const std::string player(who);
            if (seat_of(player) >= 0) return true;
            for (const auto& w : spectators_)
                if (auto session = w.lock(); session && session->player() && session->player()->id == player)
                    return true;
            return false;
        });
    chat_.mute(p->id, m.seat, m.muted);
    send(s, ok_reply(r.id, "mute",
                     {{"table", id_},
                      {"seat", m.seat == Mute::kSpectators ? json("spectators") : json(m.seat)},
                      {"muted", m.muted}}));
}

// --- the game ---------------------------------------------------------------

void Table::new_game() {
    const std::uint64_t seed = random_seed();
    deal_salt_ = random_hex(static_cast<int>(kDealSaltLength / 2));
    auto created = Game::create(rules_, seed);
    if (!created) throw std::logic_error("a validated ruleset was refused: " + created.error().message);
    game_.emplace(std::move(*created));
    // What a returning client missed of the last game is not kept past its end: the new deal
    // starts the history again, in this same step (and the kept steps are the last game's).
    history_.restart(game_->state());
    ++game_number_;
    hub_.metrics.games_started.fetch_add(1, std::memory_order_relaxed);
    seat_actions_.fill(0);
    note_holders();
    hand_scored_sides_ = 0;
    json players = json::array();
    for (int i = 0; i < rules_.seats; ++i) {
        SeatState& st = seats_[static_cast<std::size_t>(i)];
        st.again = false;
        if (st.bot)
            players.push_back({{"bot", true}, {"name", st.name}});
        else
            players.push_back({{"player", st.player}, {"name", st.name}});
    }
    store(storage::StartGame{id_, game_number_, seed, dump_text(to_json(rules_)), dump_text(players), now_, deal_salt_});
    std::vector<std::string> starters;
    for (int i = 0; i < rules_.seats; ++i) starters.push_back(seats_[static_cast<std::size_t>(i)].player);
    tally_ = storage::GameTally(rules_, std::move(starters));
    reset_bots(seed);
    // Provably fair: the deal is fixed, and committed to, before anyone sees a card.
    json started = {{"type", "game_started"},
                    {"game", game_number_},
                    {"ruleset", to_json(rules_)},
                    {"deal_commitment", deal_commitment(seed, deal_salt_)}};
    if (rules_.game_clock_seconds > 0) started["clock_ms"] = rules_.game_clock_seconds * 1000LL;  // it starts now
    publish_table_event(std::move(started));
    const auto first = game_->start();
    const std::vector<Event> events(first.begin(), first.end());
    if (rules_.game_clock_seconds > 0) {
        clock_deadline_ = Clock::now() + std::chrono::seconds(rules_.game_clock_seconds);
        clock_timer_.expires_at(clock_deadline_);
        clock_timer_.async_wait([self = shared_from_this(), g = ++clock_generation_](boost::system::error_code ec) {
            if (!ec) self->on_clock(g);
        });
    }
    publish(events, std::nullopt);
    summary_changed();
    schedule();
    prompt();
}

void Table::apply(Seat seat, const Action& action) {
    auto result = game_->apply(seat, action);
    if (!result) throw std::logic_error("the server's own move was refused: " + result.error().message);
    // The span stays valid until the game's next apply(), which publish() never calls.
    publish(*result, std::pair{seat, action});
}

void Table::publish(std::span<const Event> events, std::optional<std::pair<Seat, Action>> cause) {
    std::optional<storage::Cause> stored_cause;
    if (cause) {
        hub_.metrics.actions.fetch_add(1, std::memory_order_relaxed);
        if (cause->second.kind == ActionKind::play) hub_.metrics.card_plays.fetch_add(1, std::memory_order_relaxed);
        if (events.empty()) throw std::logic_error("an action applied without an event");
        stored_cause = storage::Cause{cause->first, cause->second, {}};
        if (cause->first < kMaxSeats) ++seat_actions_[cause->first];
    }
    // The store keeps the action (or that the game was dealt), not the events: the
    // engine renders them again from the record, secret cards included.
    store(storage::EngineEvents{id_, seq_ + 1, static_cast<std::uint32_t>(events.size()), game_number_, now_,
                                std::move(stored_cause)});
    const GameOver* game_over = nullptr;
    std::string game_over_json;
    std::size_t dealt = events.size();  // the step dealt a hand: its events from hand_started on are kept
    const std::uint64_t first_seq = seq_ + 1;
    for (const Event& e : events) {
        for (BotMemory& m : memories_) m.observe(e);  // each redacts for its seat
        tally_.observe(e);
        Entry entry = rendered(e, ++seq_);
        if (const auto* scored = std::get_if<HandScored>(&e)) {
            hand_scored_sides_ = 0;
            for (const auto& side : scored->sides) {
                if (side.seats == 0) break;
                side_seats_[static_cast<std::size_t>(hand_scored_sides_++)] = side.seats;
            }
        }
        deliver(entry);
        if (std::holds_alternative<HandStarted>(e)) dealt = static_cast<std::size_t>(&e - events.data());
        if (const auto* over = std::get_if<GameOver>(&e)) {
            game_over = over;
            game_over_json = dump_text(to_json(e, kSpectator));
        }
    }
    if (dealt < events.size())
        history_.dealt(first_seq + dealt, events.subspan(dealt), game_->state());
    else if (cause)
        history_.step(first_seq, cause->first, cause->second, events.size());
    history_.trim(hub_.config.history_events, rules_, game_->seed());
    // After the last of the action's events, so that the table's own (the standings) follow them.
    if (game_over) on_game_over(*game_over, game_over_json);
}

void Table::publish_table_event(json event) {
    const std::string body = dump_text(event);
    Entry entry{++seq_, share(envelope(id_, seq_, body)), {}};
    store(storage::AppendEvent{id_, entry.seq, game_number_, event["type"].get<std::string>(), body, now_});
    tally_.observe_table_event(event);
    deliver(entry);
    history_.table_event(entry.seq, entry.everyone);
    history_.trim(hub_.config.history_events, rules_, game_ ? game_->seed() : 0);
}

void Table::deliver(const Entry& e) {
    for (int s = 0; s < rules_.seats; ++s) {
        const auto i = static_cast<std::size_t>(s);
        if (auto session = seats_[i].session.lock()) send(session, seen_by(e, s));
    }
    for (const auto& w : spectators_)
        if (auto session = w.lock()) send(session, e.everyone);
}

void Table::prompt() {
    if (!game_ || game_->over()) return;
    const std::uint16_t waiting = game_->waiting_for();
    for (int s = 0; s < rules_.seats; ++s) {
        if (!((waiting >> s) & 1)) continue;
        if (auto session = seats_[static_cast<std::size_t>(s)].session.lock()) prompt_seat(session, s);
    }
}

void Table::prompt_seat(const std::shared_ptr<Connection>& session, int seat) {
    if (!game_ || game_->over() || !((game_->waiting_for() >> seat) & 1)) return;
    json j = {{"type", "your_turn"},
              {"table", id_},
              {"seat", seat},
              {"seq", seq_},
              {"legal", to_json(game_->legal_moves(static_cast<Seat>(seat)), game_->state().hand_rules.nil_allowed)}};
    if ((turn_mask_ >> seat) & 1) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(turn_deadline_ - Clock::now()).count();
        j["ms_left"] = std::max<long long>(0, left);
    } else {
        j["ms_left"] = nullptr;
    }
    send(session, dump_text(j));
}

Table::Entry Table::rendered(const Event& e, std::uint64_t seq) const {
    const json everyone = to_json(e, kSpectator);
    Entry entry{seq, share(envelope(id_, seq, dump_text(everyone))), {}};
    if (is_secret(e)) {
        entry.per_seat.resize(static_cast<std::size_t>(rules_.seats));
        for (int s = 0; s < rules_.seats; ++s) {
            json mine = to_json(e, static_cast<Viewer>(s));
            entry.per_seat[static_cast<std::size_t>(s)] = mine == everyone ? entry.everyone : share(event_frame(id_, seq, mine));
        }
    }
    return entry;
}

const Frame& Table::seen_by(const Entry& e, int seat) {
    return e.per_seat.empty() || seat < 0 ? e.everyone : e.per_seat[static_cast<std::size_t>(seat)];
}

void Table::on_game_over(const GameOver& over, const std::string& over_json) {
    ++clock_generation_;
    clock_timer_.cancel();
    hub_.metrics.games_finished.fetch_add(1, std::memory_order_relaxed);
    json result = {{"game_over", json::parse(over_json)}};
    // The game is over: its seed and salt are no longer secret, and let anyone check the
    // commitment of game_started and rebuild every deal (PROTOCOL.md, "Provably fair deals").
    if (!deal_salt_.empty()) {
        json revealed = deal_json();
        revealed["type"] = "deal_revealed";
        revealed["game"] = game_number_;
        publish_table_event(std::move(revealed));
    }
    if (rules_.preset == Preset::worldwinner_spades && over.side_count == 2) {
        // Seed 004's tournament standings, with the whole seconds left on the clock.
        int seconds_left = 0;
        if (rules_.game_clock_seconds > 0)
            seconds_left = static_cast<int>(std::max<long long>(
                0, std::chrono::duration_cast<std::chrono::seconds>(clock_deadline_ - Clock::now()).count()));
        const bool before_time = over.reason != GameEndReason::game_clock;
        json sides = json::array();
        for (int side = 0; side < 2; ++side) {
            const Standings st = worldwinner_standings(over.scores[static_cast<std::size_t>(side)],
                                                       over.scores[static_cast<std::size_t>(1 - side)], seconds_left,
                                                       before_time && rules_.game_clock_seconds > 0);
            json seats = json::array();
            // The sides as the last scored hand listed them; before any hand was scored, seat 0's
            // partnership and the others.
            const std::uint16_t all = static_cast<std::uint16_t>((1u << rules_.seats) - 1);
            const std::uint16_t first = game_->hand_partners(0);
            const std::uint16_t mask = side < hand_scored_sides_ ? side_seats_[static_cast<std::size_t>(side)]
                                       : side == 0               ? first
                                                                 : static_cast<std::uint16_t>(all & ~first);
            for (int s = 0; s < kMaxSeats; ++s)
                if ((mask >> s) & 1) seats.push_back(s);
            sides.push_back({{"seats", seats}, {"score", over.scores[static_cast<std::size_t>(side)]},
                             {"base", st.base}, {"overpoints", st.overpoints}, {"victory", st.victory},
                             {"time_bonus", st.time_bonus}, {"total", st.total()}});
        }
        json standings = {{"type", "standings"}, {"sides", sides}};
        result["standings"] = standings;
        publish_table_event(std::move(standings));
    }
    // Rated (every seat a person's when the game began): the ratings move in the same commit.
    storage::FinishGame finish{id_, game_number_, dump_text(result), now_};
    finish.preset = to_string(rules_.preset);
    finish.rated = tally_.result(over);
    // The webhook's summary is kept in the same commit (the store's outbox) until the host's receiver has it.
    if (hub_.webhook) {
        step_.webhook = webhook_summary(result);
        step_.webhook_game = game_number_;
        if (hub_.store) finish.webhook = step_.webhook;
    }
    store(std::move(finish));
    summary_changed();
}

std::string Table::webhook_summary(const nlohmann::json& result) const {
    json seats = json::array();
    for (int s = 0; s < rules_.seats; ++s) {
        const SeatState& st = seats_[static_cast<std::size_t>(s)];
        seats.push_back({{"seat", s},
                         {"player", st.bot || st.player.empty() ? json(nullptr) : json(st.player)},
                         {"name", st.name},
                         {"bot", st.bot}});
    }
    json summary = {{"type", "game_finished"},
                    {"table", id_},
                    {"game", game_number_},
                    {"preset", to_string(rules_.preset)},
                    {"ruleset", to_json(rules_)},
                    {"seats", std::move(seats)},
                    {"result", result},
                    {"finished", now_},
                    {"archive", "/api/games/" + id_ + "/" + std::to_string(game_number_)}};
    if (!deal_salt_.empty()) summary["deal"] = deal_json();
    if (!hub_.config.node_id.empty()) summary["node"] = hub_.config.node_id;
    return dump_text(summary);
}

// --- timers -----------------------------------------------------------------

void Table::schedule() {
    if (closed_ || !game_ || game_->over()) {
        ++turn_generation_;
        ++bot_generation_;
        turn_mask_ = 0;
        bot_armed_ = false;
        turn_timer_.cancel();
        bot_timer_.cancel();
        return;
    }
    const std::uint16_t waiting = game_->waiting_for();
    std::uint16_t automatic = 0;
    for (int s = 0; s < rules_.seats; ++s) {
        const SeatState& st = seats_[static_cast<std::size_t>(s)];
        if (st.bot || st.absent) automatic = static_cast<std::uint16_t>(automatic | (1u << s));
    }
    if ((waiting & automatic) && !bot_armed_ && !bot_thinking_) {
        bot_armed_ = true;
        bot_timer_.expires_after(std::chrono::milliseconds(hub_.config.bot_delay_ms));
        bot_timer_.async_wait([self = shared_from_this(), g = ++bot_generation_](boost::system::error_code ec) {
            if (!ec) self->on_bot_turn(g);
        });
    }
    const std::uint16_t humans = static_cast<std::uint16_t>(waiting & ~automatic);
    if (turn_seconds_ == 0 || humans == 0) {
        if (turn_mask_ != 0) {
            turn_mask_ = 0;
            ++turn_generation_;
            turn_timer_.cancel();
        }
        return;
    }
    // The clock restarts for a seat newly on turn; seats still passing keep theirs.
    if ((humans & ~turn_mask_) != 0) {
        turn_deadline_ = Clock::now() + std::chrono::seconds(turn_seconds_);
        turn_timer_.expires_at(turn_deadline_);
        turn_timer_.async_wait([self = shared_from_this(), g = ++turn_generation_](boost::system::error_code ec) {
            if (!ec) self->on_turn_timeout(g);
        });
    }
    turn_mask_ = humans;
}

void Table::on_turn_timeout(std::uint64_t generation) {
    if (generation != turn_generation_ || closed_ || !game_ || game_->over()) return;
    now_ = wall_now();
    const std::uint16_t late = static_cast<std::uint16_t>(game_->waiting_for() & turn_mask_);
    turn_mask_ = 0;
    for (int s = 0; s < rules_.seats; ++s) {
        if (!((late >> s) & 1) || game_->over()) continue;
        SeatState& st = seats_[static_cast<std::size_t>(s)];
        ++st.missed;
        hub_.metrics.turns_timed_out.fetch_add(1, std::memory_order_relaxed);
        publish_table_event({{"type", "turn_timed_out"}, {"seat", s}});
        if (st.human() && !st.absent && st.missed >= hub_.config.absent_after_missed_turns) {
            st.absent = true;
            publish_table_event({{"type", "seat_absent"}, {"seat", s}});
        }
        // A strong bot thinks here on the strand, within --bot-budget-ms: timeouts are rare.
        play_bot(static_cast<Seat>(s), false);
    }
    schedule();
    prompt();
    end_step();
}

void Table::on_bot_turn(std::uint64_t generation) {
    if (generation != bot_generation_) return;
    bot_armed_ = false;
    if (closed_ || !game_ || game_->over()) return;
    now_ = wall_now();
    const std::uint16_t waiting = game_->waiting_for();
    for (int s = 0; s < rules_.seats; ++s) {
        const SeatState& st = seats_[static_cast<std::size_t>(s)];
        if (((waiting >> s) & 1) && (st.bot || st.absent)) {
            if (!play_bot(static_cast<Seat>(s), true)) return;  // thinking off the strand
            break;  // one move a delay, so that people can follow
        }
    }
    schedule();
    prompt();
    end_step();
}

// --- bots -------------------------------------------------------------------

void Table::reset_bots(std::uint64_t seed) {
    memories_.clear();
    bot_rngs_.clear();
    for (int s = 0; s < rules_.seats; ++s) {
        memories_.emplace_back(rules_, static_cast<Seat>(s));
        bot_rngs_.emplace_back(seed, 0x626f74ULL + static_cast<std::uint64_t>(s));
    }
    ++bot_think_;  // a decision still under way belongs to the last game
    bot_thinking_ = false;
}

BotLevel Table::level_of(int seat) const {
    const SeatState& st = seats_[static_cast<std::size_t>(seat)];
    if (st.bot) return st.level;
    return parse_bot_level(hub_.config.absent_bot_level).value_or(BotLevel::basic);
}

std::size_t Table::actions_by(Seat s) const { return s < kMaxSeats ? seat_actions_[s] : 0; }

bool Table::play_bot(Seat s, bool may_think_off_strand) {
    const BotLevel level = level_of(s);
    BotOptions options;
    options.budget_us = static_cast<std::uint32_t>(hub_.config.bot_budget_ms) * 1000u;
    const SeatView view = view_of(*game_, s);
    if (level != BotLevel::strong || !may_think_off_strand) {
        apply(s, decide(level, view, memories_[s], bot_rngs_[s], options));
        return true;
    }
    bot_thinking_ = true;
    const std::uint64_t think = ++bot_think_;
    net::post(hub_.bots, [self = shared_from_this(), think, s, game = game_number_, seat_actions = actions_by(s), view,
                        memory = memories_[s], rng = bot_rngs_[s], options]() mutable {
        Action a;
        try {
            a = decide(BotLevel::strong, view, memory, rng, options);
        } catch (const std::exception& e) {
            spdlog::error("table {}: the strong bot of seat {} failed ({}); basic plays", self->id_, int(s), e.what());
            a = decide(BotLevel::basic, view, memory, rng, options);
        }
        net::post(self->strand_, [self, think, s, game, seat_actions, a, rng] {
            self->on_bot_decided(think, s, game, seat_actions, a, rng);
        });
    });
    return false;
}

void Table::on_bot_decided(std::uint64_t think, Seat s, int game, std::size_t seat_actions, Action a, Rng rng) {
    if (think != bot_think_) return;  // superseded (a new game)
    bot_thinking_ = false;
    if (closed_ || !game_ || game_->over()) return;
    now_ = wall_now();
    const SeatState& st = seats_[static_cast<std::size_t>(s)];
    // Apply it only if the seat's turn is the one the bot thought about.
    if (game == game_number_ && ((game_->waiting_for() >> s) & 1) && (st.bot || st.absent) &&
        actions_by(s) == seat_actions && game_->legal_moves(s).contains(a)) {
        bot_rngs_[s] = rng;
        apply(s, a);
    }
    schedule();
    prompt();
    end_step();
}

void Table::on_clock(std::uint64_t generation) {
    if (generation != clock_generation_ || closed_ || !game_ || game_->over()) return;
    now_ = wall_now();
    apply(kTableSeat, Action::clock_expired());
    schedule();
    prompt();
    end_step();
}

void Table::returned(int seat) {
    SeatState& st = seats_[static_cast<std::size_t>(seat)];
    st.missed = 0;
    if (!st.absent) return;
    st.absent = false;
    publish_table_event({{"type", "seat_returned"}, {"seat", seat}});
}

// --- lifetime ---------------------------------------------------------------

void Table::connections_changed() {
    net::post(strand_, [self = shared_from_this()] { self->check_grace(); });
}

void Table::start_grace() {
    net::post(strand_, [self = shared_from_this()] { self->check_grace(); });
}

void Table::check_grace() {
    if (closed_) return;
    bool anyone = false;
    for (const auto& st : seats_)
        if (st.human() && !st.session.expired()) anyone = true;
    if (anyone) {
        if (grace_armed_) {
            grace_armed_ = false;
            ++grace_generation_;
            grace_timer_.cancel();
        }
        return;
    }
    if (grace_armed_) return;
    grace_armed_ = true;
    grace_timer_.expires_after(std::chrono::seconds(hub_.config.table_grace_seconds));
    grace_timer_.async_wait([self = shared_from_this(), g = ++grace_generation_](boost::system::error_code ec) {
        if (!ec) self->on_grace(g);
    });
}

void Table::on_grace(std::uint64_t generation) {
    if (generation != grace_generation_ || closed_) return;
    spdlog::debug("table {}: no one connected for {} s, closed", id_, hub_.config.table_grace_seconds);
    close("abandoned");
}

void Table::stop_timers() {
    schedule();  // with closed_ set: the turn and bot timers stop
    ++clock_generation_;
    ++grace_generation_;
    clock_timer_.cancel();
    grace_timer_.cancel();
}

void Table::hand_off(std::function<void()> done) {
    net::dispatch(strand_, [self = shared_from_this(), done = std::move(done)]() mutable {
        if (self->closed_ || !self->hub_.store) {
            if (done) done();
            return;
        }
        self->closed_ = true;
        self->moved_ = true;
        self->hub_.metrics.tables_handed_off.fetch_add(1, std::memory_order_relaxed);
        self->stop_timers();
        self->end_step();
        // After the table's last step in the store's queue: the next node reads all of it.
        self->hub_.store->release(self->id_, [self, done = std::move(done)]() mutable {
            net::post(self->strand_, [self, done = std::move(done)] {
                self->moved_away();
                if (done) done();
            });
        });
    });
}

void Table::lost() {
    net::dispatch(strand_, [self = shared_from_this()] {
        if (self->moved_) return;
        spdlog::warn("table {}: another node holds it now; this node lets it go", self->id_);
        self->hub_.metrics.tables_lost.fetch_add(1, std::memory_order_relaxed);
        self->closed_ = true;
        self->moved_ = true;
        self->stop_timers();
        // Never committed, never to be: their frames go nowhere.
        self->steps_.clear();
        self->step_ = Step{};
        self->moved_away();
    });
}

void Table::moved_away() {
    std::vector<std::shared_ptr<Connection>> following;
    for (auto& st : seats_)
        if (auto s = st.session.lock()) following.push_back(std::move(s));
    for (auto& w : spectators_)
        if (auto s = w.lock()) following.push_back(std::move(s));
    std::sort(following.begin(), following.end());
    following.erase(std::unique(following.begin(), following.end()), following.end());
    const std::string closing = json{{"type", "closing"}, {"reason", "moved"}, {"table", id_}}.dump();
    for (const auto& s : following) {
        s->send(closing);
        s->close(CloseCode::table_moved, "table moved: reconnect");
    }
    spectators_.clear();
    for (auto& st : seats_) st.session.reset();
    report_state(Reported::none);
    watcher_.table_closed(id_, creator_, this);
}

void Table::close(std::string reason) {
    net::dispatch(strand_, [self = shared_from_this(), reason = std::move(reason)] {
        if (self->closed_) return;
        self->now_ = wall_now();
        self->publish_table_event({{"type", "table_closed"}, {"reason", reason}});
        self->store(storage::CloseTable{self->id_, reason, self->now_});
        self->closed_ = true;
        self->stop_timers();
        self->spectators_.clear();
        for (auto& st : self->seats_) st.session.reset();
        self->end_step();
        self->report_state(Reported::none);
        self->hub_.metrics.tables_closed.fetch_add(1, std::memory_order_relaxed);
        self->watcher_.table_closed(self->id_, self->creator_, self.get());
    });
}

// --- the lobby's copy ---------------------------------------------------------

std::string Table::state_name() const {
    if (!game_) return "waiting";
    return game_->over() ? "over" : "playing";
}

TableSummary Table::summary() const {
    TableSummary t;
    t.id = id_;
    t.preset = rules_.preset;
    t.ruleset = to_json(rules_);
    t.seats = rules_.seats;
    for (int s = 0; s < rules_.seats; ++s) {
        const auto i = static_cast<std::size_t>(s);
        t.seat_players[i] = seats_[i].bot ? "bot" : seats_[i].player;
        t.seat_names[i] = seats_[i].name;
    }
    t.is_private = is_private_;
    t.turn_seconds = turn_seconds_;
    t.state = state_name();
    t.game = game_number_;
    t.spectators = static_cast<int>(spectators_.size());
    t.creator = creator_;
    return t;
}

void Table::summary_changed() {
    report_state(!game_ ? Reported::waiting : game_->over() ? Reported::over : Reported::playing);
    watcher_.table_changed(summary());
}

void Table::report_state(Reported state) {
    if (state == reported_) return;
    auto gauge = [&](Reported r) -> std::atomic<std::int64_t>* {
        switch (r) {
            case Reported::waiting: return &hub_.metrics.tables_waiting;
            case Reported::playing: return &hub_.metrics.tables_playing;
            case Reported::over: return &hub_.metrics.tables_over;
            case Reported::none: return nullptr;
        }
        return nullptr;
    };
    if (auto* g = gauge(reported_)) g->fetch_sub(1, std::memory_order_relaxed);
    if (auto* g = gauge(state)) g->fetch_add(1, std::memory_order_relaxed);
    reported_ = state;
}

}  // namespace sparts::server
