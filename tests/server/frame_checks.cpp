#include "frame_checks.hpp"

#include <map>
#include <set>
#include "engine/card.hpp"

namespace sparts::e2e {

using nlohmann::json;

namespace {

using Cards = std::set<std::string>;

void add_cards(Cards& to, const json& cards) {
    if (cards.is_array())
        for (const auto& c : cards)
            if (c.is_string()) to.insert(c.get<std::string>());
}

// Every string value anywhere in `j` that names a card.
void cards_in(const json& j, std::vector<std::string>& out) {
    if (j.is_string()) {
        const auto& s = j.get_ref<const std::string&>();
        if (parse_card(s)) out.push_back(s);
    } else if (j.is_array() || j.is_object()) {
        for (const auto& v : j) cards_in(v, out);
    }
}

std::string cut(const json& j) {
    std::string s = j.dump();
    return s.size() > 400 ? s.substr(0, 400) + "..." : s;
}

}  // namespace

LeakReport check_no_leaks(const std::vector<ClientLog>& logs, const std::string& table, bool seated_truth) {
    LeakReport r;
    auto problem = [&](const std::string& what) {
        if (r.problems.size() < 30) r.problems.push_back(what);
    };
    // Hand key ("game 1 hand 3") -> seat -> the cards that seat held at some
    // point of the hand (dealt, received, taken from the center); and dealt.
    std::map<std::string, std::map<int, Cards>> truth, dealt;
    // Hand key -> seq -> (seat, card), the public record.
    std::map<std::string, std::map<std::uint64_t, std::pair<int, std::string>>> plays;

    for (const ClientLog& log : logs) {
        const int me = log.seat;
        std::string key;
        int game = 0;
        Cards own = log.known_before, shown;
        bool secret_bids_open = false;  // a secret bid is hidden in this hand until bids_revealed
        for (std::size_t i = 0; i < log.frames->size(); ++i) {
            const json& f = (*log.frames)[i];
            ++r.frames;
            const std::string where = log.name + " frame " + std::to_string(i) + " " + cut(f);
            if (f.value("type", "") == "event" && f.value("table", "") == table) {
                const json& e = f.at("event");
                const std::string type = e.value("type", "");
                const int seat = e.value("seat", -2);
                if (type == "game_started") {
                    game = e.value("game", 0);
                } else if (type == "hand_started") {
                    key = "game " + std::to_string(game) + " hand " + std::to_string(e.value("hand", -1));
                    own.clear();
                    shown.clear();
                    secret_bids_open = false;
                } else if (type == "card_played") {
                    const std::string card = e.at("card").get<std::string>();
                    shown.insert(card);
                    plays[key][f.at("seq").get<std::uint64_t>()] = {seat, card};
                } else if (type == "cards_dealt" || type == "cards_received" || type == "center_taken") {
                    const int passer = type == "cards_received" ? e.value("from", -2) : -2;
                    if (seat == me) {
                        add_cards(own, e.value("cards", json::array()));
                        if (me >= 0) add_cards(truth[key][me], e.value("cards", json::array()));
                        if (me >= 0 && type == "cards_dealt") add_cards(dealt[key][me], e.value("cards", json::array()));
                    } else if (passer == me && me >= 0) {
                        // The cards this seat passed, as they arrive: its own already.
                    } else if (e.contains("cards")) {
                        problem(log.name + " was shown another seat's " + type + ": " + where);
                    } else if (e.value("count", 0) > 0) {
                        ++r.hidden;
                    }
                } else if (type == "cards_passed") {
                    if (e.value("from", -2) != me) {
                        if (e.contains("cards")) problem(log.name + " was shown another seat's pass: " + where);
                        else if (e.value("count", 0) > 0) ++r.hidden;
                    }
                } else if (type == "bid_made") {
                    if (e.value("secret", false)) {
                        secret_bids_open = true;
                        if (seat != me) {
                            if (e.contains("bid")) problem(log.name + " was shown another seat's secret bid: " + where);
                            else ++r.secret_bids;
                        }
                    }
                } else if (type == "bids_revealed") {
                    secret_bids_open = false;
                }
            } else if (f.value("type", "") == "snapshot" && f.value("table", "") == table && f.at("view").is_object()) {
                const json& v = f.at("view");
                if (f.at("you").is_number_integer() && f.at("you").get<int>() == me) {
                    add_cards(own, v.value("hand", json::array()));
                    add_cards(own, v.value("cards_passed", json::array()));
                    add_cards(own, v.value("cards_received", json::array()));
                    add_cards(own, v.value("center_cards", json::array()));
                } else if (v.contains("hand")) {
                    problem(log.name + " got a snapshot with a hand that is not its own: " + where);
                }
                for (const auto& t : v.at("trick").at("cards")) shown.insert(t.at("card").get<std::string>());
                // The hand's finished tricks were public as they were played (each one against the
                // trick_won events, tests/protocol/view_json_test.cpp).
                for (const auto& t : v.at("past_tricks"))
                    for (const auto& c : t.at("cards")) shown.insert(c.get<std::string>());
                if (secret_bids_open) {
                    const json& bids = v.at("bids");
                    for (std::size_t s = 0; s < bids.size(); ++s)
                        if (static_cast<int>(s) != me && bids[s].is_number())
                            problem(log.name + " saw seat " + std::to_string(s) + "'s secret bid in a snapshot: " + where);
                }
            }
            std::vector<std::string> cards;
            cards_in(f, cards);
            for (const auto& c : cards) {
                ++r.cards_checked;
                if (!own.contains(c) && !shown.contains(c))
                    problem(log.name + " (seat " + std::to_string(me) + ") received " + c +
                            ", neither its own nor played yet, in " + where);
            }
        }
    }

    if (seated_truth) {
        for (const auto& [key, seats] : truth) {
            std::map<std::string, int> holder;
            for (const auto& [seat, cards] : dealt[key])
                for (const auto& c : cards)
                    if (auto [it, fresh] = holder.emplace(c, seat); !fresh && it->second != seat)
                        problem(key + ": " + c + " was dealt to seats " + std::to_string(it->second) + " and " +
                                std::to_string(seat));
            for (const auto& [seq, play] : plays[key]) {
                ++r.plays_checked;
                const auto it = seats.find(play.first);
                if (it == seats.end() || !it->second.contains(play.second))
                    problem(key + ": seat " + std::to_string(play.first) + " played " + play.second + " (seq " +
                            std::to_string(seq) + ") which it was never dealt nor given");
            }
        }
    }
    return r;
}

}  // namespace sparts::e2e
