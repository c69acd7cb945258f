// What a client returning to a table may have missed since the current hand was
// dealt, held in a few bytes a step: the deal's events as engine values (they
// are rendered per audience when a client asks), the game as it stood after
// them, and each step since as its seat and action, a few bytes (storage's
// action code), which the engine plays again from that state; a table event
// (a seat taken or left) is kept as the frame that went out.
//
// Rendered frames, or a 40-byte Action and a frame pointer a step, made this the
// largest part of a table's memory (about 5 KB for a hand of Spades); a hand's
// steps here take about 4 bytes each.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "engine/game.hpp"
#include "server/base/frame.hpp"
#include "server/base/vector_queue.hpp"

namespace sparts::server {

class TableHistory {
public:
    // Nothing kept; later steps are played again from `state`.
    void restart(const GameState& state);
    // A new hand: the events of the step that dealt it, from its hand_started on,
    // numbered from `first_seq`, and the game after them.
    void dealt(std::uint64_t first_seq, std::span<const Event> events, const GameState& after);
    // A step since: `events` events from `first_seq` on, caused by `seat`'s `action`.
    void step(std::uint64_t first_seq, Seat seat, const Action& action, std::size_t events);
    // A table event, numbered `seq`.
    void table_event(std::uint64_t seq, Frame frame);

    // Keeps at most `max_events` events, the oldest going first (the state the
    // steps start from moves on past each one dropped).
    void trim(std::size_t max_events, const Ruleset& rules, std::uint64_t seed);

    std::size_t events() const { return deal_.size() + step_events_; }
    // The number of the oldest event kept; 0 when none is.
    std::uint64_t first_seq() const;

    // Every kept event numbered after `seq`, in order: an engine event (to be
    // rendered for its audience) or a table event's frame.
    void since(std::uint64_t seq, const Ruleset& rules, std::uint64_t seed,
               const std::function<void(const Event&, std::uint64_t)>& engine_event,
               const std::function<void(const Frame&)>& table_frame) const;

private:
    // One step of steps_, decoded.
    struct Step {
        bool table_event = false;
        std::size_t events = 0;
        Seat seat = 0;
        Action action{};
        std::size_t size = 0;  // its bytes in steps_
    };
    Step read(std::size_t at) const;
    // Whether a step numbered from `first_seq` follows what is kept (if not, nothing is kept).
    bool follows(std::uint64_t first_seq, std::size_t events);
    // Applies `s` to `g`: the number of events it gives (they are in `g`'s buffer).
    static std::span<const Event> replay(Game& g, const Step& s);

    std::uint64_t deal_seq_ = 0;  // the first deal event's number
    std::vector<Event> deal_;
    GameState after_deal_{};      // the game after the deal (or after the steps dropped since)
    std::uint64_t steps_seq_ = 0; // the first kept step's first event's number
    // Per step: a tag (the seat, or kTableEvent), its event count, then for an engine
    // step the action (both in storage/game_log.hpp's code).
    std::string steps_;
    std::size_t step_events_ = 0;
    std::uint64_t next_seq_ = 0;    // the number the next step must start from; 0: any
    bool lost_ = false;             // a step did not follow: nothing is kept until the next deal
    VectorQueue<Frame> frames_;   // the table events' frames, in order
};

}  // namespace sparts::server
