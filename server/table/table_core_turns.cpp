// Time at a table, as deadlines the shell's timers keep: the turn limit of
// the seats on turn, the bots' pace, WorldWinner's game clock, and the grace
// period of a table nobody is connected to. A timer's firing counts only if
// its generation is still the latest: arming or stopping one starts a new one.
#include "server/table/table_core.hpp"

#include "engine/view.hpp"
#include "protocol/server_messages.hpp"

namespace sparts::server {

void TableCore::schedule() {
    if (closed_ || !game_ || game_->over()) {
        turn_mask_ = 0;
        bot_armed_ = false;
        stop(TableTimer::turn);
        stop(TableTimer::bot);
        return;
    }
    const std::uint16_t waiting = game_->waiting_for();
    std::uint16_t automatic = 0;
    for (int s = 0; s < identity_.rules.seats; ++s) {
        const SeatState& st = seats_[static_cast<std::size_t>(s)];
        if (st.bot || st.absent) automatic = static_cast<std::uint16_t>(automatic | (1u << s));
    }
    if ((waiting & automatic) && !bot_armed_ && !bot_thinking_) {
        bot_armed_ = true;
        arm(TableTimer::bot, now_.steady + std::chrono::milliseconds(settings_.bot_delay_ms));
    }
    const std::uint16_t humans = static_cast<std::uint16_t>(waiting & ~automatic);
    if (identity_.turn_seconds == 0 || humans == 0) {
        if (turn_mask_ != 0) {
            turn_mask_ = 0;
            stop(TableTimer::turn);
        }
        return;
    }
    // The clock restarts for a seat newly on turn; seats still passing keep theirs. Where one
    // seat acts at a time, a new decision restarts it even for the seat that just acted: the
    // winner of a trick leading the next, the shooter choosing after its last card.
    const GameState& st = game_->state();
    const std::uint64_t decision =
        st.phase == Phase::passing ? 0
                                   : static_cast<std::uint64_t>(st.phase) | std::uint64_t{st.hand} << 8 |
                                         std::uint64_t{st.trick_number} << 16 | std::uint64_t{st.trick.count} << 24 |
                                         std::uint64_t{st.bids_made} << 32 | std::uint64_t{st.hands_scored} << 40;
    const bool new_decision = decision != decision_;
    decision_ = decision;
    if ((humans & ~turn_mask_) != 0 || (new_decision && st.phase != Phase::passing)) {
        turn_deadline_ = now_.steady + std::chrono::seconds(identity_.turn_seconds);
        arm(TableTimer::turn, turn_deadline_);
    }
    turn_mask_ = humans;
}

void TableCore::on_turn_timeout() {
    if (closed_ || !game_ || game_->over()) return;
    const std::uint16_t late = static_cast<std::uint16_t>(game_->waiting_for() & turn_mask_);
    turn_mask_ = 0;
    for (int s = 0; s < identity_.rules.seats; ++s) {
        if (!((late >> s) & 1) || game_->over()) continue;
        SeatState& st = seats_[static_cast<std::size_t>(s)];
        ++st.missed;
        metrics_.turns_timed_out.fetch_add(1, std::memory_order_relaxed);
        publish_table_event(turn_timed_out_event(s));
        if (st.human() && !st.absent && st.missed >= settings_.absent_after_missed_turns) {
            st.absent = true;
            publish_table_event(seat_absent_event(s));
        }
        // A strong bot thinks here, on the strand, within --bot-budget-ms: timeouts are rare.
        play_bot(static_cast<Seat>(s), false);
    }
    schedule();
    prompt();
}

void TableCore::on_bot_turn() {
    bot_armed_ = false;
    if (closed_ || !game_ || game_->over()) return;
    const std::uint16_t waiting = game_->waiting_for();
    for (int s = 0; s < identity_.rules.seats; ++s) {
        const SeatState& st = seats_[static_cast<std::size_t>(s)];
        if (((waiting >> s) & 1) && (st.bot || st.absent)) {
            if (!play_bot(static_cast<Seat>(s), true)) return;  // thinking off the strand
            break;  // one move a delay, so that people can follow
        }
    }
    schedule();
    prompt();
}

void TableCore::on_clock() {
    if (closed_ || !game_ || game_->over()) return;
    apply(kTableSeat, Action::clock_expired());
    schedule();
    prompt();
}

void TableCore::reset_bots(std::uint64_t seed) {
    memories_.clear();
    bot_rngs_.clear();
    for (int s = 0; s < identity_.rules.seats; ++s) {
        memories_.emplace_back(identity_.rules, static_cast<Seat>(s));
        bot_rngs_.emplace_back(seed, 0x626f74ULL + static_cast<std::uint64_t>(s));
    }
    ++bot_think_;  // a decision still under way belongs to the last game
    bot_thinking_ = false;
}

BotLevel TableCore::level_of(int seat) const {
    const SeatState& st = seats_[static_cast<std::size_t>(seat)];
    return st.bot ? st.level : settings_.absent_bot;
}

std::size_t TableCore::actions_by(Seat s) const { return s < kMaxSeats ? seat_actions_[s] : 0; }

bool TableCore::play_bot(Seat s, bool may_think_off_strand) {
    const BotLevel level = level_of(s);
    BotOptions options;
    options.budget_us = static_cast<std::uint32_t>(settings_.bot_budget_ms) * 1000u;
    SeatView view = view_of(*game_, s);
    if (level != BotLevel::strong || !may_think_off_strand) {
        apply(s, decide(level, view, memories_[s], bot_rngs_[s], options));
        return true;
    }
    bot_thinking_ = true;
    effects_.think = std::make_unique<BotQuestion>(BotQuestion{
        ++bot_think_, s, game_number_, actions_by(s), std::move(view), memories_[s], bot_rngs_[s], options});
    return false;
}

TableEffects TableCore::bot_decided(const BotAnswer& a, Moment now) {
    begin(now);
    if (a.think != bot_think_) return finish();  // superseded (a new game)
    bot_thinking_ = false;
    if (closed_ || !game_ || game_->over()) return finish();
    const SeatState& st = seats_[static_cast<std::size_t>(a.seat)];
    // Apply it only if the seat's turn is the one the bot thought about.
    if (a.game == game_number_ && ((game_->waiting_for() >> a.seat) & 1) && (st.bot || st.absent) &&
        actions_by(a.seat) == a.seat_actions && game_->legal_moves(a.seat).contains(a.action)) {
        bot_rngs_[a.seat] = a.rng;
        apply(a.seat, a.action);
    }
    schedule();
    prompt();
    return finish();
}

void TableCore::check_grace() {
    if (closed_) return;
    bool anyone = false;
    for (const auto& st : seats_)
        if (st.human() && !st.session.expired()) anyone = true;
    if (anyone) {
        if (grace_armed_) {
            grace_armed_ = false;
            stop(TableTimer::grace);
        }
        return;
    }
    if (grace_armed_) return;
    grace_armed_ = true;
    arm(TableTimer::grace, now_.steady + std::chrono::seconds(settings_.grace_seconds));
}

void TableCore::stop_timers() {
    schedule();  // with closed_ set: the turn and bot timers stop
    stop(TableTimer::clock);
    stop(TableTimer::grace);
}

}  // namespace sparts::server
