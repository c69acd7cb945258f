// The command line's arguments, read one at a time: `--name value`,
// `--name=value`, flags and positional words, with the mistakes said plainly.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/ruleset.hpp"

namespace sparts::cli {

// Exit codes shared by the subcommands.
inline constexpr int kExitOk = 0;
inline constexpr int kExitUsage = 1;      // bad arguments, unreadable files, a bad ruleset
inline constexpr int kExitBadRecord = 2;  // a game record that does not parse or replay

class Arguments {
public:
    explicit Arguments(std::span<const std::string> args) : args_(args.begin(), args.end()) {}

    bool done() const { return next_ >= args_.size(); }
    const std::string& peek() const { return args_[next_]; }
    // Takes `--name` or `--name=value` when it is next; the value is required.
    // On a missing value, error() says so.
    std::optional<std::string> value(std::string_view name);
    bool flag(std::string_view name);
    // Takes the next argument if it does not start with "--" (a lone "-" is positional).
    std::optional<std::string> positional();
    // The next argument is not understood: a message for the user.
    std::string unexpected() const;
    const std::string& error() const { return error_; }

private:
    std::vector<std::string> args_;
    std::size_t next_ = 0;
    std::string error_;
};

std::optional<std::uint64_t> parse_u64(std::string_view text);
// "name=value" -> an option setting.
std::optional<OptionSetting> parse_option_argument(std::string_view text);

// The preset, options and seed that several subcommands take.
struct GameArguments {
    std::string preset = "sparts";
    std::vector<OptionSetting> options;
    std::optional<std::uint64_t> seed;
};

// Takes --preset, --option or --seed if one is next. Returns false when the
// next argument is none of them; sets `error` when one is malformed.
bool take_game_argument(Arguments& args, GameArguments& out, std::string& error);

// The ruleset of the arguments, or prints why not (to stderr) and returns nothing.
std::optional<Ruleset> ruleset_of(const GameArguments& args, std::string_view command);

// The whole of a file, or of stdin for "-".
std::optional<std::string> read_input(const std::string& path, std::string& error);
bool write_file(const std::string& path, std::string_view text, std::string& error);

}  // namespace sparts::cli
