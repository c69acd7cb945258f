#include "tools/command_line.hpp"

#include <charconv>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

namespace sparts::cli {

std::optional<std::string> Arguments::value(std::string_view name) {
    if (done()) return std::nullopt;
    const std::string& a = args_[next_];
    if (a == name) {
        if (next_ + 1 >= args_.size()) {
            error_ = std::string(name) + " needs a value";
            ++next_;
            return std::nullopt;
        }
        next_ += 2;
        return args_[next_ - 1];
    }
    if (a.size() > name.size() && a.starts_with(name) && a[name.size()] == '=') {
        ++next_;
        return a.substr(name.size() + 1);
    }
    return std::nullopt;
}

bool Arguments::flag(std::string_view name) {
    if (done() || args_[next_] != name) return false;
    ++next_;
    return true;
}

std::optional<std::string> Arguments::positional() {
    if (done() || (args_[next_].starts_with("--"))) return std::nullopt;
    return args_[next_++];
}

std::string Arguments::unexpected() const {
    if (done()) return "missing argument";
    return "unknown argument '" + args_[next_] + "'";
}

std::optional<std::uint64_t> parse_u64(std::string_view text) {
    std::uint64_t n = 0;
    const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (text.empty() || ec != std::errc() || p != text.data() + text.size()) return std::nullopt;
    return n;
}

std::optional<OptionSetting> parse_option_argument(std::string_view text) {
    const auto eq = text.find('=');
    if (eq == std::string_view::npos || eq == 0) return std::nullopt;
    return OptionSetting{std::string(text.substr(0, eq)), std::string(text.substr(eq + 1))};
}

bool take_game_argument(Arguments& args, GameArguments& out, std::string& error) {
    if (auto v = args.value("--preset")) {
        out.preset = *v;
        return true;
    }
    if (auto v = args.value("--option")) {
        auto o = parse_option_argument(*v);
        if (!o) error = "--option expects name=value, got '" + *v + "'";
        else out.options.push_back(std::move(*o));
        return true;
    }
    if (auto v = args.value("--seed")) {
        out.seed = parse_u64(*v);
        if (!out.seed) error = "--seed expects a whole number from 0 to 18446744073709551615, got '" + *v + "'";
        return true;
    }
    if (!args.error().empty()) {
        error = args.error();
        return true;
    }
    return false;
}

std::optional<Ruleset> ruleset_of(const GameArguments& args, std::string_view command) {
    auto rules = make_ruleset(args.preset, args.options);
    if (rules) return *rules;
    std::cerr << "sparts " << command << ": " << rules.error().message << " (" << to_string(rules.error().code)
              << ")\n";
    return std::nullopt;
}

std::optional<std::string> read_input(const std::string& path, std::string& error) {
    if (path == "-") {
        std::ostringstream s;
        s << std::cin.rdbuf();
        return s.str();
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = "cannot open '" + path + "'";
        return std::nullopt;
    }
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) {
        error = "cannot read '" + path + "'";
        return std::nullopt;
    }
    return text;
}

bool write_file(const std::string& path, std::string_view text, std::string& error) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) {
        error = "cannot write '" + path + "'";
        return false;
    }
    return true;
}

}  // namespace sparts::cli
