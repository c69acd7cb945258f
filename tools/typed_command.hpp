// What the person at `sparts play` types, read into a command: an action for
// the engine, or one of the program's own words (help, quit, show).
#pragma once

#include <string>
#include <string_view>

#include "engine/action.hpp"

namespace sparts::cli {

struct TypedCommand {
    enum class Kind { action, help, show, quit, empty, unclear } kind = Kind::empty;
    Action action;
    std::string problem;  // for `unclear`: what was not understood
};

// "QS", "play qs", "bid 3", "bid nil", "3", "nil", "pass 2C 3C 4C",
// "spades", "choose hearts", "help", "show", "quit". Cards are case-blind and
// "10H" is read as "TH".
TypedCommand read_typed_command(std::string_view line);

inline constexpr const char* kTypedCommandHelp =
    "Commands:\n"
    "  QS  or  play QS        play a card (2..9, T or 10, J, Q, K, A and C, D, H, S; QS' is the\n"
    "                         second deck's queen, JK1 a joker)\n"
    "  bid 3   bid nil        bid (a bare number or nil works too)\n"
    "  pass 2C 3C 4C          pass cards\n"
    "  spades  hearts         choose the game, as holder of the 7 of diamonds\n"
    "  moon add  moon subtract  a shot moon: its points (26; 52 for the sun) to each opponent, or off yours\n"
    "  show                   show the table and your hand again\n"
    "  help                   this text\n"
    "  quit                   leave the game (end of input does too)\n";

}  // namespace sparts::cli
