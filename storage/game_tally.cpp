#include "storage/game_tally.hpp"

#include <algorithm>
#include <set>
#include <nlohmann/json.hpp>
#include "protocol/json_text.hpp"

namespace sparts::storage {

namespace {

int line(const SideScore& side, ScoreComponent c) { return side.delta[static_cast<std::size_t>(c)]; }

}  // namespace

GameTally::GameTally(const Ruleset& rules, std::vector<std::string> starters)
    : starters_(std::move(starters)), held_(starters_.size(), true), stats_(starters_.size()),
      points_taken_(rules.low_score_wins) {
    for (int s = 0; s < static_cast<int>(starters_.size()); ++s) sides_.push_back(rules.side_of(static_cast<Seat>(s)));
}

std::vector<std::string> GameTally::starters_of(const std::string& players_json) {
    std::vector<std::string> out;
    const auto doc = parse_json_text(players_json);
    if (!doc || !doc->is_array()) return out;
    for (const auto& p : *doc) {
        const auto it = p.is_object() ? p.find("player") : p.end();
        out.push_back(it != p.end() && it->is_string() ? it->get<std::string>() : std::string());
    }
    return out;
}

void GameTally::set_held(int seat, bool held) {
    if (seat >= 0 && seat < static_cast<int>(held_.size())) held_[static_cast<std::size_t>(seat)] = held;
}

void GameTally::observe_table_event(const nlohmann::json& event) {
    if (!event.is_object()) return;
    const std::string type = event.value("type", "");
    const auto seat = event.find("seat");
    if (seat == event.end() || !seat->is_number_integer()) return;
    const int s = seat->get<int>();
    if (type == "seat_left") {
        set_held(s, false);
    } else if (type == "seat_taken") {
        const auto player = event.find("player");
        const bool starter = player != event.end() && player->is_object() && player->contains("id") &&
                             s >= 0 && s < static_cast<int>(starters_.size()) &&
                             player->at("id") == starters_[static_cast<std::size_t>(s)];
        set_held(s, starter);
    }
}

void GameTally::observe(const Event& e) {
    if (const auto* bid = std::get_if<BidMade>(&e)) {
        if (bid->seat < kMaxSeats) {
            hand_[bid->seat].nil = bid->nil;
            hand_[bid->seat].bid = !bid->nil;
        }
    } else if (const auto* won = std::get_if<TrickWon>(&e)) {
        if (won->winner < kMaxSeats) ++hand_[won->winner].tricks;
    } else if (const auto* scored = std::get_if<HandScored>(&e)) {
        hand_scored(*scored);
        hand_ = {};
    }
}

void GameTally::hand_scored(const HandScored& h) {
    // The moon: in a hand where a side's moon line is not zero, the side(s) with the highest,
    // or where points are taken (the hearts preset) the lowest: 0 against the others' +26, or
    // -26 against their 0. (A reverse-partners hand is not read further below.)
    bool moon = false;
    int best = 0;
    for (const SideScore& side : h.sides) {
        const int m = line(side, ScoreComponent::moon);
        if (m != 0) moon = true;
        best = &side == &h.sides.front() ? m : points_taken_ ? std::min(best, m) : std::max(best, m);
    }
    for (const SideScore& side : h.sides) {
        const bool made = side.bid >= 0 && line(side, ScoreComponent::set) == 0;
        for (int s = 0; s < static_cast<int>(stats_.size()); ++s) {
            if (!((side.seats >> s) & 1) || !held_[static_cast<std::size_t>(s)]) continue;
            PlayStats& st = stats_[static_cast<std::size_t>(s)];
            const HandSeat& seat = hand_[static_cast<std::size_t>(s)];
            ++st.hands;
            if (h.reversed) continue;
            if (moon && line(side, ScoreComponent::moon) == best) ++st.moons;
            if (seat.nil) {
                ++st.nil_bids;
                if (seat.tricks == 0) ++st.nils_made;
            } else if (seat.bid && side.bid >= 0) {
                ++st.bids;
                if (made) ++st.bids_made;
                st.bags += std::max(0, line(side, ScoreComponent::overtricks));
            }
        }
    }
}

bool GameTally::rated() const {
    if (starters_.size() < 2) return false;
    std::set<std::string> seen;
    for (const auto& p : starters_)
        if (p.empty() || !seen.insert(p).second) return false;
    return true;
}

std::vector<RatedSeat> GameTally::result(const GameOver& over) const {
    std::vector<RatedSeat> out;
    if (!rated()) return out;
    for (std::size_t s = 0; s < starters_.size(); ++s) {
        const int side = sides_[s];
        RatedSeat r;
        r.player = starters_[s];
        r.team = side;
        r.place = side >= 0 && side < over.side_count ? over.ranks[static_cast<std::size_t>(side)] : 1;
        r.abandoned = !held_[s];
        r.stats = stats_[s];
        out.push_back(std::move(r));
    }
    return out;
}

}  // namespace sparts::storage
