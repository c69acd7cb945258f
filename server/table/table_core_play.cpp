// The game at a table: dealing, acts, and publishing each event to every
// audience (numbered, stored, kept for returning clients), in this order:
// the bots' memories and the tally see it, it is rendered per audience and
// queued for each follower, the history keeps it; a game's end follows its
// last event (the deal revealed, WorldWinner's standings, the stored result).
#include <stdexcept>

#include "engine/standings.hpp"
#include "engine/view.hpp"
#include "protocol/deal_commitment.hpp"
#include "protocol/event_json.hpp"
#include "protocol/json_text.hpp"
#include "protocol/reply.hpp"
#include "protocol/ruleset_json.hpp"
#include "protocol/server_messages.hpp"
#include "protocol/view_json.hpp"
#include "server/table/table_core.hpp"
#include "server/table/rule_sets.hpp"

namespace sparts::server {

using nlohmann::json;

namespace {

Frame share(std::string s) { return std::make_shared<const std::string>(std::move(s)); }

}  // namespace

void TableCore::on_act(const From& s, const PlayerRef& p, const RequestId& id, const Act& act) {
    effects_.step.acted = now_.steady;
    const int seat = seat_of(p->id);
    if (seat < 0) {
        if (is_spectator(*s))
            return send(s, error_reply(id, "act", "spectator_cannot_act", "spectators watch; they do not play"));
        return send(s, error_reply(id, "act", "not_seated", "you do not hold a seat at this table"));
    }
    if (!game_) return send(s, error_reply(id, "act", "no_game", "the game has not started"));
    auto result = game_->apply(static_cast<Seat>(seat), act.action);
    if (!result) {
        metrics_.rule_errors[static_cast<std::size_t>(result.error().code)].fetch_add(1, std::memory_order_relaxed);
        return send(s, error_reply(id, "act", to_string(result.error().code), result.error().message));
    }
    // The holder is back in charge of its seat.
    SeatState& st = seats_[static_cast<std::size_t>(seat)];
    st.missed = 0;
    if (st.session.lock() != s) {
        // The holder acts from another connection (a second tab): the seat's events follow it there.
        st.session = s;
        follow(s);
    }
    const std::vector<Event> events(result->begin(), result->end());
    returned(seat);
    publish(events, std::pair{static_cast<Seat>(seat), act.action});
    send(s, ok_reply(id, "act", {{"table", identity_.id}, {"seq", seq_}}));
    schedule();
    prompt();
}

void TableCore::new_game() {
    const Ruleset& rules = identity_.rules;
    const std::uint64_t seed = dice_.seed();
    deal_salt_ = dice_.salt();
    auto created = Game::create(rules, seed);
    if (!created) throw std::logic_error("a validated ruleset was refused: " + created.error().message);
    game_.emplace(std::move(*created));
    // What a returning client missed of the last game is not kept past its end: the new deal
    // starts the history again, in this same step (and the kept steps are the last game's).
    history_.restart(game_->state());
    ++game_number_;
    metrics_.games_started.fetch_add(1, std::memory_order_relaxed);
    seat_actions_.fill(0);
    note_holders();
    hand_scored_sides_ = 0;
    json players = json::array();
    std::vector<std::string> starters;
    for (int i = 0; i < rules.seats; ++i) {
        SeatState& st = seats_[static_cast<std::size_t>(i)];
        st.again = false;
        if (st.bot)
            players.push_back({{"bot", true}, {"name", st.name}});
        else
            players.push_back({{"player", st.player}, {"name", st.name}});
        starters.push_back(st.player);
    }
    store(storage::StartGame{identity_.id, game_number_, seed, dump_text(to_json(rules)), dump_text(players), now_.wall,
                             deal_salt_});
    tally_ = storage::GameTally(rules, std::move(starters));
    reset_bots(seed);
    // Provably fair: the deal is fixed, and committed to, before anyone sees a card.
    std::optional<long long> clock_ms;
    if (rules.game_clock_seconds > 0) clock_ms = rules.game_clock_seconds * 1000LL;  // it starts now
    publish_table_event(game_started_event(game_number_, rules, deal_commitment(seed, deal_salt_), clock_ms));
    const auto first = game_->start();
    const std::vector<Event> events(first.begin(), first.end());
    if (rules.game_clock_seconds > 0) {
        clock_deadline_ = now_.steady + std::chrono::seconds(rules.game_clock_seconds);
        arm(TableTimer::clock, clock_deadline_);
    }
    publish(events, std::nullopt);
    summary_changed();
    schedule();
    prompt();
}

void TableCore::apply(Seat seat, const Action& action) {
    auto result = game_->apply(seat, action);
    if (!result) throw std::logic_error("the server's own move was refused: " + result.error().message);
    // The span stays valid until the game's next apply(), which publish() never calls.
    publish(*result, std::pair{seat, action});
}

void TableCore::observe_scored(const Event& e) {
    const auto* scored = std::get_if<HandScored>(&e);
    if (!scored) return;
    hand_scored_sides_ = 0;
    for (const auto& side : scored->sides) {
        if (side.seats == 0) break;
        side_seats_[static_cast<std::size_t>(hand_scored_sides_++)] = side.seats;
    }
}

void TableCore::publish(std::span<const Event> events, std::optional<std::pair<Seat, Action>> cause) {
    std::optional<storage::Cause> stored_cause;
    if (cause) {
        metrics_.actions.fetch_add(1, std::memory_order_relaxed);
        if (cause->second.kind == ActionKind::play) metrics_.card_plays.fetch_add(1, std::memory_order_relaxed);
        if (events.empty()) throw std::logic_error("an action applied without an event");
        stored_cause = storage::Cause{cause->first, cause->second, {}};
        if (cause->first < kMaxSeats) ++seat_actions_[cause->first];
    }
    // The store keeps the action (or that the game was dealt), not the events: the
    // engine renders them again from the record, secret cards included.
    store(storage::EngineEvents{identity_.id, seq_ + 1, static_cast<std::uint32_t>(events.size()), game_number_,
                                now_.wall, std::move(stored_cause)});
    const GameOver* game_over = nullptr;
    std::string game_over_json;
    std::size_t dealt = events.size();  // the step dealt a hand: its events from hand_started on are kept
    const std::uint64_t first_seq = seq_ + 1;
    for (const Event& e : events) {
        for (BotMemory& m : memories_) m.observe(e);  // each redacts for its seat
        tally_.observe(e);
        Entry entry = rendered(e, ++seq_);
        observe_scored(e);
        deliver(entry);
        if (std::holds_alternative<HandStarted>(e)) dealt = static_cast<std::size_t>(&e - events.data());
        if (const auto* over = std::get_if<GameOver>(&e)) {
            game_over = over;
            game_over_json = dump_text(to_json(e, kSpectator));
        }
    }
    const Ruleset& rules = identity_.rules;
    if (dealt < events.size())
        history_.dealt(first_seq + dealt, events.subspan(dealt), game_->state());
    else if (cause)
        history_.step(first_seq, cause->first, cause->second, events.size());
    history_.trim(settings_.history_events, rules, game_->seed());
    // After the last of the action's events, so that the table's own (the standings) follow them.
    if (game_over) on_game_over(*game_over, game_over_json);
}

void TableCore::publish_table_event(json event) {
    const std::string body = dump_text(event);
    Entry entry{++seq_, share(event_frame_around(identity_.id, seq_, body)), {}};
    store(storage::AppendEvent{identity_.id, entry.seq, game_number_, event["type"].get<std::string>(), body, now_.wall});
    tally_.observe_table_event(event);
    deliver(entry);
    history_.table_event(entry.seq, entry.everyone);
    history_.trim(settings_.history_events, identity_.rules, game_ ? game_->seed() : 0);
}

void TableCore::deliver(const Entry& e) {
    for (int s = 0; s < identity_.rules.seats; ++s)
        if (auto session = seats_[static_cast<std::size_t>(s)].session.lock()) send(session, seen_by(e, s));
    for (const auto& w : spectators_)
        if (auto session = w.lock()) send(session, e.everyone);
}

TableCore::Entry TableCore::rendered(const Event& e, std::uint64_t seq) const {
    const json everyone = to_json(e, kSpectator);
    Entry entry{seq, share(event_frame_around(identity_.id, seq, dump_text(everyone))), {}};
    if (is_secret(e)) {
        const int seats = identity_.rules.seats;
        entry.per_seat.resize(static_cast<std::size_t>(seats));
        for (int s = 0; s < seats; ++s) {
            json mine = to_json(e, static_cast<Viewer>(s));
            entry.per_seat[static_cast<std::size_t>(s)] =
                mine == everyone ? entry.everyone : share(event_frame(identity_.id, seq, mine));
        }
    }
    return entry;
}

const Frame& TableCore::seen_by(const Entry& e, int seat) {
    return e.per_seat.empty() || seat < 0 ? e.everyone : e.per_seat[static_cast<std::size_t>(seat)];
}

void TableCore::prompt() {
    if (!game_ || game_->over()) return;
    const std::uint16_t waiting = game_->waiting_for();
    for (int s = 0; s < identity_.rules.seats; ++s) {
        if (!((waiting >> s) & 1)) continue;
        if (auto session = seats_[static_cast<std::size_t>(s)].session.lock()) prompt_seat(session, s);
    }
}

void TableCore::prompt_seat(const From& session, int seat) {
    if (!game_ || game_->over() || !((game_->waiting_for() >> seat) & 1)) return;
    const auto ms_left = (turn_mask_ >> seat) & 1 ? ms_until(turn_deadline_) : std::nullopt;
    send(session, your_turn_frame(identity_.id, seat, seq_, game_->legal_moves(static_cast<Seat>(seat)),
                                  game_->state().hand_rules.nil_allowed, ms_left));
}

std::optional<long long> TableCore::ms_until(TableClock::time_point deadline) const {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now_.steady).count();
    return std::max<long long>(0, left);
}

void TableCore::send_snapshot(const From& s, int seat, const std::string& player) {
    Snapshot snap;
    snap.table = identity_.id;
    snap.seq = seq_;
    snap.you = seat;
    snap.info = summary().to_json();
    snap.game = game_number_;
    snap.view = game_ ? seat_view_json(*game_, seat < 0 ? kSpectator : static_cast<Viewer>(seat)) : json(nullptr);
    if (game_ && !deal_salt_.empty()) {
        snap.deal_commitment = deal_commitment(game_->seed(), deal_salt_);
        if (game_->over()) snap.deal = deal_json(game_->seed(), deal_salt_);
    }
    if (turn_mask_ != 0) snap.turn_ms_left = ms_until(turn_deadline_);
    if (identity_.rules.game_clock_seconds > 0 && game_ && !game_->over()) snap.clock_ms_left = ms_until(clock_deadline_);
    if (const int held = held_seat(player); seat < 0 && !player.empty() && game_ && !game_->over() && held >= 0)
        snap.held_seat = held;
    send(s, snapshot_frame(snap));
}

void TableCore::on_game_over(const GameOver& over, const std::string& over_json) {
    stop(TableTimer::clock);
    metrics_.games_finished.fetch_add(1, std::memory_order_relaxed);
    const Ruleset& rules = identity_.rules;
    json result = {{"game_over", json::parse(over_json)}};
    // The game is over: its seed and salt are no longer secret, and let anyone check the
    // commitment of game_started and rebuild every deal (PROTOCOL.md, "Provably fair deals").
    if (!deal_salt_.empty()) publish_table_event(deal_revealed_event(game_number_, game_->seed(), deal_salt_));
    if (rules.preset == Preset::worldwinner_spades && over.side_count == 2) {
        // Seed 004's tournament standings, with the whole seconds left on the clock.
        const bool clocked = rules.game_clock_seconds > 0;
        const int seconds_left =
            clocked ? static_cast<int>(std::max<long long>(
                          0, std::chrono::duration_cast<std::chrono::seconds>(clock_deadline_ - now_.steady).count()))
                    : 0;
        json standings = standings_event(worldwinner_tournament_standings(
            over, std::span(side_seats_.data(), static_cast<std::size_t>(hand_scored_sides_)), game_->hand_partners(0),
            rules.seats, clocked, seconds_left));
        result["standings"] = standings;
        publish_table_event(std::move(standings));
    }
    // Rated (every seat a person's when the game began): the ratings move in the same commit.
    storage::FinishGame finish{identity_.id, game_number_, dump_text(result), now_.wall};
    finish.preset = to_string(rules.preset);
    finish.rated = tally_.result(over);
    // The host's named rule set, if the table plays one: the archive, the ratings and the rule
    // set's count of games keep the game under it too.
    if (rule_set_) finish.rule_set = rule_set_->name;
    // The webhook's summary is kept in the same commit (the store's outbox) until the host's receiver has it.
    if (settings_.webhook) {
        effects_.step.webhook = webhook_summary(result);
        effects_.step.webhook_game = game_number_;
        if (settings_.stored) finish.webhook = effects_.step.webhook;
    }
    store(std::move(finish));
    summary_changed();
}

std::string TableCore::webhook_summary(const json& result) const {
    json seats = json::array();
    for (int s = 0; s < identity_.rules.seats; ++s) {
        const SeatState& st = seats_[static_cast<std::size_t>(s)];
        seats.push_back({{"seat", s},
                         {"player", st.bot || st.player.empty() ? json(nullptr) : json(st.player)},
                         {"name", st.name},
                         {"bot", st.bot}});
    }
    json summary = {{"type", "game_finished"},
                    {"table", identity_.id},
                    {"game", game_number_},
                    {"preset", to_string(identity_.rules.preset)},
                    {"ruleset", to_json(identity_.rules)},
                    {"seats", std::move(seats)},
                    {"result", result},
                    {"finished", now_.wall},
                    {"archive", "/api/games/" + identity_.id + "/" + std::to_string(game_number_)}};
    if (!deal_salt_.empty()) summary["deal"] = deal_json(game_->seed(), deal_salt_);
    if (!settings_.node_id.empty()) summary["node"] = settings_.node_id;
    return dump_text(summary);
}

}  // namespace sparts::server
