#include "server/table/table_history.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "storage/game_log.hpp"

namespace sparts::server {

namespace {

constexpr std::uint8_t kTableEvent = 0xFF;

}  // namespace

void TableHistory::restart(const GameState& state) {
    lost_ = false;
    deal_.clear();
    deal_seq_ = 0;
    after_deal_ = state;
    steps_.clear();
    steps_.shrink_to_fit();
    steps_seq_ = 0;
    step_events_ = 0;
    next_seq_ = 0;
    frames_.clear();
}

void TableHistory::dealt(std::uint64_t first_seq, std::span<const Event> events, const GameState& after) {
    restart(after);
    deal_.assign(events.begin(), events.end());
    deal_seq_ = first_seq;
    steps_seq_ = next_seq_ = first_seq + events.size();
}

bool TableHistory::follows(std::uint64_t first_seq, std::size_t events) {
    if (lost_) return false;
    if (next_seq_ != 0 && first_seq != next_seq_) {
        // Not the step after the last one kept: what is kept no longer leads up to it.
        // Nothing is kept until the next deal, and a returning client gets a snapshot.
        restart(after_deal_);
        lost_ = true;
        return false;
    }
    if (steps_.empty()) steps_seq_ = first_seq;
    next_seq_ = first_seq + events;
    return true;
}

void TableHistory::step(std::uint64_t first_seq, Seat seat, const Action& action, std::size_t events) {
    if (!follows(first_seq, events)) return;
    steps_ += static_cast<char>(seat);
    storage::append_count(steps_, events);
    storage::append_action(steps_, action);
    step_events_ += events;
}

void TableHistory::table_event(std::uint64_t seq, Frame frame) {
    if (!follows(seq, 1)) return;
    steps_ += static_cast<char>(kTableEvent);
    storage::append_count(steps_, 1);
    frames_.push_back(std::move(frame));
    ++step_events_;
}

std::uint64_t TableHistory::first_seq() const {
    if (!deal_.empty()) return deal_seq_;
    if (!steps_.empty()) return steps_seq_;
    return 0;
}

TableHistory::Step TableHistory::read(std::size_t at) const {
    Step s;
    const std::size_t start = at;
    const auto tag = static_cast<std::uint8_t>(steps_.at(at++));
    const auto events = storage::read_count(steps_, at);
    if (!events) throw std::logic_error("a step kept for returning clients does not decode");
    s.events = static_cast<std::size_t>(*events);
    if (tag == kTableEvent) {
        s.table_event = true;
    } else {
        s.seat = static_cast<Seat>(tag);
        const auto action = storage::read_action(steps_, at);
        if (!action) throw std::logic_error("a step kept for returning clients does not decode");
        s.action = *action;
    }
    s.size = at - start;
    return s;
}

std::span<const Event> TableHistory::replay(Game& g, const Step& s) {
    auto applied = g.apply(s.seat, s.action);
    if (!applied) throw std::logic_error("a step kept for returning clients is refused: " + applied.error().message);
    if (applied->size() != s.events) throw std::logic_error("a step kept for returning clients gives other events");
    return *applied;
}

void TableHistory::trim(std::size_t max_events, const Ruleset& rules, std::uint64_t seed) {
    if (events() <= max_events) return;
    if (!deal_.empty()) {
        const std::size_t drop = std::min(deal_.size(), events() - max_events);
        deal_.erase(deal_.begin(), deal_.begin() + static_cast<std::ptrdiff_t>(drop));
        deal_seq_ += drop;
    }
    std::size_t at = 0;
    while (events() > max_events) {
        const Step s = read(at);
        if (s.table_event) {
            frames_.pop_front();
        } else {
            Game g = Game::resume(rules, seed, after_deal_);
            replay(g, s);
            after_deal_ = g.state();
        }
        at += s.size;
        steps_seq_ += s.events;
        step_events_ -= s.events;
    }
    steps_.erase(0, at);
    if (steps_.empty()) steps_.shrink_to_fit();
}

void TableHistory::since(std::uint64_t seq, const Ruleset& rules, std::uint64_t seed,
                         const std::function<void(const Event&, std::uint64_t)>& engine_event,
                         const std::function<void(const Frame&)>& table_frame) const {
    for (std::size_t i = 0; i < deal_.size(); ++i)
        if (deal_seq_ + i > seq) engine_event(deal_[i], deal_seq_ + i);
    std::optional<Game> again;
    auto frame = frames_.begin();
    std::uint64_t next = steps_seq_;
    for (std::size_t at = 0; at < steps_.size();) {
        const Step s = read(at);
        at += s.size;
        if (s.table_event) {
            if (next > seq) table_frame(*frame);
            ++frame;
        } else {
            if (!again) again.emplace(Game::resume(rules, seed, after_deal_));
            const auto events = replay(*again, s);
            for (std::size_t k = 0; k < events.size(); ++k)
                if (next + k > seq) engine_event(events[k], next + k);
        }
        next += s.events;
    }
}

}  // namespace sparts::server
