// `sparts verify`: an archived game record played again through the engine,
// its final scores compared with the ones it records, and its deal proof
// (protocol/deal_commitment.hpp) checked against its seed.
#include <iostream>

#include "protocol/deal_commitment.hpp"
#include "protocol/game_record.hpp"
#include "protocol/replay.hpp"
#include "tools/command_line.hpp"
#include "tools/commands.hpp"

namespace sparts::cli {

namespace {

constexpr const char* kHelp =
    "usage: sparts verify FILE [--commitment HEX]\n"
    "\n"
    "Replays the game record FILE ('-' for standard input), such as one downloaded from\n"
    "a server's /api/games/{table}/{game}/record, through the engine and checks that it\n"
    "ends with the result it records. Every deal is dealt again from the record's seed.\n"
    "When the record holds the server's deal proof (\"deal\": salt and commitment), checks\n"
    "that SHA-256(salt:seed) is the commitment; --commitment HEX also checks that it is\n"
    "the one you were shown when the game started (game_started's deal_commitment).\n"
    "Prints one line: what was verified, or the first fault. Exit codes: 0 verified,\n"
    "1 bad arguments or files, 2 the record does not hold (it does not parse, an action\n"
    "is refused, it records no result, the scores differ, or the deal proof fails).\n";

std::string scores_text(const std::vector<std::int32_t>& scores) {
    std::string s;
    for (std::size_t i = 0; i < scores.size(); ++i) s += (i ? "/" : "") + std::to_string(scores[i]);
    return s;
}

}  // namespace

int verify_command(std::span<const std::string> argv) {
    Arguments args(argv);
    std::optional<std::string> file;
    std::optional<std::string> shown_commitment;
    std::string error;
    while (!args.done() && error.empty()) {
        if (args.flag("--help")) {
            std::cout << kHelp;
            return kExitOk;
        }
        if (auto c = args.value("--commitment")) {
            if (!is_deal_commitment(*c)) error = "--commitment wants the 64 lowercase hex digits of a SHA-256";
            shown_commitment = std::move(c);
            continue;
        }
        if (!file && (file = args.positional())) continue;
        error = args.unexpected();
    }
    if (error.empty() && !file) error = "which record? give a FILE, or - for standard input";
    if (!error.empty()) {
        std::cerr << "sparts verify: " << error << "\n(see sparts verify --help)\n";
        return kExitUsage;
    }
    const auto text = read_input(*file, error);
    if (!text) {
        std::cerr << "sparts verify: " << error << "\n";
        return kExitUsage;
    }
    const auto record = parse_game_record(*text);
    if (!record) {
        std::cout << *file << ": not a valid game record: " << record.error().message() << "\n";
        return kExitBadRecord;
    }
    if (!record->result) {
        std::cout << *file << ": records no result to check (an unfinished game?)\n";
        return kExitBadRecord;
    }
    if (shown_commitment && !record->deal) {
        std::cout << *file << ": holds no deal proof to check --commitment against\n";
        return kExitBadRecord;
    }
    if (record->deal) {
        if (deal_commitment(record->seed, record->deal->salt) != record->deal->commitment) {
            std::cout << *file << ": the deal proof fails: SHA-256 of its salt and seed is not its commitment\n";
            return kExitBadRecord;
        }
        if (shown_commitment && *shown_commitment != record->deal->commitment) {
            std::cout << *file << ": the deal proof fails: its commitment is not the one given with --commitment\n";
            return kExitBadRecord;
        }
    }
    // replay() refuses a record whose replay ends otherwise than its result says.
    const auto replayed = replay(*record);
    if (!replayed) {
        std::cout << *file << ": " << replayed.error().message << "\n";
        return kExitBadRecord;
    }
    std::cout << *file << ": verified: " << to_string(record->rules.preset) << ", " << record->actions.size()
              << " actions, " << static_cast<int>(replayed->game_over->hands_played) << " hands, scores "
              << scores_text(record->result->scores) << " as recorded"
              << (record->deal ? shown_commitment ? ", deals committed to as shown" : ", deals committed to" : "") << "\n";
    return kExitOk;
}

}  // namespace sparts::cli
