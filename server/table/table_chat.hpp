// A table's chat (PROTOCOL.md, "Table chat"): the last lines said there, who
// may read each, and who muted whom. It lives on the table's strand.
//
// Two channels: the seats talk on `seats`, spectators on `spectators`. A seat's
// line reaches everyone at the table. A spectator's line said while a game is
// running reaches spectators only, never anyone who plays that game (seated, or
// holding a seat of it earlier and now watching), so that nobody is coached
// from the rail; said between games it reaches everyone. Whether a line may
// reach the players (its `to`) is fixed when it is said, and holds live and
// when it is replayed; mutes are applied as it is sent, and as it is replayed.
//
// Chat is not part of the table's numbered event stream: a line that some
// readers may not see (a spectator's during a game, a muted seat's) would
// leave a gap in their seqs, which the protocol promises never to leave, or
// need a placeholder that says someone spoke. Nor is it stored: a restart, or
// a move to another node, forgets it, and the archive of finished games never
// holds it (a finished game's record is public; table talk is not). The
// last `keep` lines are kept in memory for readers who come back (sit, watch,
// resume), who get them as one chat_history, filtered for them.
//
// Mutes are a player's own, per table, kept while the player is at it: a seat
// (whoever holds it) or the spectators' channel as a whole. A reader always
// gets their own lines.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "server/base/vector_queue.hpp"

namespace sparts::server {

// Someone at the table who may read its chat.
struct ChatReader {
    std::string_view player;
    bool plays = false;  // seated, or held a seat of the game running
};

class TableChat {
public:
    static constexpr int kSpectators = -1;  // a spectator's seat, and the spectators' channel as a whole

    struct Line {
        std::uint64_t seq = 0;  // the table's seq when it was said
        int seat = kSpectators; // the speaker's seat, or kSpectators
        bool to_seats = true;   // false: a spectator's during a game, for spectators only
        std::string player;
        std::string name;
        std::string text;
    };

    // At most `keep` lines are kept for readers who come back; 0: none.
    explicit TableChat(std::size_t keep) : keep_(keep) {}

    // The chat frame of `line`, the same for everyone who may see it.
    static std::string frame(const std::string& table, const Line& line);
    bool sees(const ChatReader& reader, const Line& line) const;
    // Keeps `line` for readers who come back, the oldest going once over `keep`.
    void keep(Line line);
    // The chat_history frame for `reader`: the kept lines it may see, oldest first, and its mutes.
    std::string history(const std::string& table, const ChatReader& reader) const;

    // `player` mutes (or no longer mutes) a seat, or the spectators' channel.
    void mute(std::string_view player, int seat, bool muted);
    // `player` left the table: its mutes go.
    void forget(std::string_view player);
    // Drops the mutes of every player no longer at the table (`at_table` says who is).
    void forget_unless(const std::function<bool(std::string_view)>& at_table);
    // Players with a mute kept.
    std::size_t muters() const { return mutes_.size(); }

private:
    static nlohmann::json line_json(const Line& line);
    std::uint16_t mutes_of(std::string_view player) const;

    std::size_t keep_;
    VectorQueue<Line> lines_;
    // Per player with mutes: a bit per seat, and one for the spectators' channel.
    std::vector<std::pair<std::string, std::uint16_t>> mutes_;
};

}  // namespace sparts::server
