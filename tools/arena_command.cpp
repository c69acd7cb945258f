// `sparts arena`: bot levels against each other over many games, with the mean
// score per hand of each level and its 95% confidence interval.
#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "bots/bot.hpp"
#include "engine/view.hpp"
#include "protocol/ruleset_json.hpp"
#include "tools/command_line.hpp"
#include "tools/commands.hpp"

namespace sparts::cli {

namespace {

constexpr const char* kHelp =
    "usage: sparts arena [--preset P] [--option name=value]... [--games N] [--levels L1,L2,...]\n"
    "                    [--seed S] [--threads T] [--budget-ms B] [--no-clock] [--json]\n"
    "\n"
    "Plays N games between bot levels and prints, for each level, its mean score per hand\n"
    "with a 95% confidence interval (mean +/- 1.96 sd / sqrt(games)), the games it played,\n"
    "its wins (a side of that level ranked first; ties share the rank) and the mean time of\n"
    "one of its decisions.\n"
    "\n"
    "Levels are dealt to the game's sides (a partnership shares one level; elsewhere each\n"
    "seat is a side): in game g, side i plays level (i + g) mod L. Each block of L games\n"
    "replays the same deals with the levels rotated, so that over a block every level\n"
    "plays every side's cards once. A level's score in a game is the final score of its\n"
    "sides, per side, divided by the hands played. Each level after the first is also\n"
    "compared with the first, paired block by block (the same deals). No game clock runs\n"
    "here: games end by their target, number of hands or hand cap. In hearts the score is\n"
    "points taken: lower is better, and a better level's difference is negative.\n"
    "\n"
    "  --preset P          bga-sparts, sparts (default), spartsel, spades, worldwinner-spades,\n"
    "                      hearts\n"
    "  --option name=value a rule option on top of the preset (see 'sparts rules'); repeatable\n"
    "  --games N           how many games (default 100)\n"
    "  --levels L1,L2,...  bot levels: random, basic, strong (default basic,random)\n"
    "  --budget-ms B       strong: the time budget of one decision in milliseconds, decimals\n"
    "                      allowed (default 50); the work done is derived from it, so the\n"
    "                      same seed plays the same games (see bots/strong_bot.hpp)\n"
    "  --no-clock          strong: no safety clock, only the work the budget is worth on the\n"
    "                      reference machine, so that a loaded machine plays the same games\n"
    "  --seed S            the run's seed (default 1): block b's seed is the b-th SplitMix64\n"
    "                      output from S, so a run is reproducible\n"
    "  --threads T         games played at once (default 2, at most 64)\n"
    "  --json              print the summary as JSON\n";

constexpr std::uint64_t kMaxGames = 10'000'000;

std::optional<std::vector<BotLevel>> parse_levels(const std::string& text) {
    std::vector<BotLevel> levels;
    std::stringstream in(text);
    std::string word;
    while (std::getline(in, word, ',')) {
        const auto level = parse_bot_level(word);
        if (!level) return std::nullopt;
        levels.push_back(*level);
    }
    if (levels.empty() || levels.size() > kMaxSeats) return std::nullopt;
    return levels;
}

// One game's outcome for each entry of --levels (by index).
struct GameOutcome {
    std::array<double, kMaxSeats> per_hand{};   // mean over the entry's sides of score / hands
    std::array<bool, kMaxSeats> played{};
    std::array<bool, kMaxSeats> won{};
    int hands = 0;
    std::array<std::uint64_t, kMaxSeats> decisions{};
    std::array<std::uint64_t, kMaxSeats> nanoseconds{};
};

GameOutcome play_arena_game(const Ruleset& rules, std::uint64_t seed, const std::vector<BotLevel>& levels,
                            std::uint64_t game, const BotOptions& options) {
    const int entries = static_cast<int>(levels.size());
    const int sides = rules.sides();
    auto created = Game::create(rules, seed);
    if (!created) throw std::logic_error("arena: " + created.error().message);
    Game& g = *created;
    std::array<int, kMaxSeats> entry_of_side{};
    for (int side = 0; side < sides; ++side)
        entry_of_side[side] = static_cast<int>((static_cast<std::uint64_t>(side) + game) % levels.size());
    std::vector<Bot> bots;
    std::vector<int> entry_of_seat;
    for (int s = 0; s < rules.seats; ++s) {
        const int entry = entry_of_side[rules.side_of(static_cast<Seat>(s))];
        entry_of_seat.push_back(entry);
        bots.emplace_back(levels[static_cast<std::size_t>(entry)], rules, static_cast<Seat>(s), seed, options);
    }
    GameOutcome out;
    GameOver over{};
    auto observe = [&](std::span<const Event> events) {
        for (const Event& e : events) {
            for (Bot& b : bots) b.observe(e);
            if (const auto* o = std::get_if<GameOver>(&e)) over = *o;
        }
    };
    observe(g.start());
    while (!g.over()) {
        const Seat seat = static_cast<Seat>(std::countr_zero(g.waiting_for()));
        const SeatView view = view_of(g, seat);
        const auto started = std::chrono::steady_clock::now();
        const Action action = bots[seat].act(view);
        const auto took = std::chrono::steady_clock::now() - started;
        const int entry = entry_of_seat[seat];
        ++out.decisions[entry];
        out.nanoseconds[entry] +=
            static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(took).count());
        const auto events = g.apply(seat, action);
        if (!events) throw std::logic_error("arena: a bot's legal action was refused: " + events.error().message);
        observe(*events);
    }
    out.hands = std::max<int>(1, over.hands_played);
    std::array<int, kMaxSeats> count{};
    for (int side = 0; side < sides; ++side) {
        const int entry = entry_of_side[side];
        out.per_hand[entry] += static_cast<double>(over.scores[side]) / out.hands;
        ++count[entry];
        out.played[entry] = true;
        if (over.ranks[side] == 1) out.won[entry] = true;
    }
    for (int e = 0; e < entries; ++e)
        if (count[e]) out.per_hand[e] /= count[e];
    return out;
}

struct LevelSummary {
    std::uint64_t games = 0, wins = 0, hands = 0, decisions = 0, nanoseconds = 0;
    double mean = 0, half_width = 0;
    double microseconds() const {
        return decisions ? static_cast<double>(nanoseconds) / 1000.0 / static_cast<double>(decisions) : 0.0;
    }
};

std::string signed_number(double x, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%+.*f", decimals, x);
    return buf;
}

}  // namespace

int arena_command(std::span<const std::string> argv) {
    Arguments args(argv);
    GameArguments game;
    std::uint64_t games = 100;
    std::vector<BotLevel> levels = {BotLevel::basic, BotLevel::random};
    unsigned threads = 2;
    BotOptions options;
    bool json = false;
    std::string error;
    while (!args.done() && error.empty()) {
        if (args.flag("--help")) {
            std::cout << kHelp;
            return kExitOk;
        }
        if (args.flag("--json")) {
            json = true;
            continue;
        }
        if (args.flag("--no-clock")) {
            options.clock_cap = false;
            continue;
        }
        if (take_game_argument(args, game, error)) continue;
        if (auto v = args.value("--games")) {
            const auto n = parse_u64(*v);
            if (!n || *n < 1 || *n > kMaxGames) error = "--games expects a number from 1 to 10000000, got '" + *v + "'";
            else games = *n;
        } else if (auto l = args.value("--levels")) {
            const auto parsed = parse_levels(*l);
            if (!parsed)
                error = "--levels expects 1 to 10 of random, basic, strong separated by commas, got '" + *l + "'";
            else levels = *parsed;
        } else if (auto b = args.value("--budget-ms")) {
            char* end = nullptr;
            const double ms = std::strtod(b->c_str(), &end);
            if (b->empty() || *end != '\0' || !(ms > 0) || ms > 60000)
                error = "--budget-ms expects milliseconds from 0.001 to 60000, got '" + *b + "'";
            else options.budget_us = static_cast<std::uint32_t>(std::max(1.0, std::round(ms * 1000)));
        } else if (auto t = args.value("--threads")) {
            const auto n = parse_u64(*t);
            if (!n || *n < 1 || *n > 64) error = "--threads expects a number from 1 to 64, got '" + *t + "'";
            else threads = static_cast<unsigned>(*n);
        } else {
            error = args.error().empty() ? args.unexpected() : args.error();
        }
    }
    if (!error.empty()) {
        std::cerr << "sparts arena: " << error << "\n(see sparts arena --help)\n";
        return kExitUsage;
    }
    const auto rules = ruleset_of(game, "arena");
    if (!rules) return kExitUsage;

    // Block b (levels.size() games) plays the deals of the b-th seed with the levels rotated.
    const std::uint64_t run_seed = game.seed.value_or(1);
    const std::uint64_t block = levels.size();
    std::vector<std::uint64_t> seeds((games + block - 1) / block);
    std::uint64_t state = run_seed;
    for (auto& s : seeds) s = splitmix64(state);

    std::vector<GameOutcome> outcomes(games);
    std::atomic<std::uint64_t> next{0};
    const auto started = std::chrono::steady_clock::now();
    threads = static_cast<unsigned>(std::min<std::uint64_t>(threads, games));
    std::vector<std::exception_ptr> failures(threads);
    auto work = [&](unsigned t) {
        try {
            for (std::uint64_t i = next++; i < games; i = next++)
                outcomes[i] = play_arena_game(*rules, seeds[i / block], levels, i, options);
        } catch (...) {
            failures[t] = std::current_exception();
            next = games;
        }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work, t);
    work(0);
    for (auto& t : pool) t.join();
    for (const auto& f : failures)
        if (f) std::rethrow_exception(f);
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

    std::vector<LevelSummary> summary(levels.size());
    for (std::size_t e = 0; e < levels.size(); ++e) {
        LevelSummary& s = summary[e];
        double sum = 0, squares = 0;
        for (const GameOutcome& o : outcomes) {
            s.decisions += o.decisions[e];
            s.nanoseconds += o.nanoseconds[e];
            if (!o.played[e]) continue;
            ++s.games;
            s.hands += static_cast<std::uint64_t>(o.hands);
            s.wins += o.won[e];
            sum += o.per_hand[e];
        }
        if (s.games == 0) continue;
        s.mean = sum / static_cast<double>(s.games);
        for (const GameOutcome& o : outcomes)
            if (o.played[e]) squares += (o.per_hand[e] - s.mean) * (o.per_hand[e] - s.mean);
        const double sd = s.games > 1 ? std::sqrt(squares / static_cast<double>(s.games - 1)) : 0.0;
        s.half_width = 1.96 * sd / std::sqrt(static_cast<double>(s.games));
    }

    // Paired by block (the same deals): each level's score per hand minus the first level's.
    std::vector<double> diff_mean(levels.size(), 0.0), diff_half(levels.size(), 0.0);
    for (std::size_t e = 1; e < levels.size(); ++e) {
        std::vector<double> diffs;
        for (std::size_t b = 0; b < seeds.size(); ++b) {
            double sum[2] = {0, 0};
            int n[2] = {0, 0};
            for (std::uint64_t i = b * block; i < std::min<std::uint64_t>(games, (b + 1) * block); ++i) {
                const GameOutcome& o = outcomes[i];
                if (o.played[0]) sum[0] += o.per_hand[0], ++n[0];
                if (o.played[e]) sum[1] += o.per_hand[e], ++n[1];
            }
            if (n[0] && n[1]) diffs.push_back(sum[1] / n[1] - sum[0] / n[0]);
        }
        if (diffs.empty()) continue;
        double mean = 0, squares = 0;
        for (double d : diffs) mean += d;
        mean /= static_cast<double>(diffs.size());
        for (double d : diffs) squares += (d - mean) * (d - mean);
        const double sd = diffs.size() > 1 ? std::sqrt(squares / static_cast<double>(diffs.size() - 1)) : 0.0;
        diff_mean[e] = mean;
        diff_half[e] = 1.96 * sd / std::sqrt(static_cast<double>(diffs.size()));
    }

    if (json) {
        auto difference = [&](std::size_t e) {
            if (e == 0) return nlohmann::json(nullptr);
            return nlohmann::json{{"mean", diff_mean[e]},
                                  {"ci95", {diff_mean[e] - diff_half[e], diff_mean[e] + diff_half[e]}}};
        };
        const nlohmann::json ruleset = to_json(*rules);
        nlohmann::json out = {{"preset", ruleset["preset"]},
                              {"options", ruleset["options"]},
                              {"seed", std::to_string(run_seed)},
                              {"games", games},
                              {"threads", threads},
                              {"budget_ms", options.budget_us / 1000.0},
                              {"clock", options.clock_cap},
                              {"elapsed_seconds", elapsed},
                              {"levels", nlohmann::json::array()}};
        for (std::size_t e = 0; e < levels.size(); ++e) {
            const LevelSummary& s = summary[e];
            out["levels"].push_back({{"level", to_string(levels[e])},
                                     {"games", s.games},
                                     {"hands", s.hands},
                                     {"wins", s.wins},
                                     {"mean_score_per_hand", s.mean},
                                     {"ci95", {s.mean - s.half_width, s.mean + s.half_width}},
                                     {"decisions", s.decisions},
                                     {"difference_from_first", difference(e)},
                                     {"microseconds_per_decision", s.microseconds()}});
        }
        std::cout << out.dump(2) << "\n";
        return kExitOk;
    }

    std::string option_text;
    for (const auto& o : game.options) option_text += " " + o.name + "=" + o.value;
    std::printf("arena: %s%s, %llu games, seed %llu, strong budget %g ms%s, %u thread%s, %.1f s\n",
                to_string(rules->preset), option_text.c_str(), static_cast<unsigned long long>(games),
                static_cast<unsigned long long>(run_seed), options.budget_us / 1000.0,
                options.clock_cap ? "" : " (no clock)", threads,
                threads == 1 ? "" : "s", elapsed);
    std::printf("%-8s %8s %9s %11s %23s %8s %13s\n", "level", "games", "hands", "score/hand", "95% interval", "wins",
                "us/decision");
    for (std::size_t e = 0; e < levels.size(); ++e) {
        const LevelSummary& s = summary[e];
        const std::string interval = "[" + signed_number(s.mean - s.half_width, 2) + ", " +
                                     signed_number(s.mean + s.half_width, 2) + "]";
        std::printf("%-8s %8llu %9llu %11s %23s %8llu %13.2f\n", to_string(levels[e]),
                    static_cast<unsigned long long>(s.games), static_cast<unsigned long long>(s.hands),
                    signed_number(s.mean, 2).c_str(), interval.c_str(), static_cast<unsigned long long>(s.wins),
                    s.microseconds());
    }
    for (std::size_t e = 1; e < levels.size(); ++e)
        std::printf("%s - %s: %s +/- %.2f a hand (paired over the %zu blocks of the same deals)\n",
                    to_string(levels[e]), to_string(levels[0]), signed_number(diff_mean[e], 2).c_str(), diff_half[e],
                    seeds.size());
    return kExitOk;
}

}  // namespace sparts::cli
