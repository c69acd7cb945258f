#include "fuzz/fake_store.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <cstdlib>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "engine/game.hpp"
#include "engine/random_policy.hpp"
#include "engine/rng.hpp"
#include "protocol/action_json.hpp"
#include "protocol/event_json.hpp"
#include "protocol/ruleset_json.hpp"
#include "storage/archive_cursor.hpp"

namespace sparts::fuzz {

namespace {

using nlohmann::json;
constexpr storage::Millis kEpoch = 1'700'000'000'000;  // November 2023

struct Plan {
    std::string table;
    int game = 1;
    std::string preset;
    std::vector<OptionSetting> options;
    std::uint64_t seed = 0;
    json players;                    // as Table::new_game stores them
    std::size_t clock_after = 0;     // the table's clock runs out after this many actions; 0: never
    storage::Millis started = 0;
};

// Plays `plan` with random legal moves and keeps it as the server's table would
// (server/table/table.cpp): a game_started event, every engine event in full, each
// action on the first event it caused, the game_over (and standings) as result.
storage::ArchivedGame play(const Plan& plan) {
    auto rules = make_ruleset(plan.preset, plan.options);
    if (!rules) throw std::logic_error("fake store: " + rules.error().message);
    auto created = Game::create(*rules, plan.seed);
    if (!created) throw std::logic_error("fake store: " + created.error().message);
    Game& game = *created;

    storage::ArchivedGame g;
    g.seed = plan.seed;
    std::uint64_t seq = 0;
    storage::Millis at = plan.started;
    auto store_event = [&](const std::string& type, const json& payload) {
        g.events.push_back({++seq, plan.game, type, payload.dump(), at});
        at += 700;
    };
    store_event("game_started", {{"type", "game_started"}, {"game", plan.game}, {"ruleset", to_json(*rules)}});
    for (const Event& e : game.start()) store_event(event_name(e), to_json(e));

    Rng rng(plan.seed, 7);
    json result;
    while (!game.over()) {
        Seat seat = static_cast<Seat>(std::countr_zero(game.waiting_for()));
        Action action = random_action(game.legal_moves(seat), rng);
        if (plan.clock_after && g.actions.size() == plan.clock_after) seat = kTableSeat, action = Action::clock_expired();
        auto events = game.apply(seat, action);
        if (!events) throw std::logic_error("fake store: a legal action was refused: " + events.error().message);
        g.actions.push_back({seat == kTableSeat ? 250 : int(seat), to_json(action).dump(), seq + 1});
        for (const Event& e : *events) {
            store_event(event_name(e), to_json(e));
            if (const auto* over = std::get_if<GameOver>(&e)) result["game_over"] = to_json(*over);
        }
    }
    if (rules->preset == Preset::worldwinner_spades) {
        // The shape of Table::on_game_over's standings, with made-up figures.
        const json& scores = result["game_over"]["scores"];
        json sides = json::array();
        for (std::size_t side = 0; side < scores.size(); ++side)
            sides.push_back({{"seats", {side, side + 2}}, {"score", scores[side]}, {"base", 0}, {"overpoints", 0},
                             {"victory", side == 0 ? 100 : 0}, {"time_bonus", 0}, {"total", scores[side]}});
        result["standings"] = {{"type", "standings"}, {"sides", sides}};
        store_event("standings", result["standings"]);
    }
    g.summary = {plan.table, plan.game, to_string(rules->preset), to_json(*rules).dump(), plan.players.dump(),
                 result.dump(), plan.started, at};
    return g;
}

json person(const std::string& id, const std::string& name) { return {{"player", id}, {"name", name}}; }
json bot(const std::string& name) { return {{"bot", true}, {"name", name}}; }

}  // namespace

FakeStore::FakeStore() {
    const std::vector<Plan> plans = {
        {"t1", 1, "sparts", {{"hands", "1"}}, 1234567890123ULL,
         json::array({person("p1", "Ann"), person("p2", "Bob"), person("p3", "Zo\xc3\xab"), person("p4", "Di")}), 0,
         kEpoch},
        {"t1", 2, "worldwinner-spades", {{"game_clock", "600"}}, 18446744073709551615ULL,
         json::array({person("p1", "Ann"), person("p2", "Bob"), person("p3", "Zo\xc3\xab"), person("p4", "Di")}), 70,
         kEpoch + 600'000},
        {"t2", 1, "spartsel", {{"seats", "3"}, {"hands", "1"}}, 42,
         json::array({person("p2", "Bob"), bot("Bot 1"), bot("Bot 2")}), 0, kEpoch + 60'000},
    };
    for (const Plan& plan : plans) {
        games_.push_back(play(plan));
        std::vector<std::string> ids;
        for (const json& p : plan.players)
            if (p.contains("player")) ids.push_back(p["player"].get<std::string>());
        player_ids_.push_back(std::move(ids));
    }
}

storage::ArchivePage FakeStore::list_games(const storage::ArchiveQuery& query) {
    // The stores' cursor: "finished/id" of the last game of the page, the id its place in games_
    // from 1 (an older server's "finished/table/game" names the game instead).
    std::optional<std::pair<storage::Millis, std::int64_t>> cursor;
    if (auto c = storage::ArchiveCursor::parse(query.cursor)) {
        if (c->legacy()) {
            c->id = std::numeric_limits<std::int64_t>::max();
            for (std::size_t i = 0; i < games_.size(); ++i)
                if (games_[i].summary.table == c->table && games_[i].summary.game == c->game)
                    c->id = static_cast<std::int64_t>(i) + 1;
        }
        cursor.emplace(c->finished, c->id);
    }
    const auto id_of = [](std::size_t i) { return static_cast<std::int64_t>(i) + 1; };
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < games_.size(); ++i) {
        const auto& s = games_[i].summary;
        const auto& ids = player_ids_[i];
        if (!query.player.empty() && std::find(ids.begin(), ids.end(), query.player) == ids.end()) continue;
        if (!query.preset.empty() && s.preset != query.preset) continue;
        if (query.from > 0 && s.finished < query.from) continue;
        if (query.to > 0 && s.finished >= query.to) continue;
        if (cursor && !(std::make_pair(s.finished, id_of(i)) < *cursor)) continue;
        order.push_back(i);
    }
    std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
        const auto& a = games_[x].summary;
        const auto& b = games_[y].summary;
        return std::make_pair(b.finished, id_of(y)) < std::make_pair(a.finished, id_of(x));
    });
    const auto limit = static_cast<std::size_t>(std::clamp(query.limit, 1, 500));
    storage::ArchivePage page;
    for (std::size_t i = 0; i < order.size() && i < limit; ++i) page.games.push_back(games_[order[i]].summary);
    if (order.size() > limit)
        page.next_cursor = storage::ArchiveCursor{page.games.back().finished, id_of(order[limit - 1])}.text();
    return page;
}

std::optional<storage::ArchivedGame> FakeStore::load_game(const std::string& table, int game) {
    for (const auto& g : games_)
        if (g.summary.table == table && g.summary.game == game) return g;
    return std::nullopt;
}

}  // namespace sparts::fuzz
