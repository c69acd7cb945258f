// `sparts`: the command line around the engine and the protocol. One
// subcommand a file; this one only dispatches.
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "tools/command_line.hpp"
#include "tools/commands.hpp"

namespace {

constexpr const char* kUsage =
    "usage: sparts <command> [arguments]\n"
    "\n"
    "Commands:\n"
    "  play      play a game at the command line against random players\n"
    "  simulate  play many random games and print a JSON summary\n"
    "  record    play one random game and write its game record\n"
    "  replay    replay a game record and print its events as JSON\n"
    "  rules     print the table of rule options and their defaults\n"
    "  verify    replay an archived game record and check its recorded scores\n"
    "  arena     play bot levels against each other and compare their scores\n"
    "\n"
    "'sparts <command> --help' describes each command.\n"
    "Exit codes: 0 done, 1 bad arguments or files, 2 a broken game record.\n";

}  // namespace

int main(int argc, char** argv) {
    using namespace sparts::cli;
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        std::cout << kUsage;
        return args.empty() ? kExitUsage : kExitOk;
    }
    const std::string& command = args[0];
    const std::span<const std::string> rest(args.data() + 1, args.size() - 1);
    try {
        if (command == "simulate") return simulate_command(rest);
        if (command == "replay") return replay_command(rest);
        if (command == "record") return record_command(rest);
        if (command == "play") return play_command(rest);
        if (command == "rules") return rules_command(rest);
        if (command == "verify") return verify_command(rest);
        if (command == "arena") return arena_command(rest);
    } catch (const std::exception& e) {
        // Only a broken invariant gets here; bad input is reported as a value.
        std::cerr << "sparts " << command << ": internal error: " << e.what() << "\n";
        return 3;
    }
    std::cerr << "sparts: unknown command '" << command << "'\n\n" << kUsage;
    return kExitUsage;
}
