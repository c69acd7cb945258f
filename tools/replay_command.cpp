// `sparts replay`: a game record played again, its events printed as JSON.
#include <iostream>

#include <nlohmann/json.hpp>

#include "protocol/event_json.hpp"
#include "protocol/game_record.hpp"
#include "protocol/replay.hpp"
#include "tools/command_line.hpp"
#include "tools/commands.hpp"

namespace sparts::cli {

namespace {

constexpr const char* kHelp =
    "usage: sparts replay [--pretty] FILE\n"
    "\n"
    "Replays the game record FILE ('-' for standard input) through the engine and prints\n"
    "{\"events\":[...],\"game_over\":{...}} as JSON, every event in full (the archive's view).\n"
    "game_over is null when the record stops before the end of the game.\n"
    "\n"
    "A record that does not parse, or whose actions the engine refuses, prints nothing on\n"
    "standard output, names the first fault on standard error and exits with code 2.\n"
    "\n"
    "  --pretty   indent the JSON\n";

}  // namespace

int replay_command(std::span<const std::string> argv) {
    Arguments args(argv);
    std::optional<std::string> file;
    bool pretty = false;
    std::string error;
    while (!args.done() && error.empty()) {
        if (args.flag("--help")) {
            std::cout << kHelp;
            return kExitOk;
        }
        if (args.flag("--pretty")) {
            pretty = true;
        } else if (!file && (file = args.positional())) {
            continue;
        } else {
            error = args.unexpected();
        }
    }
    if (error.empty() && !file) error = "which record? give a FILE, or - for standard input";
    if (!error.empty()) {
        std::cerr << "sparts replay: " << error << "\n(see sparts replay --help)\n";
        return kExitUsage;
    }

    const auto text = read_input(*file, error);
    if (!text) {
        std::cerr << "sparts replay: " << error << "\n";
        return kExitUsage;
    }
    const auto record = parse_game_record(*text);
    if (!record) {
        std::cerr << "sparts replay: " << *file << ": not a valid game record: " << record.error().message() << "\n";
        return kExitBadRecord;
    }
    const auto replayed = replay(*record);
    if (!replayed) {
        std::cerr << "sparts replay: " << *file << ": " << replayed.error().message << "\n";
        return kExitBadRecord;
    }

    // Everything is rendered before anything is printed: a failure cannot leave half a document.
    nlohmann::json events = nlohmann::json::array();
    for (const Event& e : replayed->events) events.push_back(to_json(e, kArchive));
    const nlohmann::json out = {
        {"events", std::move(events)},
        {"game_over", replayed->game_over ? to_json(*replayed->game_over) : nlohmann::json(nullptr)},
    };
    std::cout << out.dump(pretty ? 2 : -1) << "\n";
    return kExitOk;
}

}  // namespace sparts::cli
