// The subcommands of `sparts`, each given the arguments after its name and
// returning the exit code (command_line.hpp lists them).
#pragma once

#include <span>
#include <string>

namespace sparts::cli {

int simulate_command(std::span<const std::string> args);
int replay_command(std::span<const std::string> args);
int record_command(std::span<const std::string> args);
int play_command(std::span<const std::string> args);
int rules_command(std::span<const std::string> args);
int verify_command(std::span<const std::string> args);
int arena_command(std::span<const std::string> args);

}  // namespace sparts::cli
