// The `strong` bot: determinized sampling ("perfect-information Monte Carlo"),
// with the basic bot as the players of the simulations.
//
// For a card play or a bid it
//   1. lists the candidates: the legal cards, one of each run of cards that are
//      worth the same (the 9 and 10 of a suit when no card between them is
//      out, of equal points); for a bid, the basic bot's bid, one and two
//      either side of it, and nil where nil is allowed;
//   2. samples deals of the cards it has not seen, consistent with everything
//      the seat knows (bot_memory.hpp): each other seat's number of cards, the
//      cards passed to it and not played since, the suits it showed void in;
//      the rest of the unseen cards go to the center and to the center cards
//      others took. A seat that bid nil is dealt more often low cards, and a
//      seat's bid weighs the deal (a deal in which the basic bot would have bid
//      far from what the seat did counts for less);
//   3. plays every candidate out to the end of the hand in every deal (the same
//      deals for every candidate), every seat played by `basic` with a memory
//      of the public events and its sampled cards;
//   4. scores each playout by the hand's score of the seat's own side, as the
//      engine scores it (contracts, bags, nil, moon, penalty cards), with bags
//      counted at their average price (bag points / threshold each) rather
//      than at the hand they cross the threshold;
//   5. keeps the basic bot's choice unless a candidate beats it, paired over
//      the same deals, by more than its standard error: with few deals the
//      sampling noise would otherwise throw away the heuristics' knowledge.
// The 7-of-diamonds choice and passing are the basic bot's.
//
// Budget and determinism. The number of deals is computed from the budget and
// the size of the decision (candidates x cards left to play) with a fixed
// estimate of the cost of one simulated card, so the same view, memory and
// generator give the same decision on every machine. The clock is only a safety
// cap: when a decision runs past its budget (a slow or loaded machine, a
// sanitizer build) it stops after the current deal and decides on the deals it
// finished, which makes that decision depend on the machine's speed.
// BotOptions::clock_cap = false turns the cap off.
#pragma once

#include "bots/bot.hpp"

namespace sparts {

// `view.legal.any` must be true. Returns one of view.legal.
Action strong_action(const SeatView& view, const BotMemory& memory, Rng& rng, const BotOptions& options);

// What a strong decision did, for tests and the arena.
struct StrongStats {
    int candidates = 0;
    int deals_planned = 0;
    int deals_done = 0;
    bool clock_stopped = false;
    bool basic_kept = false;
};
Action strong_action(const SeatView& view, const BotMemory& memory, Rng& rng, const BotOptions& options,
                     StrongStats& stats);

namespace bot {

// One sampled position consistent with what the seat knows, as a full game
// state; exposed for the tests of the sampler (every card in one place, voids
// and known cards respected).
struct Sampler;
GameState sample_state(const SeatView& view, const BotMemory& memory, Rng& rng);

}  // namespace bot

}  // namespace sparts
