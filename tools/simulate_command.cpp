// `sparts simulate`: many random games, one JSON summary.
#include <chrono>
#include <filesystem>
#include <iostream>

#include <nlohmann/json.hpp>

#include "engine/rng.hpp"
#include "protocol/ruleset_json.hpp"
#include "tools/command_line.hpp"
#include "tools/commands.hpp"
#include "tools/random_game.hpp"

namespace sparts::cli {

namespace {

constexpr const char* kHelp =
    "usage: sparts simulate [--preset P] [--option name=value]... [--games K] [--seed S] [--records DIR]\n"
    "\n"
    "Plays K games (default 100) with a random legal move at every seat and prints a JSON\n"
    "summary: games, hands and actions in total, mean hands per game, end reasons,\n"
    "mean final score and wins (rank 1) per side, elapsed seconds.\n"
    "\n"
    "  --preset P          bga-sparts, sparts (default), spartsel, spades, worldwinner-spades,\n"
    "                      hearts\n"
    "  --option name=value a rule option on top of the preset (see 'sparts rules'); repeatable\n"
    "  --games K           how many games (default 100)\n"
    "  --seed S            the run's seed (default 1): game n's seed is the n-th SplitMix64\n"
    "                      output from S, so a run is reproducible\n"
    "  --records DIR       also write each game's record as DIR/game-<n>.json (n from 1)\n";

constexpr std::uint64_t kMaxGames = 100'000'000;

}  // namespace

int simulate_command(std::span<const std::string> argv) {
    Arguments args(argv);
    GameArguments game;
    std::uint64_t games = 100;
    std::string records_dir;
    std::string error;
    while (!args.done() && error.empty()) {
        if (args.flag("--help")) {
            std::cout << kHelp;
            return kExitOk;
        }
        if (take_game_argument(args, game, error)) continue;
        if (auto v = args.value("--games")) {
            const auto n = parse_u64(*v);
            if (!n || *n < 1 || *n > kMaxGames) error = "--games expects a number from 1 to 100000000, got '" + *v + "'";
            else games = *n;
        } else if (auto d = args.value("--records")) {
            records_dir = *d;
        } else {
            error = args.error().empty() ? args.unexpected() : args.error();
        }
    }
    if (!error.empty()) {
        std::cerr << "sparts simulate: " << error << "\n(see sparts simulate --help)\n";
        return kExitUsage;
    }
    const auto rules = ruleset_of(game, "simulate");
    if (!rules) return kExitUsage;
    if (!records_dir.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(records_dir, ec);
        if (ec) {
            std::cerr << "sparts simulate: cannot create '" << records_dir << "': " << ec.message() << "\n";
            return kExitUsage;
        }
    }

    const std::uint64_t run_seed = game.seed.value_or(1);
    const int sides = rules->sides();
    std::uint64_t hands = 0, actions = 0;
    std::vector<double> score_sum(static_cast<std::size_t>(sides), 0.0);
    std::vector<std::uint64_t> wins(static_cast<std::size_t>(sides), 0);
    nlohmann::json reasons = nlohmann::json::object();
    for (int r = 0; r <= static_cast<int>(GameEndReason::mercy_rule); ++r)
        reasons[to_string(static_cast<GameEndReason>(r))] = 0;

    const auto started = std::chrono::steady_clock::now();
    std::uint64_t seeds = run_seed;
    for (std::uint64_t n = 1; n <= games; ++n) {
        const PlayedGame played = play_random_game(*rules, splitmix64(seeds));
        hands += played.over.hands_played;
        actions += played.record.actions.size();
        reasons[to_string(played.over.reason)] = reasons[to_string(played.over.reason)].get<std::uint64_t>() + 1;
        for (int i = 0; i < sides; ++i) {
            score_sum[static_cast<std::size_t>(i)] += played.over.scores[i];
            if (played.over.ranks[i] == 1) ++wins[static_cast<std::size_t>(i)];
        }
        if (!records_dir.empty()) {
            const auto path = std::filesystem::path(records_dir) / ("game-" + std::to_string(n) + ".json");
            if (!write_file(path.string(), record_text(played.record), error)) {
                std::cerr << "sparts simulate: " << error << "\n";
                return kExitUsage;
            }
        }
    }
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

    nlohmann::json mean_scores = nlohmann::json::array();
    for (double s : score_sum) mean_scores.push_back(s / static_cast<double>(games));
    const nlohmann::json ruleset = to_json(*rules);
    const nlohmann::json summary = {
        {"preset", ruleset["preset"]},
        {"options", ruleset["options"]},
        {"seed", std::to_string(run_seed)},
        {"games", games},
        {"hands", hands},
        {"actions", actions},
        {"mean_hands_per_game", static_cast<double>(hands) / static_cast<double>(games)},
        {"end_reasons", reasons},
        {"mean_final_score", mean_scores},
        {"wins", wins},
        {"elapsed_seconds", elapsed},
    };
    std::cout << summary.dump(2) << "\n";
    return kExitOk;
}

}  // namespace sparts::cli
