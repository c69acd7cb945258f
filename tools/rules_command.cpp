// `sparts rules`: the engine's option table, with each preset's default, as
// text or as a Markdown table for the rules document.
#include <iostream>
#include <string>

#include "engine/option.hpp"
#include "tools/command_line.hpp"
#include "tools/commands.hpp"

namespace sparts::cli {

namespace {

constexpr const char* kHelp =
    "usage: sparts rules [--markdown]\n"
    "\n"
    "Prints every rule option: its name, the values it takes, the families of presets it\n"
    "applies to, its default in each preset ('-' where it does not apply), what it does\n"
    "and the rule text it comes from.\n"
    "\n"
    "  --markdown   print a Markdown table\n";

std::string families_of(const OptionInfo& o) {
    std::string s;
    for (int f = 0; f <= static_cast<int>(Family::hearts); ++f)
        if (option_applies(o, static_cast<Family>(f))) s += (s.empty() ? "" : ", ") + std::string(to_string(static_cast<Family>(f)));
    return s;
}

std::string default_in(const OptionInfo& o, Preset p) {
    const Ruleset r = preset_ruleset(p);
    return option_applies(o, r.family()) ? o.get(r) : "-";
}

std::string cell(std::string s) {
    std::string out;
    for (char c : s) {
        if (c == '|') out += "\\|";
        else if (c == '\n') out += ' ';
        else out += c;
    }
    return out;
}

}  // namespace

int rules_command(std::span<const std::string> argv) {
    Arguments args(argv);
    bool markdown = false;
    while (!args.done()) {
        if (args.flag("--help")) {
            std::cout << kHelp;
            return kExitOk;
        }
        if (args.flag("--markdown")) {
            markdown = true;
            continue;
        }
        std::cerr << "sparts rules: " << args.unexpected() << "\n(see sparts rules --help)\n";
        return kExitUsage;
    }

    if (markdown) {
        std::cout << "| option | values | families |";
        for (int p = 0; p < kPresetCount; ++p) std::cout << " " << to_string(static_cast<Preset>(p)) << " |";
        std::cout << " description | source |\n|---|---|---|";
        for (int p = 0; p < kPresetCount; ++p) std::cout << "---|";
        std::cout << "---|---|\n";
        for (const OptionInfo& o : option_table()) {
            std::cout << "| `" << o.name << "` | " << cell(o.values) << " | " << families_of(o) << " |";
            for (int p = 0; p < kPresetCount; ++p) std::cout << " " << cell(default_in(o, static_cast<Preset>(p))) << " |";
            std::cout << " " << cell(o.description) << " | " << cell(o.source) << " |\n";
        }
        return kExitOk;
    }
    bool first = true;
    for (const OptionInfo& o : option_table()) {
        std::cout << (first ? "" : "\n") << o.name << "\n  values:   " << o.values << "\n  families: " << families_of(o)
                  << "\n  defaults:";
        first = false;
        for (int p = 0; p < kPresetCount; ++p)
            std::cout << (p ? ", " : " ") << to_string(static_cast<Preset>(p)) << " " << default_in(o, static_cast<Preset>(p));
        std::cout << "\n  " << o.description << "\n  source:   " << o.source << "\n";
    }
    return kExitOk;
}

}  // namespace sparts::cli
