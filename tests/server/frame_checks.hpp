// Checks over the frames that clients of one table received: that no card a
// client may not know ever reached it.
//
// The truth is rebuilt from what each seat was entitled to see: a seat's own
// cards_dealt, cards_received and center_taken, hand by hand. Those hands are
// checked against the public record (every card_played must come from the
// hand its seat was dealt, and no card is dealt to two seats), so that the
// server cannot pass the check by labelling another seat's cards as the
// viewer's own. Then, frame by frame, every string in every frame a client
// received that names a card must be one of that client's own cards this
// hand or a card already played face up (card_played) before that frame. A
// spectator has no cards of its own. Secret bids of other seats must not show
// (bid_made without "bid", "secret" in a snapshot's bids) until revealed.
#pragma once
#include <cstddef>
#include <set>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>

namespace sparts::e2e {

struct ClientLog {
    std::string name;
    int seat;  // -1: a spectator
    const std::vector<nlohmann::json>* frames;
    // The seat's own cards it knew before these frames (a connection that
    // resumed mid-hand has not seen the deal), until the next hand starts.
    std::set<std::string> known_before = {};
};

struct LeakReport {
    std::vector<std::string> problems;
    std::size_t frames = 0;          // frames looked at
    std::size_t cards_checked = 0;   // card names found in them, each checked
    std::size_t hidden = 0;          // events about another seat's cards, seen without them
    std::size_t secret_bids = 0;     // other seats' secret bids, seen without the bid
    std::size_t plays_checked = 0;   // card_played checked against the hand its seat was dealt
};

// `seated_truth`: every seat of the table has a log here, so that the hands
// can be rebuilt (false when server bots hold seats).
LeakReport check_no_leaks(const std::vector<ClientLog>& logs, const std::string& table, bool seated_truth = true);

}  // namespace sparts::e2e
