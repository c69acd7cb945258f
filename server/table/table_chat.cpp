#include "server/table/table_chat.hpp"

#include "protocol/server_messages.hpp"

#include <algorithm>

#include "engine/seat.hpp"
#include "protocol/json_text.hpp"

namespace sparts::server {

using nlohmann::json;

namespace {

constexpr std::uint16_t kSpectatorsBit = std::uint16_t{1} << kMaxSeats;

std::uint16_t bit_of(int seat) {
    return seat == TableChat::kSpectators ? kSpectatorsBit : static_cast<std::uint16_t>(1u << seat);
}

}  // namespace

json TableChat::line_json(const Line& line) {
    return chat_line_json(line.seq, line.seat == kSpectators ? -1 : line.seat, line.player, line.name, line.text,
                          line.to_seats);
}

std::string TableChat::frame(const std::string& table, const Line& line) {
    return chat_frame(table, line_json(line));
}

std::uint16_t TableChat::mutes_of(std::string_view player) const {
    for (const auto& [who, bits] : mutes_)
        if (who == player) return bits;
    return 0;
}

bool TableChat::sees(const ChatReader& reader, const Line& line) const {
    if (line.player == reader.player) return true;  // one's own line, whatever one muted
    if (!line.to_seats && reader.plays) return false;
    return (mutes_of(reader.player) & bit_of(line.seat)) == 0;
}

void TableChat::keep(Line line) {
    if (keep_ == 0) return;
    lines_.push_back(std::move(line));
    while (lines_.size() > keep_) lines_.pop_front();
}

std::string TableChat::history(const std::string& table, const ChatReader& reader) const {
    json lines = json::array();
    for (const Line& line : lines_)
        if (sees(reader, line)) lines.push_back(line_json(line));
    json muted = json::array();
    const std::uint16_t bits = mutes_of(reader.player);
    for (int seat = 0; seat < kMaxSeats; ++seat)
        if (bits & bit_of(seat)) muted.push_back(seat);
    if (bits & kSpectatorsBit) muted.push_back("spectators");
    return chat_history_frame(table, std::move(lines), std::move(muted));
}

void TableChat::mute(std::string_view player, int seat, bool muted) {
    auto it = std::find_if(mutes_.begin(), mutes_.end(), [&](const auto& m) { return m.first == player; });
    if (it == mutes_.end()) {
        if (!muted) return;
        it = mutes_.emplace(mutes_.end(), std::string(player), std::uint16_t{0});
    }
    it->second = muted ? static_cast<std::uint16_t>(it->second | bit_of(seat))
                       : static_cast<std::uint16_t>(it->second & ~bit_of(seat));
    if (it->second == 0) mutes_.erase(it);
}

void TableChat::forget(std::string_view player) {
    std::erase_if(mutes_, [&](const auto& m) { return m.first == player; });
}

void TableChat::forget_unless(const std::function<bool(std::string_view)>& at_table) {
    std::erase_if(mutes_, [&](const auto& m) { return !at_table(m.first); });
}

}  // namespace sparts::server
