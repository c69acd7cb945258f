// Named rule sets (docs/OPERATING.md "Named rule sets"): the host's names for a
// preset and its options, such as "Street Spades" for Spades with Joker-Joker-
// Deuce-Deuce, a minimum side bid of 4, 10-for-200 and a target of 350. They are
// read once at start from --rule-sets FILE, a JSON array of
//
//   {"name": "street-spades", "label": "Street Spades",
//    "ruleset": {"preset": "spades", "options": {"joker_deck": "jjdd", ...}}}
//
// and changed by the admin API (PUT and DELETE /admin/rule-sets/{name}), which saves the
// file anew before the change takes effect. A table belongs to a rule set when its
// ruleset is exactly the rule set's (the same preset and the same options that
// differ from the preset's), however it was created, as the rule sets were when the
// table was made (or brought back at start). The hello reply lists them, a table's info
// and list entry name the rule set they belong to, and a finished game keeps its name.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <map>
#include "engine/ruleset.hpp"
#include "protocol/outcome.hpp"

namespace sparts::server {

inline constexpr std::size_t kMaxRuleSets = 50;

struct RuleSet {
    std::string name;       // [a-z0-9][a-z0-9-]{0,31}: in URLs and messages
    std::string label;      // what players read: 1 to 48 characters
    Ruleset rules;
    nlohmann::json ruleset;  // as the server writes rulesets: the preset and the options that differ
    std::string key;         // that JSON's text: the table's ruleset text matches it exactly
};

class RuleSets {
public:
    // The rule sets of a JSON text, or what is wrong (naming the entry and the member).
    static Outcome<RuleSets, std::string> parse(std::string_view text);
    // The rule sets of the file at `path`, or what is wrong with it.
    static Outcome<RuleSets, std::string> read(const std::string& path);

    // The rule set a table with these rules belongs to, if any.
    const RuleSet* of(const Ruleset& rules) const;
    const RuleSet* of_key(const std::string& ruleset_text) const;
    // The rule set of that name, if any.
    const RuleSet* find(const std::string& name) const;
    const std::vector<RuleSet>& all() const { return sets_; }
    // [{name, label, ruleset}], in the file's order: what the file holds.
    nlohmann::json to_json() const;
    // The same, each with how many games it has had (`games`, by name; none: 0): the hello's
    // rule_sets, and the admin API's list.
    nlohmann::json to_json(const std::map<std::string, std::int64_t>& games) const;
    // {name, label} of a rule set, for a table's info and list entry.
    static nlohmann::json brief(const RuleSet& set);

    // These rule sets with `name` added or replaced (in its place), or without it, checked
    // as a file is: or what is wrong.
    Outcome<RuleSets, std::string> with(const std::string& name, const std::string& label,
                                        const std::string& ruleset_text) const;
    Outcome<RuleSets, std::string> without(const std::string& name) const;
    // Saved to `path` whole and durable (a new file, synced, renamed over the old); what went
    // wrong, if anything.
    std::optional<std::string> write(const std::string& path) const;

private:
    std::vector<RuleSet> sets_;
};

// The rule sets the server offers now, for any thread: each reader takes the whole set of
// them as it is (a table keeps the rule set it was made with); the admin API replaces it
// whole, one edit at a time, the file saved first.
class RuleSetShelf {
public:
    // Why an edit changed nothing.
    struct EditError {
        enum class Kind { no_file, refused, not_saved };
        Kind kind;            // no_file: started without --rule-sets, nothing could keep it;
        std::string message;  // refused: the change is not right (what is wrong); not_saved: the file
    };

    explicit RuleSetShelf(std::string file = {}) : file_(std::move(file)) {}
    // Null: the server offers none (no --rule-sets).
    std::shared_ptr<const RuleSets> now() const;
    void put(std::shared_ptr<const RuleSets> sets);
    // `change` applied to the rule sets now, saved to the file, then offered.
    Outcome<std::shared_ptr<const RuleSets>, EditError> edit(
        const std::function<Outcome<RuleSets, std::string>(const RuleSets&)>& change);
    const std::string& file() const { return file_; }

private:
    const std::string file_;
    mutable std::mutex mutex_;
    std::mutex edit_mutex_;
    std::shared_ptr<const RuleSets> sets_;
};

}  // namespace sparts::server
