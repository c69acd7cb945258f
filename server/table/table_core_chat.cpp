// Chat at a table (table_chat.hpp): who may talk, who reads each line, mutes.
#include "protocol/reply.hpp"
#include "server/table/table_core.hpp"

namespace sparts::server {

static_assert(Mute::kSpectators == TableChat::kSpectators);

ChatReader TableCore::chat_reader(const std::string& player) const {
    // One who has held a seat of the game running and now watches still plays it: the rail's talk is not for them.
    const bool plays = seat_of(player) >= 0 || (game_ && !game_->over() && held_seat(player) >= 0);
    return {player, plays};
}

void TableCore::send_chat_history(const From& s, const std::string& player) {
    send(s, chat_.history(identity_.id, chat_reader(player)));
}

void TableCore::on_chat(const From& s, const PlayerRef& p, const RequestId& id, const Chat& chat) {
    const int seat = seat_of(p->id);
    if (seat < 0 && !is_spectator(*s))
        return send(s, error_reply(id, "chat", "not_at_table",
                                   "only the seats and the spectators of this table may talk at it: sit or watch first"));
    TableChat::Line line;
    line.seq = seq_;
    line.seat = seat < 0 ? TableChat::kSpectators : seat;
    // While a game runs, spectators talk among themselves: nobody playing it is coached from the rail.
    line.to_seats = seat >= 0 || !game_ || game_->over();
    line.player = p->id;
    line.name = p->name;
    line.text = chat.text;
    const Frame frame = std::make_shared<const std::string>(TableChat::frame(identity_.id, line));
    bool echoed = false;
    auto tell = [&](const From& session, const ChatReader& reader) {
        if (!chat_.sees(reader, line)) return;
        send(session, frame);
        echoed = echoed || session == s;
    };
    for (int i = 0; i < identity_.rules.seats; ++i) {
        const SeatState& st = seats_[static_cast<std::size_t>(i)];
        if (auto session = st.session.lock(); session && st.human()) tell(session, {st.player, true});
    }
    for (const auto& w : spectators_)
        if (auto session = w.lock(); session && session->player()) tell(session, chat_reader(session->player()->id));
    // A seat may talk from a connection that does not follow the table (another tab): it hears itself too.
    if (!echoed) send(s, frame);
    chat_.keep(std::move(line));
    metrics_.chat_lines.fetch_add(1, std::memory_order_relaxed);
    send(s, ok_reply(id, "chat", {{"table", identity_.id}}));
}

void TableCore::on_mute(const From& s, const PlayerRef& p, const RequestId& id, const Mute& m) {
    const int seats = identity_.rules.seats;
    const int mine = seat_of(p->id);
    if (mine < 0 && !is_spectator(*s)) return send(s, error_reply(id, "mute", "not_at_table", "you are not at this table"));
    if (m.seat != Mute::kSpectators && m.seat >= seats)
        return send(s, error_reply(id, "mute", "bad_seat", "this table has seats 0 to " + std::to_string(seats - 1),
                                   "seat"));
    if (mine >= 0 && m.seat == mine) return send(s, error_reply(id, "mute", "bad_seat", "that is your own seat", "seat"));
    // A spectator who dropped without leave keeps its mutes for when it comes back, unless there
    // are more players with mutes than a table holds people: then those no longer here go.
    if (chat_.muters() >= kMaxSpectators + static_cast<std::size_t>(seats))
        chat_.forget_unless([&](std::string_view who) {
            const std::string player(who);
            if (seat_of(player) >= 0) return true;
            for (const auto& w : spectators_)
                if (auto session = w.lock(); session && session->player() && session->player()->id == player)
                    return true;
            return false;
        });
    chat_.mute(p->id, m.seat, m.muted);
    send(s, ok_reply(id, "mute",
                     {{"table", identity_.id},
                      {"seat", m.seat == Mute::kSpectators ? nlohmann::json("spectators") : nlohmann::json(m.seat)},
                      {"muted", m.muted}}));
}

}  // namespace sparts::server
