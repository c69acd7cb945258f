// `sparts record`: one random game, written down as a game record.
#include <iostream>

#include "tools/command_line.hpp"
#include "tools/commands.hpp"
#include "tools/random_game.hpp"

namespace sparts::cli {

namespace {

constexpr const char* kHelp =
    "usage: sparts record [--preset P] [--option name=value]... --seed S [--out FILE]\n"
    "\n"
    "Plays one game with a random legal move at every seat, the players' choices drawn\n"
    "from the seed too, and writes its game record (docs/game-record.md) to FILE or to\n"
    "standard output.\n"
    "\n"
    "  --preset P          bga-sparts, sparts (default), spartsel, spades, worldwinner-spades,\n"
    "                      hearts\n"
    "  --option name=value a rule option on top of the preset (see 'sparts rules'); repeatable\n"
    "  --seed S            the game's seed, a whole number (required)\n"
    "  --out FILE          where to write the record (default: standard output)\n";

}  // namespace

int record_command(std::span<const std::string> argv) {
    Arguments args(argv);
    GameArguments game;
    std::optional<std::string> out;
    std::string error;
    while (!args.done() && error.empty()) {
        if (args.flag("--help")) {
            std::cout << kHelp;
            return kExitOk;
        }
        if (take_game_argument(args, game, error)) continue;
        if (auto v = args.value("--out")) out = *v;
        else error = args.error().empty() ? args.unexpected() : args.error();
    }
    if (error.empty() && !game.seed) error = "--seed is required";
    if (!error.empty()) {
        std::cerr << "sparts record: " << error << "\n(see sparts record --help)\n";
        return kExitUsage;
    }
    const auto rules = ruleset_of(game, "record");
    if (!rules) return kExitUsage;

    const std::string text = record_text(play_random_game(*rules, *game.seed).record);
    if (!out || *out == "-") {
        std::cout << text;
        return kExitOk;
    }
    if (!write_file(*out, text, error)) {
        std::cerr << "sparts record: " << error << "\n";
        return kExitUsage;
    }
    return kExitOk;
}

}  // namespace sparts::cli
