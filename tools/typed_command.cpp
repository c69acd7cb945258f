#include "tools/typed_command.hpp"

#include <charconv>
#include <vector>

#include "engine/card.hpp"

namespace sparts::cli {

namespace {

std::vector<std::string> words_of(std::string_view line) {
    std::vector<std::string> words;
    std::string word;
    for (char c : line) {
        if (c == ' ' || c == '\t' || c == ',' || c == '\r' || c == '\n') {
            if (!word.empty()) words.push_back(std::move(word));
            word.clear();
        } else {
            word += c;
        }
    }
    if (!word.empty()) words.push_back(std::move(word));
    return words;
}

std::string lower(std::string s) {
    for (char& c : s)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return s;
}

std::optional<Card> typed_card(std::string w) {
    for (char& c : w)
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (w.starts_with("10")) w = "T" + w.substr(2);
    return parse_card(w);
}

std::optional<int> typed_bid(const std::string& w) {
    if (lower(w) == "nil") return 0;
    int n = 0;
    const auto [p, ec] = std::from_chars(w.data(), w.data() + w.size(), n);
    if (ec != std::errc() || p != w.data() + w.size() || n < 0 || n > 127) return std::nullopt;
    return n;
}

TypedCommand action(Action a) {
    TypedCommand t;
    t.kind = TypedCommand::Kind::action;
    t.action = a;
    return t;
}

TypedCommand unclear(std::string problem) {
    TypedCommand t;
    t.kind = TypedCommand::Kind::unclear;
    t.problem = std::move(problem);
    return t;
}

}  // namespace

TypedCommand read_typed_command(std::string_view line) {
    const auto words = words_of(line);
    if (words.empty()) return {};
    const std::string verb = lower(words[0]);
    TypedCommand t;
    if (verb == "help" || verb == "?") t.kind = TypedCommand::Kind::help;
    else if (verb == "show" || verb == "hand" || verb == "table") t.kind = TypedCommand::Kind::show;
    else if (verb == "quit" || verb == "exit" || verb == "q") t.kind = TypedCommand::Kind::quit;
    if (t.kind != TypedCommand::Kind::empty) return t;

    if (verb == "spades" || verb == "hearts") return action(Action::choose(verb == "spades" ? HandKind::spades : HandKind::hearts));
    if (verb == "choose") {
        if (words.size() == 2 && (lower(words[1]) == "spades" || lower(words[1]) == "hearts"))
            return action(Action::choose(lower(words[1]) == "spades" ? HandKind::spades : HandKind::hearts));
        return unclear("choose what? type 'choose spades' or 'choose hearts'");
    }
    // Blind nil: the cards face down, bid blind nil or look at them.
    if (verb == "blind" || (verb == "bid" && words.size() == 2 && lower(words[1]) == "blind")) return action(Action::blind_nil());
    if (verb == "look") return action(Action::show_cards());
    // A shot moon under moon_scoring "choose": onto the others' scores or off your own.
    if (verb == "moon") {
        if (words.size() == 2 && (lower(words[1]) == "add" || lower(words[1]) == "subtract"))
            return action(Action::moon(lower(words[1]) == "subtract"));
        return unclear("moon how? type 'moon add' (to each opponent) or 'moon subtract' (off your score)");
    }
    if (verb == "bid") {
        if (words.size() != 2) return unclear("bid what? type e.g. 'bid 3' or 'bid nil'");
        if (auto b = typed_bid(words[1])) return action(Action::make_bid(*b));
        return unclear("'" + words[1] + "' is not a bid: type a number or nil");
    }
    if (verb == "pass") {
        if (words.size() < 2) return unclear("pass what? type e.g. 'pass 2C 3C 4C'");
        // "pass 2C 3C 4C back 5D": multi-pass B's card to the seat passing to you.
        CardSet cards, back;
        CardSet* into = &cards;
        for (std::size_t i = 1; i < words.size(); ++i) {
            if (words[i] == "back" && into == &cards) {
                into = &back;
                continue;
            }
            const auto c = typed_card(words[i]);
            if (!c) return unclear("'" + words[i] + "' is not a card (like QS, TH, 2C)");
            if ((cards | back).contains(*c)) return unclear(to_string(*c) + " is named twice");
            into->insert(*c);
        }
        return action(Action::pass(cards, back));
    }
    if (verb == "play") {
        if (words.size() != 2) return unclear("play what? type e.g. 'play QS' or just 'QS'");
        if (auto c = typed_card(words[1])) return action(Action::play(*c));
        return unclear("'" + words[1] + "' is not a card (like QS, TH, 2C)");
    }
    if (words.size() == 1) {
        if (auto c = typed_card(words[0])) return action(Action::play(*c));
        if (auto b = typed_bid(words[0])) return action(Action::make_bid(*b));
    }
    return unclear("'" + std::string(line.substr(0, 60)) + "' is not a command; type help");
}

}  // namespace sparts::cli
