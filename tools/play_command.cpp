// `sparts play`: one person at one seat, random players at the others, at the
// command line. Everything the person is told goes through redact() and the
// seat's own view, so another seat's hidden cards are never shown.
#include <bit>
#include <chrono>
#include <iostream>
#include <random>

#include "engine/random_policy.hpp"
#include "engine/view.hpp"
#include "tools/command_line.hpp"
#include "tools/commands.hpp"
#include "tools/event_words.hpp"
#include "tools/random_game.hpp"
#include "tools/table_text.hpp"
#include "tools/typed_command.hpp"

namespace sparts::cli {

namespace {

constexpr const char* kHelp =
    "usage: sparts play [--preset P] [--option name=value]... [--seed S] [--seat N] [--record FILE]\n"
    "\n"
    "Plays a game at the command line: you hold seat N, random players hold the others.\n"
    "Type your actions at the prompt ('help' lists them): a card like QS, 'bid 3',\n"
    "'bid nil', 'pass 2C 3C 4C', 'spades' or 'hearts', 'show', 'quit'. End of input\n"
    "leaves the game too.\n"
    "\n"
    "  --preset P          bga-sparts, sparts (default), spartsel, spades, worldwinner-spades,\n"
    "                      hearts\n"
    "  --option name=value a rule option on top of the preset (see 'sparts rules'); repeatable\n"
    "  --seed S            the game's seed (default: a random one, printed at the start)\n"
    "  --seat N            your seat (default 0)\n"
    "  --record FILE       write the game's record to FILE when you leave or the game ends\n";

class CommandLineTable {
public:
    CommandLineTable(Game game, Seat me, std::uint64_t seed)
        : game_(std::move(game)), me_(me), players_(seed, kPlayerStream) {
        record_.rules = game_.rules();
        record_.seed = seed;
    }

    // Returns the exit code.
    int run() {
        tell(game_.start());
        const auto started = std::chrono::steady_clock::now();
        const int clock = game_.rules().game_clock_seconds;
        bool show_table = true;
        while (!game_.over()) {
            // No server here to run the game clock: the program does, between moves.
            if (clock > 0 && std::chrono::steady_clock::now() - started >= std::chrono::seconds(clock)) {
                std::cout << "The game clock has run out.\n";
                act(kTableSeat, Action::clock_expired());
                continue;
            }
            const std::uint16_t waiting = game_.waiting_for();
            const std::uint16_t others = static_cast<std::uint16_t>(waiting & ~(1u << me_));
            if (others) {
                const Seat bot = static_cast<Seat>(std::countr_zero(others));
                act(bot, random_action(game_.legal_moves(bot), players_));
                show_table = true;
                continue;
            }
            if (show_table) std::cout << "\n" << table_text(game_, me_) << "\n";
            show_table = false;
            std::cout << "> " << std::flush;
            std::string line;
            if (!std::getline(std::cin, line)) {
                std::cout << "\nEnd of input: you leave the game.\n";
                return kExitOk;
            }
            const TypedCommand command = read_typed_command(line);
            switch (command.kind) {
                case TypedCommand::Kind::empty: break;
                case TypedCommand::Kind::help: std::cout << kTypedCommandHelp; break;
                case TypedCommand::Kind::show: show_table = true; break;
                case TypedCommand::Kind::quit: std::cout << "You leave the game.\n"; return kExitOk;
                case TypedCommand::Kind::unclear: std::cout << command.problem << "\n"; break;
                case TypedCommand::Kind::action:
                    if (auto refused = act(me_, command.action)) std::cout << "Not allowed: " << *refused << "\n";
                    else show_table = true;
                    break;
            }
        }
        return kExitOk;
    }

    const GameRecord& record() const { return record_; }

private:
    // Applies an action; returns the engine's message when it refuses it.
    std::optional<std::string> act(Seat seat, const Action& action) {
        auto events = game_.apply(seat, action);
        if (!events) return events.error().message;
        record_.actions.push_back({seat, action});
        tell(*events);
        return std::nullopt;
    }

    void tell(std::span<const Event> events) {
        for (const Event& e : events) {
            if (const auto* over = std::get_if<GameOver>(&e)) record_.result = result_of(*over);
            const std::string words = in_words(redact(e, me_), game_.rules(), me_);
            if (!words.empty()) std::cout << words << "\n";
        }
    }

    Game game_;
    Seat me_;
    Rng players_;
    GameRecord record_;
};

}  // namespace

int play_command(std::span<const std::string> argv) {
    Arguments args(argv);
    GameArguments game;
    std::uint64_t seat = 0;
    std::optional<std::string> record_file;
    std::string error;
    while (!args.done() && error.empty()) {
        if (args.flag("--help")) {
            std::cout << kHelp;
            return kExitOk;
        }
        if (take_game_argument(args, game, error)) continue;
        if (auto v = args.value("--seat")) {
            const auto n = parse_u64(*v);
            if (!n || *n >= kMaxSeats) error = "--seat expects a seat number, got '" + *v + "'";
            else seat = *n;
        } else if (auto f = args.value("--record")) {
            record_file = *f;
        } else {
            error = args.error().empty() ? args.unexpected() : args.error();
        }
    }
    if (!error.empty()) {
        std::cerr << "sparts play: " << error << "\n(see sparts play --help)\n";
        return kExitUsage;
    }
    const auto rules = ruleset_of(game, "play");
    if (!rules) return kExitUsage;
    if (seat >= static_cast<std::uint64_t>(rules->seats)) {
        std::cerr << "sparts play: --seat must be from 0 to " << rules->seats - 1 << "\n";
        return kExitUsage;
    }
    const std::uint64_t seed = game.seed ? *game.seed : (std::uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
    auto created = Game::create(*rules, seed);
    if (!created) {
        std::cerr << "sparts play: " << created.error().message << "\n";
        return kExitUsage;
    }

    std::cout << "Sparts: " << to_string(rules->preset) << ", " << rules->seats << " players; you are seat " << seat
              << ". Seed " << seed << " (--seed " << seed << " plays this game again).\n"
              << "Type help for the commands.\n";
    CommandLineTable table(std::move(*created), static_cast<Seat>(seat), seed);
    const int code = table.run();
    if (record_file && !write_file(*record_file, record_text(table.record()), error)) {
        std::cerr << "sparts play: " << error << "\n";
        return kExitUsage;
    }
    return code;
}

}  // namespace sparts::cli
