// The ways into and out of a seat (sit, leave, watch, add_bot, resume), and
// starting a game (start, again).
#include <algorithm>

#include "protocol/reply.hpp"
#include "protocol/server_messages.hpp"
#include "server/table/table_core.hpp"

namespace sparts::server {

namespace {

std::string no_such_seat(int seats) { return "this table has seats 0 to " + std::to_string(seats - 1); }

}  // namespace

int TableCore::seat_of(const std::string& player) const {
    for (int s = 0; s < identity_.rules.seats; ++s)
        if (seats_[static_cast<std::size_t>(s)].player == player) return s;
    return -1;
}

int TableCore::free_seat() const {
    for (int i = 0; i < identity_.rules.seats; ++i)
        if (seats_[static_cast<std::size_t>(i)].empty()) return i;
    return -1;
}

void TableCore::seat_bot(int seat, std::optional<BotLevel> level) {
    SeatState& st = seats_[static_cast<std::size_t>(seat)];
    st = SeatState{};
    st.bot = true;
    st.level = level.value_or(settings_.absent_bot);
    st.name = "Bot";
    publish_table_event(seat_taken_by_bot_event(seat));
    store_seat(seat);
}

int TableCore::held_seat(const std::string& player) const {
    for (const auto& [who, seat] : holders_)
        if (who == player) return seat;
    return -1;
}

void TableCore::note_holders() {
    holders_.clear();
    for (int i = 0; i < identity_.rules.seats; ++i)
        if (const SeatState& st = seats_[static_cast<std::size_t>(i)]; st.human()) holders_.emplace_back(st.player, i);
}

bool TableCore::is_spectator(const Connection& s) const {
    for (const auto& w : spectators_)
        if (auto p = w.lock(); p.get() == &s) return true;
    return false;
}

void TableCore::remove_spectator(const Connection& s) {
    std::erase_if(spectators_, [&](const std::weak_ptr<Connection>& w) {
        auto p = w.lock();
        return !p || p.get() == &s;
    });
}

bool TableCore::add_spectator(const From& s) {
    if (is_spectator(*s)) return true;
    std::erase_if(spectators_, [](const std::weak_ptr<Connection>& x) { return x.expired(); });
    if (spectators_.size() >= kMaxSpectators) return false;
    spectators_.push_back(s);
    follow(s);
    return true;
}

void TableCore::returned(int seat) {
    SeatState& st = seats_[static_cast<std::size_t>(seat)];
    st.missed = 0;
    if (!st.absent) return;
    st.absent = false;
    publish_table_event(seat_returned_event(seat));
}

void TableCore::on_sit(const From& s, const PlayerRef& p, const RequestId& id, const Sit& sit) {
    const std::string& table = identity_.id;
    if (std::find(removed_.begin(), removed_.end(), p->id) != removed_.end())
        return send(s, error_reply(id, "sit", "removed_from_table",
                                   "an administrator removed you from this table: you may watch it, not sit"));
    if (int mine = seat_of(p->id); mine >= 0) {
        // Already seated here: this connection takes the seat over.
        seats_[static_cast<std::size_t>(mine)].session = s;
        follow(s);
        send(s, ok_reply(id, "sit", {{"table", table}, {"seat", mine}}));
        send_snapshot(s, mine);
        send_chat_history(s, p->id);
        returned(mine);
        check_grace();
        schedule();
        return prompt_seat(s, mine);
    }
    if (identity_.is_private && sit.invite != identity_.invite)
        return send(s, error_reply(id, "sit", "wrong_invite", "this table is private and the invite code is wrong",
                                   "invite"));
    const bool playing = game_ && !game_->over();
    int seat = -1;
    if (sit.seat) {
        seat = *sit.seat;
        if (seat >= identity_.rules.seats)
            return send(s, error_reply(id, "sit", "bad_seat", no_such_seat(identity_.rules.seats), "seat"));
        const SeatState& st = seats_[static_cast<std::size_t>(seat)];
        // A bot seat may be taken over by a person during a game.
        if (!st.empty() && !(st.bot && playing))
            return send(s, error_reply(id, "sit", "seat_taken", "seat " + std::to_string(seat) + " is taken", "seat"));
        // But not by one who has held another seat of this game: their snapshot
        // would show a second hand (leave, sit in the bot seat, read it, go back).
        if (const int held = held_seat(p->id); playing && held >= 0 && held != seat)
            return send(s, error_reply(id, "sit", "seat_change_mid_game",
                                       "you held seat " + std::to_string(held) +
                                           " of this game: you may take that seat again, not another, until it ends",
                                       "seat"));
    } else {
        seat = free_seat();
        if (seat < 0) return send(s, error_reply(id, "sit", "table_full", "every seat at this table is taken"));
    }
    SeatState& st = seats_[static_cast<std::size_t>(seat)];
    st = SeatState{};
    if (playing && held_seat(p->id) < 0) holders_.emplace_back(p->id, seat);
    st.player = p->id;
    st.name = p->name;
    st.session = s;
    store_seat(seat);
    remove_spectator(*s);
    follow(s);
    publish_table_event(seat_taken_event(seat, p->id, p->name));
    send(s, ok_reply(id, "sit", {{"table", table}, {"seat", seat}}));
    send_snapshot(s, seat);
    send_chat_history(s, p->id);
    summary_changed();
    check_grace();
    schedule();
    prompt_seat(s, seat);
}

void TableCore::on_leave(const From& s, const PlayerRef& p, const RequestId& id, const Leave&) {
    const int seat = seat_of(p->id);
    if (seat < 0) {
        if (!is_spectator(*s)) return send(s, error_reply(id, "leave", "not_at_table", "you are not at this table"));
        remove_spectator(*s);
        chat_.forget(p->id);
        return send(s, ok_reply(id, "leave", {{"table", identity_.id}}));
    }
    const bool playing = game_ && !game_->over();
    seats_[static_cast<std::size_t>(seat)] = SeatState{};
    chat_.forget(p->id);
    publish_table_event(seat_left_event(seat));
    // Mid-game the game goes on: a bot plays the seat until someone takes it.
    if (playing) seat_bot(seat);
    else store_seat(seat);
    send(s, ok_reply(id, "leave", {{"table", identity_.id}}));
    summary_changed();
    schedule();
    check_grace();
    close_if_only_bots();
}

void TableCore::close_if_only_bots() {
    bool bots = false;
    for (int i = 0; i < identity_.rules.seats; ++i) {
        const SeatState& st = seats_[static_cast<std::size_t>(i)];
        if (st.human()) return;
        bots = bots || st.bot;
    }
    if (bots) close_table("everyone_left");
}

void TableCore::on_watch(const From& s, const PlayerRef& p, const RequestId& id, const Watch& w) {
    if (seat_of(p->id) >= 0)
        return send(s, error_reply(id, "watch", "already_seated", "you hold a seat here: use resume or sit"));
    if (identity_.is_private && w.invite != identity_.invite)
        return send(s, error_reply(id, "watch", "wrong_invite", "this table is private and the invite code is wrong",
                                   "invite"));
    if (!add_spectator(s))
        return send(s, error_reply(id, "watch", "too_many_spectators", "this table has as many spectators as it takes"));
    send(s, ok_reply(id, "watch", {{"table", identity_.id}}));
    send_snapshot(s, -1, p->id);
    send_chat_history(s, p->id);
}

void TableCore::on_add_bot(const From& s, const PlayerRef& p, const RequestId& id, const AddBot& a) {
    if (seat_of(p->id) < 0 && p->id != identity_.creator)
        return send(s, error_reply(id, "add_bot", "not_seated",
                                   "only a seated player or the table's creator may add a bot"));
    int seat = -1;
    if (a.seat) {
        seat = *a.seat;
        if (seat >= identity_.rules.seats)
            return send(s, error_reply(id, "add_bot", "bad_seat", no_such_seat(identity_.rules.seats), "seat"));
        if (!seats_[static_cast<std::size_t>(seat)].empty())
            return send(s, error_reply(id, "add_bot", "seat_taken", "seat " + std::to_string(seat) + " is taken", "seat"));
    } else {
        seat = free_seat();
        if (seat < 0) return send(s, error_reply(id, "add_bot", "table_full", "every seat at this table is taken"));
    }
    seat_bot(seat, parse_bot_level(a.level).value_or(BotLevel::basic));
    send(s, ok_reply(id, "add_bot", {{"table", identity_.id}, {"seat", seat}}));
    summary_changed();
}

void TableCore::on_start(const From& s, const PlayerRef& p, const RequestId& id, const Start&) {
    if (seat_of(p->id) < 0) return send(s, error_reply(id, "start", "not_seated", "only a seated player may start"));
    if (game_number_ > 0)
        return send(s, error_reply(id, "start", "already_started",
                                   game_->over() ? "the game is over: ask for another with again"
                                                 : "the game has already started"));
    if (const int empty = free_seat(); empty >= 0)
        return send(s, error_reply(id, "start", "seats_not_full",
                                   "seat " + std::to_string(empty) + " is empty: wait for a player or add a bot"));
    send(s, ok_reply(id, "start", {{"table", identity_.id}}));
    new_game();
}

void TableCore::on_again(const From& s, const PlayerRef& p, const RequestId& id, const Again&) {
    const int seat = seat_of(p->id);
    if (seat < 0)
        return send(s, error_reply(id, "again", "not_seated", "only a seated player may ask for another game"));
    if (!game_ || !game_->over())
        return send(s, error_reply(id, "again", "game_not_over",
                                   "another game can be asked for once this one is over"));
    if (const int empty = free_seat(); empty >= 0)
        return send(s, error_reply(id, "again", "seats_not_full",
                                   "seat " + std::to_string(empty) + " is empty: wait for a player or add a bot"));
    send(s, ok_reply(id, "again", {{"table", identity_.id}}));
    SeatState& st = seats_[static_cast<std::size_t>(seat)];
    if (!st.again) {
        st.again = true;
        publish_table_event(again_requested_event(seat));
    }
    for (int i = 0; i < identity_.rules.seats; ++i) {
        const SeatState& x = seats_[static_cast<std::size_t>(i)];
        if (x.human() && !x.again) return;  // bots always agree
    }
    new_game();
}

void TableCore::on_resume(const From& s, const PlayerRef& p, const RequestId& id, const Resume& res) {
    const int seat = seat_of(p->id);
    if (seat < 0) {
        if (identity_.is_private && !is_spectator(*s))
            return send(s, error_reply(id, "resume", "not_seated", "you hold no seat at this private table"));
        if (!add_spectator(s))
            return send(s, error_reply(id, "resume", "too_many_spectators",
                                       "this table has as many spectators as it takes"));
    } else {
        seats_[static_cast<std::size_t>(seat)].session = s;
        follow(s);
    }
    const std::uint64_t kept_from = history_.first_seq();
    const bool can_replay = res.seq <= seq_ && (res.seq == seq_ || (kept_from > 0 && kept_from <= res.seq + 1));
    const nlohmann::json you = seat < 0 ? nlohmann::json(nullptr) : nlohmann::json(seat);
    if (can_replay) {
        send(s, ok_reply(id, "resume", {{"table", identity_.id}, {"seat", you}, {"mode", "events"}, {"from", res.seq + 1}}));
        // The deal's events, then the steps since: the engine plays them again from the state after the deal.
        history_.since(
            res.seq, identity_.rules, game_ ? game_->seed() : 0,
            [&](const Event& e, std::uint64_t n) { send(s, seen_by(rendered(e, n), seat)); },
            [&](const Frame& f) { send(s, f); });
    } else {
        send(s, ok_reply(id, "resume", {{"table", identity_.id}, {"seat", you}, {"mode", "snapshot"}}));
        send_snapshot(s, seat, p->id);
    }
    // In either mode: the chat is not in the seq stream, so the events replayed carry none of it.
    send_chat_history(s, p->id);
    if (seat >= 0) returned(seat);
    check_grace();
    schedule();
    if (seat >= 0) prompt_seat(s, seat);
}

}  // namespace sparts::server
